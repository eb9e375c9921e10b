"""The "Mail connected" step of the onboarding checklist (tenants/onboarding, order 90)."""

from __future__ import annotations

from django.conf import settings

from tenants.google import selectors
from tenants.google.models import GoogleConnection
from tenants.onboarding.registry import StepState, register_step

LINK = "/google-authentication"


def smtp_configured() -> bool:
    """The server sends mail over SMTP (EMAIL_BACKEND is Django's SMTP backend, docs/email.md)."""
    return "smtp" in settings.EMAIL_BACKEND.lower() and bool(settings.EMAIL_HOST)


def mail_connected() -> StepState:
    row = selectors.connection()
    if row is not None and row.status == GoogleConnection.Status.RECONNECT:
        return StepState.attention("Reconnect Google: emails are held until you do")
    if row is not None:
        return StepState.done(f"Sending through Gmail as {row.email}")
    if smtp_configured():
        return StepState.done(f"Sending through the server's mail ({settings.EMAIL_HOST})")
    return StepState.todo("Connect a Google account to send invoices and tickets by email")


def register() -> None:
    register_step(
        key="mail",
        title="Connect your mail",
        description="Invoices and delivery tickets are emailed from your own address.",
        link=LINK,
        order=90,
        check=mail_connected,
    )
