from __future__ import annotations

import datetime as dt
from typing import Literal

from ninja import Field, Schema


class GoogleAuthenticationOut(Schema):
    """The company's Google account for sending mail (never a token)."""

    state: Literal["connected", "reconnect", "disconnected"] = Field(
        description="connected: mail goes through Gmail; reconnect: Google refused the grant and the "
        "outbox holds; disconnected: mail goes through the server's SMTP"
    )
    email: str
    connected_at: dt.datetime | None
    connected_by: str
    held: int = Field(description="Emails held until the account is reconnected")
    last_error: str
    configured: bool = Field(description="GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set on the server")


class GoogleConnectOut(Schema):
    authorization_url: str


class GoogleCallbackIn(Schema):
    code: str = Field(..., min_length=1, max_length=2048)
    state: str = Field(..., min_length=1, max_length=100)
