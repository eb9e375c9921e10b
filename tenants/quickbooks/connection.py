"""The company's QuickBooks connection: OAuth 2.0 (authorization code with a checked ``state``),
tokens encrypted at rest, single-flight refresh (row lock, refresh, persist, then use), disconnect
with revocation, and the public-schema map realmId -> tenant that webhooks need."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import logging
import secrets
from typing import Any

from core import secretbox
from core.errors import ApiError
from django.conf import settings
from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from tenancy.models import IntegrationAccount, Tenant

from tenants.quickbooks import client as qbo
from tenants.quickbooks.models import QboConnection, QboLink

log = logging.getLogger(__name__)

PURPOSE = "quickbooks/tokens"
PROVIDER = "quickbooks"
STATE_SALT = "quickbooks.oauth.state"
STATE_MAX_AGE = 600
EARLY_REFRESH = dt.timedelta(seconds=60)  # refresh a little before the hour is up
State = QboConnection.State
RECONNECT_MESSAGE = "QuickBooks Online needs reconnecting: the authorization was revoked or expired."


class NeedsReconnect(qbo.QboError):
    def __init__(self) -> None:
        super().__init__(status=401, code="3200", message=RECONNECT_MESSAGE)


def get_connection() -> QboConnection:
    row = QboConnection.objects.filter(singleton=True).first()
    if row is None:
        try:
            with transaction.atomic():
                row = QboConnection.objects.create(singleton=True)
        except IntegrityError:
            row = QboConnection.objects.get(singleton=True)
    return row


def require_configured() -> None:
    if not (settings.QBO_CLIENT_ID and settings.QBO_CLIENT_SECRET):
        raise ApiError(
            409, "QuickBooks Online is not configured on this server (QBO_CLIENT_ID and QBO_CLIENT_SECRET)."
        )


def _hash(nonce: str) -> str:
    return hashlib.sha256(nonce.encode()).hexdigest()


def start_connect() -> str:
    """The authorization URL the browser goes to. ``state`` is signed (schema + nonce) and the
    nonce's hash kept on the row: the callback accepts only the state this company issued last."""
    require_configured()
    conn = get_connection()
    nonce = secrets.token_urlsafe(24)
    state = signing.dumps({"s": connection.schema_name, "n": nonce}, salt=STATE_SALT, compress=False)
    try:
        url = qbo.authorization_url(state)
    except qbo.QboError as exc:
        raise ApiError(502, f"QuickBooks Online cannot be reached: {exc.describe()}") from exc
    conn.oauth_state_hash = _hash(nonce)
    conn.oauth_state_expires_at = timezone.now() + dt.timedelta(seconds=STATE_MAX_AGE)
    conn.save(update_fields=["oauth_state_hash", "oauth_state_expires_at", "updated_at"])
    return url


BAD_STATE = "The QuickBooks authorization could not be verified (its state does not match). Connect again."


def _check_state(conn: QboConnection, state: str) -> None:
    try:
        data = signing.loads(state, salt=STATE_SALT, max_age=STATE_MAX_AGE)
    except signing.BadSignature as exc:
        raise ApiError(400, BAD_STATE) from exc
    if not isinstance(data, dict) or data.get("s") != connection.schema_name:
        raise ApiError(400, BAD_STATE)
    expected = conn.oauth_state_hash
    if (
        not expected
        or conn.oauth_state_expires_at is None
        or conn.oauth_state_expires_at < timezone.now()
        or not hmac.compare_digest(expected, _hash(str(data.get("n", ""))))
    ):
        raise ApiError(400, BAD_STATE)


def _store_tokens(conn: QboConnection, tokens: dict[str, Any]) -> None:
    now = timezone.now()
    conn.access_token = secretbox.encrypt(str(tokens["access_token"]), purpose=PURPOSE)
    conn.refresh_token = secretbox.encrypt(str(tokens["refresh_token"]), purpose=PURPOSE)
    conn.access_expires_at = now + dt.timedelta(seconds=int(tokens.get("expires_in") or 3600))
    refresh_in = tokens.get("x_refresh_token_expires_in")
    conn.refresh_expires_at = now + dt.timedelta(seconds=int(refresh_in)) if refresh_in else None


