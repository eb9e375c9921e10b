"""Classification (a quote, a bill or neither) and the proposal read from a message."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from core.errors import ApiError
from core.storage import open_tenant_file
from django.db import transaction

from tenants.inbox.models import InboxMessage
from tenants.parties.models import Supplier
from tenants.quotes import selectors as quote_selectors
from tenants.quotes.models import QuoteRequest

log = logging.getLogger(__name__)


PDF = "application/pdf"
_INVOICE_WORDS = re.compile(r"\b(invoice|invoices|bill|billing|statement)\b", re.I)


def _is_pdf(att: dict[str, Any]) -> bool:
    """A PDF that can be read (an empty, damaged or not-really-PDF attachment is not)."""
    return att.get("content_type") == PDF and not att.get("problem") and bool(att.get("file_key"))


def _declares_pdf(att: dict[str, Any]) -> bool:
    return att.get("content_type") == PDF or str(att.get("file_name", "")).lower().endswith(".pdf")


@dataclass(frozen=True)
class Verdict:
    classification: str
    reason: str
    supplier: Supplier | None = None
    request: QuoteRequest | None = None


def classify(
    *,
    attachments: list[dict[str, Any]],
    problems: list[str] = (),  # type: ignore[assignment]
    in_reply_to: str,
    references: str,
    sender_email: str,
    sender_name: str,
    subject: str,
    body: str,
) -> Verdict:
    """bill, price_quote_reply or other, with the reason a user reads on the screen (which says so
    when the message or an attachment could not be read)."""
    verdict = _classify(attachments, in_reply_to, references, sender_email, subject)
    structure = next((p for p in problems if p.startswith("The message's MIME structure")), "")
    if structure:
        return Verdict(
            verdict.classification, f"{verdict.reason} {structure}", verdict.supplier, verdict.request
        )
    return verdict


def _classify(
    attachments: list[dict[str, Any]], in_reply_to: str, references: str, sender_email: str, subject: str
) -> Verdict:
    match = quote_selectors.match_reply(
        in_reply_to=in_reply_to, references=references, sender_email=sender_email, subject=subject
    )
    if match is not None:
        recipient, reason = match
        return Verdict(
            InboxMessage.Classification.PRICE_QUOTE_REPLY, reason, recipient.supplier, recipient.request
        )
    supplier = (
        Supplier.objects.filter(email__iexact=sender_email).order_by("id").first() if sender_email else None
    )
    pdfs = [a["file_name"] for a in attachments if _is_pdf(a)]
    words = _INVOICE_WORDS.search(subject or "")
    if pdfs:
        named = f"PDF attachment {pdfs[0]!r}" + (f" (+{len(pdfs) - 1} more)" if len(pdfs) > 1 else "")
        if supplier is not None and words:
            reason = f"{named} from supplier {supplier.name}, and the subject says {words.group(0)!r}."
        elif supplier is not None:
            reason = f"{named} from supplier {supplier.name} ({sender_email})."
        elif words:
            reason = (
                f"{named} and the subject says {words.group(0)!r} "
                f"(the sender {sender_email} is no known supplier)."
            )
        else:
            return Verdict(
                InboxMessage.Classification.OTHER,
                f"{named}, but the sender {sender_email} is no known supplier and the subject does "
                "not say invoice or bill.",
            )
        return Verdict(InboxMessage.Classification.BILL, reason, supplier)
    unreadable = [a for a in attachments if _declares_pdf(a) and a.get("problem")]
    if unreadable:
        first = unreadable[0]
        more = f" (+{len(unreadable) - 1} more)" if len(unreadable) > 1 else ""
        who = f"supplier {supplier.name}" if supplier is not None else (sender_email or "(no sender)")
        return Verdict(
            InboxMessage.Classification.OTHER,
            f"The PDF attachment {first['file_name']!r}{more} from {who} could not be read: "
            f"{first['problem']}. Ask the sender to send it again, or enter the bill by hand.",
            supplier,
        )
    if supplier is not None:
        return Verdict(
            InboxMessage.Classification.OTHER,
            f"From supplier {supplier.name}, but with no PDF attachment and no quote request it answers.",
            supplier,
        )
    return Verdict(
        InboxMessage.Classification.OTHER,
        "No PDF attachment, and no quote request matches its reply headers or its sender "
        f"{sender_email or '(none)'}.",
    )


# --------------------------------------------------------------------------- proposals
def _quote_proposal(row: InboxMessage) -> dict[str, Any]:
    request = row.quote_request
    supplier = row.supplier
    if request is None or supplier is None:
        raise ValueError("no quote request matched")
    sheets = []
    for att in row.attachments:
        name = att["file_name"].lower()
        if name.endswith(".csv") or name.endswith(".xlsx"):
            sheets.append((att["file_name"], open_tenant_file(att["file_key"])[0]))
    read = quote_selectors.read_prices(request, supplier.pk, row.body, sheets)
    return {
        "kind": "price_quote_reply",
        "quote_request_id": request.pk,
        "quote_request_number": request.number,
        "supplier_id": supplier.pk,
        "supplier_name": supplier.name,
        **read,
    }


def _bill_proposal(row: InboxMessage) -> dict[str, Any]:
    from tenants.inbox import bills

    pdf = next((a for a in row.attachments if _is_pdf(a)), None)
    if pdf is None:
        raise ValueError("no PDF attachment")
    return bills.propose_bill(
        message=row, file_key=pdf["file_key"], file_name=pdf["file_name"], size=pdf["size"]
    )


def propose(row: InboxMessage) -> None:
    """Read what the message stands for (a quote's lines, a bill's fields) for the verify screen.
    A failure is kept as a sentence: the user can still verify by hand."""
    proposal, error = None, ""
    try:
        if row.classification == InboxMessage.Classification.PRICE_QUOTE_REPLY:
            proposal = _quote_proposal(row)
        elif row.classification == InboxMessage.Classification.BILL:
            proposal = _bill_proposal(row)
    except Exception as exc:  # the parser may fail on any input: keep the message, say why
        log.info("no proposal for inbox message %s: %s", row.pk, exc, exc_info=True)
        error = f"Could not read it automatically: {exc}"[:2000]
    InboxMessage.objects.filter(pk=row.pk).update(proposal=proposal, proposal_error=error)
    row.proposal, row.proposal_error = proposal, error


def read_as(
    *, message_id: int, kind: str, quote_request_id: int | None = None, supplier_id: int | None = None
) -> InboxMessage:
    """Read an unverified email as a bill (its PDF through the bill parser, as a poll does) or as a
    quote reply (its prices against the request the user names), whatever it was classified as, so
    it can then be verified as that. The classification and its reason stay as they were."""
    with transaction.atomic():
        row = InboxMessage.objects.select_for_update().filter(pk=message_id).first()
        if row is None:
            raise ApiError(404, "Email not found")
        if row.verified:
            raise ApiError(409, "This email was already verified.")
        if kind == "bill":
            if not any(_is_pdf(a) for a in row.attachments or []):
                raise ApiError(
                    409,
                    "This email has no PDF attachment that can be read: enter the bill by hand.",
                )
            try:
                proposal = _bill_proposal(row)
            except Exception as exc:  # the parser may fail on any input: say why
                log.info("inbox message %s not readable as a bill: %s", row.pk, exc, exc_info=True)
                raise ApiError(422, f"The bill parser could not read the PDF: {exc}"[:2000]) from exc
        else:
            request = QuoteRequest.objects.filter(pk=quote_request_id or row.quote_request_id or 0).first()
            if request is None:
                raise ApiError(422, "quote_request_id: choose the quote request this email answers.")
            supplier = (
                Supplier.objects.filter(pk=supplier_id).first()
                if supplier_id
                else (row.supplier or quote_selectors.supplier_by_email(row.sender_email))
            )
            if supplier is None:
                raise ApiError(422, "supplier_id: choose the supplier who sent these prices.")
            if not request.recipients.filter(supplier_id=supplier.pk).exists():
                raise ApiError(
                    422, f"supplier_id: {supplier.name} was not asked in quote request {request.number}."
                )
            row.quote_request, row.supplier = request, supplier
            proposal = _quote_proposal(row)
        row.proposal, row.proposal_error = proposal, ""
        row.save(update_fields=["proposal", "proposal_error", "quote_request", "supplier", "updated_at"])
    return row
