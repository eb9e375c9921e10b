"""Emailing the documents (spec §7 "Email and jobs"): routes of this app mounted on the invoice's and
the delivery ticket's prefixes. Prepare drafts (one per recipient: the customer's contacts
subscribed to the service in the contact book, else its billing email), send through the outbox,
mark as emailed. The invoice PDF comes from the browser (multipart `invoice_pdf`, checked to be a
real PDF); delivery tickets are rendered here with the company's default template."""

from __future__ import annotations

import datetime as dt
from typing import Any

from core.envelope import Answer, Envelope, ok
from core.errors import ApiError
from core.permissions import perm
from core.scoping import get_or_404
from core.uploads import read_upload, upload_route
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from ninja import File, Query, Router
from ninja.files import UploadedFile

from tenants.delivery import selectors as delivery_selectors
from tenants.delivery import services as delivery_services
from tenants.documents.services import render_document
from tenants.invoicing import selectors as invoicing_selectors
from tenants.invoicing.models import Invoice
from tenants.mail import rules, selectors, services
from tenants.mail.models import EmailedDocument, SentEmail
from tenants.mail.schemas import (
    EmailOut,
    MailDraftOut,
    MailEmailedOut,
    MailInvoiceEmailQuery,
    MailTicketEmailQuery,
    MailTicketMarkQuery,
)

invoice_router = Router(tags=["invoice email"])
ticket_router = Router(tags=["delivery ticket email"])


def _pdf(request: HttpRequest, given: UploadedFile | None) -> bytes:
    """The uploaded invoice PDF, or the spec's messages (§5). An empty file is "invalid", not
    "absent" (the parser drops empty parts, so the request's files are asked too)."""
    upload = given or request.FILES.get("invoice_pdf")
    if upload is None:
        return rules.check_pdf(None)
    return rules.check_pdf(read_upload(upload))


def _money(value: Any) -> str:
    return f"${value:,.2f}"


def _day(value: dt.date | None) -> str:
    return value.strftime("%b %d, %Y") if value else ""


def _ticket_pdfs(order_id: int, *, split_by_po: bool, by: Any) -> list[services.Attachment]:
    """The order's delivery tickets (generated first when it has none, one per PO number with
    `split_by_po`), each rendered with the default delivery-ticket template and named like the
    invoice (§5): `<Customer-Name>-<ticket number>-<date>.pdf`."""
    order = delivery_selectors.get_order(order_id)
    tickets = delivery_selectors.order_tickets(order_id)
    if not tickets:
        tickets = delivery_services.generate_tickets(
            order=order, split_by_po=split_by_po, po_number=None, by=by
        )
    if not tickets:
        raise ApiError(422, "This sales order has no delivery ticket to send: it has no lines.")
    customer = order.customer.name if order.customer_id else ""
    out = []
    for ticket in tickets:
        ticket = delivery_selectors.get_ticket(ticket.pk)
        _html, pdf = render_document("delivery_ticket", delivery_selectors.ticket_document_data(ticket))
        day = (ticket.delivered_at or ticket.created_at or timezone.now()).date()
        out.append(services.Attachment(rules.attachment_name(customer, ticket.number, day), data=pdf))
    return out


def _invoice_email(
    invoice: Invoice, pdf: bytes, *, include_ticket: bool, preparing: bool, by: Any
) -> services.DocumentEmail:
    company, _ = services.company_sender()
    name = (
        rules.preparation_attachment_name(invoice.pk, invoice.invoice_date)
        if preparing
        else rules.attachment_name(invoice.customer.name, invoice.number, invoice.invoice_date)
    )
    attachments = [services.Attachment(name, data=pdf)]
    if include_ticket:
        attachments += _ticket_pdfs(invoice.sales_order_id, split_by_po=False, by=by)
    subject = f"Invoice {invoice.number}" + (f" from {company}" if company else "")
    tickets = " and its delivery ticket" if include_ticket else ""
    body = (
        f"Hello,\n\nPlease find attached invoice {invoice.number}{tickets}, dated "
        f"{_day(invoice.invoice_date)}, for {_money(invoice.total)}, due {_day(invoice.due_date)}.\n\n"
        f"Thank you for your business.\n{company}".rstrip()
    )
    category = (
        SentEmail.Category.INVOICE_WITH_DELIVERY_TICKET if include_ticket else SentEmail.Category.INVOICE
    )
    recipients = selectors.document_recipients(
        invoice.customer_id, selectors.INVOICE_SERVICE, ship_to_id=invoice.ship_to_id
    )
    return services.DocumentEmail(category, invoice.pk, recipients, subject, body, attachments)


def _ticket_email(order_id: int, *, split_by_po: bool, by: Any) -> services.DocumentEmail:
    order = delivery_selectors.get_order(order_id)
    company, _ = services.company_sender()
    attachments = _ticket_pdfs(order_id, split_by_po=split_by_po, by=by)
    number = getattr(order, "number", "") or f"#{order.pk}"
    plural = "s" if len(attachments) > 1 else ""
    subject = f"Delivery ticket{plural} for order {number}" + (f" from {company}" if company else "")
    body = (
        f"Hello,\n\nPlease find attached the delivery ticket{plural} of order {number}.\n\n"
        f"Thank you for your business.\n{company}".rstrip()
    )
    recipients = selectors.document_recipients(
        order.customer_id, selectors.DELIVERY_TICKET_SERVICE, ship_to_id=order.ship_to_id
    )
    return services.DocumentEmail(
        SentEmail.Category.DELIVERY_TICKET, order.pk, recipients, subject, body, attachments
    )


