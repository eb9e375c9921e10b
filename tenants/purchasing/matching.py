"""The three-way match of a bill: each bill line against its purchase order line (what we ordered, at
what cost) and the order's receipts (what we received, net gallons).

Per line, with `available` = received net quantity of the order line - quantity of the order line
already on other bills (approved or paid, or drafts: every bill that is not void):

- quantity variance = billed quantity - available; in tolerance when
  |variance| ≤ available x quantity_tolerance_percent / 100 (nothing available: any billed quantity
  is out);
- price variance = billed unit price - the order line's unit cost; in tolerance when
  |variance| ≤ max(price_tolerance_per_unit, unit cost x price_tolerance_percent / 100);
- their money: quantity variance x unit cost and price variance x billed quantity (together the gap
  between the billed amount and what the receipts are worth at the ordered cost).

A bill with no purchase order is `no_po` (nothing to match); a bill line without an order line on a
bill with one is out of tolerance (not ordered). The tolerances are the company's `MatchSettings`.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Sum

from tenants.purchasing.models import Bill, BillLine, MatchSettings, PurchaseOrderLine, ReceiptLine

ZERO = Decimal("0")
HUNDRED = Decimal("100")
CENT = Decimal("0.01")
UNIT = Decimal("0.0001")
QTY = Decimal("0.001")


def settings_row(*, lock: bool = False) -> MatchSettings:
    """The company's tolerances (the row is made with the defaults on first use)."""
    qs = MatchSettings.objects.select_for_update() if lock else MatchSettings.objects
    row = qs.filter(pk=1).first()
    if row is None:
        row, _ = MatchSettings.objects.get_or_create(pk=1)
    return row


def tolerances() -> dict[str, Decimal]:
    row = MatchSettings.objects.filter(pk=1).first() or MatchSettings()
    return {
        "quantity_tolerance_percent": row.quantity_tolerance_percent,
        "price_tolerance_per_unit": row.price_tolerance_per_unit,
        "price_tolerance_percent": row.price_tolerance_percent,
    }


def _pct(part: Decimal, whole: Decimal) -> Decimal | None:
    if whole == 0:
        return None
    return (part * HUNDRED / whole).quantize(CENT, rounding=ROUND_HALF_UP)


def line_match(
    *,
    billed_quantity: Decimal,
    billed_unit_price: Decimal,
    ordered_quantity: Decimal,
    unit_cost: Decimal | None,
    received_quantity: Decimal,
    billed_elsewhere: Decimal,
    tol: dict[str, Decimal],
) -> dict[str, Any]:
    """The pure rule for one line (see the module's docstring)."""
    available = received_quantity - billed_elsewhere
    qty_var = billed_quantity - available
    qty_allow = (max(available, ZERO) * tol["quantity_tolerance_percent"] / HUNDRED).quantize(QTY)
    qty_ok = available > 0 and abs(qty_var) <= qty_allow
    cost = unit_cost if unit_cost is not None else ZERO
    price_var = billed_unit_price - cost
    price_allow = max(
        tol["price_tolerance_per_unit"], (cost * tol["price_tolerance_percent"] / HUNDRED)
    ).quantize(UNIT, rounding=ROUND_HALF_UP)
    price_ok = unit_cost is not None and abs(price_var) <= price_allow
    reasons = []
    if received_quantity == 0:
        reasons.append("nothing received yet")
    elif not qty_ok:
        what = "the received quantity not yet billed" if billed_elsewhere else "the received quantity"
        reasons.append(f"quantity {'over' if qty_var > 0 else 'under'} {what} by {abs(qty_var)}")
    if unit_cost is None:
        reasons.append("the purchase order line has no unit cost")
    elif not price_ok:
        reasons.append(
            f"unit price {'over' if price_var > 0 else 'under'} the ordered cost by {abs(price_var)}"
        )
    return {
        "ordered_quantity": ordered_quantity,
        "received_quantity": received_quantity,
        "billed_elsewhere": billed_elsewhere,
        "available_quantity": available,
        "billed_quantity": billed_quantity,
        "quantity_variance": qty_var,
        "quantity_variance_percent": _pct(qty_var, available),
        "quantity_tolerance": qty_allow,
        "quantity_ok": qty_ok,
        "unit_cost": unit_cost,
        "billed_unit_price": billed_unit_price,
        "price_variance": price_var,
        "price_variance_percent": _pct(price_var, cost),
        "price_tolerance": price_allow,
        "price_ok": price_ok,
        "quantity_variance_amount": (qty_var * cost).quantize(CENT, rounding=ROUND_HALF_UP),
        "price_variance_amount": (price_var * billed_quantity).quantize(CENT, rounding=ROUND_HALF_UP),
        "within_tolerance": qty_ok and price_ok,
        "reason": "; ".join(reasons),
    }


