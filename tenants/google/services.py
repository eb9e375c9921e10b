"""Connecting a company's Google account for sending, its tokens, and disconnecting
(docs/google.md). Writes in transactions; tokens encrypted at rest and never logged."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any

import httpx
from core import secretbox
from core.errors import ApiError
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from tenants.google import oauth
from tenants.google.models import GoogleConnection, GoogleIdentity, OAuthState
from tenants.mail import services as mail

log = logging.getLogger(__name__)

TOKEN_PURPOSE = "google/tokens"
STATE_TTL = timedelta(minutes=10)
# An access token this close to its expiry is refreshed before use.
EXPIRY_MARGIN = timedelta(seconds=60)
CONNECT_SCOPE = f"openid email {oauth.GMAIL_SEND_SCOPE}"
HELD_REASON = "Google account disconnected — reconnect at Google Authentication"
CALLBACK_PATH = "/google-authentication"


def redirect_uri() -> str:
    return settings.PUBLIC_BASE_URL.rstrip("/") + CALLBACK_PATH


def _configured() -> None:
    if not settings.GOOGLE_CLIENT_ID or not settings.GOOGLE_CLIENT_SECRET:
        raise ApiError(
            409,
            "Google is not configured on this server: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.",
        )


def _unreachable(exc: Exception) -> ApiError:
    log.warning("Google could not be reached: %s", type(exc).__name__)
    return ApiError(502, "Google could not be reached: try again in a moment.")


def start_connect(*, acting_user: Any) -> str:
    """A new round trip: its one-time state and nonce stored, the URL of Google's consent screen."""
    _configured()
    OAuthState.objects.filter(created_at__lt=timezone.now() - STATE_TTL).delete()
    state = OAuthState.objects.create(
        state=secrets.token_urlsafe(32),
        nonce=secrets.token_urlsafe(16),
        user=acting_user if getattr(acting_user, "pk", None) else None,
    )
    current = GoogleConnection.objects.filter(purpose=GoogleConnection.MAIL).only("email").first()
    extra = {"access_type": "offline", "prompt": "consent"}
    if current is not None:
        extra["login_hint"] = current.email
    try:
        return oauth.authorization_url(
            state=state.state, nonce=state.nonce, scope=CONNECT_SCOPE, redirect_uri=redirect_uri(), **extra
        )
    except httpx.HTTPError as exc:
        raise _unreachable(exc) from exc


def _take_state(state: str) -> OAuthState:
    row = (
        OAuthState.objects.select_for_update()
        .filter(state=state, used_at__isnull=True, created_at__gte=timezone.now() - STATE_TTL)
        .first()
        if state
        else None
    )
    if row is None:
        raise ApiError(
            400, "This Google authorization is not one this company started, or it expired: connect again."
        )
    row.used_at = timezone.now()
    row.save(update_fields=["used_at"])
    return row


def complete_connect(*, code: str, state: str, acting_user: Any) -> GoogleConnection:
    """Google's answer: the state checked and used once, the code exchanged, the ID token checked
    (signature, issuer, audience, expiry, nonce), the scope and the refresh token required; then the
    account is saved and the emails held for a reconnection are queued again."""
    _configured()
    with transaction.atomic():
        row = _take_state(state)
        try:
            tokens = oauth.exchange_code(code, redirect_uri())
            claims = oauth.verify_id_token(str(tokens.get("id_token") or ""), nonce=row.nonce)
        except oauth.OAuthError as exc:
            raise ApiError(400, f"Google refused the authorization ({exc.error}): connect again.") from exc
        except oauth.IdTokenError as exc:
            raise ApiError(400, f"Google's answer could not be verified: {exc}.") from exc
        except httpx.HTTPError as exc:
            raise _unreachable(exc) from exc
        granted = str(tokens.get("scope") or "").split()
        if oauth.GMAIL_SEND_SCOPE not in granted:
            raise ApiError(
                400,
                "Google did not grant permission to send email: allow it on Google's screen and connect "
                "again.",
            )
        refresh_token = str(tokens.get("refresh_token") or "")
        if not refresh_token:
            raise ApiError(400, "Google did not return a refresh token: connect again.")
        if not claims.get("email") or claims.get("email_verified") is not True:
            raise ApiError(400, "This Google account has no verified email address.")
        now = timezone.now()
        connection, _ = GoogleConnection.objects.select_for_update().update_or_create(
            purpose=GoogleConnection.MAIL,
            defaults={
                "status": GoogleConnection.Status.CONNECTED,
                "email": str(claims["email"]),
                "sub": str(claims["sub"]),
                "scope": " ".join(granted),
                "refresh_token": secretbox.encrypt(refresh_token, purpose=TOKEN_PURPOSE),
                "access_token": secretbox.encrypt(str(tokens["access_token"]), purpose=TOKEN_PURPOSE),
                "access_expires_at": now + timedelta(seconds=int(tokens.get("expires_in") or 3600)),
                "connected_at": now,
                "connected_by": acting_user if getattr(acting_user, "pk", None) else None,
                "last_error": "",
            },
        )
        mail.release_held()  # their messages go out after this commit
    return connection


