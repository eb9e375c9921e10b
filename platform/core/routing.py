"""URL resolution of the API, remembered per path.

Django resolves a request by trying each URL pattern in turn. The API has a few hundred (one per
route path), so a request near the end of the list ran ~115 regular expressions before its own
(~0.4 ms of CPU, a tenth of a list page's whole cost). What a path resolves to never changes while
the process runs, so `MemoResolver` keeps the match per path: a bounded dict (cleared when full, so
paths with ids cannot grow it without end); misses (404s) are not kept.
"""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, URLResolver
from django.urls.resolvers import ResolverMatch, RoutePattern

MAX_PATHS = 4096


class MemoResolver(URLResolver):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._matches: dict[str, ResolverMatch] = {}

    def resolve(self, path: str) -> ResolverMatch:
        # The caller (the root resolver) builds its own match from this one, copying the kwargs: the
        # kept object is only read, never handed to a view.
        match = self._matches.get(path)
        if match is None:
            match = super().resolve(path)  # raises Resolver404 for an unknown path: not kept
            if len(self._matches) >= MAX_PATHS:
                self._matches.clear()
            self._matches[path] = match
        return match


def memo_include(route: str, urls: tuple[list[URLPattern | URLResolver], str, str]) -> MemoResolver:
    """`path(route, urls)` for an include (`(patterns, app_name, namespace)`), resolving by memo."""
    patterns, app_name, namespace = urls
    return MemoResolver(
        RoutePattern(route, is_endpoint=False), patterns, app_name=app_name, namespace=namespace
    )