def match_bill(bill: Bill) -> dict[str, Any]:
    """The bill's match: {status, purchase_order_id, tolerances, lines: [...]} in four queries."""
    tol = tolerances()
    lines = list(BillLine.objects.filter(bill=bill).select_related("product").order_by("position", "id"))
    if not bill.purchase_order_id:
        return {
            "status": Bill.Match.NO_PO.value,
            "purchase_order_id": None,
            "tolerances": tol,
            "lines": [],
            "out_of_tolerance": [],
        }
    po_lines = {
        pl.pk: pl
        for pl in PurchaseOrderLine.objects.filter(purchase_order_id=bill.purchase_order_id).select_related(
            "product"
        )
    }
    received = {
        row["line_id"]: row["net"] or ZERO
        for row in ReceiptLine.objects.filter(line_id__in=po_lines)
        .values("line_id")
        .annotate(net=Sum("net_quantity"))
    }
    elsewhere_qs = (
        BillLine.objects.filter(purchase_order_line_id__in=po_lines)
        .exclude(bill__status=Bill.Status.VOID)
        .exclude(bill_id=bill.pk)
        .values("purchase_order_line_id")
        .annotate(q=Sum("quantity"))
    )
    elsewhere = {row["purchase_order_line_id"]: row["q"] or ZERO for row in elsewhere_qs}
    out: list[dict[str, Any]] = []
    # Several lines of this bill on one order line share its availability, in their order.
    used_here: dict[int, Decimal] = {}
    for ln in lines:
        pl = po_lines.get(ln.purchase_order_line_id) if ln.purchase_order_line_id else None
        base = {
            "bill_line_id": ln.pk,
            "position": ln.position,
            "description": ln.description,
            "product_id": ln.product_id,
            "purchase_order_line_id": pl.pk if pl else None,
            "bol_number": ln.bol_number,
            "amount": ln.amount,
        }
        if pl is None:
            out.append(
                {
                    **base,
                    "ordered_quantity": None,
                    "received_quantity": None,
                    "billed_elsewhere": None,
                    "available_quantity": None,
                    "billed_quantity": ln.quantity,
                    "quantity_variance": None,
                    "quantity_variance_percent": None,
                    "quantity_tolerance": None,
                    "quantity_ok": False,
                    "unit_cost": None,
                    "billed_unit_price": ln.unit_price,
                    "price_variance": None,
                    "price_variance_percent": None,
                    "price_tolerance": None,
                    "price_ok": False,
                    "quantity_variance_amount": None,
                    "price_variance_amount": None,
                    "within_tolerance": False,
                    "reason": "not on the purchase order",
                }
            )
            continue
        prior = elsewhere.get(pl.pk, ZERO) + used_here.get(pl.pk, ZERO)
        used_here[pl.pk] = used_here.get(pl.pk, ZERO) + ln.quantity
        out.append(
            {
                **base,
                **line_match(
                    billed_quantity=ln.quantity,
                    billed_unit_price=ln.unit_price,
                    ordered_quantity=pl.quantity,
                    unit_cost=pl.unit_cost,
                    received_quantity=received.get(pl.pk, ZERO),
                    billed_elsewhere=prior,
                    tol=tol,
                ),
            }
        )
    bad = [row for row in out if not row["within_tolerance"]]
    status = Bill.Match.OUT_OF_TOLERANCE if bad or not out else Bill.Match.MATCHED
    return {
        "status": status.value,
        "purchase_order_id": bill.purchase_order_id,
        "tolerances": tol,
        "lines": out,
        "out_of_tolerance": [row["position"] for row in bad],
    }


def refusal_text(bill: Bill, match: dict[str, Any]) -> str:
    """What a refused approval says: the lines out of tolerance and why."""
    parts = [
        f"line {row['position']}: {row['reason']}" for row in match["lines"] if not row["within_tolerance"]
    ]
    if not match["lines"]:
        parts = ["the bill has no lines to match"]
    return (
        f"Bill {bill.bill_number} is out of tolerance against its purchase order ({'; '.join(parts)}). "
        "Approving it needs the permission to override the three-way match."
    )
