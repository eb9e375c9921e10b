"""Writes of purchasing: purchase orders (header, lines with their default cost, taxes through the
pricing engine, receipts) and bills (lines, charges, due date, the three-way match stored on the bill).
Workflow moves are in `workflow/po.py` and `workflow/bill.py`.

Other apps (the bill parser, the inbox agent) create bills through `create_bill` only.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from core.crud import check_foreign_keys, save_object
from core.documents import replace_lines
from core.errors import ApiError
from core.permissions import acting_user
from core.scoping import not_found
from django.db import IntegrityError, transaction
from django.utils import timezone

from tenants.pricing.money import ZERO, money, unit
from tenants.purchasing import matching
from tenants.purchasing.models import (
    Bill,
    BillCharge,
    BillLine,
    MatchSettings,
    PurchaseOrder,
    PurchaseOrderLine,
    Receipt,
    ReceiptLine,
    SupplierTerm,
)
from tenants.sequences.services import next_number

QTY = Decimal("0.001")
PO_NUMBER_KIND = "purchase_order"
PO_NUMBER_PREFIX = "PO-"
DEFAULT_NET_DAYS = 30
PO = PurchaseOrder.Status
B = Bill.Status
# A bill may name a purchase order in these statuses (not a draft, not cancelled or closed).
BILLABLE_PO_STATUSES = (PO.ORDERED.value, PO.RECEIVED.value, PO.BILLED.value)


def _label(status: str) -> str:
    return PurchaseOrder.Status(status).label.lower()


# ===================================================================================================
# Purchase orders
# ===================================================================================================
PO_HEADER_FIELDS = ("supplier_id", "terminal_id", "order_date", "expected_date", "reference", "notes")
PO_DRAFT_ONLY = ("supplier_id", "terminal_id", "order_date")


def create_purchase_order(data: dict[str, Any], *, by: Any = None) -> PurchaseOrder:
    """A draft purchase order. Lines without a unit cost get the supplier's buying price in force on
    the order date (at the terminal); the engine prices their taxes."""
    lines = data.pop("lines", None) or []
    if data.get("order_date") is None:
        data["order_date"] = timezone.localdate()
    with transaction.atomic():
        po = PurchaseOrder(created_by=by if by is not None else acting_user())
        _apply_po_header(po, data, creating=True)
        po.number = next_number(PO_NUMBER_KIND, prefix=PO_NUMBER_PREFIX)
        po.save()
        _replace_po_lines(po, lines)
        reprice_purchase_order(po)
    return po


def update_purchase_order(po: PurchaseOrder, data: dict[str, Any]) -> PurchaseOrder:
    data.pop("id", None)
    lines = data.pop("lines", None)
    with transaction.atomic():
        po = PurchaseOrder.objects.select_for_update().get(pk=po.pk)
        changing = {k for k, v in data.items() if getattr(po, k, None) != v}
        if po.status != PO.DRAFT and (lines is not None or changing & set(PO_DRAFT_ONLY)):
            raise ApiError(
                409,
                f"Purchase order {po.number} is {_label(po.status)}: its supplier, terminal, date and lines "
                "change only in draft.",
            )
        if po.status in (PO.CLOSED, PO.CANCELLED) and changing:
            raise ApiError(
                409, f"Purchase order {po.number} is {_label(po.status)} and can no longer change."
            )
        _apply_po_header(po, data, creating=False)
        po.save()
        if lines is not None:
            _replace_po_lines(po, lines)
        if po.status == PO.DRAFT:
            reprice_purchase_order(po)
    return po


def delete_purchase_order(po: PurchaseOrder) -> None:
    with transaction.atomic():
        po = PurchaseOrder.objects.select_for_update().get(pk=po.pk)
        if po.status not in (PO.DRAFT, PO.CANCELLED):
            raise ApiError(
                409,
                f"Purchase order {po.number} is {_label(po.status)}: "
                "only a draft or cancelled purchase order can be deleted (cancel it first).",
            )
        if po.bills.exists():
            raise ApiError(409, f"Purchase order {po.number} has bills and cannot be deleted.")
        po.delete()


def _apply_po_header(po: PurchaseOrder, data: dict[str, Any], *, creating: bool) -> None:
    from tenants.parties.models import Supplier, Terminal

    check_foreign_keys(PurchaseOrder, {k: v for k, v in data.items() if k in ("supplier_id", "terminal_id")})
    for key, value in data.items():
        if key in PO_HEADER_FIELDS:
            setattr(po, key, "" if value is None and key in ("reference", "notes") else value)
    if not po.supplier_id:
        raise ApiError(422, "supplier_id: a purchase order needs a supplier.")
    if po.order_date is None:
        raise ApiError(422, "order_date: a purchase order needs an order date.")
    if po.expected_date and po.expected_date < po.order_date:
        raise ApiError(422, "expected_date: the expected date is before the order date.")
    supplier = Supplier.objects.filter(pk=po.supplier_id).only("name", "status").first()
    assert supplier is not None
    if creating and supplier.status == Supplier.Status.INACTIVE:
        raise ApiError(422, f"supplier_id: {supplier.name} is inactive; reactivate it to order from it.")
    if po.terminal_id:
        listed = set(supplier.terminals.values_list("pk", flat=True))
        if listed and po.terminal_id not in listed:
            name = Terminal.objects.filter(pk=po.terminal_id).values_list("name", flat=True).first()
            raise ApiError(422, f"terminal_id: {supplier.name} does not supply at {name}.")


def default_unit_cost(
    *, supplier_id: int, terminal_id: int | None, product_id: int, on: dt.date
) -> tuple[Decimal | None, int | None]:
    """The supplier's buying price in force on the date (at the terminal, else its lowest across
    terminals): (unit cost, buying price id), or (None, None)."""
    from tenants.pricing.services import buying_price_in_force

    rack = buying_price_in_force(
        product_id=product_id, terminal_id=terminal_id, supplier_id=supplier_id, on=on, basis="named"
    )
    if rack is None:
        return None, None
    return unit(rack.price), rack.buying_price_id


def _replace_po_lines(po: PurchaseOrder, lines: list[dict[str, Any]]) -> None:
    from tenants.catalog.models import Product

    products = {p.pk: p for p in Product.objects.filter(pk__in={ln["product_id"] for ln in lines})}

    def fill(line: PurchaseOrderLine, raw: dict[str, Any]) -> None:
        product = products.get(raw["product_id"])
        if product is None:
            raise ApiError(422, f"lines: no product with id {raw['product_id']}.")
        line.product = product
        line.quantity = raw["quantity"]
        cost = raw.get("unit_cost")
        if cost is not None:
            line.unit_cost, line.unit_cost_source, line.buying_price_id = unit(cost), "manual", None
        else:
            found, bp_id = default_unit_cost(
                supplier_id=po.supplier_id,
                terminal_id=po.terminal_id,
                product_id=product.pk,
                on=po.order_date,
            )
            line.unit_cost = found
            line.unit_cost_source = "buying_price" if found is not None else ""
            line.buying_price_id = bp_id

    replace_lines(
        po.lines,
        lines,
        new=lambda raw: PurchaseOrderLine(purchase_order=po),
        fill=fill,
        unknown=lambda line_id: f"lines: line {line_id} is not on this purchase order.",
    )


def price_purchase_order(po: PurchaseOrder, lines: list[PurchaseOrderLine] | None = None) -> Any:
    """The engine's priced document for the lines that have a unit cost (None when none has)."""
    from tenants.pricing.services import LineRequest, PricingError, as_http_error, price_purchase

    costed = [ln for ln in (lines if lines is not None else po.lines.all()) if ln.unit_cost is not None]
    if not costed:
        return None
    state_id = city_id = None
    if po.terminal_id:
        from tenants.parties.models import Terminal

        place = Terminal.objects.filter(pk=po.terminal_id).values("state_id", "city_id").first()
        if place:
            state_id, city_id = place["state_id"], place["city_id"]
    try:
        return price_purchase(
            lines=[
                LineRequest.of(str(ln.pk), ln.product_id, ln.quantity, fixed=ln.unit_cost) for ln in costed
            ],
            pricing_date=po.order_date,
            state_id=state_id,
            city_id=city_id,
        )
    except PricingError as exc:
        raise as_http_error(exc) from exc


