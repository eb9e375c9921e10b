"""The stored mailbox password: Fernet (AES-128-CBC + HMAC) with a key derived from SECRET_KEY by
HKDF, so no extra secret has to be provisioned; SECRET_KEY_FALLBACKS still decrypt during a
rotation (re-saving the mailbox re-encrypts with the new key)."""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

_INFO = b"fueldesk/inbox/mailbox-password/v1"


def _fernet(secret: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(secret.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def _keys() -> MultiFernet:
    secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([_fernet(s) for s in secrets])


def encrypt(password: str) -> str:
    return _keys().encrypt(password.encode()).decode() if password else ""


def decrypt(token: str) -> str | None:
    """The password, or None when no key of this installation can read it (SECRET_KEY changed)."""
    if not token:
        return ""
    try:
        return _keys().decrypt(token.encode()).decode()
    except InvalidToken:
        return None
