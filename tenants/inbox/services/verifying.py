"""Verifying a message into the record it stands for (a quote request's answer or a bill)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.errors import ApiError
from django.db import transaction
from django.utils import timezone

from tenants.inbox.models import InboxMessage
from tenants.quotes import services as quote_services


@dataclass(frozen=True)
class QuoteVerification:
    quote_request_id: int
    supplier_id: int
    lines: list[quote_services.LineInput]


def verify(
    *,
    message_id: int,
    verified_as: str,
    quote: QuoteVerification | None = None,
    bill: dict[str, Any] | None = None,
    acting_user: Any = None,
) -> InboxMessage:
    """Mark a message verified and create what it stands for, in one transaction: a quote (lines
    as the user checked them), a bill (through purchasing), or nothing ("other"). Once only. Making
    the record needs its own permission too (bill.add, price_quote.change)."""
    needed = {"bill": "bill.add", "price_quote_reply": "price_quote.change"}.get(verified_as)
    if needed and acting_user is not None and not acting_user.has_perm(needed):
        from core.permissions import denial_message

        raise ApiError(403, denial_message(needed))
    with transaction.atomic():
        row = InboxMessage.objects.select_for_update().filter(pk=message_id).first()
        if row is None:
            raise ApiError(404, "Email not found")
        if row.verified:
            raise ApiError(409, "This email was already verified.")
        record: dict[str, Any] | None = None
        if verified_as == InboxMessage.Classification.PRICE_QUOTE_REPLY:
            if quote is None:
                raise ApiError(422, "quote: give the quote request, the supplier and the prices.")
            made = quote_services.record_quote(
                request_id=quote.quote_request_id,
                supplier_id=quote.supplier_id,
                lines=quote.lines,
                received_at=row.received_timestamp,
                source_message_id=row.pk,
                notes=f"From the email '{row.subject}' of {row.sender_email}"[:5000],
            )
            number = made.request.number
            record = {
                "type": "quote",
                "id": made.pk,
                "label": f"Quote of {made.supplier.name} for {number}",
                "path": f"/price-quotes/{made.request_id}",
            }
        elif verified_as == InboxMessage.Classification.BILL:
            if bill is None:
                raise ApiError(422, "bill: give the bill's fields.")
            from tenants.inbox import bills

            record = bills.create_bill_from(bill, source=row, user=acting_user)
        elif verified_as != InboxMessage.Classification.OTHER:
            raise ApiError(422, "verified_as: bill, price_quote_reply or other.")
        row.verified = True
        row.verified_at = timezone.now()
        row.verified_as = verified_as
        row.verified_by_name = str(
            getattr(acting_user, "name", "") or getattr(acting_user, "email", "") or ""
        )
        row.created_record = record
        row.save()
    return row