def reprice_purchase_order(po: PurchaseOrder) -> PurchaseOrder:
    """Line amounts, line taxes and the order's totals, from the engine."""
    lines = list(po.lines.all())
    doc = price_purchase_order(po, lines)
    priced = {pl.key: pl for pl in doc.lines} if doc is not None else {}
    for line in lines:
        pl = priced.get(str(line.pk))
        line.amount = pl.amount if pl else ZERO
        line.tax_amount = pl.tax_amount if pl else ZERO
        line.save(update_fields=["amount", "tax_amount", "updated_at"])
    po.subtotal = doc.subtotal if doc else ZERO
    po.tax_total = doc.tax_total if doc else ZERO
    po.total = doc.total if doc else ZERO
    po.save(update_fields=["subtotal", "tax_total", "total", "updated_at"])
    return po


def record_receipt(
    po: PurchaseOrder,
    *,
    bol_number: str,
    received_on: dt.date,
    lines: list[tuple[int, Decimal, Decimal]],
    notes: str = "",
    by: Any = None,
) -> Receipt:
    """One lift (bill of lading) against the order: (line id, gross, net) per line. Called by the
    workflow's `receive` under the order's row lock."""
    bol_number = bol_number.strip()
    if not bol_number:
        raise ApiError(422, "bol_number: a receipt needs its bill of lading number.")
    if not lines:
        raise ApiError(422, "lines: a receipt needs at least one line's received quantities.")
    own = {ln.pk for ln in po.lines.all()}
    seen: set[int] = set()
    for line_id, gross, net in lines:
        if line_id not in own:
            raise ApiError(422, f"lines: line {line_id} is not on purchase order {po.number}.")
        if line_id in seen:
            raise ApiError(422, f"lines: line {line_id} is listed twice.")
        seen.add(line_id)
        if gross < 0 or net < 0:
            raise ApiError(422, "lines: received quantities cannot be negative.")
    if Receipt.objects.filter(purchase_order=po, bol_number__iexact=bol_number).exists():
        raise ApiError(409, f"Bill of lading {bol_number} is already received on {po.number}.")
    receipt = Receipt.objects.create(
        purchase_order=po, bol_number=bol_number, received_on=received_on, notes=notes.strip(), created_by=by
    )
    ReceiptLine.objects.bulk_create(
        [ReceiptLine(receipt=receipt, line_id=lid, gross_quantity=g, net_quantity=n) for lid, g, n in lines]
    )
    return receipt