def complete_connect(*, code: str, state: str, realm_id: str) -> QboConnection:
    """The callback: check ``state``, exchange the code, keep the realm and the tokens."""
    require_configured()
    realm_id = realm_id.strip()
    if not code.strip() or not realm_id or not realm_id.isdigit() or len(realm_id) > 40:
        raise ApiError(400, "The QuickBooks authorization is incomplete (code and realmId are required).")
    with transaction.atomic():
        conn = QboConnection.objects.select_for_update().get(pk=get_connection().pk)
        _check_state(conn, state)
        conn.oauth_state_hash = ""  # a state is good once
        conn.oauth_state_expires_at = None
        conn.save(update_fields=["oauth_state_hash", "oauth_state_expires_at", "updated_at"])
    tenant = Tenant.objects.get(schema_name=connection.schema_name)
    owner = IntegrationAccount.objects.filter(provider=PROVIDER, account_id=realm_id).first()
    if owner is not None and owner.tenant_id != tenant.pk:
        raise ApiError(409, "This QuickBooks company is already connected to another FuelDesk company.")
    try:
        tokens = qbo.exchange_code(code.strip())
    except qbo.OAuthError as exc:
        raise ApiError(
            400, f"QuickBooks Online refused the authorization ({exc.error}). Connect again."
        ) from exc
    except qbo.QboError as exc:
        raise ApiError(502, f"QuickBooks Online cannot be reached: {exc.describe()}") from exc
    with transaction.atomic():
        conn = QboConnection.objects.select_for_update().get(pk=conn.pk)
        if conn.realm_id and conn.realm_id != realm_id:
            # Another QuickBooks company: the links point into the old one.
            QboLink.objects.all().delete()
            conn.cdc_since = None
        try:
            with transaction.atomic():
                IntegrationAccount.objects.filter(provider=PROVIDER, tenant=tenant).exclude(
                    account_id=realm_id
                ).delete()
                IntegrationAccount.objects.get_or_create(
                    provider=PROVIDER, account_id=realm_id, defaults={"tenant": tenant}
                )
        except IntegrityError as exc:
            raise ApiError(
                409, "This QuickBooks company is already connected to another FuelDesk company."
            ) from exc
        _store_tokens(conn, tokens)
        conn.realm_id = realm_id
        conn.state = State.CONNECTED
        conn.connected_at = timezone.now()
        conn.last_error = ""
        conn.cdc_since = conn.cdc_since or timezone.now()
        conn.save()
    try:
        info = api().company_info()
        conn.company_name = str(info.get("CompanyName") or "")[:200]
        conn.country = str(info.get("Country") or "")[:2].upper()
        conn.save(update_fields=["company_name", "country", "updated_at"])
    except qbo.QboError as exc:  # the name is a nicety; the connection stands
        log.warning("QBO company info of realm %s: %s", realm_id, exc.describe())
    return conn


def disconnect() -> QboConnection:
    """Revoke the tokens at Intuit (best effort: a revoke that fails is noted) and forget them."""
    conn = get_connection()
    refresh_token = secretbox.decrypt(conn.refresh_token, purpose=PURPOSE) or ""
    error = ""
    if refresh_token:
        try:
            qbo.revoke(refresh_token)
        except qbo.QboError as exc:
            error = f"The revocation at QuickBooks failed ({exc.describe()}); the tokens were forgotten here."
    with transaction.atomic():
        conn = QboConnection.objects.select_for_update().get(pk=conn.pk)
        conn.access_token = conn.refresh_token = ""
        conn.access_expires_at = conn.refresh_expires_at = None
        conn.state = State.DISCONNECTED
        conn.last_error = error
        conn.save()
        IntegrationAccount.objects.filter(
            provider=PROVIDER, tenant__schema_name=connection.schema_name
        ).delete()
    return conn


def access_token(failed: str | None = None) -> str:
    """A valid access token. ``failed``: the token QBO just refused (a 401): a fresh one is wanted
    unless another worker already replaced it. Refresh is single-flight: the first caller that finds
    the token expired (or refused) locks the row, refreshes, persists the rotated tokens and commits;
    the others wait on the lock and then use what it stored (Intuit kills the old refresh token when
    it issues a new one, so two refreshes would lose the connection)."""

    def usable(row: QboConnection) -> str:
        token = secretbox.decrypt(row.access_token, purpose=PURPOSE) or ""
        if not token:
            return ""
        if failed is not None:
            return token if token != failed else ""
        return token if _fresh(row) else ""

    conn = get_connection()
    if conn.state != State.CONNECTED:
        raise NeedsReconnect()
    token = usable(conn)
    if token:
        return token
    with transaction.atomic():
        locked = QboConnection.objects.select_for_update().get(pk=conn.pk)
        if locked.state != State.CONNECTED:
            raise NeedsReconnect()
        token = usable(locked)
        if token:
            return token  # another worker refreshed while we waited for the lock
        refresh_token = secretbox.decrypt(locked.refresh_token, purpose=PURPOSE) or ""
        try:
            tokens = qbo.refresh(refresh_token) if refresh_token else None
        except qbo.OAuthError as exc:
            tokens = None
            log.warning("QBO refresh refused (%s): the company must reconnect", exc.error)
        if tokens is not None:
            _store_tokens(locked, tokens)
            locked.refreshes += 1
            locked.save()
            return str(tokens["access_token"])
        locked.state = State.RECONNECT
        locked.access_token = ""
        locked.last_error = RECONNECT_MESSAGE
        locked.save(update_fields=["state", "access_token", "last_error", "updated_at"])
    raise NeedsReconnect()


def _fresh(conn: QboConnection) -> bool:
    return bool(
        conn.access_token
        and conn.access_expires_at is not None
        and conn.access_expires_at - EARLY_REFRESH > timezone.now()
    )


def api() -> qbo.QboClient:
    """The client of this company's realm (raises NeedsReconnect when not connected)."""
    conn = get_connection()
    if conn.state != State.CONNECTED or not conn.realm_id:
        raise NeedsReconnect()
    return qbo.QboClient(conn.realm_id, access_token)


def require_connected() -> None:
    """For the routes that queue QBO work: a 409 at once when there is no live connection."""
    conn = get_connection()
    if conn.state == State.RECONNECT:
        raise ApiError(409, RECONNECT_MESSAGE)
    if conn.state != State.CONNECTED:
        raise ApiError(409, "Connect QuickBooks Online first.")


def tenant_of_realm(realm_id: str) -> Tenant | None:
    """The tenant that connected this realm (public schema; for webhooks)."""
    account = (
        IntegrationAccount.objects.select_related("tenant")
        .filter(provider=PROVIDER, account_id=realm_id)
        .first()
    )
    return account.tenant if account else None
