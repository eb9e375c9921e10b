"""`/api/google-authentication`: the company's Google account for sending mail (docs/google.md)."""

from __future__ import annotations

from core.envelope import Answer, Envelope, ok
from core.permissions import acting_user, perm, register_resource
from django.http import HttpRequest
from ninja import Router

from tenants.google import selectors, services
from tenants.google.schemas import GoogleAuthenticationOut, GoogleCallbackIn, GoogleConnectOut

router = Router(tags=["google-authentication"])
register_resource("google_authentication", "Google authentication", ("view", "change"))


@router.get(
    "",
    response=Envelope[GoogleAuthenticationOut],
    auth=perm("google_authentication.view"),
    operation_id="google_authentication_get",
)
def get_status(request: HttpRequest) -> Answer:
    return ok(selectors.authentication_out(), "Google authentication retrieved")


@router.post(
    "/connect",
    response=Envelope[GoogleConnectOut],
    auth=perm("google_authentication.change"),
    operation_id="google_authentication_connect",
)
def connect(request: HttpRequest) -> Answer:
    """Start connecting: the URL of Google's consent screen (gmail.send, offline, prompt=consent)."""
    url = services.start_connect(acting_user=acting_user())
    return ok({"authorization_url": url}, "Continue on Google's page")


@router.post(
    "/callback",
    response=Envelope[GoogleAuthenticationOut],
    auth=perm("google_authentication.change"),
    operation_id="google_authentication_callback",
)
def callback(request: HttpRequest, payload: GoogleCallbackIn) -> Answer:
    """Google's answer (`code`, `state` from the page it sent the browser back to)."""
    services.complete_connect(code=payload.code, state=payload.state, acting_user=acting_user())
    return ok(selectors.authentication_out(), "Google account connected")


@router.post(
    "/disconnect",
    response=Envelope[GoogleAuthenticationOut],
    auth=perm("google_authentication.change"),
    operation_id="google_authentication_disconnect",
)
def disconnect(request: HttpRequest) -> Answer:
    """Revoke the grant at Google and send mail through the server's SMTP again."""
    services.disconnect()
    return ok(selectors.authentication_out(), "Google account disconnected")


routes = [("/google-authentication", router)]