# ===================================================================================================
# Bills
# ===================================================================================================
BILL_HEADER_FIELDS = (
    "supplier_id",
    "bill_number",
    "bill_date",
    "due_date",
    "payment_term_id",
    "purchase_order_id",
    "terminal_id",
    "freight",
    "notes",
)
DUPLICATE_BILL = "This supplier already has a bill numbered {number}."


TOTAL_MISMATCH = (
    "The bill's lines and taxes come to {lines} but the document's total is {document} "
    "(a difference of {diff}): correct the lines or taxes, or create the bill anyway with a reason "
    "for the difference."
)
MAX_OVERRIDE_REASON = 500


def _usd(value: Decimal) -> str:
    return f"-${abs(value):,.2f}" if value < 0 else f"${value:,.2f}"


def _check_document_total(bill: Bill, document_total: Decimal | None, reason: str, by: Any) -> None:
    """A bill read from a document must add up to the document's total, unless the user says why not
    (the reason, who and when are kept on the bill)."""
    if document_total is None:
        return
    bill.document_total = money(Decimal(str(document_total)))
    diff = money(bill.document_total - bill.total)
    if diff != ZERO:
        if not reason:
            raise ApiError(
                409,
                TOTAL_MISMATCH.format(
                    lines=_usd(bill.total), document=_usd(bill.document_total), diff=_usd(diff)
                ),
            )
        bill.total_override_reason = reason
        bill.total_override_by = by if getattr(by, "pk", None) else None
        bill.total_override_at = timezone.now()
    bill.save(
        update_fields=[
            "document_total",
            "total_override_reason",
            "total_override_by",
            "total_override_at",
            "updated_at",
        ]
    )


