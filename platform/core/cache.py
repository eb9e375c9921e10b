"""Django's Redis cache backend, reusing one redis client per connection pool.

Django's RedisCacheClient builds a new `redis.Redis` for every cache call; with redis-py 8 that
costs milliseconds (its response-callback table is rebuilt each time), which dominated the cost of
an authenticated request. `redis.Redis` is thread-safe over its pool, so one per pool is enough.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class _ReusingClient(RedisCacheClient):
    # Django's RedisCacheClient has these; its stubs do not declare them.
    _client: Callable[..., Any]
    _get_connection_pool_index: Callable[[bool], int]
    _get_connection_pool: Callable[[bool], Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class ReusingRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusingClient


def raw_redis_client() -> Any:
    """The default cache's redis client (the same pool and timeouts), for sets and locks that the
    cache API has no word for. Keys must carry the cache's KEY_PREFIX themselves."""
    from django.core.cache import cache

    return cache._cache.get_client(write=True)  # type: ignore[attr-defined]
