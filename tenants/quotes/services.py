"""Writes of price quotes: send a request through the email outbox, record a supplier's quote,
accept a quote line into a buying price."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from core.errors import ApiError
from core.scoping import get_or_404
from django.db import transaction
from django.utils import timezone

from tenants.catalog.models import Product
from tenants.mail import services as mail
from tenants.parties.models import Supplier, Terminal
from tenants.pricing import services as pricing
from tenants.quotes.models import Quote, QuoteLine, QuoteRecipient, QuoteRequest
from tenants.sequences.services import next_number

MAX_CELLS = 500


@dataclass(frozen=True)
class LineInput:
    product_id: int
    terminal_id: int
    price: Decimal


def _ids(model: Any, ids: list[int], field: str, label: str) -> list[Any]:
    unique = list(dict.fromkeys(ids))
    if not unique:
        raise ApiError(422, f"{field}: choose at least one {label}.")
    found = {o.pk: o for o in model.objects.filter(pk__in=unique)}
    missing = [i for i in unique if i not in found]
    if missing:
        raise ApiError(422, f"{field}: unknown {label} {', '.join(map(str, missing))}.")
    return [found[i] for i in unique]


def request_body(request: QuoteRequest, supplier: Supplier, company: str) -> str:
    products = list(request.products.all())
    terminals = list(request.terminals.all())
    lines = [
        f"Hello {supplier.contact_name or supplier.name},",
        "",
        f"{company} asks for your price quote for {request.quote_date:%B %-d, %Y}:",
        "",
        f"Quantity: {request.quantity.normalize():f} gallons per load",
        "",
    ]
    for terminal in terminals:
        for product in products:
            lines.append(f"  {product.name} - {terminal.name} ({terminal.terminal_code}): $____")
    lines += [
        "",
        "Please reply to this email, writing your price per gallon after each line above "
        "(for example 'Ultra Low Sulfur Diesel - Houston Terminal: 2.4512'), or attach a CSV or XLSX "
        "sheet with the columns product, terminal and price.",
    ]
    if request.reply_to:
        lines.append(f"Your reply goes to {request.reply_to}.")
    if request.notes:
        lines += ["", request.notes]
    lines += ["", f"Reference: {request.number}", "", "Thank you,", company]
    return "\n".join(lines)


def create_request(
    *,
    quote_date: dt.date,
    quantity: Decimal,
    product_ids: list[int],
    terminal_ids: list[int],
    supplier_ids: list[int],
    notes: str = "",
    acting_user: Any = None,
    company_name: str = "",
    reply_to: str = "",
) -> QuoteRequest:
    """A request for prices, emailed (through the outbox, once per supplier) to each chosen supplier.
    Each email's Message-ID is kept so the supplier's reply finds its request; its Reply-To is
    `reply_to` (the connected mailbox: see selectors.reply_destination)."""
    products = _ids(Product, product_ids, "product_ids", "product")
    terminals = _ids(Terminal, terminal_ids, "terminal_ids", "terminal")
    suppliers = _ids(Supplier, supplier_ids, "supplier_ids", "supplier")
    if len(products) * len(terminals) > MAX_CELLS:
        raise ApiError(422, f"Ask for at most {MAX_CELLS} product and terminal pairs in one request.")
    without = [s.name for s in suppliers if not s.email.strip()]
    if without:
        raise ApiError(
            422, f"supplier_ids: {', '.join(without)} has no email address: add one on the supplier first."
        )
    company = company_name or "We"
    with transaction.atomic():
        request = QuoteRequest.objects.create(
            number=next_number("quote_request", "QR-"),
            quote_date=quote_date,
            quantity=quantity,
            notes=notes,
            created_by_name=str(getattr(acting_user, "name", "") or getattr(acting_user, "email", "") or ""),
            reply_to=reply_to,
        )
        request.products.set(products)
        request.terminals.set(terminals)
        for supplier in suppliers:
            subject = f"Price quote request {request.number} for {quote_date.isoformat()}"
            sent = mail.queue_email(
                recipients=supplier.email,
                subject=subject,
                body=request_body(request, supplier, company),
                reply_to=reply_to or None,
                recipient_names={supplier.email.strip(): supplier.contact_name or supplier.name},
                idempotency_key=f"quote-request:{request.pk}:{supplier.pk}",
            )[0]
            QuoteRecipient.objects.create(
                request=request,
                supplier=supplier,
                email=supplier.email.strip().lower(),
                sent_email=sent,
                message_id=sent.message_id,
            )
    return request


def record_quote(
    *,
    request_id: int,
    supplier_id: int,
    lines: list[LineInput],
    received_at: dt.datetime | None = None,
    source_message_id: int | None = None,
    notes: str = "",
) -> Quote:
    """A supplier's quote for a request (a verified inbox reply, or entered by hand for a phone
    quote). Its lines start on the request's date."""
    request = QuoteRequest.objects.filter(pk=request_id).first()
    if request is None:
        raise ApiError(422, "quote_request_id: unknown quote request.")
    supplier = Supplier.objects.filter(pk=supplier_id).first()
    if supplier is None:
        raise ApiError(422, "supplier_id: unknown supplier.")
    if not lines:
        raise ApiError(422, "lines: give at least one price.")
    if len(lines) > MAX_CELLS:
        raise ApiError(422, f"lines: at most {MAX_CELLS} prices in one quote.")
    _ids(Product, [ln.product_id for ln in lines], "lines.product_id", "product")
    _ids(Terminal, [ln.terminal_id for ln in lines], "lines.terminal_id", "terminal")
    cells = [(ln.terminal_id, ln.product_id) for ln in lines]
    if len(set(cells)) != len(cells):
        raise ApiError(422, "lines: give one price per product and terminal.")
    if any(ln.price < 0 for ln in lines):
        raise ApiError(422, "lines.price: a price cannot be negative.")
    with transaction.atomic():
        # Checked against the request under its lock, so a close cannot slip in between.
        request = QuoteRequest.objects.select_for_update().get(pk=request.pk)
        _check_against_request(request, supplier, lines)
        quote = Quote.objects.create(
            request=request,
            supplier_id=supplier_id,
            source_message_id=source_message_id,
            received_at=received_at or timezone.now(),
            notes=notes,
        )
        QuoteLine.objects.bulk_create(
            QuoteLine(
                quote=quote,
                product_id=ln.product_id,
                terminal_id=ln.terminal_id,
                price=ln.price.quantize(Decimal("0.0001")),
                effective_from=request.quote_date,
            )
            for ln in lines
        )
    return quote