def create_bill(
    data: dict[str, Any],
    *,
    by: Any = None,
    source: str = "manual",
    source_file: str = "",
    document_total: Decimal | None = None,
    total_override_reason: str = "",
) -> Bill:
    """A draft bill from plain data (what `BillIn` validates):

    supplier_id, bill_number, bill_date (required); due_date (default: bill date + the supplier's
    payment term, else the company's default term, else 30 days); payment_term_id, purchase_order_id,
    terminal_id, freight, notes (optional); lines: [{product_id?, description?, purchase_order_line_id?,
    bol_number?, gross_quantity?, quantity, unit_price, amount?}]; charges: [{kind: tax|fee, name,
    tax_id?, amount}]. Lines of a bill on a purchase order without a `purchase_order_line_id` are
    matched to the order's line of the same product. The three-way match is computed and stored.
    `source` (manual, parser, inbox) and `source_file` (an uploaded file's key) say where it came from.
    A bill number the supplier already used (case-insensitive, void bills aside) is a 409.
    `document_total` (the total printed on the supplier's document): a bill whose total differs from it
    is a 409, unless `total_override_reason` says why; the reason is kept on the bill with who and when."""
    data = dict(data)
    lines = data.pop("lines", None) or []
    charges = data.pop("charges", None) or []
    reason = (total_override_reason or "").strip()
    if len(reason) > MAX_OVERRIDE_REASON:
        raise ApiError(422, f"total_override_reason: at most {MAX_OVERRIDE_REASON} characters.")
    with transaction.atomic():
        bill = Bill(
            created_by=by if by is not None else acting_user(), source=source, source_file=source_file
        )
        _apply_bill_header(bill, data, creating=True)
        try:
            with transaction.atomic():
                bill.save()
        except IntegrityError as exc:
            raise ApiError(409, DUPLICATE_BILL.format(number=bill.bill_number)) from exc
        _replace_bill_lines(bill, lines)
        _replace_charges(bill, charges)
        refresh_bill(bill)
        _check_document_total(bill, document_total, reason, bill.created_by)
    return bill


def update_bill(bill: Bill, data: dict[str, Any]) -> Bill:
    data = dict(data)
    data.pop("id", None)
    lines = data.pop("lines", None)
    charges = data.pop("charges", None)
    with transaction.atomic():
        bill = Bill.objects.select_for_update().get(pk=bill.pk)
        if bill.status != B.DRAFT:
            raise ApiError(
                409,
                f"Bill {bill.bill_number} is {Bill.Status(bill.status).label.lower()}: "
                "a bill changes only in draft (unapprove it first).",
            )
        _apply_bill_header(bill, data, creating=False)
        try:
            with transaction.atomic():
                bill.save()
        except IntegrityError as exc:
            raise ApiError(409, DUPLICATE_BILL.format(number=bill.bill_number)) from exc
        if lines is not None:
            _replace_bill_lines(bill, lines)
        if charges is not None:
            _replace_charges(bill, charges)
        refresh_bill(bill)
    return bill


def delete_bill(bill: Bill) -> None:
    with transaction.atomic():
        bill = Bill.objects.select_for_update().get(pk=bill.pk)
        if bill.status != B.DRAFT:
            raise ApiError(
                409,
                f"Bill {bill.bill_number} is {Bill.Status(bill.status).label.lower()}: "
                "only a draft bill can be deleted (void it instead).",
            )
        bill.delete()


def supplier_payment_term(supplier_id: int) -> Any:
    """The supplier's payment term, else the company's default term, else None (net 30)."""
    from tenants.pricing.models import PaymentTerm

    term = SupplierTerm.objects.filter(supplier_id=supplier_id).select_related("payment_term").first()
    if term is not None:
        return term.payment_term
    return PaymentTerm.objects.filter(is_default=True).first()


