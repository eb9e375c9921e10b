"""Reads of delivery tickets: lists, one ticket, the office entry view of an order, and the data a ticket
document prints (`ticket_document_data`, the documents contract)."""

from __future__ import annotations

import base64
from decimal import Decimal
from typing import Any

from core import scoping
from core.errors import ApiError
from core.storage import open_tenant_file
from django.db.models import Prefetch, QuerySet

from tenants.delivery.models import DeliveryTicket, DeliveryTicketEvent, DeliveryTicketLine
from tenants.documents.selectors import company_block
from tenants.parties.models import CustomerAsset
from tenants.sales.models import SalesOrder

RASTER_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}
UNITS = {"gallon": "gal", "litre": "L", "quart": "qt", "pound": "lb", "kilogram": "kg"}


def _lines() -> Any:
    return Prefetch(
        "lines",
        queryset=DeliveryTicketLine.objects.select_related("product", "tank").order_by("position", "id"),
    )


def tickets() -> QuerySet[DeliveryTicket]:
    return DeliveryTicket.objects.select_related(
        "sales_order", "sales_order__customer", "sales_order__ship_to"
    ).prefetch_related(
        _lines(), Prefetch("events", queryset=DeliveryTicketEvent.objects.order_by("at", "id"))
    )


def filter_tickets(qs: QuerySet[DeliveryTicket], params: Any) -> QuerySet[DeliveryTicket]:
    if getattr(params, "sales_order_id", None):
        qs = qs.filter(sales_order_id=params.sales_order_id)
    if getattr(params, "status", None):
        qs = qs.filter(status=params.status)
    return qs


def get_ticket(ticket_id: int) -> DeliveryTicket:
    # Through the request's row scope (core.scoping): a driver reaches his own orders' tickets only.
    return scoping.get_or_404(
        tickets().select_related("sales_order__driver", "sales_order__truck"), ticket_id
    )


def order_tickets(order_id: int) -> list[DeliveryTicket]:
    """An order's tickets in use (not voided), oldest first."""
    return list(tickets().filter(sales_order_id=order_id).exclude(status="void").order_by("id"))


def get_order(order_id: int) -> SalesOrder:
    return scoping.get_or_404(
        SalesOrder.objects.select_related("customer", "ship_to", "driver", "truck"), order_id
    )


def entry_view(order: SalesOrder) -> dict[str, Any]:
    """What the office entry screen needs for an order: its lines with the product's API gravity and
    VCF group (the screen computes net gallons live), the customer's tanks, the tickets and what they
    already hold."""
    tks = order_tickets(order.pk)
    recorded = {tl.line_item_id: tl for t in tks for tl in t.lines.all()}
    tanks = CustomerAsset.objects.filter(customer_id=order.customer_id, is_active=True)
    if order.ship_to_id:
        tanks = tanks.filter(ship_to_id=order.ship_to_id)
    lines = []
    for line in order.line_items.select_related("product", "customer_asset").order_by("position", "id"):
        tl = recorded.get(line.pk)
        lines.append(
            {
                "line_item_id": line.pk,
                "position": line.position,
                "product_id": line.product_id,
                "product_name": line.product.name,
                "product_code": line.product.code,
                "sold_as": line.product.sold_as,
                "is_fuel": line.product.is_fuel,
                "api_gravity": line.product.api_gravity,
                "vcf_group": line.product.vcf_group,
                "po_number": line.po_number or order.po_number,
                "ordered_quantity": line.quantity,
                "delivered_quantity": line.delivered_quantity,
                "tank_id": (tl.tank_id if tl else None) or line.customer_asset_id,
                "gross_volume": tl.gross_volume if tl else None,
                "net_volume": tl.net_volume if tl else None,
                "meter_start": tl.meter_start if tl else None,
                "meter_end": tl.meter_end if tl else None,
                "temperature_f": tl.temperature_f if tl else None,
                "level_before_percent": tl.level_before_percent if tl else None,
            }
        )
    first = tks[0] if tks else None
    return {
        "sales_order_id": order.pk,
        "sales_order_number": order.number,
        "status": order.status,
        "customer_name": order.customer.name,
        "ship_to_name": order.ship_to.name if order.ship_to else "",
        "po_number": order.po_number,
        "planned_date": order.planned_date,
        "driver_name": order.driver.name if order.driver else "",
        "lines": lines,
        "tanks": [{"id": t.pk, "asset_name": t.asset_name, "product_id": t.product_id} for t in tanks],
        "tickets": [
            {"id": t.pk, "number": t.number, "status": t.status, "po_number": t.po_number} for t in tks
        ],
        "signer_name": first.signer_name if first else "",
        "reference": first.reference if first else "",
    }


