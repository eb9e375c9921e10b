"""Writes of delivery tickets: generate (or refresh) an order's tickets, and record a delivery.

`record_delivery` is the one way a delivery is entered with its proof, from the office (a paper ticket
typed in) or from the driver's phone: it validates everything first, then in ONE transaction fills the
ticket lines (net gallons by the table 6B VCF), stores the proof, and drives the sales order's workflow
(start delivery if needed, deliver products, deliver). Any refusal leaves nothing changed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from core.documents import replace_lines
from core.errors import ApiError
from core.storage import resolve_tenant_file
from django.db import transaction
from django.utils import timezone

from tenants.delivery import vcf as vcf_mod
from tenants.delivery import workflow as ticket_workflow
from tenants.delivery.models import DeliveryTicket, DeliveryTicketLine
from tenants.parties.models import CustomerAsset
from tenants.sales import workflow
from tenants.sales.models import LineItem, SalesOrder
from tenants.sequences.services import next_number

TICKET_KIND = "delivery_ticket"
TICKET_PREFIX = "DT-"
MAX_PHOTOS = 10
QTY = Decimal("0.001")
ERROR = "Error delivering products"
S = SalesOrder.Status
T = DeliveryTicket.Status
# Orders whose tickets can no longer be generated (nothing will be delivered).
NO_TICKETS = (S.CANCELLED.value,)
DELIVERED_ORDER = (S.DELIVERED.value, S.COMPLETED.value, S.ARCHIVE.value)


def _qty(value: Decimal | None) -> Decimal | None:
    return None if value is None else value.quantize(QTY, rounding=ROUND_HALF_UP)


# --- generate / refresh --------------------------------------------------------------------------
def _groups(lines: Sequence[LineItem], order: SalesOrder, split_by_po: bool) -> dict[str, list[LineItem]]:
    """PO number → the order's lines on that ticket (a line without a PO takes the order's)."""
    if not split_by_po:
        return {order.po_number: list(lines)}
    groups: dict[str, list[LineItem]] = {}
    for line in lines:
        groups.setdefault(line.po_number or order.po_number, []).append(line)
    return groups


def _sync_lines(ticket: DeliveryTicket, lines: Sequence[LineItem]) -> None:
    """The ticket's lines follow the order's: same products and ordered quantities; a delivered
    quantity already recorded on the order shows too. Meter readings typed on the ticket stay."""

    def fill(tl: DeliveryTicketLine, line: LineItem) -> None:
        tl.product_id = line.product_id
        tl.ordered_quantity = line.quantity
        if line.delivered_quantity is not None:
            tl.delivered_quantity = line.delivered_quantity
        if tl.tank_id is None and line.customer_asset_id is not None:
            tl.tank_id = line.customer_asset_id

    # Keyed by the order's line: a line new on the order is a new ticket line.
    replace_lines(
        ticket.lines,
        lines,
        new=lambda line: DeliveryTicketLine(ticket=ticket, line_item=line),
        fill=fill,
        key=lambda line: line.pk,
        key_field="line_item_id",
    )


def _new_ticket(order: SalesOrder, po_number: str, by: Any) -> DeliveryTicket:
    ticket = DeliveryTicket.objects.create(
        number=next_number(TICKET_KIND, prefix=TICKET_PREFIX),
        sales_order=order,
        po_number=po_number,
        created_by=by if getattr(by, "pk", None) else None,
    )
    ticket_workflow.created(ticket, by=by, details={"sales_order": order.number, "po_number": po_number})
    return ticket


def generate_tickets(
    *, order: SalesOrder, split_by_po: bool, po_number: str | None, by: Any
) -> list[DeliveryTicket]:
    """Create or refresh the order's tickets: one per PO number among its lines when `split_by_po`,
    else one. With `po_number`, only that PO's ticket (split) or the one ticket carrying that PO.
    A ticket keeps its number forever; one no longer needed (its PO left the order) is voided.
    Tickets already delivered are never changed."""
    po_filter = (po_number or "").strip() or None
    with transaction.atomic():
        order = SalesOrder.objects.select_for_update().get(pk=order.pk)
        if order.status in NO_TICKETS:
            raise ApiError(409, f"Sales order {order.number} is cancelled: it has no delivery tickets.")
        lines = list(order.line_items.order_by("position", "id"))
        if not lines:
            raise ApiError(422, f"Sales order {order.number} has no product lines to put on a ticket.")
        groups = _groups(lines, order, split_by_po)
        if po_filter is not None:
            if split_by_po:
                if po_filter not in groups:
                    listed = ", ".join(sorted(repr(p) for p in groups)) or "none"
                    raise ApiError(
                        422,
                        f"po_number: no line of sales order {order.number} has PO {po_filter!r} "
                        f"(its PO numbers: {listed}).",
                    )
                groups = {po_filter: groups[po_filter]}
            else:
                groups = {po_filter: lines}
        tickets = list(order.delivery_tickets.select_for_update().order_by("id"))
        delivered = [t for t in tickets if t.status == T.DELIVERED]
        if delivered and order.status in DELIVERED_ORDER:
            return delivered  # the delivery is done: its tickets are what was signed
        reusable = [t for t in tickets if t.status != T.DELIVERED]
        by_po = {t.po_number: t for t in reversed(reusable)}  # the oldest ticket of a PO wins
        result: list[DeliveryTicket] = []
        used: set[int] = set()
        for po, group_lines in groups.items():
            ticket = by_po.get(po)
            if ticket is not None and ticket.pk in used:
                ticket = None
            if ticket is None and not split_by_po:  # one ticket: the order's oldest one carries on
                ticket = next((t for t in reusable if t.pk not in used), None)
            if ticket is None:
                ticket = _new_ticket(order, po, by)
            if ticket.status == T.VOID:  # back in use: its PO is on the order again
                ticket = ticket_workflow.reopen(ticket, po_number=po, by=by)
            else:
                ticket.po_number = po
                ticket.save()
            _sync_lines(ticket, group_lines)
            used.add(ticket.pk)
            result.append(ticket)
        if po_filter is None:
            # A full regeneration: tickets left over from another split are no longer in use.
            for t in reusable:
                if t.pk not in used and t.status != T.VOID:
                    ticket_workflow.void(
                        t, reason="no longer needed: the order's tickets were regenerated", by=by
                    )
    return result


# --- record a delivery ---------------------------------------------------------------------------
@dataclass
class _LineEntry:
    line: LineItem
    delivered_quantity: Decimal
    gross_volume: Decimal | None
    net_volume: Decimal | None
    vcf: Decimal | None
    api_gravity: Decimal | None
    vcf_group: str
    meter_start: Decimal | None
    meter_end: Decimal | None
    temperature_f: Decimal | None
    level_before_percent: Decimal | None
    tank: CustomerAsset | None
    tank_name: str


def _decimal(raw: Any, field: str, *, places: int = 3, minimum: Decimal | None = None) -> Decimal | None:
    if raw is None or raw == "":
        return None
    try:
        value = Decimal(str(raw))
    except (InvalidOperation, ValueError):
        raise ApiError(422, f"{field}: not a number.") from None
    if not value.is_finite() or abs(value) >= Decimal(10) ** 11:
        raise ApiError(422, f"{field}: not a number we can record.")
    if minimum is not None and value < minimum:
        raise ApiError(422, f"{field}: cannot be below {minimum}.")
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _tank(raw_id: Any, raw_name: Any, order: SalesOrder, where: str) -> tuple[CustomerAsset | None, str]:
    name = str(raw_name or "").strip()[:200]
    tank_id = raw_id
    if tank_id is None and isinstance(raw_name, int):
        tank_id, name = raw_name, ""
    if tank_id in (None, ""):
        return None, name
    try:
        pk = int(tank_id)
    except (TypeError, ValueError):
        raise ApiError(422, f"{where}.tank_id: not a tank id.") from None
    tank = CustomerAsset.objects.filter(pk=pk, customer_id=order.customer_id).first()
    if tank is None:
        raise ApiError(422, f"{where}.tank_id: no tank {pk} at this customer.")
    return tank, name or tank.asset_name


def _entry(raw: dict[str, Any], line: LineItem, order: SalesOrder, where: str) -> _LineEntry:
    product = line.product
    meter_start = _decimal(raw.get("meter_start"), f"{where}.meter_start", minimum=Decimal(0))
    meter_end = _decimal(raw.get("meter_end"), f"{where}.meter_end", minimum=Decimal(0))
    if meter_start is not None and meter_end is not None and meter_end < meter_start:
        raise ApiError(422, f"{where}: the end meter reading is below the start reading.")
    gross = _decimal(raw.get("gross_volume"), f"{where}.gross_volume", minimum=Decimal(0))
    if gross is None and meter_start is not None and meter_end is not None:
        gross = meter_end - meter_start
    temperature = _decimal(raw.get("temperature_f"), f"{where}.temperature_f", places=1)
    group = product.vcf_group or "none"
    api = product.api_gravity
    net = factor = None
    if gross is not None:
        if group == "none":
            net, factor = gross, None
        elif temperature is not None and api is not None:
            try:
                factor = vcf_mod.vcf(temperature, api, group)
                net = vcf_mod.net_volume(gross, temperature, api, group)
            except vcf_mod.VcfInputError as exc:
                raise ApiError(422, f"{where}: {exc}") from None
        elif temperature is None:
            raise ApiError(
                422, f"{where}: the product temperature is needed to compute net gallons of {product.name}."
            )
        else:
            raise ApiError(
                422,
                f"{where}: {product.name} has no API gravity: set it on the product to compute net "
                "gallons at 60 °F.",
            )
    delivered = _decimal(raw.get("delivered_quantity"), f"{where}.delivered_quantity", minimum=Decimal(0))
    if delivered is None:
        # Bulk fuel is billed on net gallons at 60 °F; goods on what was counted.
        delivered = net if net is not None else gross
    if delivered is None:
        raise ApiError(422, f"{where}: send the delivered quantity (or the meter readings).")
    tank, tank_name = _tank(raw.get("tank_id"), raw.get("tank"), order, where)
    level_before = _decimal(raw.get("level_before_percent"), f"{where}.level_before_percent", places=1)
    if level_before is not None and not Decimal(0) <= level_before <= Decimal(100):
        raise ApiError(422, f"{where}.level_before_percent: {level_before} % is outside 0 to 100 %.")
    return _LineEntry(
        line=line,
        delivered_quantity=delivered,
        gross_volume=gross,
        net_volume=net,
        vcf=factor,
        api_gravity=api if group != "none" else None,
        vcf_group=group,
        meter_start=meter_start,
        meter_end=meter_end,
        temperature_f=temperature,
        level_before_percent=level_before,
        tank=tank,
        tank_name=tank_name,
    )


def _entries(order: SalesOrder, lines: Sequence[dict[str, Any]]) -> list[_LineEntry]:
    if not lines:
        raise ApiError(422, f"{ERROR}: send at least one line's delivered quantity.")
    order_lines = {ln.pk: ln for ln in order.line_items.select_related("product")}
    seen: set[int] = set()
    entries = []
    for i, raw in enumerate(lines):
        where = f"lines[{i}]"
        if not isinstance(raw, dict):
            raise ApiError(422, f"{where}: expected an object.")
        try:
            line_id = int(raw.get("line_item_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ApiError(422, f"{where}.line_item_id: required.") from None
        line = order_lines.get(line_id)
        if line is None:
            raise ApiError(422, f"{ERROR}: line item {line_id} is not on this sales order.")
        if line_id in seen:
            raise ApiError(422, f"{where}: line item {line_id} is sent twice.")
        seen.add(line_id)
        entries.append(_entry(raw, line, order, where))
    return entries


def _proof(signature_key: str | None, photo_keys: Sequence[str] | None) -> tuple[str, list[str]]:
    signature = ""
    if signature_key:
        signature = resolve_tenant_file(signature_key, purposes={"signature"}, field="signature_key").file_key
    photos = list(photo_keys or [])
    if len(photos) > MAX_PHOTOS:
        raise ApiError(422, f"photo_keys: at most {MAX_PHOTOS} photos per delivery.")
    keys = [
        resolve_tenant_file(k, purposes={"photo"}, field=f"photo_keys[{i}]").file_key
        for i, k in enumerate(photos)
    ]
    return signature, list(dict.fromkeys(keys))


def _coordinate(value: Any, field: str, limit: int) -> Decimal | None:
    number = _decimal(value, field, places=6)
    if number is not None and abs(number) > limit:
        raise ApiError(422, f"{field}: must be between -{limit} and {limit}.")
    return number


def record_delivery(
    *,
    order: SalesOrder,
    lines: list[dict[str, Any]],
    signer_name: str,
    signature_key: str | None,
    photo_keys: list[str] | None,
    latitude: Decimal | float | str | None,
    longitude: Decimal | float | str | None,
    delivered_at: dt.datetime | None,
    by: Any,
    reference: str = "",
    complete: bool = True,
) -> list[DeliveryTicket]:
    """Record what was delivered (per order line: delivered quantity, gross, meters, temperature, tank)
    with its proof, on the order's tickets, and end the delivery (`complete=False` records the
    quantities only, the order stays in delivery). One transaction; a refusal changes nothing.

    Each line dict: line_item_id, delivered_quantity (default: net gallons for a corrected fuel, else
    gross), gross_volume (default: meter_end - meter_start), meter_start, meter_end, temperature_f,
    level_before_percent (the tank's gauge before the drop, 0-100 %), tank_id (a tank of the
    customer) or tank (free text)."""
    when = delivered_at or timezone.now()
    if timezone.is_naive(when):
        when = timezone.make_aware(when)
    if when > timezone.now() + dt.timedelta(minutes=10):
        raise ApiError(422, "delivered_at: a delivery cannot be recorded in the future.")
    signer = (signer_name or "").strip()[:200]
    lat = _coordinate(latitude, "latitude", 90)
    lon = _coordinate(longitude, "longitude", 180)
    if (lat is None) != (lon is None):
        raise ApiError(422, "latitude and longitude go together: send both or neither.")
    signature, photos = _proof(signature_key, photo_keys)
    with transaction.atomic():
        order = SalesOrder.objects.select_for_update().get(pk=order.pk)
        entries = _entries(order, lines)
        if order.status == S.ASSIGNED:
            order = workflow.start_delivery(order, start=when, by=by)
        quantities = [(e.line.pk, e.delivered_quantity) for e in entries]
        order = workflow.deliver_products(order, quantities, by=by)
        if complete:
            order = workflow.deliver(order, delivered_at=when, by=by)
        tickets = [t for t in order.delivery_tickets.order_by("id") if t.status != T.VOID]
        if not tickets:
            tickets = generate_tickets(order=order, split_by_po=False, po_number=None, by=by)
        ticket_lines = {tl.line_item_id: tl for tl in DeliveryTicketLine.objects.filter(ticket__in=tickets)}
        for e in entries:
            tl = ticket_lines.get(e.line.pk)
            if tl is None:  # a line added after the tickets were made: it goes on the first ticket
                tl = DeliveryTicketLine(
                    ticket=tickets[0],
                    line_item=e.line,
                    product_id=e.line.product_id,
                    position=e.line.position,
                    ordered_quantity=e.line.quantity,
                )
            tl.delivered_quantity = e.delivered_quantity
            tl.gross_volume = e.gross_volume
            tl.net_volume = e.net_volume
            tl.vcf = e.vcf
            tl.api_gravity = e.api_gravity
            tl.vcf_group = e.vcf_group
            tl.meter_start = e.meter_start
            tl.meter_end = e.meter_end
            tl.temperature_f = e.temperature_f
            tl.level_before_percent = e.level_before_percent
            tl.tank = e.tank
            tl.tank_name = e.tank_name
            tl.save()
        done = []
        for ticket in tickets:
            ticket.signer_name = signer or ticket.signer_name
            ticket.signature_key = signature or ticket.signature_key
            ticket.photo_keys = list(dict.fromkeys([*ticket.photo_keys, *photos]))
            if signer or signature:
                ticket.signed_at = when
            if lat is not None:
                ticket.latitude, ticket.longitude = lat, lon
            if reference:
                ticket.reference = reference.strip()[:60]
            ticket.save()
            if complete:
                ticket = ticket_workflow.deliver(ticket, delivered_at=when, by=by)
            done.append(ticket)
    return done


def mark_emailed(*, tickets: Sequence[DeliveryTicket], at: dt.datetime | None = None) -> int:
    """Record that these tickets were emailed to the customer (the delivery-ticket email calls this)."""
    ids = [t.pk for t in tickets]
    return DeliveryTicket.objects.filter(pk__in=ids).update(emailed_at=at or timezone.now())
