"""Fixed-window counters in the shared cache (Redis), for log-in and signup throttling."""

from __future__ import annotations

import time

from django.core.cache import cache
from django.http import HttpRequest

from core.errors import ApiError


def client_ip(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def hit(bucket: str, key: str, limit: int, window: int, message: str) -> None:
    """Count one attempt; refuse with 429 once `limit` attempts fall in the current window."""
    window_start = int(time.time()) // window * window
    cache_key = f"rl:{bucket}:{key}:{window_start}"
    added = cache.add(cache_key, 1, timeout=window + 5)
    count = 1 if added else cache.incr(cache_key)
    if count > limit:
        retry = window_start + window - int(time.time())
        minutes = max(1, round(retry / 60))
        raise ApiError(429, f"{message} Try again in {minutes} minute{'s' if minutes != 1 else ''}.")


def reset(bucket: str, key: str, window: int) -> None:
    window_start = int(time.time()) // window * window
    cache.delete(f"rl:{bucket}:{key}:{window_start}")
