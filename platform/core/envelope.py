"""The API's success envelope: `{"status_code", "message", "data"}` and paged lists."""

from __future__ import annotations

import math
from typing import Any, Generic, TypeAlias, TypeVar

from ninja import Schema
from ninja.responses import Status

T = TypeVar("T")


class Envelope(Schema, Generic[T]):
    status_code: int
    message: str
    data: T


class Page(Schema, Generic[T]):
    items: list[T]
    total: int
    page: int
    size: int
    pages: int


class Message(Schema):
    """The body of an answer that carries nothing but a sentence."""

    status_code: int
    message: str
    data: None = None


# What a route handler returns: the envelope as a dict (answered 200), or wrapped in ninja's Status
# for another code (`ok(..., status=201)`). The schema of `data` is the route's `response=`.
Answer: TypeAlias = dict[str, Any] | Status[dict[str, Any]]


def ok(data: Any = None, message: str = "OK", status: int = 200) -> Answer:
    body = {"status_code": status, "message": message, "data": data}
    return Status(status, body) if status != 200 else body


def page_of(items: list[Any], *, total: int, page: int, size: int) -> dict[str, Any]:
    return {
        "items": items,
        "total": total,
        "page": page,
        "size": size,
        "pages": math.ceil(total / size) if size else 0,
    }
