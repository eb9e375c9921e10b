"""Tenant files (core/storage.py) on their own: every key is under the current tenant's prefix, a file
is stored as what its bytes are (never as what its name or declared type says), a reference sent by a
client must name a file this tenant uploaded for the right purpose, and a download is never active
content."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from PIL import Image

from core import storage
from core.errors import ApiError


def png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(buf, "PNG")
    return buf.getvalue()


def upload(data: bytes, name: str, content_type: str = "application/octet-stream") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def stored_files() -> set[str]:
    """Every file under the current tenant's prefix (the tests' storage is a local folder)."""
    root = Path(default_storage.path(storage.tenant_prefix()))
    return {str(p) for p in root.rglob("*") if p.is_file()}


def test_no_file_is_stored_or_read_outside_a_tenant(db: Any) -> None:
    connection.set_schema_to_public()
    with pytest.raises(RuntimeError, match="active tenant"):
        storage.tenant_prefix()
    with pytest.raises(RuntimeError):
        storage.save_upload(upload(png(), "logo.png"), "logo")


def test_a_file_is_stored_under_the_tenant_as_what_its_bytes_are(tenant_a: Any, in_tenant: Any) -> None:
    with in_tenant(tenant_a):
        # an image named like a web page, declared as HTML: stored and served as the PNG it is
        stored = storage.save_upload(upload(png(), "../../evil page.html", "text/html"), "logo")
        assert stored.content_type == "image/png"
        assert stored.file_key.startswith(f"tenants/{tenant_a.tenant.schema_name}/logo/")
        assert stored.file_key.endswith("/evil-page.png")
        assert storage.KEY_RE.match(stored.file_key)
        assert stored.file_url == f"/api/storage/files/{stored.file_key}"
        assert stored.file_path == stored.file_key.removeprefix(f"tenants/{tenant_a.tenant.schema_name}/")
        assert storage.open_tenant_file(stored.file_key) == (png(), "image/png")

        csv = storage.save_upload(upload(b"a,b\n1,2\n", "rows.CSV"), "import")
        assert (csv.content_type, csv.file_name[-4:]) == ("text/csv", ".csv")


@pytest.mark.parametrize(
    ("data", "name", "purpose", "status", "says"),
    [
        (
            b"<html><script>alert(1)</script></html>",
            "notes.txt",
            "attachment",
            415,
            "not accepted as attachment",
        ),
        (b"%PDF-1.7 then nothing a PDF reader opens", "bill.pdf", "document", 422, ""),
        (b"plain words", "words.txt", "logo", 415, "The logo must be a PNG, JPEG, GIF or WebP image."),
        (b"", "empty.png", "logo", 422, "The file is empty."),
        (png(), "x.png", "secrets", 422, "purpose must be one of"),
    ],
)
def test_a_file_that_is_not_what_its_purpose_takes_is_refused_and_not_stored(
    tenant_a: Any, in_tenant: Any, data: bytes, name: str, purpose: str, status: int, says: str
) -> None:
    with in_tenant(tenant_a):
        before = stored_files()
        with pytest.raises(ApiError) as refused:
            storage.save_upload(upload(data, name), purpose)
        assert refused.value.status_code == status and says in str(refused.value)
        assert stored_files() == before


def test_a_reference_must_name_this_tenants_file_for_the_purpose(
    tenant_a: Any, tenant_b: Any, in_tenant: Any
) -> None:
    with in_tenant(tenant_b):
        theirs = storage.save_upload(upload(png(), "sig.png"), "signature").file_key
    with in_tenant(tenant_a):
        ours = storage.save_upload(upload(png(), "sig.png"), "signature").file_key
        got = storage.resolve_tenant_file(ours, purposes={"signature"}, field="signature_key")
        assert (got.file_key, got.content_type, got.size) == (ours, "image/png", len(png()))

        def refused(key: object, **kw: Any) -> str:
            with pytest.raises(ApiError) as err:
                storage.resolve_tenant_file(key, **kw)
            assert err.value.status_code == 422
            return str(err.value)

        mine = "signature_key: the file must be one uploaded by this company."
        assert refused(theirs, field="signature_key") == mine  # another tenant's file
        assert refused(ours.replace("/sig", "/gone"), field="signature_key") == mine  # not in storage
        assert refused(ours[:-4] + "/../x.png", field="signature_key") == mine  # not a key save_upload writes
        assert refused(12, field="signature_key") == mine
        assert refused(ours, purposes={"photo"}, field="photo_keys[0]") == (
            "photo_keys[0]: the file must be uploaded as photo."
        )
        # reading: another tenant's key and a climbing path are simply not found
        for key in (theirs, f"{storage.tenant_prefix()}../{theirs}"):
            with pytest.raises(ApiError) as missing:
                storage.open_tenant_file(key)
            assert missing.value.status_code == 404


def test_a_download_is_never_active_content() -> None:
    image = storage.download_headers("tenants/t/photo/0/tank.png", "image/png")
    assert image["Content-Disposition"] == 'inline; filename="tank.png"'
    pdf = storage.download_headers("tenants/t/document/0/bill.pdf", storage.PDF)
    assert pdf["Content-Disposition"] == 'attachment; filename="bill.pdf"'
    for headers in (image, pdf):
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Content-Security-Policy"] == "default-src 'none'; sandbox"
    # an older upload with another extension is served as opaque bytes, never as markup
    assert storage.guess_type("tenants/t/attachment/0/page.html") == "application/octet-stream"
    assert storage.guess_type("tenants/t/photo/0/TANK.JPEG") == "image/jpeg"
    assert storage.safe_filename('..\\"quoted" name;.pdf') == "quoted-name-.pdf"
