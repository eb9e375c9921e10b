"""Every upload route (issue 23, section 3): a request over the size limit answers 413 {"detail"}
before its body is read, and a file that starts like a PDF but is not one is refused with a 422
wherever a PDF is accepted (core.uploads)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from conftest import Api
from tests.pdfs import JUNK_PDF, tiny_pdf


def multipart_operations() -> list[str]:
    from fueldesk.api import api

    schema = api.get_openapi_schema(path_prefix="/api")
    return sorted(
        path
        for path, methods in schema["paths"].items()
        for method, op in methods.items()
        if method == "post" and "multipart/form-data" in (op.get("requestBody") or {}).get("content", {})
    )


class UnreadBody(io.RawIOBase):
    """A request body that records whether anything read it."""

    def __init__(self) -> None:
        self.reads = 0

    def read(self, size: int = -1) -> bytes:
        self.reads += 1
        return b""

    def readline(self, size: int | None = -1) -> bytes:
        self.reads += 1
        return b""


def test_every_upload_route_answers_413_before_reading_an_oversized_body(api_a: Api) -> None:
    paths = multipart_operations()
    assert {"/api/storage/upload-file", "/api/parse_document", "/api/driver-portal/proof-files"} <= set(paths)
    fifty_mb = 50 * 1024 * 1024
    for path in paths:
        body = UnreadBody()
        res = api_a.client.generic(
            "POST",
            path.replace("{id}", "1"),
            b"",
            content_type="multipart/form-data; boundary=xyz",
            CONTENT_LENGTH=str(fifty_mb),
            HTTP_AUTHORIZATION=f"Bearer {api_a.token}",
            **{"wsgi.input": body},
        )
        assert res.status_code == 413, (path, res.status_code, res.content[:300])
        assert res["Content-Type"].startswith("application/json")
        assert "too large" in res.json()["detail"], path
        assert body.reads == 0, f"{path} read the body before refusing it"


def test_a_file_just_over_the_limit_is_a_413_on_the_bill_parser_as_on_the_upload_route(api_a: Api) -> None:
    big = b"%PDF-1.7\n" + b"0" * settings.FILE_UPLOAD_MAX_BYTES
    for path, field, extra in (
        ("/api/storage/upload-file", "file", {"purpose": "document"}),
        ("/api/parse_document", "files", {}),
    ):
        res = api_a.client.post(
            path,
            {field: SimpleUploadedFile("big.pdf", big, content_type="application/pdf"), **extra},
            **api_a._headers(),
        )
        assert res.status_code == 413, (path, res.status_code, res.content[:300])
        assert res.json()["detail"] == "The file is too large: the limit is 5 MB."


@pytest.mark.parametrize("purpose", ["attachment", "document"])
def test_a_file_starting_like_a_pdf_followed_by_junk_is_not_stored(api_a: Api, purpose: str) -> None:
    res = api_a.client.post(
        "/api/storage/upload-file",
        {"file": SimpleUploadedFile("x.pdf", JUNK_PDF, content_type="application/pdf"), "purpose": purpose},
        **api_a._headers(),
    )
    assert res.status_code == 422, res.content
    assert res.json()["detail"] == "This PDF cannot be read: it is damaged or not really a PDF."
    good = api_a.client.post(
        "/api/storage/upload-file",
        {"file": SimpleUploadedFile("x.pdf", tiny_pdf(), content_type="application/pdf"), "purpose": purpose},
        **api_a._headers(),
    )
    assert good.status_code == 201 and good.json()["data"]["content_type"] == "application/pdf"


def test_the_bill_parser_refuses_a_junk_pdf_and_stores_nothing(api_a: Api, jobs: Any) -> None:
    res = api_a.client.post(
        "/api/parse_document",
        {
            "files": [
                SimpleUploadedFile("good.pdf", tiny_pdf(), content_type="application/pdf"),
                SimpleUploadedFile("broken.pdf", JUNK_PDF, content_type="application/pdf"),
            ]
        },
        **api_a._headers(),
    )
    assert res.status_code == 422, res.content
    assert res.json()["detail"] == "broken.pdf: This PDF cannot be read: it is damaged or not really a PDF."
    listed = api_a.get("/api/parse_document").json()["data"]
    assert listed["total"] == 0
    assert jobs() == 0
