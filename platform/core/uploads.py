"""Uploads: the size limit answered before the body is read, and the check that a PDF really is one.

Every route that takes a file (multipart) declares it with ``upload_route`` under its ``@router.post``::

    @router.post("/upload-file", ...)
    @upload_route()                       # one file; upload_route(files=20) for a batch
    def upload_file(request, file: File[UploadedFile]) -> Any: ...

The check runs before django-ninja parses the parameters (so before Django reads and spools the body):
a request whose ``Content-Length`` is over the route's limit answers 413 ``{"detail"}`` at once. A file
over ``FILE_UPLOAD_MAX_BYTES`` inside an allowed request is refused with the same 413 by
``read_upload``. ``tests/test_uploads.py`` checks every multipart operation of the OpenAPI document.

Every PDF accepted from a user (attachments, documents, bill PDFs, invoice PDFs, inbox attachments)
passes ``require_pdf``: pypdf opens it and finds a page, so a file that merely starts ``%PDF-`` and is
junk after it is a 422, not a stored "PDF"."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, JsonResponse
from ninja.decorators import decorate_view

from core.errors import ApiError

# Room for the multipart framing and the small form fields beside the files, per file.
MULTIPART_OVERHEAD = 64 * 1024
PDF_UNREADABLE = "This PDF cannot be read: it is damaged or not really a PDF."


def file_limit() -> int:
    return int(settings.FILE_UPLOAD_MAX_BYTES)


def _mb(limit: int) -> str:
    return f"{limit / (1024 * 1024):.0f} MB"


def too_large_message(limit: int | None = None) -> str:
    return f"The file is too large: the limit is {_mb(file_limit() if limit is None else limit)}."


def request_limit(files: int = 1) -> int:
    """The largest request an upload route of ``files`` files reads: each file's limit, and for a
    batch at most ``UPLOAD_REQUEST_MAX_BYTES`` together."""
    one = file_limit() + MULTIPART_OVERHEAD
    if files <= 1:
        return one
    return max(one, min(files * one, int(settings.UPLOAD_REQUEST_MAX_BYTES)))


def declared_length(request: HttpRequest) -> int:
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except (TypeError, ValueError):
        return 0


def upload_route(*, files: int = 1) -> Callable[[Any], Any]:
    """Declare an upload route: a request over ``files`` files' worth of bytes is a 413 before its
    body is read (by the route's parameters, its auth or anything else)."""

    def check_first(run: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(run)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            limit = request_limit(files)
            if declared_length(request) > limit:
                detail = too_large_message()
                if files > 1:
                    detail = (
                        f"The upload is too large: the limit is {_mb(limit)} for all files together "
                        f"({_mb(file_limit())} a file)."
                    )
                return JsonResponse({"detail": detail}, status=413)
            return run(request, *args, **kwargs)

        return checked

    def mark(view: Any) -> Any:
        view._upload_files = files  # read by tests: every multipart route declares its limit
        return decorate_view(check_first)(view)

    return mark


def read_upload(upload: UploadedFile, *, limit: int | None = None) -> bytes:
    """The bytes of one uploaded file, or 413 when it is over the limit (never more than the limit
    and one byte read)."""
    limit = file_limit() if limit is None else limit
    if upload.size is not None and upload.size > limit:
        raise ApiError(413, too_large_message(limit))
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise ApiError(413, too_large_message(limit))
    return data


def is_readable_pdf(data: bytes) -> bool:
    """True when pypdf opens ``data`` as a PDF with at least one page (its content streams are not
    decoded here: that is the parser's work, under its own limits)."""
    if not data or data.lstrip()[:5] != b"%PDF-":
        return False
    from pypdf import PdfReader

    try:
        return len(PdfReader(io.BytesIO(data), strict=False).pages) >= 1
    except Exception:  # pypdf raises many kinds of errors on a broken file: all mean "not a PDF"
        return False


def require_pdf(data: bytes, *, name: str = "", message: str = PDF_UNREADABLE) -> bytes:
    if not is_readable_pdf(data):
        raise ApiError(422, f"{name}: {message}" if name else message)
    return data