# --- the ticket as a document ---------------------------------------------------------------------
def _address(obj: Any) -> list[str]:
    if obj is None:
        return []
    lines = [x for x in (obj.address_one, obj.address_two) if x]
    city = obj.city.name if obj.city_id else ""
    state = obj.state.code if obj.state_id else ""
    last = ", ".join(x for x in (city, f"{state} {obj.zip_code}".strip()) if x)
    if last:
        lines.append(last)
    return lines


def _image(key: str) -> str:
    if not key:
        return ""
    try:
        data, content_type = open_tenant_file(key)
    except ApiError:
        return ""
    if content_type not in RASTER_TYPES:
        return ""
    return f"data:{content_type};base64,{base64.b64encode(data).decode()}"


def _sum(values: list[Decimal | None]) -> Decimal | None:
    present = [v for v in values if v is not None]
    return sum(present, Decimal("0")) if present else None


TENTH = Decimal("0.1")


def _s(value: Any) -> Any:
    """JSON-ready: Decimals as strings (to a tenth when that loses nothing: meters and gallons are read
    to a tenth), dates and times in ISO 8601, None kept."""
    if value is None:
        return None
    if isinstance(value, Decimal):
        return str(value.quantize(TENTH) if value == value.quantize(TENTH) else value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def ticket_document_data(ticket: DeliveryTicket) -> dict[str, Any]:
    """Everything a ticket's document prints, shaped as the documents contract's `delivery_ticket` data
    (tenants/documents/contract.py), JSON-ready, with the signature and photos inlined as data: URIs:
    hand it to `render_document("delivery_ticket", data)`."""
    order = SalesOrder.objects.select_related(
        "customer",
        "customer__city",
        "customer__state",
        "ship_to",
        "ship_to__city",
        "ship_to__state",
        "driver",
        "truck",
    ).get(pk=ticket.sales_order_id)
    tlines = list(ticket.lines.select_related("product", "tank").order_by("position", "id"))
    lines = [
        {
            "line_no": i,
            "product_code": tl.product.code,
            "product_name": tl.product.name,
            "description": tl.product.description[:200],
            "unit": UNITS.get(tl.product.sold_as, tl.product.sold_as),
            "quantity_ordered": _s(tl.ordered_quantity),
            "quantity_delivered": _s(tl.delivered_quantity),
            "gross_volume": _s(tl.gross_volume),
            "net_volume": _s(tl.net_volume),
            "quantity_billed": _s(tl.delivered_quantity),
            "temperature": _s(tl.temperature_f),
            "meter_start": _s(tl.meter_start),
            "meter_end": _s(tl.meter_end),
            "tank": tl.tank_name or (tl.tank.asset_name if tl.tank else ""),
        }
        for i, tl in enumerate(tlines, start=1)
    ]
    location = ""
    if ticket.latitude is not None and ticket.longitude is not None:
        location = f"{ticket.latitude}, {ticket.longitude}"
    customer = order.customer
    ship_to = order.ship_to
    company = company_block()
    notes = "Net gallons corrected to 60 °F (API MPMS 11.1, table 6B)."
    if ticket.reference:
        notes = f"Paper ticket {ticket.reference}. {notes}"
    return {
        "type": "delivery_ticket",
        "company": company.model_dump(mode="json"),
        "customer": {
            "name": customer.name,
            "account_number": customer.account_number,
            "address": _address(customer),
            "phone": customer.phone,
            "email": customer.email,
        },
        "ship_to": {"name": ship_to.name, "address": _address(ship_to)} if ship_to else {},
        "document": {
            "number": ticket.number,
            "title": "Delivery Ticket",
            "date": _s((ticket.delivered_at or ticket.created_at).date()),
            "order_number": order.number,
            "po_number": ticket.po_number,
            "status": ticket.get_status_display(),
            "notes": notes,
            "delivered_at": _s(ticket.delivered_at),
            "driver": order.driver.name if order.driver else "",
            "truck": order.truck.asset_number if order.truck else "",
        },
        "lines": lines,
        "totals": {
            "gross_volume": _s(_sum([tl.gross_volume for tl in tlines])),
            "net_volume": _s(_sum([tl.net_volume for tl in tlines])),
            "gallons_ordered": _s(
                _sum([tl.ordered_quantity for tl in tlines if tl.product.sold_as == "gallon"])
            ),
            "gallons_delivered": _s(
                _sum([tl.delivered_quantity for tl in tlines if tl.product.sold_as == "gallon"])
            ),
        },
        "signature": {
            "signer_name": ticket.signer_name,
            "signed_at": _s(ticket.signed_at),
            "image": _image(ticket.signature_key),
            "location": location,
            "photos": [p for p in (_image(k) for k in ticket.photo_keys) if p],
        },
    }
