"""Builders shared by the invoicing tests: delivered orders with known prices."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from tenants.sales.tests.helpers import DAY, master_data, order_in_db

__all__ = ["DAY", "D", "delivered_order", "master_data"]


def D(value: str) -> Decimal:
    return Decimal(value)


def delivered_order(
    md: dict[str, Any],
    *,
    lines: tuple = (("diesel", "1000", "3.0000", "987.5"),),
    fees: tuple = (),
    status: str = "delivered",
    delivered_at: dt.datetime | None = None,
    **fields: Any,
) -> Any:
    """An order in `status` whose lines were priced at verification and delivered: each line is
    (product key, ordered qty, fixed unit price, delivered qty or None)."""
    from tenants.sales.models import OrderFee

    order = order_in_db(md, status=status, lines=tuple(ln[:3] for ln in lines), **fields)
    for line, spec in zip(order.line_items.order_by("position", "id"), lines, strict=True):
        line.delivered_quantity = Decimal(spec[3]) if spec[3] is not None else None
        line.save(update_fields=["delivered_quantity"])
    for i, (fee, quantity) in enumerate(fees, start=1):
        OrderFee.objects.create(
            sales_order=order, position=i, fee=fee, quantity=Decimal(quantity) if quantity else None
        )
    order.delivered_at = delivered_at or dt.datetime.combine(
        order.planned_date, dt.time(15, 0), tzinfo=dt.UTC
    )
    order.save(update_fields=["delivered_at"])
    return order


def fuel_tax(per_gallon: str = "0.2000") -> Any:
    """A per-gallon tax on every product everywhere, in force since long before DAY."""
    from tenants.pricing.models import Tax, TaxRate

    tax = Tax.objects.create(
        name="Fuel excise",
        code="FX",
        kind="per_unit",
        applies_to_all_states=True,
        applies_to_all_cities=True,
        applies_to_all_products=True,
    )
    TaxRate.objects.create(tax=tax, rate=Decimal(per_gallon), effective_from=DAY - dt.timedelta(days=365))
    return tax


def flat_fee(name: str = "Delivery fee", rate: str = "25.00") -> Any:
    from tenants.pricing.models import Fee

    return Fee.objects.create(name=name, fee_type="flat", rate=Decimal(rate), quantity=Decimal("1"))
