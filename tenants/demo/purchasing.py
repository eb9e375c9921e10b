"""Demo purchasing: three purchase orders around today (a draft, one placed, one received with its
supplier's bill entered and matched), so the purchase order and bill screens have something to show.
Idempotent: orders are found by their supplier reference (`DEMO-PO-…`). Costs come from the buying
prices the pricing demo seeded."""

from __future__ import annotations

import datetime as dt
import logging
from decimal import Decimal

from django.utils import timezone

log = logging.getLogger(__name__)

# reference, day offset, [(product code, quantity)], status
ORDERS: list[tuple[str, int, list[tuple[str, str]], str]] = [
    ("DEMO-PO-1", 1, [("ULSD-CLR", "8000"), ("UNL-87", "4000")], "draft"),
    ("DEMO-PO-2", 0, [("ULSD-DYED", "7500")], "ordered"),
    ("DEMO-PO-3", -2, [("ULSD-CLR", "8500")], "received"),
]


def seed() -> None:
    from tenants.accounts.models import User
    from tenants.catalog.models import Product
    from tenants.parties.models import Supplier
    from tenants.purchasing.models import PurchaseOrder

    admin = User.objects.filter(role__grants_all=True).order_by("id").first()
    supplier = Supplier.objects.filter(terminals__isnull=False).order_by("id").distinct().first()
    if supplier is None:
        return
    terminal = supplier.terminals.order_by("id").first()
    today = timezone.localdate()
    for reference, offset, lines, status in ORDERS:
        if PurchaseOrder.objects.filter(reference=reference).exists():
            continue
        products = {p.code: p for p in Product.objects.filter(code__in=[c for c, _ in lines])}
        if len(products) != len(lines):
            continue
        data = {
            "supplier_id": supplier.pk,
            "terminal_id": terminal.pk if terminal else None,
            "order_date": today + dt.timedelta(days=offset),
            "reference": reference,
            "lines": [{"product_id": products[c].pk, "quantity": Decimal(q)} for c, q in lines],
        }
        _make(data, status, admin)


def _make(data: dict, status: str, by: object) -> None:
    from core.errors import ApiError
    from django.db import transaction

    from tenants.purchasing import services
    from tenants.purchasing.workflow import po as po_workflow

    try:
        with transaction.atomic():
            po = services.create_purchase_order(data, by=by)
            if status == "draft":
                return
            po = po_workflow.place(po, by=by)
            if status == "ordered":
                return
            lines = list(po.lines.all())
            po, _ = po_workflow.receive(
                po,
                bol_number=f"BOL-{po.number[3:]}",
                received_on=po.order_date,
                lines=[(ln.pk, ln.quantity + 12, ln.quantity - 20) for ln in lines],
                by=by,
            )
            services.create_bill(
                {
                    "supplier_id": po.supplier_id,
                    "bill_number": f"INV-{po.number[3:]}",
                    "bill_date": po.order_date + dt.timedelta(days=1),
                    "purchase_order_id": po.pk,
                    "freight": Decimal("145.00"),
                    "lines": [
                        {
                            "product_id": ln.product_id,
                            "bol_number": f"BOL-{po.number[3:]}",
                            "quantity": ln.quantity - 20,
                            "unit_price": ln.unit_cost or Decimal("0"),
                        }
                        for ln in lines
                    ],
                },
                by=by,
            )
    except ApiError as exc:  # e.g. no buying price in force: keep the rest of the demo
        log.warning("demo purchase order %s not made: %s", data["reference"], exc)
