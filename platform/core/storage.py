"""Tenant files through django-storages. Every key starts with the current tenant's own prefix,
built per call (a cached location would write every tenant under the first one's prefix)."""

from __future__ import annotations

import io
import re
import uuid
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import UploadedFile
from django.db import connection
from PIL import Image

from core.errors import ApiError
from core.uploads import read_upload, require_pdf

IMAGE_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}
RASTER_IMAGES = frozenset(IMAGE_FORMATS.values())
PDF = "application/pdf"
CSV = "text/csv"
TEXT = "text/plain"
# The only types a file is ever stored and served as; the stored name's extension comes from here.
EXTENSIONS = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    PDF: ".pdf",
    CSV: ".csv",
    TEXT: ".txt",
}
TYPE_OF_EXTENSION = {ext: ctype for ctype, ext in EXTENSIONS.items()} | {".jpeg": "image/jpeg"}
LABELS = {
    "image/png": "PNG",
    "image/jpeg": "JPEG",
    "image/gif": "GIF",
    "image/webp": "WebP",
    PDF: "PDF",
    CSV: "CSV",
    TEXT: "plain text",
}
# What each upload purpose accepts, by sniffed content (never by the name or the declared type).
PURPOSE_TYPES: dict[str, tuple[str, ...]] = {
    "logo": tuple(IMAGE_FORMATS.values()),
    "attachment": (*IMAGE_FORMATS.values(), PDF, CSV, TEXT),
    "document": (*IMAGE_FORMATS.values(), PDF, CSV, TEXT),
    "import": (CSV, TEXT),
    # Proof of delivery (tenants/delivery): the customer's signature drawing and the driver's photos.
    "signature": tuple(IMAGE_FORMATS.values()),
    "photo": tuple(IMAGE_FORMATS.values()),
}
PURPOSES = set(PURPOSE_TYPES)
SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
FILES_URL = "/api/storage/files/"
# tenants/<schema>/<purpose>/<32 hex>/<name>: what save_upload writes (storage may add a suffix).
KEY_RE = re.compile(
    r"^tenants/(?P<schema>[a-z0-9_]+)/(?P<purpose>[a-z]+)/[0-9a-f]{32}/(?P<name>[A-Za-z0-9._-]{1,200})$"
)
# Markup that would be active content if a browser ever rendered it: never accepted as "text".
_MARKUP = re.compile(
    rb"<\s*(?:!doctype|html|head|body|script|svg|iframe|object|embed|\?xml|xsl|math)\b", re.I
)


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


def _sniff_image(data: bytes) -> str | None:
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.verify()
            fmt = img.format or ""
    except Exception:  # Pillow raises many kinds of errors on hostile input: none of them is an image
        return None
    return IMAGE_FORMATS.get(fmt)


def _sniff_text(data: bytes, name: str) -> str | None:
    if b"\0" in data or _MARKUP.search(data[:65536]):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            data.decode("cp1252")
        except UnicodeDecodeError:
            return None
    return CSV if name.lower().endswith(".csv") else TEXT


def sniff(data: bytes, name: str) -> str | None:
    """The content type of `data` as far as FuelDesk accepts files at all, or None."""
    image = _sniff_image(data)
    if image:
        return image
    if data.startswith(b"%PDF-"):
        return PDF
    return _sniff_text(data, name)


def _refuse_type(purpose: str) -> ApiError:
    allowed = [LABELS[t] for t in PURPOSE_TYPES[purpose]]
    listed = ", ".join(allowed[:-1]) + f" or {allowed[-1]}" if len(allowed) > 1 else allowed[0]
    if purpose == "logo":
        return ApiError(415, f"The logo must be a {listed} image.")
    return ApiError(415, f"This type of file is not accepted as {purpose}: send a {listed} file.")


def _stored(key: str, content_type: str, size: int) -> StoredFile:
    return StoredFile(
        file_key=key,
        file_name=key.rsplit("/", 1)[-1],
        file_path=key.removeprefix(tenant_prefix()),
        full_path=key,
        file_url=f"{FILES_URL}{key}",
        content_type=content_type,
        size=size,
    )


def save_upload(upload: UploadedFile, purpose: str) -> StoredFile:
    if purpose not in PURPOSES:
        raise ApiError(422, f"purpose must be one of: {', '.join(sorted(PURPOSES))}.")
    data = read_upload(upload)
    if not data:
        raise ApiError(422, "The file is empty.")
    original = upload.name or "file"
    content_type = sniff(data, original)
    if content_type not in PURPOSE_TYPES[purpose]:
        raise _refuse_type(purpose)
    if content_type == PDF:
        require_pdf(data)  # starts like a PDF; must also open as one (pypdf), or 422
    # The stored name keeps the user's name but its extension comes from what the bytes are.
    stem = safe_filename(original)
    stem = stem.rsplit(".", 1)[0] if "." in stem else stem
    name = f"{stem[:100] or 'file'}{EXTENSIONS[content_type]}"
    key = f"{tenant_prefix()}{purpose}/{uuid.uuid4().hex}/{name}"
    stored_key = default_storage.save(key, ContentFile(data))
    return _stored(stored_key, content_type, len(data))


def resolve_tenant_file(
    key: object, *, purposes: set[str] | None = None, field: str = "file_key"
) -> StoredFile:
    """A file reference sent by a client, checked: the key of a file this tenant uploaded (for one of
    `purposes`), still in storage. Every API that refers to a file (logos, proof-of-delivery photos,
    attachments) calls this and stores what it returns; the server builds the URL. 422 otherwise."""
    refused = ApiError(422, f"{field}: the file must be one uploaded by this company.")
    if not isinstance(key, str) or len(key) > 500:
        raise refused
    match = KEY_RE.match(key)
    if match is None or f"tenants/{match['schema']}/" != tenant_prefix():
        raise refused
    if purposes is not None and match["purpose"] not in purposes:
        kinds = " or ".join(sorted(purposes))
        raise ApiError(422, f"{field}: the file must be uploaded as {kinds}.")
    if not default_storage.exists(key):
        raise refused
    size = default_storage.size(key)
    return _stored(key, guess_type(key), size)


def open_tenant_file(key: str) -> tuple[bytes, str]:
    """The bytes of one of the current tenant's files; another tenant's key is simply not found."""
    if not key.startswith(tenant_prefix()) or ".." in key.split("/") or "\\" in key:
        raise ApiError(404, "File not found")
    if not default_storage.exists(key):
        raise ApiError(404, "File not found")
    with default_storage.open(key, "rb") as fh:
        data = fh.read()
    return data, guess_type(key)


def guess_type(key: str) -> str:
    """The type a stored file is served as: from its extension, which save_upload chose from the
    sniffed content. Anything else (older uploads) is served as opaque bytes."""
    name = key.rsplit("/", 1)[-1].lower()
    ext = name[name.rfind(".") :] if "." in name else ""
    return TYPE_OF_EXTENSION.get(ext, "application/octet-stream")


def download_headers(key: str, content_type: str) -> dict[str, str]:
    """Uploaded files are never active content: attachments unless a raster image, never sniffed,
    and sandboxed should a browser render them anyway."""
    name = safe_filename(key.rsplit("/", 1)[-1])
    disposition = "inline" if content_type in RASTER_IMAGES else "attachment"
    return {
        "Content-Disposition": f'{disposition}; filename="{name}"',
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cache-Control": "private, max-age=300",
    }


def check_storage() -> str:
    probe = f"health/{uuid.uuid4().hex}.txt"
    saved = default_storage.save(probe, ContentFile(b"ok"))
    default_storage.delete(saved)
    return "ok"
