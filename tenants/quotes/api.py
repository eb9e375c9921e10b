"""`/api/price-quote`: quote requests emailed to suppliers, their quotes, the comparison grid and
accepting a line into buying prices (docs/inbox.md)."""

from __future__ import annotations

from typing import Any

from core.envelope import Answer, Envelope, Page, ok, page_of
from core.permissions import acting_user, perm, register_resource
from django.http import HttpRequest
from ninja import Query, Router

from tenants.company.selectors import company_profile
from tenants.quotes import selectors, services
from tenants.quotes.models import QuoteLine, QuoteRequest
from tenants.quotes.schemas import (
    QuoteComparisonOut,
    QuoteIn,
    QuoteLineOut,
    QuoteListQuery,
    QuoteOut,
    QuoteRequestIn,
    QuoteRequestListOut,
    QuoteRequestOut,
    ReplyDestinationOut,
)

router = Router(tags=["price-quote"])
register_resource("price_quote", "Price quotes", ("view", "add", "change"))


def request_out(request: QuoteRequest) -> dict[str, Any]:
    return {
        "id": request.pk,
        "number": request.number,
        "quote_date": request.quote_date,
        "quantity": request.quantity,
        "status": request.status,
        "notes": request.notes,
        "reply_to": request.reply_to,
        "created_at": request.created_at,
        "created_by_name": request.created_by_name,
        "products": [{"id": p.pk, "name": p.name, "code": p.code} for p in request.products.all()],
        "terminals": [
            {"id": t.pk, "name": t.name, "terminal_code": t.terminal_code} for t in request.terminals.all()
        ],
        "recipients": [
            {
                "id": r.pk,
                "supplier": {"id": r.supplier_id, "name": r.supplier.name},
                "email": r.email,
                "message_id": r.message_id,
                "email_status": r.sent_email.status if r.sent_email else None,
            }
            for r in request.recipients.all()
        ],
        "quotes": [quote_out(q) for q in request.quotes.all()],
    }


def line_out(line: QuoteLine) -> dict[str, Any]:
    return {
        "id": line.pk,
        "product": {"id": line.product_id, "name": line.product.name},
        "terminal": {"id": line.terminal_id, "name": line.terminal.name},
        "price": line.price,
        "effective_from": line.effective_from,
        "accepted_at": line.accepted_at,
        "buying_price_id": line.buying_price_id,
    }


def quote_out(quote: Any) -> dict[str, Any]:
    return {
        "id": quote.pk,
        "supplier": {"id": quote.supplier_id, "name": quote.supplier.name},
        "received_at": quote.received_at,
        "source_message_id": quote.source_message_id,
        "notes": quote.notes,
        "lines": [line_out(ln) for ln in quote.lines.all()],
    }


@router.get(
    "/requests",
    response=Envelope[Page[QuoteRequestListOut]],
    auth=perm("price_quote.view"),
    operation_id="price_quote_request_list",
)
def list_requests(request: HttpRequest, query: Query[QuoteListQuery]) -> Answer:
    qs = selectors.requests()
    total = qs.count()
    start = (query.page - 1) * query.size
    rows = list(qs[start : start + query.size])
    return ok(page_of(rows, total=total, page=query.page, size=query.size), "Quote requests retrieved")


@router.post(
    "/requests",
    response={201: Envelope[QuoteRequestOut]},
    auth=perm("price_quote.add"),
    operation_id="price_quote_request_create",
)
def create_request(request: HttpRequest, payload: QuoteRequestIn) -> Answer:
    profile = company_profile()
    destination = selectors.reply_destination(profile.email if profile else "")
    made = services.create_request(
        quote_date=payload.quote_date,
        quantity=payload.quantity,
        product_ids=payload.product_ids,
        terminal_ids=payload.terminal_ids,
        supplier_ids=payload.supplier_ids,
        notes=payload.notes,
        acting_user=acting_user(),
        company_name=profile.name if profile else "",
        reply_to=destination.address,
    )
    count = made.recipients.count()
    return ok(
        request_out(selectors.get_request(made.pk)),
        f"Quote request {made.number} queued for {count} supplier{'s' if count != 1 else ''}",
        status=201,
    )


@router.get(
    "/reply-address",
    response=Envelope[ReplyDestinationOut],
    auth=perm("price_quote.view"),
    operation_id="price_quote_reply_address",
)
def reply_address(request: HttpRequest) -> Answer:
    """Where suppliers' replies to a new request will go (the connected mailbox, else the company's
    email), and a warning in words when the inbox agent will not read them."""
    profile = company_profile()
    found = selectors.reply_destination(profile.email if profile else "")
    return ok(
        {"address": found.address, "read_by_inbox": found.read_by_inbox, "note": found.note},
        "Reply address retrieved",
    )


@router.get(
    "/requests/{int:id}",
    response=Envelope[QuoteRequestOut],
    auth=perm("price_quote.view"),
    operation_id="price_quote_request_get",
)
def get_request(request: HttpRequest, id: int) -> Answer:
    return ok(request_out(selectors.get_request(id)), "Quote request retrieved")


@router.get(
    "/requests/{int:id}/comparison",
    response=Envelope[QuoteComparisonOut],
    auth=perm("price_quote.view"),
    operation_id="price_quote_comparison",
)
def comparison(request: HttpRequest, id: int) -> Answer:
    return ok(selectors.comparison(id), "Quote comparison retrieved")


@router.post(
    "/requests/{int:id}/quotes",
    response={201: Envelope[QuoteOut]},
    auth=perm("price_quote.change"),
    operation_id="price_quote_record",
)
def record_quote(request: HttpRequest, id: int, payload: QuoteIn) -> Answer:
    """A quote given another way (a phone call): the same lines a verified email reply makes."""
    selectors.get_request(id)
    quote = services.record_quote(
        request_id=id,
        supplier_id=payload.supplier_id,
        lines=[services.LineInput(ln.product_id, ln.terminal_id, ln.price) for ln in payload.lines],
        notes=payload.notes,
    )
    full = next(q for q in selectors.get_request(id).quotes.all() if q.pk == quote.pk)
    return ok(quote_out(full), "Quote recorded", status=201)


@router.put(
    "/requests/{int:id}/close",
    response=Envelope[QuoteRequestOut],
    auth=perm("price_quote.change"),
    operation_id="price_quote_request_close",
)
def close_request(request: HttpRequest, id: int) -> Answer:
    services.close_request(request_id=id)
    return ok(request_out(selectors.get_request(id)), "Quote request closed")


@router.put(
    "/lines/{int:id}/accept",
    response=Envelope[QuoteLineOut],
    auth=perm("price_quote.change"),
    operation_id="price_quote_line_accept",
)
def accept_line(request: HttpRequest, id: int) -> Answer:
    line = services.accept_line(line_id=id)
    line = QuoteLine.objects.select_related("product", "terminal").get(pk=line.pk)
    return ok(
        line_out(line),
        f"Buying price saved: {line.product.name} at {line.terminal.name}, "
        f"{line.price} from {line.effective_from.isoformat()}",
    )


routes = [("/price-quote", router)]
