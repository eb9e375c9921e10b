"""Writes of the bill parser: take an upload of invoice PDFs, parse each in the worker, keep the
user's review, and turn a reviewed draft into a bill (learning the supplier's layout)."""

from __future__ import annotations

import logging
import uuid
from datetime import date
from decimal import Decimal
from typing import Any

from core.errors import ApiError
from core.jobs import Document, send_job
from core.scoping import get_or_404
from core.storage import PDF, open_tenant_file, save_upload, sniff
from core.uploads import read_upload, require_pdf
from django.core.files.uploadedfile import UploadedFile
from django.db import connection, transaction

from tenants.billparse import selectors
from tenants.billparse.extract import ParseHints, learn_layout
from tenants.billparse.guard import parse_limited
from tenants.billparse.models import ParsedBill, SupplierLayout

log = logging.getLogger(__name__)

MAX_FILES = 20
NOT_PDF = "This file is not a PDF: upload the supplier's invoice as a PDF file."
EMPTY = "The file is empty."


def submit_documents(*, files: list[UploadedFile], user: Any) -> tuple[str, list[ParsedBill]]:
    """Store each PDF of an upload and queue one parsing job for them; a file that is not a PDF (or is
    empty) gets its row with the reason at once and is not stored. A file over the size limit (413)
    or one that starts as a PDF but cannot be read as one (422) refuses the whole upload, as every
    upload route does (core.uploads)."""
    if not files:
        raise ApiError(422, "Choose at least one invoice PDF to parse.")
    if len(files) > MAX_FILES:
        raise ApiError(422, f"Upload at most {MAX_FILES} files at a time.")
    batch = uuid.uuid4().hex
    rows: list[ParsedBill] = []
    contents = []
    for upload in files:
        name = (upload.name or "file")[-200:]
        data = read_upload(upload)
        if data and sniff(data, name) == PDF:
            require_pdf(data, name=name)
        contents.append((upload, name, data))
    with transaction.atomic():
        for upload, name, data in contents:
            row = ParsedBill(batch=batch, file_name=name, size=len(data), created_by=user)
            if not data:
                row.status, row.message = ParsedBill.Status.FAILED, EMPTY
            elif sniff(data, name) != PDF:
                row.status, row.message = ParsedBill.Status.FAILED, NOT_PDF
            else:
                upload.seek(0)
                row.file_key = save_upload(upload, "document").file_key
            row.save()
            rows.append(row)
        queued = [r.pk for r in rows if r.status == ParsedBill.Status.QUEUED]
        if queued:
            label = rows[0].file_name if len(queued) == 1 else f"{len(queued)} invoice PDFs"
            schema = connection.schema_name
            document = Document("bill_parse", queued[0], label, "/invoice-parse")
            transaction.on_commit(
                lambda: _send(queued, document=document, schema=schema, user=user), robust=False
            )
    return batch, rows


def _send(ids: list[int], *, document: Document, schema: str, user: Any) -> None:
    from tenants.billparse.tasks import parse_bills

    send_job(parse_bills, ids, document=document, schema=schema, started_by=user)


def parse_one(*, parse_id: int, hints: ParseHints | None = None) -> ParsedBill | None:
    """Parse one stored PDF (the worker's step per file). Idempotent: a file already parsed is left
    as it is, one interrupted half-way is parsed again."""
    with transaction.atomic():
        row = ParsedBill.objects.select_for_update().filter(pk=parse_id).first()
        if row is None or row.status not in (ParsedBill.Status.QUEUED, ParsedBill.Status.PARSING):
            return row
        row.status = ParsedBill.Status.PARSING
        row.save(update_fields=["status", "updated_at"])
    try:
        data, _ = open_tenant_file(row.file_key)
    except ApiError:
        return _fail(row, "The uploaded file is no longer stored: upload it again.")
    try:
        # In a child process under memory/CPU limits (guard.py): a decompression bomb fails this
        # document with the reason, and the worker's memory does not grow.
        result = parse_limited(data, hints=hints or selectors.parse_hints())
    except Exception:  # a bug of the parser must not stop the other files of the upload
        log.exception("bill parser failed on %s", row.pk)
        return _fail(row, "The parser could not read this PDF. Enter the bill by hand.")
    row.result = result.as_json()
    row.pages = result.pages
    if not result.ok:
        return _fail(row, result.error)
    supplier = result.field("supplier").value
    row.supplier_id = supplier if isinstance(supplier, int) else None
    row.layout_matched = result.layout_matched
    row.status = ParsedBill.Status.PARSED
    row.message = ""
    row.save()
    return row


def _fail(row: ParsedBill, message: str) -> ParsedBill:
    row.status = ParsedBill.Status.FAILED
    row.message = message
    row.save()
    return row


def save_review(*, parse_id: int, review: dict[str, Any]) -> ParsedBill:
    """Keep the user's edits of a parsed bill (nothing else changes)."""
    with transaction.atomic():
        row = get_or_404(ParsedBill.objects.select_for_update(), parse_id)
        if row.status != ParsedBill.Status.PARSED:
            raise ApiError(409, _not_reviewable(row))
        row.review = review
        row.save(update_fields=["review", "updated_at"])
    return row


def _not_reviewable(row: ParsedBill) -> str:
    if row.status == ParsedBill.Status.CREATED:
        return "A bill was already created from this document."
    if row.status == ParsedBill.Status.FAILED:
        return row.message or "This document could not be read."
    return "This document is still being parsed."


