"""Signed access tokens: HS256 JWT with `exp` in seconds and the tenant schema in `tid`."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

import jwt
from django.conf import settings
from django.core.cache import cache

REVOKED_PREFIX = "revoked-jti:"


@dataclass(frozen=True)
class AccessClaims:
    user_id: int
    tenant_schema: str
    token_version: int
    jti: str
    exp: int


class TokenError(Exception):
    """Raised with the sentence the user should see."""


def issue_access_token(*, user_id: int, tenant_schema: str, token_version: int, role: str | None) -> str:
    now = int(time.time())
    payload: dict[str, Any] = {
        "sub": str(user_id),
        "tid": tenant_schema,
        "ver": token_version,
        "role": role or "",
        "jti": uuid.uuid4().hex,
        "iat": now,
        "exp": now + settings.ACCESS_TOKEN_TTL_SECONDS,
    }
    return jwt.encode(payload, settings.JWT_SIGNING_KEY, algorithm=settings.JWT_ALGORITHM)


def decode_access_token(token: str) -> AccessClaims:
    try:
        payload = jwt.decode(
            token,
            settings.JWT_SIGNING_KEY,
            algorithms=[settings.JWT_ALGORITHM],
            options={"require": ["exp", "sub", "tid", "jti"]},
        )
        claims = AccessClaims(
            user_id=int(payload["sub"]),
            tenant_schema=str(payload["tid"]),
            token_version=int(payload.get("ver", 0)),
            jti=str(payload["jti"]),
            exp=int(payload["exp"]),
        )
    except jwt.ExpiredSignatureError as exc:
        raise TokenError("Session expired. Please log in again.") from exc
    except (jwt.InvalidTokenError, ValueError, TypeError) as exc:
        raise TokenError("Invalid authentication token.") from exc
    return claims


def _revocation_key(jti: str) -> str:
    # The cache prefixes keys with the active schema; revoke and check both run inside the tenant.
    return f"{REVOKED_PREFIX}{jti}"


def revoke(claims: AccessClaims) -> None:
    from core.authcache import clear_local

    ttl = max(1, claims.exp - int(time.time()))
    cache.set(_revocation_key(claims.jti), 1, timeout=ttl)
    clear_local()