def _apply_bill_header(bill: Bill, data: dict[str, Any], *, creating: bool) -> None:
    from tenants.pricing.models import PaymentTerm

    keys = ("supplier_id", "payment_term_id", "purchase_order_id", "terminal_id")
    check_foreign_keys(Bill, {k: v for k, v in data.items() if k in keys})
    due_given = data.get("due_date") is not None
    for key, value in data.items():
        if key in BILL_HEADER_FIELDS:
            if key == "notes" and value is None:
                value = ""
            if key == "freight" and value is None:
                value = ZERO
            setattr(bill, key, value)
    bill.bill_number = (bill.bill_number or "").strip()
    if not bill.supplier_id:
        raise ApiError(422, "supplier_id: a bill needs a supplier.")
    if not bill.bill_number:
        raise ApiError(422, "bill_number: a bill needs the supplier's bill number.")
    if bill.bill_date is None:
        raise ApiError(422, "bill_date: a bill needs its date.")
    if bill.freight is None or bill.freight < 0:
        raise ApiError(422, "freight: freight cannot be negative.")
    bill.freight = money(bill.freight)
    clash = Bill.objects.filter(supplier_id=bill.supplier_id, bill_number__iexact=bill.bill_number).exclude(
        status=B.VOID
    )
    if bill.pk:
        clash = clash.exclude(pk=bill.pk)
    if clash.exists():
        raise ApiError(409, DUPLICATE_BILL.format(number=bill.bill_number))
    if bill.purchase_order_id:
        po = (
            PurchaseOrder.objects.filter(pk=bill.purchase_order_id)
            .only("number", "supplier_id", "status")
            .first()
        )
        assert po is not None
        if po.supplier_id != bill.supplier_id:
            raise ApiError(422, f"purchase_order_id: {po.number} is another supplier's purchase order.")
        changing_po = creating or "purchase_order_id" in data
        if changing_po and po.status not in BILLABLE_PO_STATUSES:
            raise ApiError(
                422,
                f"purchase_order_id: {po.number} is {_label(po.status)}; "
                "a bill needs an ordered purchase order.",
            )
        if not bill.terminal_id:
            bill.terminal_id = (
                PurchaseOrder.objects.filter(pk=po.pk).values_list("terminal_id", flat=True).first()
            )
    if not due_given and (creating or {"bill_date", "payment_term_id", "supplier_id"} & set(data)):
        term = (
            PaymentTerm.objects.filter(pk=bill.payment_term_id).first()
            if bill.payment_term_id
            else supplier_payment_term(bill.supplier_id)
        )
        if term is not None and not bill.payment_term_id:
            bill.payment_term_id = term.pk
        days = term.net_days if term is not None else DEFAULT_NET_DAYS
        bill.due_date = bill.bill_date + dt.timedelta(days=days)
    if bill.due_date < bill.bill_date:
        raise ApiError(422, "due_date: the due date is before the bill date.")