def disconnect() -> None:
    """Revoke the grant at Google (best effort) and forget the account; the outbox goes back to the
    server's mail backend and the emails held for a reconnection are queued again (to it)."""
    with transaction.atomic():
        connection = (
            GoogleConnection.objects.select_for_update().filter(purpose=GoogleConnection.MAIL).first()
        )
        if connection is None:
            return
        token = secretbox.decrypt(connection.refresh_token, purpose=TOKEN_PURPOSE)
        connection.delete()
        mail.release_held()
    if token:
        oauth.revoke(token)


# --- tokens for the Gmail transport ---------------------------------------------------------------
def mark_reconnect(reason: str = HELD_REASON) -> None:
    """Google refused the grant: the connection shows "Reconnect", and the outbox holds."""
    with transaction.atomic():
        GoogleConnection.objects.filter(purpose=GoogleConnection.MAIL).update(
            status=GoogleConnection.Status.RECONNECT,
            access_token="",
            last_error=reason,
            updated_at=timezone.now(),
        )


def access_token(*, force_refresh: bool = False, stale: str = "") -> str:
    """A valid access token for Gmail. Refreshing is single-flight per company: the row is locked,
    looked at again (another worker may have refreshed meanwhile), refreshed, saved, then used.
    Raises mail.Held when Google refused the grant, mail.TransportTemporaryError when it could not
    be reached. `stale`: the token Gmail just refused (refresh unless the row holds a newer one)."""
    now = timezone.now()
    connection = GoogleConnection.objects.filter(purpose=GoogleConnection.MAIL).first()
    if connection is None:
        raise mail.TransportTemporaryError("the Google account was disconnected meanwhile")
    if connection.status == GoogleConnection.Status.RECONNECT:
        raise mail.Held(connection.last_error or HELD_REASON)
    token = secretbox.decrypt(connection.access_token, purpose=TOKEN_PURPOSE) or ""
    expires = connection.access_expires_at
    if token and not force_refresh and expires is not None and expires - EXPIRY_MARGIN > now:
        return token
    held = ""
    with transaction.atomic():
        connection = (
            GoogleConnection.objects.select_for_update().filter(purpose=GoogleConnection.MAIL).first()
        )
        if connection is None:
            raise mail.TransportTemporaryError("the Google account was disconnected meanwhile")
        if connection.status == GoogleConnection.Status.RECONNECT:
            raise mail.Held(connection.last_error or HELD_REASON)
        token = secretbox.decrypt(connection.access_token, purpose=TOKEN_PURPOSE) or ""
        expires = connection.access_expires_at
        fresh = token and expires is not None and expires - EXPIRY_MARGIN > timezone.now()
        if fresh and (not force_refresh or token != stale):
            return token  # another worker refreshed it while this one waited for the lock
        refresh_token = secretbox.decrypt(connection.refresh_token, purpose=TOKEN_PURPOSE)
        if not refresh_token:
            held = HELD_REASON  # SECRET_KEY changed: the stored grant cannot be read any more
        else:
            try:
                tokens = oauth.refresh(refresh_token)
            except oauth.OAuthError as exc:
                if exc.error in {"invalid_grant", "unauthorized_client", "invalid_client"}:
                    held = HELD_REASON
                else:
                    raise mail.TransportTemporaryError(
                        f"Google refused to refresh the token: {exc.error}"
                    ) from exc
            except httpx.HTTPError as exc:
                raise mail.TransportTemporaryError(
                    f"Google could not be reached: {type(exc).__name__}"
                ) from exc
        if held:
            connection.status = GoogleConnection.Status.RECONNECT
            connection.access_token = ""
            connection.last_error = held
            connection.save(update_fields=["status", "access_token", "last_error", "updated_at"])
        else:
            token = str(tokens["access_token"])
            connection.access_token = secretbox.encrypt(token, purpose=TOKEN_PURPOSE)
            connection.access_expires_at = timezone.now() + timedelta(
                seconds=int(tokens.get("expires_in") or 3600)
            )
            connection.last_error = ""
            connection.save(update_fields=["access_token", "access_expires_at", "last_error", "updated_at"])
    if held:
        raise mail.Held(held)
    return token


