from __future__ import annotations

from typing import Any

from django.conf import settings

from tenants.google.models import GoogleConnection
from tenants.mail import selectors as mail


def connection() -> GoogleConnection | None:
    return (
        GoogleConnection.objects.select_related("connected_by").filter(purpose=GoogleConnection.MAIL).first()
    )


def is_connected() -> bool:
    return GoogleConnection.objects.filter(
        purpose=GoogleConnection.MAIL, status=GoogleConnection.Status.CONNECTED
    ).exists()


def authentication_out() -> dict[str, Any]:
    row = connection()
    by = row.connected_by if row is not None else None
    return {
        "state": row.status if row is not None else "disconnected",
        "email": row.email if row is not None else "",
        "connected_at": row.connected_at if row is not None else None,
        "connected_by": (getattr(by, "name", "") or getattr(by, "email", "")) if by is not None else "",
        "held": mail.held_count(),
        "last_error": row.last_error if row is not None else "",
        "configured": bool(settings.GOOGLE_CLIENT_ID and settings.GOOGLE_CLIENT_SECRET),
    }
