"""The order board: a column per status (the archive is the list's own tab), newest plans first."""

from __future__ import annotations

from typing import Any

from core.scoping import scoped
from django.db.models import Count

from tenants.sales import selectors
from tenants.sales.models import SalesOrder
from tenants.sales.workflow import MACHINE

BOARD_STATUSES = [s for s in MACHINE.statuses if s != SalesOrder.Status.ARCHIVE.value]


def board_view(params: Any) -> dict[str, Any]:
    qs = scoped(selectors.orders()).filter(status__in=BOARD_STATUSES)
    if params.planned_date_start:
        qs = qs.filter(planned_date__gte=params.planned_date_start)
    if params.planned_date_end:
        qs = qs.filter(planned_date__lte=params.planned_date_end)
    if params.customer_id:
        qs = qs.filter(customer_id=params.customer_id)
    qs = selectors.search_orders(qs, params.search)
    counts = dict(qs.order_by().values_list("status").annotate(n=Count("id")))
    columns = []
    for status in BOARD_STATUSES:
        cards = list(
            qs.filter(status=status).order_by("planned_date", "stop_sequence", "id")[: params.per_column]
        )
        columns.append(
            {
                "status": status,
                "label": SalesOrder.Status(status).label,
                "total": counts.get(status, 0),
                "cards": cards,
            }
        )
    transitions = {s: MACHINE.allowed_actions(s) for s in MACHINE.statuses}
    return {"columns": columns, "transitions": transitions}