def _names(model: Any, ids: set[int], attr: str = "name") -> str:
    return ", ".join(sorted(getattr(o, attr) for o in model.objects.filter(pk__in=ids)))


def _check_against_request(request: QuoteRequest, supplier: Supplier, lines: list[LineInput]) -> None:
    """A quote answers its request: not after it was closed, from a supplier it asked, for the
    products and terminals it asked about (a stranger's price would show as "Lowest" in the grid)."""
    if request.status == QuoteRequest.Status.CLOSED:
        raise ApiError(409, f"Quote request {request.number} is closed: it takes no more quotes.")
    if not request.recipients.filter(supplier_id=supplier.pk).exists():
        raise ApiError(422, f"supplier_id: {supplier.name} was not asked in quote request {request.number}.")
    products = {ln.product_id for ln in lines} - set(request.products.values_list("id", flat=True))
    if products:
        raise ApiError(
            422,
            f"lines.product_id: {_names(Product, products)} was not asked for in quote request "
            f"{request.number}.",
        )
    terminals = {ln.terminal_id for ln in lines} - set(request.terminals.values_list("id", flat=True))
    if terminals:
        raise ApiError(
            422,
            f"lines.terminal_id: {_names(Terminal, terminals)} was not asked for in quote request "
            f"{request.number}.",
        )


def accept_line(*, line_id: int) -> QuoteLine:
    """Write the quote line's price as the supplier's buying price from the line's date (the buying
    price rules of tenants/pricing apply: the previous open price ends the day before)."""
    with transaction.atomic():
        line = get_or_404(QuoteLine.objects.select_for_update().select_related("quote"), line_id)
        if line.accepted_at is not None:
            raise ApiError(409, "This quote line was already accepted into buying prices.")
        request = QuoteRequest.objects.select_for_update().get(pk=line.quote.request_id)
        if request.status == QuoteRequest.Status.CLOSED:
            raise ApiError(
                409, f"Quote request {request.number} is closed: its prices can no longer be accepted."
            )
        bp, _ = pricing.save_buying_price(
            {
                "supplier_id": line.quote.supplier_id,
                "terminal_id": line.terminal_id,
                "product_id": line.product_id,
                "price": line.price,
                "effective_from": line.effective_from,
                "effective_to": None,
            }
        )
        line.accepted_at = timezone.now()
        line.buying_price = bp
        line.save(update_fields=["accepted_at", "buying_price"])
    return line


def close_request(*, request_id: int) -> QuoteRequest:
    with transaction.atomic():
        request = get_or_404(QuoteRequest.objects.select_for_update(), request_id)
        request.status = QuoteRequest.Status.CLOSED
        request.save(update_fields=["status", "updated_at"])
    return request
