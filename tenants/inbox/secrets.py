"""The stored mailbox password, encrypted by the kit's secret box (see core/secretbox.py)."""

from __future__ import annotations

from core import secretbox

_PURPOSE = "inbox/mailbox-password"


def encrypt(password: str) -> str:
    return secretbox.encrypt(password, purpose=_PURPOSE)


def decrypt(token: str) -> str | None:
    """The password, or None when no key of this installation can read it (SECRET_KEY changed)."""
    return secretbox.decrypt(token, purpose=_PURPOSE)
