"""A bill from an emailed supplier invoice, through the bill parser (tenants.billparse): the PDF
becomes one of the parser's documents (parsed here, in the poll's worker, with the parser's hints
and the supplier layouts it learnt), and verifying the email hands the reviewed draft to the
parser's `create_bill_from`, which creates the draft bill (tenants.purchasing), matches it to the
open purchase order that fits and learns the supplier's layout. So an emailed invoice and an
uploaded one follow the same path and the same review fields."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tenants.billparse import selectors as parse_selectors
from tenants.billparse import services as parse_services
from tenants.billparse.models import ParsedBill
from tenants.inbox.models import InboxMessage


def propose_bill(*, message: InboxMessage, file_key: str, file_name: str, size: int) -> dict[str, Any]:
    """Parse the attached invoice once (the parser's row is reused on a second call)."""
    batch = f"inbox-{message.pk}"[:32]
    row = ParsedBill.objects.filter(batch=batch, file_key=file_key).first()
    if row is None:
        with transaction.atomic():
            row = ParsedBill.objects.create(
                batch=batch, file_key=file_key, file_name=file_name[-200:], size=size
            )
    parsed = parse_services.parse_one(parse_id=row.pk) or row
    if parsed.status == ParsedBill.Status.FAILED:
        raise ValueError(parsed.message or "the bill parser could not read the PDF")
    draft = parse_selectors.draft_of(parsed)
    if not draft.get("supplier_id") and message.supplier_id:
        draft["supplier_id"] = message.supplier_id
    return {
        "kind": "bill",
        "parse_id": parsed.pk,
        "file_name": file_name,
        "result": parsed.result,
        "draft": draft,
        "names": parse_selectors.names_for(parsed.result or {}),
    }


def create_bill_from(review: dict[str, Any], *, source: InboxMessage, user: Any) -> dict[str, Any]:
    proposal = source.proposal or {}
    parse_id = proposal.get("parse_id")
    if proposal.get("kind") != "bill" or not isinstance(parse_id, int):
        from core.errors import ApiError

        raise ApiError(
            409, "This email has no invoice PDF the bill parser could read: enter the bill by hand."
        )
    _row, bill, po_id = parse_services.create_bill_from(parse_id=parse_id, review=review, user=user)
    on_po = " on its purchase order" if po_id else ""
    return {
        "type": "bill",
        "id": bill.pk,
        "label": f"Bill {bill.bill_number}{on_po}",
        "path": f"/purchase-order/bills/{bill.pk}",
    }