def _replace_bill_lines(bill: Bill, lines: list[dict[str, Any]]) -> None:
    from tenants.catalog.models import Product

    product_ids = {ln["product_id"] for ln in lines if ln.get("product_id")}
    products = {p.pk: p for p in Product.objects.filter(pk__in=product_ids)}
    po_lines = (
        list(
            PurchaseOrderLine.objects.filter(purchase_order_id=bill.purchase_order_id).order_by(
                "position", "id"
            )
        )
        if bill.purchase_order_id
        else []
    )
    by_id = {pl.pk: pl for pl in po_lines}
    taken = {ln["purchase_order_line_id"] for ln in lines if ln.get("purchase_order_line_id")}

    def fill(line: BillLine, raw: dict[str, Any]) -> None:
        product = None
        if raw.get("product_id"):
            product = products.get(raw["product_id"])
            if product is None:
                raise ApiError(422, f"lines: no product with id {raw['product_id']}.")
        po_line_id = raw.get("purchase_order_line_id")
        if po_line_id:
            if po_line_id not in by_id:
                raise ApiError(
                    422, f"lines: purchase order line {po_line_id} is not on this bill's purchase order."
                )
        elif product is not None and po_lines:
            # Match by product: the order's first line of this product not named by another bill line.
            candidate = next(
                (pl for pl in po_lines if pl.product_id == product.pk and pl.pk not in taken), None
            )
            if candidate is not None:
                po_line_id = candidate.pk
                taken.add(candidate.pk)
        if product is None and po_line_id:
            product = next(p for p in [by_id[po_line_id].product] if p)
        description = (raw.get("description") or "").strip() or (product.name if product else "")
        if not description:
            raise ApiError(422, "lines: a line needs a product or a description.")
        quantity = Decimal(raw["quantity"])
        unit_price = unit(Decimal(raw["unit_price"]))
        amount = raw.get("amount")
        line.product = product
        line.description = description[:300]
        line.purchase_order_line_id = po_line_id
        line.bol_number = (raw.get("bol_number") or "").strip()[:60]
        line.gross_quantity = raw.get("gross_quantity")
        line.quantity = quantity
        line.unit_price = unit_price
        line.amount = money(Decimal(amount)) if amount is not None else money(quantity * unit_price)

    replace_lines(
        bill.lines,
        lines,
        new=lambda raw: BillLine(bill=bill),
        fill=fill,
        unknown=lambda line_id: f"lines: line {line_id} is not on this bill.",
    )


def _replace_charges(bill: Bill, charges: list[dict[str, Any]]) -> None:
    from tenants.pricing.models import Tax

    tax_ids = {c["tax_id"] for c in charges if c.get("tax_id")}
    known = set(Tax.objects.filter(pk__in=tax_ids).values_list("pk", flat=True))
    bill.charges.all().delete()
    rows = []
    for position, raw in enumerate(charges, start=1):
        if raw.get("tax_id") and raw["tax_id"] not in known:
            raise ApiError(422, f"charges: no tax with id {raw['tax_id']}.")
        name = (raw.get("name") or "").strip()
        if not name:
            raise ApiError(422, "charges: a tax or fee needs a name.")
        rows.append(
            BillCharge(
                bill=bill,
                position=position,
                kind=raw.get("kind") or BillCharge.Kind.TAX,
                name=name[:200],
                tax_id=raw.get("tax_id"),
                amount=money(Decimal(raw["amount"])),
            )
        )
    BillCharge.objects.bulk_create(rows)


def refresh_bill(bill: Bill) -> Bill:
    """Totals (lines + taxes + fees + freight) and the stored match status."""
    lines = list(bill.lines.all())
    charges = list(bill.charges.all())
    bill.subtotal = money(sum((ln.amount for ln in lines), ZERO))
    bill.tax_total = money(sum((c.amount for c in charges if c.kind == BillCharge.Kind.TAX), ZERO))
    fees = money(sum((c.amount for c in charges if c.kind != BillCharge.Kind.TAX), ZERO))
    bill.total = money(bill.subtotal + bill.tax_total + fees + bill.freight)
    bill.match_status = matching.match_bill(bill)["status"]
    bill.save(update_fields=["subtotal", "tax_total", "total", "match_status", "updated_at"])
    return bill


# ===================================================================================================
# Settings
# ===================================================================================================
def save_match_settings(data: dict[str, Any]) -> MatchSettings:
    with transaction.atomic():
        settings = matching.settings_row(lock=True)
        save_object(settings, data)
    return settings


def set_supplier_term(*, supplier_id: int, payment_term_id: int | None) -> SupplierTerm | None:
    from tenants.parties.models import Supplier
    from tenants.pricing.models import PaymentTerm

    if not Supplier.objects.filter(pk=supplier_id).exists():
        raise not_found(Supplier)
    with transaction.atomic():
        if payment_term_id is None:
            SupplierTerm.objects.filter(supplier_id=supplier_id).delete()
            return None
        if not PaymentTerm.objects.filter(pk=payment_term_id).exists():
            raise ApiError(422, f"payment_term_id: no payment term with id {payment_term_id}.")
        term, _ = SupplierTerm.objects.update_or_create(
            supplier_id=supplier_id, defaults={"payment_term_id": payment_term_id}
        )
    return term
