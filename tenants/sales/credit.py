"""Credit control at verification.

An order is refused (409, with the reason) when its customer is on credit hold, on hold or inactive,
or when the customer's open orders (verified up to delivered: committed, not yet invoiced) plus this
one exceed the customer's credit limit. A user holding `credit.override` may confirm the verification
anyway (`override_credit=true`); the override, its reason and the figures are recorded on the move.
Open receivables join the exposure: an app that bills orders (invoicing) registers a provider with
`register_receivables_provider` (re-exported by `tenants.sales.services`), so sales never imports it.
The provider answers the customer's open receivables and the orders already billed, which then no
longer count as open orders (their value is in the receivables).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from core.errors import ApiError
from django.db.models import Sum

from tenants.sales.models import OPEN_STATUSES, SalesOrder

OVERRIDE_PERMISSION = "credit.override"
BLOCKING_STATUSES = {
    "credit_hold": "is on credit hold",
    "on_hold": "is on hold",
    "inactive": "is inactive",
}


# fn(customer_id) -> (open receivables, ids of the orders already billed)
ReceivablesProvider = Callable[[int], tuple[Decimal, set[int]]]
_receivables_providers: list[ReceivablesProvider] = []


def register_receivables_provider(fn: ReceivablesProvider) -> None:
    if fn not in _receivables_providers:
        _receivables_providers.append(fn)


def receivables(customer_id: int) -> tuple[Decimal, set[int]]:
    total, billed = Decimal("0.00"), set()
    for provider in _receivables_providers:
        amount, orders = provider(customer_id)
        total += amount
        billed |= orders
    return total, billed


def open_orders_total(
    customer_id: int, *, excluding: int | None = None, billed: set[int] | None = None
) -> Decimal:
    qs = SalesOrder.objects.filter(customer_id=customer_id, status__in=OPEN_STATUSES)
    if excluding is not None:
        qs = qs.exclude(pk=excluding)
    if billed:
        qs = qs.exclude(pk__in=billed)
    return qs.aggregate(t=Sum("total"))["t"] or Decimal("0.00")


def exposure(customer_id: int, *, excluding: int | None = None) -> Decimal:
    """The total of the customer's open orders not yet billed, plus its open receivables."""
    owed, billed = receivables(customer_id)
    return open_orders_total(customer_id, excluding=excluding, billed=billed) + owed


def problems(order: SalesOrder) -> tuple[list[str], dict[str, Any]]:
    """Why this order may not be verified on credit grounds (empty: it may), and the figures."""
    customer = order.customer
    reasons = []
    if customer.status in BLOCKING_STATUSES:
        reasons.append(f"{customer.name} {BLOCKING_STATUSES[customer.status]}")
    owed, billed = receivables(customer.pk)
    orders_total = open_orders_total(customer.pk, excluding=order.pk, billed=billed)
    open_total = orders_total + owed
    figures: dict[str, Any] = {
        "customer_status": customer.status,
        "open_orders_total": str(orders_total),
        "open_receivables": str(owed),
        "order_total": str(order.total),
        "credit_limit": None if customer.credit_limit is None else str(customer.credit_limit),
    }
    if customer.credit_limit is not None and open_total + order.total > customer.credit_limit:
        reasons.append(
            f"open orders of {orders_total:,.2f}"
            + (f" and open receivables of {owed:,.2f}" if owed else "")
            + f" plus this order's {order.total:,.2f} exceed the credit "
            f"limit of {customer.credit_limit:,.2f}"
        )
    return reasons, figures


def check(order: SalesOrder, *, user: Any, override: bool, reason: str = "") -> dict[str, Any]:
    """Raises the 409 when credit blocks the order; answers what to record with the move."""
    reasons, figures = problems(order)
    if not reasons:
        return {}
    can_override = bool(user is not None and user.has_perm(OVERRIDE_PERMISSION))
    if override and can_override:
        return {"credit_override": {"reasons": reasons, "reason": reason, **figures}}
    why = "; ".join(reasons)
    if override:
        detail = f"Credit check failed: {why}. You do not have permission to override credit control."
    elif can_override:
        detail = f"Credit check failed: {why}. Confirm the override to verify anyway."
    else:
        detail = f"Credit check failed: {why}. A user allowed to override credit control must verify it."
    raise ApiError(409, detail, credit_reasons=reasons, can_override=can_override, **figures)
