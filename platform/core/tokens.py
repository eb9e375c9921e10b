"""Signed access tokens: HS256 JWT with `exp` in seconds and the tenant schema in `tid`.

Tokens are signed with JWT_SIGNING_KEY and name it in the `kid` header (a fingerprint, not the
key). During a key rotation, tokens signed with one of JWT_PREVIOUS_SIGNING_KEYS are still accepted
until JWT_PREVIOUS_KEYS_UNTIL; after that only the current key verifies.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import jwt
from django.conf import settings


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
    key = settings.JWT_SIGNING_KEY
    return jwt.encode(payload, key, algorithm=settings.JWT_ALGORITHM, headers={"kid": key_id(key)})


def key_id(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def verification_keys() -> list[str]:
    """The current key, then the previous ones while their grace period lasts."""
    keys = [settings.JWT_SIGNING_KEY]
    until = settings.JWT_PREVIOUS_KEYS_UNTIL
    if settings.JWT_PREVIOUS_SIGNING_KEYS and until is not None and datetime.now(UTC) < until:
        keys += [k for k in settings.JWT_PREVIOUS_SIGNING_KEYS if k != settings.JWT_SIGNING_KEY]
    return keys


def _decode(token: str) -> tuple[dict[str, Any], str]:
    """The token's payload and the key that verified it."""
    keys = verification_keys()
    kid = jwt.get_unverified_header(token).get("kid")
    candidates = [k for k in keys if key_id(k) == kid] if kid else keys
    if not candidates:
        raise jwt.InvalidSignatureError("unknown signing key")
    for n, key in enumerate(candidates, start=1):
        try:
            payload = jwt.decode(
                token,
                key,
                algorithms=[settings.JWT_ALGORITHM],
                options={"require": ["exp", "sub", "tid", "jti"]},
            )
            return payload, key
        except jwt.InvalidSignatureError:
            if n == len(candidates):
                raise
    raise jwt.InvalidSignatureError("no key")  # pragma: no cover - the loop returns or raises


# Tokens this process has verified, with the key that verified them: a client sends the same token
# with every request, and re-parsing and re-verifying it cost about 1 ms of each. A hit is still
# checked for expiry and for its key being trusted now (a key whose grace period ended is not).
_VERIFIED: dict[str, tuple[AccessClaims, str]] = {}
_VERIFIED_MAX = 4096


def _cached(token: str) -> AccessClaims | None:
    hit = _VERIFIED.get(token)
    if hit is None:
        return None
    claims, key = hit
    if claims.exp <= time.time() or key not in verification_keys():
        _VERIFIED.pop(token, None)
        return None
    return claims


def decode_access_token(token: str) -> AccessClaims:
    hit = _cached(token)
    if hit is not None:
        return hit
    try:
        payload, key = _decode(token)
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
    if len(_VERIFIED) >= _VERIFIED_MAX:
        _VERIFIED.clear()
    _VERIFIED[token] = (claims, key)
    return claims
