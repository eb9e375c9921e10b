"""Tenant files through django-storages. Every key starts with the current tenant's own prefix,
built per call (a cached location would write every tenant under the first one's prefix)."""

from __future__ import annotations

import io
import re
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import UploadedFile
from django.db import connection
from PIL import Image, UnidentifiedImageError

from core.errors import ApiError

IMAGE_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}
PURPOSES = {"logo", "attachment", "document", "import"}
SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
FILES_URL = "/api/storage/files/"


@dataclass(frozen=True)
class StoredFile:
    file_key: str
    file_name: str
    file_path: str
    full_path: str
    file_url: str
    content_type: str
    size: int


def tenant_prefix() -> str:
    schema = getattr(connection, "schema_name", "public")
    if not schema or schema == "public":
        raise RuntimeError("tenant files need an active tenant")
    return f"tenants/{schema}/"


def safe_filename(name: str) -> str:
    base = SAFE_NAME.sub("-", name.rsplit("/", 1)[-1]).strip("-.") or "file"
    return base[-120:]


def _sniff_image(data: bytes) -> str:
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.verify()
            fmt = img.format or ""
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise ApiError(415, "The logo must be a PNG, JPEG, GIF or WebP image.") from exc
    if fmt not in IMAGE_FORMATS:
        raise ApiError(415, "The logo must be a PNG, JPEG, GIF or WebP image.")
    return IMAGE_FORMATS[fmt]


def save_upload(upload: UploadedFile, purpose: str) -> StoredFile:
    if purpose not in PURPOSES:
        raise ApiError(422, f"purpose must be one of: {', '.join(sorted(PURPOSES))}.")
    limit = settings.FILE_UPLOAD_MAX_BYTES
    if upload.size is None or upload.size > limit:
        raise ApiError(413, f"The file is too large: the limit is {limit // (1024 * 1024)} MB.")
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise ApiError(413, f"The file is too large: the limit is {limit // (1024 * 1024)} MB.")
    if not data:
        raise ApiError(422, "The file is empty.")
    content_type = (
        _sniff_image(data) if purpose == "logo" else (upload.content_type or "application/octet-stream")
    )
    name = safe_filename(upload.name or "file")
    key = f"{tenant_prefix()}{purpose}/{uuid.uuid4().hex}/{name}"
    stored_key = default_storage.save(key, ContentFile(data))
    path = stored_key.removeprefix(tenant_prefix())
    return StoredFile(
        file_key=stored_key,
        file_name=name,
        file_path=path,
        full_path=stored_key,
        file_url=f"{FILES_URL}{stored_key}",
        content_type=content_type,
        size=len(data),
    )


def open_tenant_file(key: str) -> tuple[bytes, str]:
    """The bytes of one of the current tenant's files; another tenant's key is simply not found."""
    if not key.startswith(tenant_prefix()) or ".." in key.split("/"):
        raise ApiError(404, "File not found")
    if not default_storage.exists(key):
        raise ApiError(404, "File not found")
    with default_storage.open(key, "rb") as fh:
        data = fh.read()
    return data, guess_type(key)


def guess_type(key: str) -> str:
    import mimetypes

    return mimetypes.guess_type(key)[0] or "application/octet-stream"


def check_storage() -> str:
    probe = f"health/{uuid.uuid4().hex}.txt"
    saved = default_storage.save(probe, ContentFile(b"ok"))
    default_storage.delete(saved)
    return "ok"
