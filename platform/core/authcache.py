"""The signed-in user of a request, served from the cache in one round trip.

One `get_many` reads the token's revocation mark, the tenant's auth generation and the cached user.
Any write to a user or role bumps the generation (signals below), so a deactivated user, a changed
role or new permissions take effect on the very next request. The cache prefixes every key with the
active schema, so entries never cross tenants.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models.signals import post_delete, post_save

from core.tokens import REVOKED_PREFIX, AccessClaims

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


def _snapshot(user: Any, generation: int) -> dict[str, Any]:
    role = user.role
    return {
        "gen": generation,
        "user": {
            k: getattr(user, k)
            for k in ("id", "username", "email", "name", "is_active", "token_version", "phone", "role_id")
        },
        "role": None
        if role is None
        else {
            k: getattr(role, k)
            for k in ("id", "name", "description", "grants_all", "is_system", "permissions")
        },
    }


def _restore(snapshot: dict[str, Any]) -> Any:
    from tenants.accounts.models import Role, User

    user = User(**snapshot["user"])
    user.role = Role(**snapshot["role"]) if snapshot["role"] else None
    user._state.adding = False
    user._state.db = "default"
    if user.role is not None:
        user.role._state.adding = False
        user.role._state.db = "default"
    return user


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
    if cached is not None and cached["gen"] == generation:
        user = _restore(cached)
    else:
        from tenants.accounts.models import User

        user = User.objects.select_related("role").filter(pk=claims.user_id).first()
        if user is None:
            return None
        cache.set(_user_key(claims.user_id), _snapshot(user, generation), timeout=USER_TTL_SECONDS)
    return user


def connect_signals() -> None:
    from tenants.accounts.models import Role, User

    for model in (User, Role):
        post_save.connect(bump_generation, sender=model, dispatch_uid=f"auth-gen-save-{model.__name__}")
        post_delete.connect(bump_generation, sender=model, dispatch_uid=f"auth-gen-delete-{model.__name__}")