# --- "Sign in with Google" for staff ----------------------------------------------------------------
SIGN_IN_SALT = "fueldesk.google.sign-in"
SIGN_IN_PATH = "/login"
SIGN_IN_SCOPE = "openid email"
BAD_SIGN_IN_STATE = "This Google sign-in is not one FuelDesk started, or it expired: sign in again."
NO_USER = (
    "No FuelDesk user has this Google account's email address: sign in with your password, or ask "
    "your administrator to add you."
)


def sign_in_redirect_uri() -> str:
    return settings.PUBLIC_BASE_URL.rstrip("/") + SIGN_IN_PATH


def start_sign_in() -> str:
    """Google's sign-in URL: a signed, expiring `state` carrying the `nonce` the ID token must echo
    (no session exists yet, so nothing is stored; the state is used once, see verify_sign_in)."""
    _configured()
    nonce = secrets.token_urlsafe(16)
    state = signing.dumps({"n": nonce}, salt=SIGN_IN_SALT, compress=True)
    try:
        return oauth.authorization_url(
            state=state,
            nonce=nonce,
            scope=SIGN_IN_SCOPE,
            redirect_uri=sign_in_redirect_uri(),
            prompt="select_account",
        )
    except httpx.HTTPError as exc:
        raise _unreachable(exc) from exc


def verify_sign_in(*, code: str, state: str) -> dict[str, Any]:
    """The verified claims of a sign-in: the state signed by us, fresh and used once; the code
    exchanged; the ID token checked (signature by kid, iss, aud, exp, nonce); the email verified."""
    _configured()
    try:
        payload = signing.loads(state, salt=SIGN_IN_SALT, max_age=int(STATE_TTL.total_seconds()))
        nonce = str(payload["n"])
    except (signing.BadSignature, KeyError, TypeError) as exc:
        raise ApiError(400, BAD_SIGN_IN_STATE) from exc
    if not cache.add(f"google-sign-in:{nonce}", 1, int(STATE_TTL.total_seconds())):
        raise ApiError(400, BAD_SIGN_IN_STATE)  # played again
    try:
        tokens = oauth.exchange_code(code, sign_in_redirect_uri())
        claims = oauth.verify_id_token(str(tokens.get("id_token") or ""), nonce=nonce)
    except oauth.OAuthError as exc:
        raise ApiError(400, f"Google refused the sign-in ({exc.error}): sign in again.") from exc
    except oauth.IdTokenError as exc:
        raise ApiError(401, f"Google's answer could not be verified: {exc}.") from exc
    except httpx.HTTPError as exc:
        raise _unreachable(exc) from exc
    if not claims.get("email") or claims.get("email_verified") is not True:
        raise ApiError(401, "This Google account's email address is not verified.")
    return claims


def sign_in_claims(code: str, state: str) -> tuple[str, str]:
    """The accounts app's provider hook: (Google's `sub`, the verified email)."""
    claims = verify_sign_in(code=code, state=state)
    return str(claims["sub"]), str(claims["email"])


def sign_in_user_id(sub: str, email: str, directory_user_id: int | None) -> int:
    return google_user_id(sub=sub, email=email, directory_user_id=directory_user_id)


def google_user_id(*, sub: str, email: str, directory_user_id: int | None) -> int:
    """In the company's schema: the user this Google account signs in as. Keyed on `sub` once
    linked; the first time, the user whose login email matches (then linked to this `sub`)."""
    identity = GoogleIdentity.objects.filter(sub=sub).first()
    if identity is not None:
        identity.last_sign_in_at = timezone.now()
        identity.save(update_fields=["last_sign_in_at"])
        return int(identity.user_id)
    if directory_user_id is None:
        raise ApiError(401, NO_USER)
    other = GoogleIdentity.objects.filter(user_id=directory_user_id).first()
    if other is not None:
        raise ApiError(401, "This FuelDesk user is linked to another Google account: sign in with that one.")
    GoogleIdentity.objects.create(
        user_id=directory_user_id, sub=sub, email=email, last_sign_in_at=timezone.now()
    )
    return directory_user_id
