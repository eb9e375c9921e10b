"""The outbox's Gmail transport (registered in `GoogleConfig.ready`): `users.messages.send` with
the raw RFC 822 message, through the company's connected Google account (docs/google.md)."""

from __future__ import annotations

import base64
import datetime as dt
import logging
from email.utils import parsedate_to_datetime
from time import sleep

import httpx
from django.conf import settings
from django.core.mail import EmailMessage

from tenants.google import oauth, services
from tenants.google.models import GoogleConnection
from tenants.mail import services as mail

log = logging.getLogger(__name__)


class GmailRefused(Exception):
    """Gmail refused the message for good (400, 403): the email fails with Gmail's message."""


def raw_message(message: EmailMessage) -> str:
    """The message as Gmail takes it: RFC 822, base64url. Bcc stays a header (Gmail sends to it
    and strips it); Django leaves it out of the headers because SMTP gives it in the envelope."""
    mime = message.message()
    if message.bcc:
        mime["Bcc"] = ", ".join(message.bcc)
    return base64.urlsafe_b64encode(mime.as_bytes()).decode()


def retry_after(res: httpx.Response) -> float | None:
    """Seconds to wait from a Retry-After header (seconds, or an HTTP date), or None."""
    value = res.headers.get("Retry-After", "").strip()
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return max((when - dt.datetime.now(dt.UTC)).total_seconds(), 0.0)


def _error_message(res: httpx.Response) -> str:
    try:
        return str(res.json()["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return res.text[:200]


class GmailTransport:
    name = "gmail"

    def __init__(self) -> None:
        self.token = ""
        self.http: httpx.Client | None = None

    def open(self) -> None:
        self.token = services.access_token()
        self.http = oauth.client()

    def _post(self, raw: str) -> httpx.Response:
        assert self.http is not None
        return self.http.post(
            f"{settings.GMAIL_API_BASE}/users/me/messages/send",
            json={"raw": raw},
            headers={"Authorization": f"Bearer {self.token}"},
        )

    def send(self, message: EmailMessage) -> None:
        raw = raw_message(message)
        waited = 0.0
        while True:
            res = self._send_once(raw)
            if res.status_code == 200:
                return
            detail = f"Gmail answered {res.status_code}: {_error_message(res)}"
            if res.status_code == 429 or res.status_code >= 500:
                # As the QuickBooks client: honour Retry-After. A short wait here; a long one
                # queues the email again for then (mail.Throttled), never fails it.
                wait = retry_after(res)
                if wait is None:
                    raise mail.TransportTemporaryError(detail)
                if waited + wait <= settings.GMAIL_MAX_WAIT_SECONDS:
                    log.info("Gmail asked to wait %.0fs (%s); waiting", wait, res.status_code)
                    waited += wait
                    sleep(wait)
                    continue
                raise mail.TransportThrottled(detail, wait)
            raise GmailRefused(detail)

    def _send_once(self, raw: str) -> httpx.Response:
        try:
            res = self._post(raw)
            if res.status_code == 401:
                # The access token died early (revoked, or expired in flight): refresh once. A
                # refused refresh holds the outbox (mail.Held); a second 401 too.
                self.token = services.access_token(force_refresh=True, stale=self.token)
                res = self._post(raw)
                if res.status_code == 401:
                    services.mark_reconnect()
                    raise mail.Held(services.HELD_REASON)
        except httpx.HTTPError as exc:
            # Timeouts included: Gmail may not have the message; the retry sends it (docs/google.md).
            raise mail.TransportTemporaryError(f"Gmail could not be reached: {type(exc).__name__}") from exc
        return res

    def close(self) -> None:
        if self.http is not None:
            self.http.close()
            self.http = None


def resolve_transport() -> GmailTransport | None:
    """Gmail when this company connected a Google account (also while it needs reconnecting: the
    outbox then holds instead of sending from another address), else None (the mail backend)."""
    if GoogleConnection.objects.filter(purpose=GoogleConnection.MAIL).exists():
        return GmailTransport()
    return None
