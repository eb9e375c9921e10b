"""Writes of sales orders: create and update (header, lines, fees), pricing through the engine,
notes, and removing a line or a fee. Workflow moves are in `workflow.py`."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict
from decimal import Decimal
from typing import Any

from core.crud import check_foreign_keys
from core.documents import replace_lines
from core.errors import ApiError
from core.permissions import acting_user
from django.db import transaction
from django.utils import timezone

from tenants.pricing.money import ZERO
from tenants.sales.credit import register_receivables_provider as register_receivables_provider
from tenants.sales.models import LineItem, Note, OrderFee, SalesOrder
from tenants.sequences.services import next_number

NUMBER_KIND = "sales_order"
NUMBER_PREFIX = "SO-"
HEADER_FIELDS = ("po_number", "instructions")
WINDOW_FIELDS = ("planned_date", "planned_time_from", "planned_time_to")
PARTY_FIELDS = ("customer_id", "ship_to_id")


# --- create / update -------------------------------------------------------------------------------
def create_order(data: dict[str, Any], *, by: Any = None) -> SalesOrder:
    lines = data.pop("line_items", None) or []
    fees = data.pop("fees", None) or []
    data.setdefault("planned_date", None)
    if data["planned_date"] is None:
        data["planned_date"] = timezone.localdate()
    with transaction.atomic():
        order = SalesOrder(created_by=by if by is not None else acting_user())
        _apply_header(order, data, creating=True)
        order.number = next_number(NUMBER_KIND, prefix=NUMBER_PREFIX)
        order.save()
        new_lines = _replace_lines(order, lines)
        _replace_fees(order, fees)
        reprice(order, lines=new_lines)
    return order


def update_order(order: SalesOrder, data: dict[str, Any]) -> SalesOrder:
    data.pop("id", None)
    lines = data.pop("line_items", None)
    fees = data.pop("fees", None)
    with transaction.atomic():
        order = SalesOrder.objects.select_for_update().get(pk=order.pk)
        _check_editable(order, data, lines, fees)
        _apply_header(order, data, creating=False)
        order.save()
        new_lines = _replace_lines(order, lines) if lines is not None else None
        if fees is not None:
            _replace_fees(order, fees)
        if order.status == SalesOrder.Status.DRAFT:
            reprice(order, lines=new_lines)
    return order


def _check_editable(order: SalesOrder, data: dict[str, Any], lines: Any, fees: Any) -> None:
    s = SalesOrder.Status
    status = order.status
    label = SalesOrder.Status(status).label.lower()
    changing = {k for k, v in data.items() if getattr(order, k, None) != v}
    if status == s.DRAFT:
        return
    if lines is not None or fees is not None or changing & set(PARTY_FIELDS):
        raise ApiError(
            409,
            f"This sales order is {label}: its customer, lines and fees can only change in draft "
            "(move it back to draft first).",
        )
    if changing & set(WINDOW_FIELDS) and status != s.VERIFIED:
        raise ApiError(
            409, f"This sales order is {label}: its planned delivery can change only while verified or draft."
        )
    if changing & set(HEADER_FIELDS) and status not in (s.VERIFIED, s.ASSIGNED, s.IN_DELIVERY, s.DELIVERED):
        raise ApiError(409, f"This sales order is {label} and can no longer be changed.")


def _apply_header(order: SalesOrder, data: dict[str, Any], *, creating: bool) -> None:
    from tenants.parties.models import Customer, ShipTo

    check_foreign_keys(SalesOrder, {k: v for k, v in data.items() if k in PARTY_FIELDS})
    for key, value in data.items():
        if key in (*HEADER_FIELDS, *WINDOW_FIELDS, *PARTY_FIELDS):
            setattr(order, key, value if value is not None or key not in HEADER_FIELDS else "")
    if creating and not order.customer_id:
        raise ApiError(422, "customer_id: a sales order needs a customer.")
    if "customer_id" in data and not creating and order.ship_to_id and "ship_to_id" not in data:
        order.ship_to_id = None  # another customer: the old ship-to no longer fits
    if order.ship_to_id:
        owner = ShipTo.objects.filter(pk=order.ship_to_id).values_list("customer_id", flat=True).first()
        if owner != order.customer_id:
            raise ApiError(422, "Invalid delivery location")
    if order.planned_date is None:
        raise ApiError(422, "planned_date: a sales order needs a planned delivery date.")
    if order.planned_time_from and order.planned_time_to and order.planned_time_from > order.planned_time_to:
        raise ApiError(422, "planned_time_to: the delivery window ends before it starts.")
    if creating:
        status = Customer.objects.filter(pk=order.customer_id).values_list("status", flat=True).first()
        if status == Customer.Status.INACTIVE:
            raise ApiError(422, "customer_id: this customer is inactive; reactivate it to take orders.")


def _replace_lines(order: SalesOrder, lines: list[dict[str, Any]]) -> list[LineItem]:
    """The order's lines become exactly `lines` (those with an id are updated, the rest added). The
    lines are answered unsaved: `reprice(order, lines=…)` prices them and writes each one once."""
    from tenants.catalog.models import Product
    from tenants.parties.models import CustomerAsset

    product_ids = {ln["product_id"] for ln in lines}
    products = {p.pk: p for p in Product.objects.filter(pk__in=product_ids)}
    asset_ids = {ln["customer_asset_id"] for ln in lines if ln.get("customer_asset_id")}
    assets = {a.pk: a for a in CustomerAsset.objects.filter(pk__in=asset_ids)}

    def fill(line: LineItem, raw: dict[str, Any]) -> None:
        product = products.get(raw["product_id"])
        if product is None:
            raise ApiError(422, f"line_items: no product with id {raw['product_id']}.")
        if not product.is_active:
            raise ApiError(422, f"line_items: {product.name} is inactive and cannot be ordered.")
        asset = None
        if raw.get("customer_asset_id"):
            asset = assets.get(raw["customer_asset_id"])
            if asset is None or asset.customer_id != order.customer_id:
                raise ApiError(422, f"line_items: tank {raw['customer_asset_id']} is not this customer's.")
            if order.ship_to_id and asset.ship_to_id and asset.ship_to_id != order.ship_to_id:
                raise ApiError(422, f"line_items: {asset.asset_name} is at another delivery location.")
        line.product = product
        line.quantity = _as_stored(raw["quantity"], "quantity")
        line.customer_asset = asset
        line.po_number = raw.get("po_number") or ""
        typed = raw.get("unit_price_override")
        line.unit_price_override = None if typed is None else _as_stored(typed, "unit_price_override")

    return replace_lines(
        order.line_items,
        lines,
        new=lambda raw: LineItem(sales_order=order),
        fill=fill,
        unknown=lambda line_id: f"line_items: line item {line_id} is not on this sales order.",
        save=False,
    )


def _as_stored(value: Decimal, field: str) -> Decimal:
    """The value as the column will give it back (its decimal places): the engine prices the unsaved
    line exactly as it would the saved one (a breakdown's quantities read the same)."""
    places = LineItem._meta.get_field(field).decimal_places  # type: ignore[union-attr]
    return value.quantize(Decimal(1).scaleb(-places))


def _replace_fees(order: SalesOrder, fees: list[dict[str, Any]]) -> None:
    """The order's fees become exactly `fees` (those with an id are updated, the rest added)."""
    from tenants.pricing.models import Fee

    known = {f.pk: f for f in Fee.objects.filter(pk__in={f["fee_id"] for f in fees})}

    def fill(row: OrderFee, raw: dict[str, Any]) -> None:
        fee = known.get(raw["fee_id"])
        if fee is None:
            raise ApiError(422, f"fees: no fee with id {raw['fee_id']}.")
        row.fee = fee
        row.name = fee.name
        row.quantity = raw.get("quantity")

    replace_lines(
        order.fees,
        fees,
        new=lambda raw: OrderFee(sales_order=order),
        fill=fill,
        unknown=lambda fee_row_id: f"fees: fee {fee_row_id} is not on this sales order.",
    )


# --- pricing ---------------------------------------------------------------------------------------
def line_requests(lines: list[LineItem], *, use_current: bool = False) -> list[Any]:
    """The engine's requests for lines: a fixed line's stored price (with `use_current`, every
    priced line's) is its fixed price, the price the user typed its typed one; which wins is the
    engine's `LineRequest.of`."""
    from tenants.pricing.services import LineRequest

    def fixed(ln: LineItem) -> Decimal | None:
        return ln.unit_price if ln.price_fixed or use_current else None

    return [
        LineRequest.of(
            line_key(ln), ln.product_id, ln.quantity, fixed=fixed(ln), typed=ln.unit_price_override
        )
        for ln in lines
    ]


def line_key(ln: LineItem) -> str:
    """A line's key in the engine's request: its id, or its position while it is not saved yet."""
    return str(ln.pk) if ln.pk is not None else f"new:{ln.position}"


def price_request(
    order: SalesOrder, lines: list[LineItem], fees: list[OrderFee], *, use_current: bool = False
) -> Any:
    """The engine's answer for the order's lines and fees as they stand."""
    from tenants.pricing.services import FeeRequest, price_document

    return price_document(
        customer_id=order.customer_id,
        ship_to_id=order.ship_to_id,
        lines=line_requests(lines, use_current=use_current),
        pricing_date=order.planned_date,
        fees=[FeeRequest(str(f.pk), f.fee_id, f.quantity) for f in fees],
    )


def price_document_for(order: SalesOrder, lines: list[LineItem] | None = None) -> tuple[Any, dict[str, str]]:
    """Price the order. Lines the engine cannot price (no price in force) are left out and carry the
    engine's sentence, so a draft still shows what can be priced: at most one more engine call per
    product without a price."""
    from tenants.pricing.services import PricingError, as_http_error

    lines = list(order.line_items.all()) if lines is None else lines
    fees = list(order.fees.all())
    errors: dict[str, str] = {}  # by line_key
    while True:
        priceable = [ln for ln in lines if line_key(ln) not in errors]
        try:
            return price_request(order, priceable, fees), errors
        except PricingError as exc:
            culprits = [
                ln for ln in priceable if exc.product_id is not None and ln.product_id == exc.product_id
            ]
            if not culprits:
                raise as_http_error(exc, fields={"unknown_fee": "fees"}) from exc
            for ln in culprits:
                errors[line_key(ln)] = exc.message


def reprice(order: SalesOrder, lines: list[LineItem] | None = None) -> SalesOrder:
    """Price the order's lines and fees through the engine; store prices, breakdowns and totals.
    Lines not yet fixed follow the engine; fixed lines (verified) keep their unit price. `lines`: the
    order's lines as a save left them, unsaved (`_replace_lines`); default the stored ones."""
    apply_prices(order, lines)
    return order


def apply_prices(order: SalesOrder, lines: list[LineItem] | None = None) -> Any:
    """`reprice`, answering the engine's priced document. Each line is written once: the unsaved
    lines of a save whole (with their prices), the stored ones their price fields only."""
    doc, errors = price_document_for(order, lines)
    priced = {pl.key: pl for pl in doc.lines}
    unsaved = lines is not None
    lines = list(order.line_items.all()) if lines is None else lines
    for line in lines:
        key = line_key(line)
        pl = priced.get(key)
        if pl is None:
            line.unit_price = None
            line.amount = ZERO
            line.tax_amount = ZERO
            line.price_breakdown = {}
            line.price_error = errors.get(key, "")[:300]
        else:
            line.unit_price = pl.unit_price
            line.amount = pl.amount
            line.tax_amount = pl.tax_amount
            line.price_breakdown = {**pl.breakdown, "taxes": [_jsonable(asdict(t)) for t in pl.taxes]}
            line.price_error = ""
        if unsaved:
            line.save()
            continue
        line.save(
            update_fields=[
                "unit_price",
                "amount",
                "tax_amount",
                "price_breakdown",
                "price_error",
                "updated_at",
            ]
        )
    amounts = {fa.key: fa for fa in doc.fees}
    for fee in order.fees.all():
        fa = amounts.get(str(fee.pk))
        if fa is not None:
            fee.name, fee.fee_type, fee.rate = fa.name, fa.fee_type, fa.rate
            fee.applied_quantity, fee.subtotal = fa.quantity, fa.subtotal
            fee.save(update_fields=["name", "fee_type", "rate", "applied_quantity", "subtotal", "updated_at"])
    # The engine's totals: line amounts, fees, and every tax (the lines' and the document's own).
    order.subtotal = doc.subtotal
    order.fee_total = doc.fee_total
    order.tax_total = doc.tax_total
    order.total = doc.total
    order.save(update_fields=["subtotal", "tax_total", "fee_total", "total", "updated_at"])
    return doc


def reprice_for_rack(*, product_id: int, terminal_id: int | None, effective_from: str | None) -> int:
    """See tasks.reprice_after_rack_change."""
    from django.db.models import Q

    from tenants.pricing.services import margin_guard

    lines = LineItem.objects.filter(
        product_id=product_id, price_fixed=False, sales_order__status=SalesOrder.Status.DRAFT
    )
    if effective_from:
        lines = lines.filter(sales_order__planned_date__gte=dt.date.fromisoformat(effective_from))
    from_rack = Q(price_breakdown__terminal_id=terminal_id) if terminal_id is not None else Q()
    lines = lines.filter(from_rack | Q(unit_price__isnull=True))
    order_ids = sorted(set(lines.values_list("sales_order_id", flat=True)))
    for order_id in order_ids:
        with transaction.atomic():
            order = SalesOrder.objects.select_for_update().filter(pk=order_id).first()
            if order is None or order.status != SalesOrder.Status.DRAFT:
                continue
            doc = apply_prices(order)
            alerts = [a for pl in doc.lines if (a := margin_guard(pl))]
            if alerts:
                names = {ln.pk: ln.product.name for ln in order.line_items.all()}
                body = "Rack price change: margin under the rule's minimum on " + "; ".join(
                    f"{names.get(int(a['key']), a['product_id'])} at {a['unit_price']} "
                    f"(cost {a['cost']}, minimum margin {a['minimum_margin']})"
                    for a in alerts
                )
                Note.objects.create(sales_order=order, body=body)
    return len(order_ids)


def _jsonable(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (str(v) if isinstance(v, Decimal) else v) for k, v in d.items()}


# --- lines, fees, notes ----------------------------------------------------------------------------
def delete_line(line: LineItem) -> SalesOrder:
    with transaction.atomic():
        order = SalesOrder.objects.select_for_update().get(pk=line.sales_order_id)
        if order.status != SalesOrder.Status.DRAFT:
            label = SalesOrder.Status(order.status).label.lower()
            raise ApiError(409, f"This sales order is {label}: its lines can only be removed in draft.")
        line.delete()
        reprice(order)
    return order


def delete_fee(fee: OrderFee) -> SalesOrder:
    with transaction.atomic():
        order = SalesOrder.objects.select_for_update().get(pk=fee.sales_order_id)
        if order.status != SalesOrder.Status.DRAFT:
            label = SalesOrder.Status(order.status).label.lower()
            raise ApiError(409, f"This sales order is {label}: its fees can only be removed in draft.")
        fee.delete()
        reprice(order)
    return order


def add_note(order: SalesOrder, body: str, *, by: Any = None, origin: str = Note.Origin.USER) -> Note:
    """A note on an order; `origin=system` for what the server writes (e.g. a driver's refused
    action), which only users who may delete sales orders can change."""
    body = body.strip()
    if not body:
        raise ApiError(422, "body: a note cannot be empty.")
    return Note.objects.create(sales_order=order, body=body, created_by=by or acting_user(), origin=origin)


def update_note(note: Note, body: str, *, by: Any) -> Note:
    _own_note(note, by)
    body = body.strip()
    if not body:
        raise ApiError(422, "body: a note cannot be empty.")
    note.body = body
    note.save(update_fields=["body", "updated_at"])
    return note


def delete_note(note: Note, *, by: Any) -> None:
    _own_note(note, by)
    note.delete()


def _own_note(note: Note, by: Any) -> None:
    office = bool(by and by.has_perm("sales_order.delete"))
    if note.origin == Note.Origin.SYSTEM and not office:
        raise ApiError(403, "This note was written by the system: only the office can change it.")
    if note.created_by_id != getattr(by, "pk", None) and not office:
        raise ApiError(
            403, "Only the author of a note (or a user who may delete sales orders) can change it."
        )


def parse_start(raw: str | None) -> dt.datetime | None:
    if raw is None or not raw.strip():
        return None
    try:
        value = dt.datetime.fromisoformat(raw.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise ApiError(422, f"start_date_time: '{raw}' is not a date and time (ISO 8601).") from exc
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    return value
