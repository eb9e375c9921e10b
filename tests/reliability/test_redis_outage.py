"""Redis unreachable or hanging (issue 7, reliability), against a Redis this test starts, stops and
freezes (never the machine's shared one): requests never hang past the socket timeouts; an
authenticated request fails closed with 503 and a clear detail (not a 500, not a 401 that would end
the session); sign-in keeps working, throttled in the process's memory; everything recovers by itself."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from core import ratelimit
from core.authcache import clear_local
from core.errors import UNAVAILABLE
from django.core.cache import caches

from conftest import PASSWORD, Api
from tests.reliability.redis_server import RedisServer


@pytest.fixture
def own_redis(settings: Any, tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    settings.CACHES = {
        "default": {
            **settings.CACHES["default"],
            "LOCATION": server.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }
    settings.LOCAL_AUTH_CACHE_SECONDS = 0
    clear_local()
    ratelimit._shared_down_until = 0.0
    try:
        yield server
    finally:
        server.stop()
        caches["default"].close()
        ratelimit._shared_down_until = 0.0


def timed(fn: Any) -> tuple[Any, float]:
    started = time.monotonic()
    result = fn()
    return result, time.monotonic() - started


def test_redis_down_or_hanging_answers_503_fast_and_recovers_by_itself(
    own_redis: RedisServer, api_a: Api, anon: Api, tenant_a: Any
) -> None:
    assert api_a.get("/api/profile").status_code == 200

    # Unreachable: refused connections.
    own_redis.stop()
    res, took = timed(lambda: api_a.get("/api/profile"))
    assert res.status_code == 503, res.content
    assert res.json() == {"detail": UNAVAILABLE} and res["Retry-After"] == "5"
    assert took < 3
    created = api_a.post("/api/customer/customers", {"name": "Written during the outage"})
    assert created.status_code == 503 and created.json()["detail"] == UNAVAILABLE
    health = anon.get("/api/health")
    assert health.status_code == 503 and health.json()["data"]["redis"].startswith("error")
    # Sign-in keeps working: the limiter counts in this process while Redis is away.
    login, took = timed(
        lambda: anon.post("/api/login", {"email": tenant_a.admin_email, "password": PASSWORD})
    )
    assert login.status_code == 200, login.content
    assert took < 3

    # Hanging: the server accepts connections and never answers (SIGSTOP).
    own_redis.start()  # the same port: the clients reconnect on their own
    assert api_a.get("/api/profile").status_code == 200  # recovered by itself
    own_redis.pause()
    try:
        res, took = timed(lambda: api_a.get("/api/profile"))
        assert res.status_code == 503 and res.json()["detail"] == UNAVAILABLE
        assert took < 4, f"a hanging Redis held the request {took:.1f}s"
    finally:
        own_redis.resume()
    assert api_a.get("/api/profile").status_code == 200  # and again


def test_the_limiter_still_limits_while_redis_is_down(own_redis: RedisServer) -> None:
    own_redis.stop()
    for _ in range(3):
        ratelimit.hit("test-outage", "10.0.0.1", 3, 60, "Too many attempts.")
    with pytest.raises(ratelimit.ApiError) as refused:
        ratelimit.hit("test-outage", "10.0.0.1", 3, 60, "Too many attempts.")
    assert refused.value.status_code == 429
