"""Delivery tickets (`/api/delivery-ticket`): generate an order's tickets, list, get (JSON, or the PDF
with `Accept: application/pdf`), the printable document's data, and the office entry of a delivery."""

from __future__ import annotations

from typing import Any

from core.envelope import Answer, Envelope, Page, ok
from core.listing import ListSpec, apply_list, paginate
from core.permissions import perm, register_resource
from core.scoping import scoped
from django.http import HttpRequest, HttpResponse
from ninja import Query, Router

from tenants.delivery import selectors, services
from tenants.delivery.schemas import (
    DeliveryEntryIn,
    DeliveryEntryOut,
    DeliveryTicketGenerateQuery,
    DeliveryTicketOut,
    DeliveryTicketQuery,
)
from tenants.documents.services import render_document

router = Router(tags=["delivery-ticket"])
register_resource("delivery_ticket", "Delivery tickets", ("view", "add", "change"))

DEFAULT_SIZE = 50
LIST_SPEC = ListSpec(
    search=("number", "po_number", "sales_order__number", "sales_order__customer__name"),
    sort={
        "created_at": "created_at",
        "number": "number",
        "delivered_at": "delivered_at",
        "status": "status",
        "id": "id",
    },
    filters={
        "number": ("number", "str"),
        "po_number": ("po_number", "str"),
        "status": ("status", "str"),
        "customer_name": ("sales_order__customer__name", "str"),
        "delivered_at": ("delivered_at", "datetime"),
        "sales_order_id": ("sales_order_id", "int"),
    },
    default_sort="-created_at",
)
# sort_by and filter_field as enums of LIST_SPEC's names (core.listing.ListSpec.query_schema).
DeliveryTicketListQuery = LIST_SPEC.query_schema("DeliveryTicketListQuery", extra=DeliveryTicketQuery)
PDF_DOC = {
    "responses": {
        "200": {
            "description": "The ticket (JSON), or its PDF when the request's Accept names application/pdf",
            "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
        }
    }
}


def wants_pdf(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return "application/pdf" in accept and "application/json" not in accept


def pdf_response(ticket_id: int) -> HttpResponse:
    ticket = selectors.get_ticket(ticket_id)
    _html, pdf = render_document("delivery_ticket", selectors.ticket_document_data(ticket))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{ticket.number}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


@router.get(
    "",
    response=Envelope[Page[DeliveryTicketOut]],
    auth=perm("delivery_ticket.view"),
    summary="List delivery tickets",
    description="Newest first; `sales_order_id` narrows to an order's tickets, `status` to open, delivered "
    "or void.",
)
def list_tickets(request: HttpRequest, params: Query[DeliveryTicketListQuery]) -> Answer:  # type: ignore[valid-type]
    qs = apply_list(selectors.filter_tickets(scoped(selectors.tickets()), params), params, LIST_SPEC)
    return ok(paginate(qs, params, DEFAULT_SIZE), "Delivery tickets retrieved successfully")


@router.get(
    "/generate",
    response=Envelope[list[DeliveryTicketOut]],
    auth=perm("delivery_ticket.add"),
    summary="Generate (or refresh) the delivery tickets of a sales order",
    description="One ticket, or one per PO number among the order's lines with `split_by_po=true`. A "
    "ticket keeps its number when generated again; one no longer needed is voided. Delivered tickets "
    "never change.",
)
def generate(request: HttpRequest, params: Query[DeliveryTicketGenerateQuery]) -> Answer:
    order = selectors.get_order(params.sales_order_id)
    tickets = services.generate_tickets(
        order=order,
        split_by_po=params.split_by_po,
        po_number=params.po_number,
        by=request.auth,
    )
    fresh = {t.pk: t for t in selectors.tickets().filter(pk__in=[t.pk for t in tickets])}
    count = len(tickets)
    message = f"{count} delivery ticket{'s' if count != 1 else ''} generated successfully"
    return ok([fresh[t.pk] for t in tickets], message)


@router.get(
    "/entry/{int:sales_order_id}",
    response=Envelope[DeliveryEntryOut],
    auth=perm("delivery_ticket.view"),
    summary="A sales order as the delivery entry screen shows it",
    description="Its lines with each product's API gravity and VCF group (for net gallons at 60 °F), the "
    "customer's tanks at the ship-to, the order's tickets and what they hold.",
)
def entry(request: HttpRequest, sales_order_id: int) -> Answer:
    order = selectors.get_order(sales_order_id)
    return ok(selectors.entry_view(order), "Delivery entry retrieved successfully")


@router.post(
    "/entry/{int:sales_order_id}",
    response=Envelope[list[DeliveryTicketOut]],
    auth=perm("sales_order.deliver"),
    summary="Record a delivery (office entry of a paper ticket) and end it",
    description="Per line: delivered quantity, gross, meters, temperature, tank; net gallons at 60 °F are "
    "computed (API MPMS 11.1 table 6B). Proof: signer, `signature_key` (upload purpose `signature`), "
    "`photo_keys` (purpose `photo`), GPS. Starts the delivery when the order is only assigned, records "
    "the delivered products and delivers the order (unless `complete=false`), in one transaction.",
)
def record(request: HttpRequest, sales_order_id: int, payload: DeliveryEntryIn) -> Answer:
    order = selectors.get_order(sales_order_id)
    tickets = services.record_delivery(
        order=order,
        lines=[ln.dict() for ln in payload.lines],
        signer_name=payload.signer_name,
        signature_key=payload.signature_key,
        photo_keys=payload.photo_keys,
        latitude=payload.latitude,
        longitude=payload.longitude,
        delivered_at=payload.delivered_at,
        reference=payload.reference,
        complete=payload.complete,
        by=request.auth,
    )
    fresh = {t.pk: t for t in selectors.tickets().filter(pk__in=[t.pk for t in tickets])}
    message = "Delivery recorded successfully" if payload.complete else "Delivered quantities recorded"
    return ok([fresh[t.pk] for t in tickets], message)


@router.get(
    "/{int:id}",
    response=Envelope[DeliveryTicketOut],
    auth=perm("delivery_ticket.view"),
    summary="Get a delivery ticket (JSON), or its PDF with Accept: application/pdf",
    openapi_extra=PDF_DOC,
)
def get_ticket(request: HttpRequest, id: int) -> Answer | HttpResponse:
    if wants_pdf(request):
        return pdf_response(id)
    return ok(selectors.get_ticket(id), "Delivery ticket retrieved successfully")


@router.get(
    "/{int:id}/document",
    response=Envelope[dict[str, Any]],
    auth=perm("delivery_ticket.view"),
    summary="The printable ticket's data (company, customer, ship-to, lines, proof with inlined images)",
    description="The `delivery_ticket` document contract (tenants/documents), as the PDF prints it.",
)
def document(request: HttpRequest, id: int) -> Answer:
    ticket = selectors.get_ticket(id)
    return ok(selectors.ticket_document_data(ticket), "Delivery ticket document retrieved successfully")


@router.get(
    "/{int:id}/pdf",
    auth=perm("delivery_ticket.view"),
    summary="The ticket's PDF (same as GET /{id} with Accept: application/pdf)",
    response={200: bytes},
    openapi_extra={"responses": {"200": {"description": "The PDF"}}},
)
def pdf(request: HttpRequest, id: int) -> HttpResponse:
    return pdf_response(id)


routes = [("/delivery-ticket", router)]