def confirmed_values(review: dict[str, Any], terminal_name: str) -> dict[str, str]:
    """The reviewed values as text, to find their labels on the document."""
    out: dict[str, str] = {}
    for name in ("bill_number", "bill_date", "due_date", "total"):
        value = review.get(name)
        if value not in (None, ""):
            out[name] = value.isoformat() if isinstance(value, date) else str(value)
    bols = review.get("bol_numbers") or []
    if bols:
        out["bol_numbers"] = ", ".join(str(b) for b in bols)
    if terminal_name:
        out["terminal"] = terminal_name
    return out


def learn_from(
    *, row: ParsedBill, supplier_id: int, review: dict[str, Any], terminal_name: str
) -> SupplierLayout | None:
    """Remember where this supplier prints each confirmed field: next time its bills are recognised
    by these labels first, with a higher confidence."""
    if not row.file_key:
        return None
    try:
        data, _ = open_tenant_file(row.file_key)
    except ApiError:
        return None
    layout, _ = SupplierLayout.objects.select_for_update().get_or_create(supplier_id=supplier_id)
    layout.labels = learn_layout(
        data, confirmed=confirmed_values(review, terminal_name), previous=layout.labels
    )
    layout.confirmed_count += 1
    layout.save()
    return layout


def mark_created(*, row: ParsedBill, bill_id: int, review: dict[str, Any], supplier_id: int) -> None:
    row.review = review
    row.bill_id = bill_id
    row.supplier_id = supplier_id
    row.status = ParsedBill.Status.CREATED
    row.save()


FEE_WORDS = ("fee", "surcharge", "freight", "charge")


def _charge_kind(name: str) -> str:
    lowered = name.lower()
    return "tax" if "tax" in lowered or not any(w in lowered for w in FEE_WORDS) else "fee"


def _document_total(review: dict[str, Any], row: ParsedBill) -> Decimal | None:
    """The total printed on the document: as reviewed, else as read (clearing the field does not
    skip the check that the bill adds up to it)."""
    raw = review.get("total")
    if raw in (None, ""):
        raw = ((row.result or {}).get("fields") or {}).get("total", {}).get("value")
    try:
        return Decimal(str(raw)) if raw not in (None, "") else None
    except (ArithmeticError, ValueError):
        return None


def create_bill_from(
    *, parse_id: int, review: dict[str, Any], user: Any
) -> tuple[ParsedBill, Any, int | None]:
    """Turn a reviewed parsed document into a draft bill (tenants.purchasing), on the open purchase
    order that fits when the review names none; then learn the supplier's layout from it."""
    from tenants.parties.models import Terminal
    from tenants.purchasing import services as purchasing

    with transaction.atomic():
        row = get_or_404(ParsedBill.objects.select_for_update(), parse_id)
        if row.status != ParsedBill.Status.PARSED:
            raise ApiError(409, _not_reviewable(row))
        supplier_id = review.get("supplier_id")
        if not supplier_id:
            raise ApiError(422, "supplier_id: choose the supplier of this bill.")
        if not (review.get("bill_number") or "").strip():
            raise ApiError(422, "bill_number: enter the supplier's bill number.")
        if not review.get("bill_date"):
            raise ApiError(422, "bill_date: enter the bill date.")
        lines = []
        for i, ln in enumerate(review.get("lines") or [], start=1):
            quantity = ln.get("net") if ln.get("net") is not None else ln.get("gross")
            if quantity is None or Decimal(str(quantity)) <= 0 or ln.get("unit_price") is None:
                raise ApiError(422, f"lines: line {i} needs its net gallons and unit price.")
            if not ln.get("product_id") and not (ln.get("description") or "").strip():
                raise ApiError(422, f"lines: line {i} needs a product.")
            lines.append(
                {
                    "product_id": ln.get("product_id"),
                    "description": ln.get("description") or "",
                    "bol_number": ln.get("bol") or "",
                    "gross_quantity": ln.get("gross"),
                    "quantity": quantity,
                    "unit_price": ln.get("unit_price"),
                    "amount": ln.get("amount"),
                }
            )
        if not lines:
            raise ApiError(422, "lines: a bill needs at least one line.")
        charges = [
            {"kind": _charge_kind(t["name"]), "name": t["name"], "amount": t["amount"]}
            for t in review.get("taxes") or []
        ]
        po_id = review.get("purchase_order_id")
        if po_id is None:
            suggestion = selectors.suggest_purchase_order(
                supplier_id=int(supplier_id),
                terminal_id=review.get("terminal_id"),
                product_ids={int(ln["product_id"]) for ln in lines if ln.get("product_id")},
                bol_numbers={str(b) for b in review.get("bol_numbers") or []},
            )
            po_id = suggestion.pk if suggestion is not None else None
        data = {
            "supplier_id": supplier_id,
            "bill_number": review["bill_number"].strip(),
            "bill_date": review["bill_date"],
            "due_date": review.get("due_date"),
            "terminal_id": review.get("terminal_id"),
            "purchase_order_id": po_id,
            "lines": lines,
            "charges": charges,
        }
        bill = purchasing.create_bill(
            data,
            by=user,
            source="parser",
            source_file=row.file_key,
            document_total=_document_total(review, row),
            total_override_reason=review.get("total_override_reason") or "",
        )
        terminal_name = ""
        if review.get("terminal_id"):
            terminal_name = (
                Terminal.objects.filter(pk=review["terminal_id"]).values_list("name", flat=True).first() or ""
            )
        learn_from(row=row, supplier_id=int(supplier_id), review=review, terminal_name=terminal_name)
        mark_created(row=row, bill_id=bill.pk, review=review, supplier_id=int(supplier_id))
    return row, bill, po_id
