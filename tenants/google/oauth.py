"""Google's OAuth 2.0 / OpenID Connect endpoints, found through the discovery document: the
authorization URL, the token endpoint (code exchange, refresh), revocation, and ID token checks
(RS256 signature by the `kid` of the JWKS, `iss`, `aud`, `exp`, `nonce`). A thin client over httpx
with timeouts; PyJWT verifies the tokens (docs/google.md)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any
from urllib.parse import urlencode

import httpx
import jwt
from django.conf import settings
from jwt.algorithms import RSAAlgorithm

log = logging.getLogger(__name__)

GMAIL_SEND_SCOPE = "https://www.googleapis.com/auth/gmail.send"
DISCOVERY_TTL_SECONDS = 3600
JWKS_TTL_SECONDS = 3600
# A refetch of the JWKS for an unknown `kid` at most this often (Google rotates keys; a forged kid
# must not make us hammer the endpoint).
JWKS_REFETCH_MIN_SECONDS = 30
CLOCK_SKEW_SECONDS = 60

_cache: dict[str, tuple[float, Any]] = {}
_cache_lock = threading.Lock()


class OAuthError(Exception):
    """Google answered an OAuth error (`invalid_grant`: the grant is revoked or expired)."""

    def __init__(self, error: str, description: str = "", status: int = 400) -> None:
        super().__init__(f"{error}: {description}" if description else error)
        self.error, self.description, self.status = error, description, status


class IdTokenError(Exception):
    """The ID token is not one Google issued to us for this round trip."""


def _timeout() -> httpx.Timeout:
    seconds = float(getattr(settings, "GOOGLE_HTTP_TIMEOUT_SECONDS", 10))
    return httpx.Timeout(seconds, connect=min(5.0, seconds))


def client() -> httpx.Client:
    return httpx.Client(timeout=_timeout(), follow_redirects=False)


def _cached(key: str, ttl: float, load: Any, *, force: bool = False) -> Any:
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
    if hit and not force and now - hit[0] < ttl:
        return hit[1]
    value = load()
    with _cache_lock:
        _cache[key] = (now, value)
    return value


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def discovery() -> dict[str, Any]:
    url = settings.GOOGLE_DISCOVERY_URL

    def load() -> dict[str, Any]:
        with client() as http:
            res = http.get(url)
            res.raise_for_status()
            doc: dict[str, Any] = res.json()
        missing = [
            k for k in ("authorization_endpoint", "token_endpoint", "jwks_uri", "issuer") if not doc.get(k)
        ]
        if missing:
            raise httpx.HTTPError(f"the discovery document lacks {', '.join(missing)}")
        return doc

    doc: dict[str, Any] = _cached(f"discovery:{url}", DISCOVERY_TTL_SECONDS, load)
    return doc


def _jwks(*, force: bool = False) -> dict[str, Any]:
    uri = discovery()["jwks_uri"]

    def load() -> dict[str, Any]:
        with client() as http:
            res = http.get(uri)
            res.raise_for_status()
            keys: dict[str, Any] = res.json()
            return keys

    keys: dict[str, Any] = _cached(f"jwks:{uri}", JWKS_TTL_SECONDS, load, force=force)
    return keys


def _key_for(kid: str) -> Any:
    for jwk in _jwks().get("keys", []):
        if jwk.get("kid") == kid:
            return RSAAlgorithm.from_jwk(jwk)
    # Maybe Google rotated its keys: look once more, not more often than every 30 s.
    uri = discovery()["jwks_uri"]
    with _cache_lock:
        fetched = _cache.get(f"jwks:{uri}", (0.0, None))[0]
    if time.monotonic() - fetched >= JWKS_REFETCH_MIN_SECONDS:
        for jwk in _jwks(force=True).get("keys", []):
            if jwk.get("kid") == kid:
                return RSAAlgorithm.from_jwk(jwk)
    raise IdTokenError("the ID token is signed with an unknown key")


def _issuers() -> list[str]:
    issuer = str(discovery()["issuer"])
    # Google's ID tokens carry either form of its issuer.
    if issuer == "https://accounts.google.com":
        return [issuer, "accounts.google.com"]
    return [issuer]


def verify_id_token(token: str, *, nonce: str | None) -> dict[str, Any]:
    """The claims of an ID token Google signed for this client, unexpired, with this nonce."""
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError as exc:
        raise IdTokenError("the ID token is malformed") from exc
    if header.get("alg") != "RS256":
        raise IdTokenError("the ID token is not signed with RS256")
    key = _key_for(str(header.get("kid") or ""))
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            key=key,
            algorithms=["RS256"],
            audience=settings.GOOGLE_CLIENT_ID,
            issuer=_issuers(),
            leeway=CLOCK_SKEW_SECONDS,
            options={"require": ["exp", "iat", "iss", "aud", "sub"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise IdTokenError("the ID token has expired") from exc
    except jwt.InvalidAudienceError as exc:
        raise IdTokenError("the ID token was issued to another client") from exc
    except jwt.InvalidIssuerError as exc:
        raise IdTokenError("the ID token was not issued by Google") from exc
    except jwt.PyJWTError as exc:
        raise IdTokenError(f"the ID token is invalid ({exc})") from exc
    if nonce is not None and claims.get("nonce") != nonce:
        raise IdTokenError("the ID token does not belong to this sign-in (nonce)")
    return claims


def authorization_url(*, state: str, nonce: str, scope: str, redirect_uri: str, **extra: str) -> str:
    params = {
        "client_id": settings.GOOGLE_CLIENT_ID,
        "redirect_uri": redirect_uri,
        "response_type": "code",
        "scope": scope,
        "state": state,
        "nonce": nonce,
        **extra,
    }
    endpoint = str(discovery()["authorization_endpoint"])
    return f"{endpoint}{'&' if '?' in endpoint else '?'}{urlencode(params)}"


def _token_call(form: dict[str, str]) -> dict[str, Any]:
    endpoint = str(discovery()["token_endpoint"])
    form = {**form, "client_id": settings.GOOGLE_CLIENT_ID, "client_secret": settings.GOOGLE_CLIENT_SECRET}
    with client() as http:
        res = http.post(endpoint, data=form, headers={"Accept": "application/json"})
    try:
        body: dict[str, Any] = res.json()
    except ValueError:
        body = {}
    if res.status_code != 200 or "access_token" not in body:
        raise OAuthError(
            str(body.get("error") or f"http_{res.status_code}"),
            str(body.get("error_description") or ""),
            res.status_code,
        )
    return body


def exchange_code(code: str, redirect_uri: str) -> dict[str, Any]:
    return _token_call({"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri})


def refresh(refresh_token: str) -> dict[str, Any]:
    return _token_call({"grant_type": "refresh_token", "refresh_token": refresh_token})


def revoke(token: str) -> bool:
    """Revoke a token at Google; False when Google could not be reached or refused (logged)."""
    try:
        endpoint = discovery().get("revocation_endpoint") or "https://oauth2.googleapis.com/revoke"
        with client() as http:
            res = http.post(str(endpoint), data={"token": token})
        if res.status_code == 200:
            return True
        log.warning("Google refused to revoke the token (status %s)", res.status_code)
    except httpx.HTTPError as exc:
        log.warning("revoking the Google token failed: %s", type(exc).__name__)
    return False
