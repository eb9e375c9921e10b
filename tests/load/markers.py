"""The load test's check of every answer, kept apart from locust (importing locust patches the
standard library with gevent, which the test suite must not get): each company's customers end
with its marker "[LD007]", so an answer naming another marker carries another company's row."""

from __future__ import annotations

import re

MARKER = re.compile(r"\[(LD\d{3})\]")


def tag(n: int) -> str:
    return f"LD{n:03d}"


def crossed_markers(text: str, own: str) -> set[str]:
    """The markers of other companies in an answer's text (empty: the answer is the company's own)."""
    return {m for m in MARKER.findall(text) if m != own}
