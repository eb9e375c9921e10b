from __future__ import annotations

from typing import Literal

from ninja import Schema


class OnboardingStepOut(Schema):
    key: str
    title: str
    description: str
    link: str
    state: Literal["done", "todo", "attention"]
    detail: str


class OnboardingOut(Schema):
    steps: list[OnboardingStepOut]
    done: int
    total: int