def _emailed(row: EmailedDocument, categories: list[str]) -> dict[str, Any]:
    return {
        "document_type": row.document_type,
        "document_id": row.document_id,
        "marked_at": row.marked_at,
        "times": row.times,
        "emails": selectors.email_counts(categories, row.document_id),
    }


def _queued_message(rows: list[SentEmail]) -> str:
    return f"{len(rows)} email{'s' if len(rows) != 1 else ''} queued for sending"


# --- invoices ------------------------------------------------------------------------------------------
@invoice_router.post(
    "/{int:id}/email",
    response=Envelope[list[MailDraftOut]],
    auth=perm("email.add"),
    operation_id="invoice_email_prepare",
)
@upload_route()
def prepare_invoice_email(
    request: HttpRequest,
    id: int,
    query: Query[MailInvoiceEmailQuery],
    invoice_pdf: File[UploadedFile | None] = None,
) -> Answer:
    """Drafts of the invoice's email, one per recipient (the customer's contacts subscribed to
    invoices, else its billing email), the PDF attached as `invoice-{id}-{date}.pdf`. Nothing is
    sent: edit them and post them to `POST /api/email/`, or send with `send-email`."""
    pdf = _pdf(request, invoice_pdf)
    invoice = get_or_404(invoicing_selectors.invoice_detail(), id)
    with transaction.atomic():
        doc = _invoice_email(
            invoice, pdf, include_ticket=query.include_delivery_ticket, preparing=True, by=request.auth
        )
        drafts = services.prepare_drafts(doc)
    return ok(drafts, f"{len(drafts)} draft email{'s' if len(drafts) != 1 else ''} prepared")


@invoice_router.post(
    "/{int:id}/send-email",
    response=Envelope[list[EmailOut]],
    auth=perm("email.add"),
    operation_id="invoice_email_send",
)
@upload_route()
def send_invoice_email(
    request: HttpRequest,
    id: int,
    query: Query[MailInvoiceEmailQuery],
    invoice_pdf: File[UploadedFile | None] = None,
) -> Answer:
    """Email the invoice to its recipients now (one email each, through the outbox), attached as
    `<Customer-Name>-<number>-<date>.pdf` (spec §5)."""
    pdf = _pdf(request, invoice_pdf)
    invoice = get_or_404(invoicing_selectors.invoice_detail(), id)
    with transaction.atomic():
        doc = _invoice_email(
            invoice, pdf, include_ticket=query.include_delivery_ticket, preparing=False, by=request.auth
        )
        rows = services.send_document_email(doc, idempotency_key=query.idempotency_key)
    return ok(rows, _queued_message(rows))


@invoice_router.put(
    "/{int:id}/email-sent",
    response=Envelope[MailEmailedOut],
    auth=perm("email.add"),
    operation_id="invoice_email_mark_sent",
)
def mark_invoice_emailed(request: HttpRequest, id: int) -> Answer:
    """Mark the invoice as emailed; the answer also says what its emails really did."""
    invoice = get_or_404(invoicing_selectors.invoice_detail(), id)
    with transaction.atomic():
        row = services.mark_emailed(
            document_type=EmailedDocument.DocumentType.INVOICE, document_id=invoice.pk, user=request.auth
        )
        Invoice.objects.filter(pk=invoice.pk).update(email_sent_at=row.marked_at)
    return ok(_emailed(row, sorted(services.INVOICE_CATEGORIES)), "Invoice marked as emailed")


# --- delivery tickets ----------------------------------------------------------------------------------
@ticket_router.post(
    "/email",
    response=Envelope[list[MailDraftOut]],
    auth=perm("email.add"),
    operation_id="delivery_ticket_email_prepare",
)
def prepare_ticket_email(request: HttpRequest, query: Query[MailTicketEmailQuery]) -> Answer:
    """Drafts of the order's delivery-ticket email, one per recipient (the contacts subscribed to
    delivery tickets, else the billing email), the tickets rendered and attached."""
    with transaction.atomic():
        doc = _ticket_email(query.sales_order_id, split_by_po=query.split_by_po, by=request.auth)
        drafts = services.prepare_drafts(doc)
    return ok(drafts, f"{len(drafts)} draft email{'s' if len(drafts) != 1 else ''} prepared")


@ticket_router.post(
    "/send-email",
    response=Envelope[list[EmailOut]],
    auth=perm("email.add"),
    operation_id="delivery_ticket_email_send",
)
def send_ticket_email(request: HttpRequest, query: Query[MailTicketEmailQuery]) -> Answer:
    """Email the order's delivery tickets to their recipients now, through the outbox."""
    with transaction.atomic():
        doc = _ticket_email(query.sales_order_id, split_by_po=query.split_by_po, by=request.auth)
        rows = services.send_document_email(doc, idempotency_key=query.idempotency_key)
    return ok(rows, _queued_message(rows))


@ticket_router.put(
    "/email-sent",
    response=Envelope[MailEmailedOut],
    auth=perm("email.add"),
    operation_id="delivery_ticket_email_mark_sent",
)
def mark_tickets_emailed(request: HttpRequest, query: Query[MailTicketMarkQuery]) -> Answer:
    """Mark the order's delivery tickets as emailed."""
    order = delivery_selectors.get_order(query.sales_order_id)
    with transaction.atomic():
        row = services.mark_emailed(
            document_type=EmailedDocument.DocumentType.DELIVERY_TICKET,
            document_id=order.pk,
            user=request.auth,
        )
        delivery_services.mark_emailed(tickets=delivery_selectors.order_tickets(order.pk), at=row.marked_at)
    return ok(_emailed(row, [SentEmail.Category.DELIVERY_TICKET]), "Delivery tickets marked as emailed")


routes = [("/invoice", invoice_router), ("/delivery-ticket", ticket_router)]
