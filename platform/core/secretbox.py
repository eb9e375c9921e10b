"""Secrets stored in the database (mailbox passwords, OAuth tokens): Fernet (AES-128-CBC + HMAC)
with a key derived from SECRET_KEY by HKDF, one key per purpose, so no extra secret has to be
provisioned and a token of one purpose never decrypts as another. SECRET_KEY_FALLBACKS still
decrypt during a rotation (re-saving the row re-encrypts with the new key)."""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings


def _fernet(secret: str, purpose: str) -> Fernet:
    info = f"fueldesk/{purpose}/v1".encode()
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def _keys(purpose: str) -> MultiFernet:
    secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([_fernet(s, purpose) for s in secrets])


def encrypt(value: str, *, purpose: str) -> str:
    """The encrypted token of ``value`` ("" stays "")."""
    return _keys(purpose).encrypt(value.encode()).decode() if value else ""


def decrypt(token: str, *, purpose: str) -> str | None:
    """The value, or None when no key of this installation can read it (SECRET_KEY changed)."""
    if not token:
        return ""
    try:
        return _keys(purpose).decrypt(token.encode()).decode()
    except InvalidToken:
        return None
