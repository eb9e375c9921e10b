"""The bill parser (`/api/parse_document`): upload supplier invoice PDFs, follow their parsing, review
what was read, and create the bill."""

from __future__ import annotations

from typing import Any

from core.envelope import Answer, Envelope, Page, ok, page_of
from core.errors import ApiError
from core.permissions import acting_user, perm, register_resource
from core.scoping import get_or_404
from core.storage import open_tenant_file
from core.uploads import upload_route
from django.http import HttpRequest, HttpResponse
from ninja import File, Query, Router
from ninja.files import UploadedFile

from tenants.billparse import selectors, services
from tenants.billparse.guard import oversized_stream
from tenants.billparse.models import ParsedBill
from tenants.billparse.render import page_png
from tenants.billparse.schemas import (
    BillParseChoicesOut,
    BillParseCreatedOut,
    BillParseDetailOut,
    BillParseDocOut,
    BillParseListQuery,
    BillParseReviewIn,
    BillParseUploadOut,
)

router = Router(tags=["parse-document"])
register_resource("bill_parse", "Bill parsing", ("view", "add", "change"))

NOT_FOUND = "Parsed document not found"


def _get(parse_id: int) -> ParsedBill:
    return get_or_404(selectors.parsed_bills(), parse_id)


def _detail(row: ParsedBill) -> dict[str, Any]:
    data = BillParseDetailOut.model_validate(row).model_dump()
    data["names"] = selectors.names_for(row.result or {})
    data["suggested_purchase_order"] = (
        selectors.suggestion_for(row) if row.status == ParsedBill.Status.PARSED else None
    )
    return data


@router.post(
    "",
    response={201: Envelope[BillParseUploadOut]},
    auth=perm("bill_parse.add"),
    operation_id="parse_document_upload",
)
@upload_route(files=services.MAX_FILES)
def upload(request: HttpRequest, files: File[list[UploadedFile]]) -> Answer:
    """One or many invoice PDFs (multipart field `files`): answered at once, parsed by the worker."""
    batch, rows = services.submit_documents(files=list(files), user=acting_user())
    queued = any(r.status == ParsedBill.Status.QUEUED for r in rows)
    data = {"batch": batch, "job_queued": queued, "documents": rows}
    n = len(rows)
    message = f"{n} file{'s' if n != 1 else ''} received: parsing started" if queued else "No PDF to parse"
    return ok(data, message, status=201)


@router.get(
    "",
    response=Envelope[Page[BillParseDocOut]],
    auth=perm("bill_parse.view"),
    operation_id="parse_document_list",
)
def list_documents(request: HttpRequest, params: Query[BillParseListQuery]) -> Answer:
    qs = selectors.parsed_bills()
    if params.batch:
        qs = qs.filter(batch=params.batch)
    total = qs.count()
    start = (params.page - 1) * params.size
    items = list(qs[start : start + params.size])
    return ok(page_of(items, total=total, page=params.page, size=params.size), "Parsed documents retrieved")


@router.get(
    "/choices",
    response=Envelope[BillParseChoicesOut],
    auth=perm("bill_parse.view"),
    operation_id="parse_document_choices",
)
def choices(request: HttpRequest) -> Answer:
    return ok(selectors.choices(), "Choices retrieved")


@router.get(
    "/{parse_id}",
    response=Envelope[BillParseDetailOut],
    auth=perm("bill_parse.view"),
    operation_id="parse_document_get",
)
def get_document(request: HttpRequest, parse_id: int) -> Answer:
    return ok(_detail(_get(parse_id)), "Parsed document retrieved")


@router.get(
    "/{parse_id}/pages/{page}",
    auth=perm("bill_parse.view"),
    operation_id="parse_document_page",
    response={200: bytes},
    openapi_extra={
        "responses": {"200": {"description": "The page as a PNG image", "content": {"image/png": {}}}}
    },
)
def page_image(request: HttpRequest, parse_id: int, page: int) -> HttpResponse:
    row = _get(parse_id)
    if not row.file_key:
        raise ApiError(404, "This upload was not a PDF: there is no page to show.")
    data, _ = open_tenant_file(row.file_key)
    if oversized_stream(data):  # a decompression bomb is not rendered in the web process either
        raise ApiError(422, "This PDF is too large to show: a part of it unpacks to hundreds of MB.")
    response = HttpResponse(page_png(data, page), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="page-{page}.png"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Cache-Control"] = "private, max-age=300"
    return response


@router.put(
    "/{parse_id}",
    response=Envelope[BillParseDetailOut],
    auth=perm("bill_parse.change"),
    operation_id="parse_document_review",
)
def save_review(request: HttpRequest, parse_id: int, payload: BillParseReviewIn) -> Answer:
    _get(parse_id)
    row = services.save_review(parse_id=parse_id, review=payload.model_dump(mode="json"))
    return ok(_detail(_get(row.pk)), "Review saved")


@router.post(
    "/{parse_id}/create-bill",
    response={201: Envelope[BillParseCreatedOut]},
    auth=perm("bill.add"),
    operation_id="parse_document_create_bill",
)
def create_bill(request: HttpRequest, parse_id: int, payload: BillParseReviewIn) -> Answer:
    """The reviewed draft becomes a draft bill, on the open purchase order that fits."""
    _get(parse_id)
    review = payload.model_dump(mode="json")
    row, bill, po_id = services.create_bill_from(parse_id=parse_id, review=review, user=acting_user())
    layout = selectors.layout_labels(int(review["supplier_id"]))
    data = {"parse_id": row.pk, "bill_id": bill.pk, "purchase_order_id": po_id, "layout_labels": layout}
    on_po = " on its purchase order" if po_id else ""
    return ok(data, f"Bill {bill.bill_number} created{on_po}", status=201)


routes = [("/parse_document", router)]
