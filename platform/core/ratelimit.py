"""Fixed-window counters in the shared cache (Redis), for log-in and signup throttling.

Redis unreachable or hanging (past the socket timeouts): the counters degrade to this process's
memory (the same limits, counted per process instead of across all of them), so sign-in and signup
stay throttled and never answer 500; authenticated requests meanwhile fail closed with 503
(core/errors.py). When Redis is back, the shared counters are used again.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest

from core.errors import REDIS_ERRORS, ApiError

log = logging.getLogger(__name__)
_fallback = LocMemCache("fueldesk-ratelimit-fallback", {"OPTIONS": {"MAX_ENTRIES": 100_000}})


_shared_down_until = 0.0
RETRY_SHARED_AFTER = 5.0  # seconds: one timeout per period, not one per counter of every request


def _counters(op: str, *args: Any, **kwargs: Any) -> Any:
    """The shared cache's ``op``; this process's memory while Redis cannot be reached."""
    global _shared_down_until
    if time.monotonic() >= _shared_down_until:
        try:
            return getattr(cache, op)(*args, **kwargs)
        except REDIS_ERRORS as exc:
            _shared_down_until = time.monotonic() + RETRY_SHARED_AFTER
            log.warning("rate limits counted in this process: Redis unreachable (%s)", exc)
    return getattr(_fallback, op)(*args, **kwargs)


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or with TRUSTED_PROXY_COUNT=N proxies in front, the N-th
    entry of X-Forwarded-For from the right (what the outermost trusted proxy saw). Entries further
    left were written by the client and are never believed."""
    remote = str(request.META.get("REMOTE_ADDR") or "unknown")
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    entries = [e.strip() for e in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    entries = [e for e in entries if e]
    if len(entries) < proxies:
        return remote
    candidate = entries[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def hit(bucket: str, key: str, limit: int, window: int, message: str) -> None:
    """Count one attempt; refuse with 429 once `limit` attempts fall in the current window."""
    window_start = int(time.time()) // window * window
    cache_key = f"rl:{bucket}:{key}:{window_start}"
    added = _counters("add", cache_key, 1, timeout=window + 5)
    count = 1 if added else _counters("incr", cache_key)
    if count > limit:
        retry = window_start + window - int(time.time())
        minutes = max(1, round(retry / 60))
        raise ApiError(429, f"{message} Try again in {minutes} minute{'s' if minutes != 1 else ''}.")


def reset(bucket: str, key: str, window: int) -> None:
    window_start = int(time.time()) // window * window
    _counters("delete", f"rl:{bucket}:{key}:{window_start}")


# --- counters of failures (sign-in) ----------------------------------------------------------------
def failures(bucket: str, key: str) -> int:
    return int(_counters("get", f"rl-fail:{bucket}:{key}") or 0)


def add_failure(bucket: str, key: str, window: int) -> int:
    """Count one failure; the count lives `window` seconds from the first failure. Returns it."""
    cache_key = f"rl-fail:{bucket}:{key}"
    if _counters("add", cache_key, 1, timeout=window):
        return 1
    try:
        return int(_counters("incr", cache_key))
    except ValueError:  # expired between add and incr
        _counters("add", cache_key, 1, timeout=window)
        return 1


def clear_failures(bucket: str, key: str) -> None:
    _counters("delete", f"rl-fail:{bucket}:{key}")


def take_slot(bucket: str, key: str, seconds: int) -> bool:
    """One attempt per `seconds`: True for the first caller, False until the slot expires."""
    return bool(_counters("add", f"rl-slot:{bucket}:{key}", 1, timeout=max(1, seconds)))


def hold_slot(bucket: str, key: str, seconds: int) -> None:
    _counters("set", f"rl-slot:{bucket}:{key}", 1, timeout=max(1, seconds))


def release_slot(bucket: str, key: str) -> None:
    _counters("delete", f"rl-slot:{bucket}:{key}")
