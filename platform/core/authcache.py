"""The signed-in user of a request, served from the cache in one round trip.

One `get_many` reads the token's revocation mark, the tenant's auth generation and the cached user.
Any write to a user or role bumps the generation (signals below), so a deactivated user, a changed
role or new permissions take effect on the very next request. The cache prefixes every key with the
active schema, so entries never cross tenants.

`core` imports no app: the accounts app registers a `UserSource` (how to load a user with its role,
snapshot it into the cache and restore it, and which models' writes bump the generation).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Model
from django.db.models.signals import post_delete, post_save

from core.tokens import AccessClaims

REVOKED_PREFIX = "revoked-jti:"
GENERATION_KEY = "auth-generation"
USER_TTL_SECONDS = 300

# A per-process memo of the round trip's answer, for LOCAL_AUTH_CACHE_SECONDS (default 1 s; 0 turns
# it off). The process that logs a token out or changes a user/role clears it at once; other
# processes may accept a revoked token or a changed role for at most that long.
_local: dict[tuple[str, str], tuple[float, Any]] = {}
_local_lock = threading.Lock()


def clear_local() -> None:
    with _local_lock:
        _local.clear()


def _user_key(user_id: int) -> str:
    return f"auth-user:{user_id}"


def bump_generation(**_: Any) -> None:
    clear_local()
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:
        cache.set(GENERATION_KEY, 1, timeout=None)


@dataclass(frozen=True)
class UserSource:
    """How the auth cache reaches users without importing the app that owns them."""

    load: Callable[[int], Any]  # the user with its role, or None
    snapshot: Callable[[Any], dict[str, Any]]  # a picklable copy for the shared cache
    restore: Callable[[dict[str, Any]], Any]  # the user object again, without a query
    watched: tuple[type[Model], ...]  # writes to these models bump the generation


_source: UserSource | None = None


def register_user_source(source: UserSource) -> None:
    global _source
    _source = source
    for model in source.watched:
        post_save.connect(bump_generation, sender=model, dispatch_uid=f"auth-gen-save-{model.__name__}")
        post_delete.connect(bump_generation, sender=model, dispatch_uid=f"auth-gen-delete-{model.__name__}")


def _user_source() -> UserSource:
    if _source is None:
        raise RuntimeError("no user source registered: the accounts app registers one when it is ready")
    return _source


class Revoked(Exception):
    pass


def user_for_claims(claims: AccessClaims) -> Any:
    """The active user the claims name, or None; raises Revoked for a logged-out token."""
    ttl = settings.LOCAL_AUTH_CACHE_SECONDS
    memo_key = (str(getattr(connection, "schema_name", "")), claims.jti)
    if ttl > 0:
        hit = _local.get(memo_key)
        if hit is not None and time.monotonic() - hit[0] < ttl:
            return _valid(hit[1], claims)
    user = _lookup(claims)
    if ttl > 0:
        with _local_lock:
            if len(_local) > 10_000:
                _local.clear()
            _local[memo_key] = (time.monotonic(), user)
    return _valid(user, claims)


def _valid(user: Any, claims: AccessClaims) -> Any:
    if user is None or not user.is_active or user.token_version != claims.token_version:
        return None
    return user


def _lookup(claims: AccessClaims) -> Any:
    revoked_key = f"{REVOKED_PREFIX}{claims.jti}"
    values = cache.get_many([revoked_key, GENERATION_KEY, _user_key(claims.user_id)])
    if revoked_key in values:
        raise Revoked
    generation = values.get(GENERATION_KEY, 0)
    cached = values.get(_user_key(claims.user_id))
    source = _user_source()
    if cached is not None and cached.get("gen") == generation:
        user = source.restore(cached["data"])
    else:
        user = source.load(claims.user_id)
        if user is None:
            return None
        cache.set(
            _user_key(claims.user_id),
            {"gen": generation, "data": source.snapshot(user)},
            timeout=USER_TTL_SECONDS,
        )
    return user


def revoke(claims: AccessClaims) -> None:
    """Log one token out: its id is refused until the token would have expired anyway."""
    ttl = max(1, claims.exp - int(time.time()))
    cache.set(f"{REVOKED_PREFIX}{claims.jti}", 1, timeout=ttl)
    clear_local()
