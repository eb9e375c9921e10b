"""Reads of sales orders. Lists join what they show (customer, ship-to, driver, units) in one query.

Lists of many orders (the list, the dispatch day) read rows with `.values()` and build the output
dicts by the plans below (`core/rows.py`): no model instances, no output validation. The plans are
derived from the output schemas and refuse any field they cannot read faithfully from a column, so a
schema change shows here at import; `tenants/sales/tests/test_rows.py` compares the rows with what
the schemas give for the same orders.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from core import rows, scoping
from core.listing import AnyOf, search_q, sort_aliases
from django.db.models import Prefetch, QuerySet

from tenants.sales.models import LineItem, Note, OrderFee, SalesOrder, StatusEvent
from tenants.sales.schemas import LineOut, SalesOrderRow

ARCHIVE = SalesOrder.Status.ARCHIVE.value

_ROW_PLAN = rows.plan_for(SalesOrder, SalesOrderRow, computed=("allowed_actions",))
_LINE_PLAN = rows.plan_for(LineItem, LineOut)
if _ROW_PLAN is None or _LINE_PLAN is None:  # pragma: no cover - a schema no longer plain columns
    raise RuntimeError("SalesOrderRow / LineOut are no longer plain columns: see core/rows.py")
ROW_PLAN: rows.Plan = _ROW_PLAN
LINE_PLAN: rows.Plan = _LINE_PLAN
ROW_PATHS = rows.value_paths(ROW_PLAN)
LINE_PATHS = rows.value_paths(LINE_PLAN)


def orders() -> QuerySet[SalesOrder]:
    return SalesOrder.objects.select_related(
        "customer", "ship_to", "driver", "truck", "trailer", "created_by"
    ).defer(
        "customer__notes",
        "customer__address_one",
        "customer__address_two",
        "customer__tax_exempt_certificate",
        "ship_to__delivery_instructions",
        "created_by__password",
    )


def order_detail() -> QuerySet[SalesOrder]:
    return SalesOrder.objects.select_related(
        "customer", "ship_to", "driver", "truck", "trailer", "created_by"
    ).prefetch_related(
        Prefetch(
            "line_items",
            queryset=LineItem.objects.select_related("product", "customer_asset").order_by("position", "id"),
        ),
        Prefetch("fees", queryset=OrderFee.objects.select_related("fee").order_by("position", "id")),
        Prefetch("notes", queryset=Note.objects.select_related("created_by").order_by("-created_at", "-id")),
        Prefetch("events", queryset=StatusEvent.objects.order_by("at", "id")),
    )


def get_order(order_id: int) -> SalesOrder | None:
    """One order with its details, through the request's row scope (core.scoping)."""
    return scoping.get_or_none(order_detail(), order_id)


def filter_orders(qs: QuerySet[SalesOrder], params: Any) -> QuerySet[SalesOrder]:
    """The list's own filters: status (a status, several comma-separated, or `archive`), the planned
    date range and the customer. The archive is its own tab: other lists leave it out unless asked."""
    statuses = [s.strip() for s in (params.status or "").split(",") if s.strip()]
    if statuses:
        qs = qs.filter(status__in=statuses) if len(statuses) > 1 else qs.filter(status=statuses[0])
    else:
        qs = qs.exclude(status=ARCHIVE)
    if params.planned_date_start:
        qs = qs.filter(planned_date__gte=params.planned_date_start)
    if params.planned_date_end:
        qs = qs.filter(planned_date__lte=params.planned_date_end)
    if params.customer_id:
        qs = qs.filter(customer_id=params.customer_id)
    if params.ship_to_id:
        qs = qs.filter(ship_to_id=params.ship_to_id)
    if params.driver_id:
        qs = qs.filter(driver_id=params.driver_id)
    if params.truck_id:
        qs = qs.filter(truck_id=params.truck_id)
    return qs


# The search box's fields: the customer's name is matched on the customers first and their ids
# inlined (core.listing.search_q), so Postgres ORs three index scans of the orders (number and PO
# number trigrams, the customer index) instead of joining every order to its customer.
SEARCH_PATHS = ("number", "po_number", "customer__name")


def search_orders(qs: QuerySet[SalesOrder], term: str | None) -> QuerySet[SalesOrder]:
    """Orders whose number, PO number or customer name contains `term` (case-insensitive)."""
    term = (term or "").strip()
    if not term:
        return qs
    return qs.filter(search_q(SalesOrder, SEARCH_PATHS, term, "icontains"))


def by_customer_name(qs: QuerySet[SalesOrder], lookup: str, value: str) -> QuerySet[SalesOrder]:
    """The `customer_name` filter (`lookup`: icontains, iexact, istartswith, iendswith) by the matching
    customers' ids, as `search_orders` does: no join over every order. Same matches."""
    query = search_q(SalesOrder, ("customer__name",), value, lookup)
    return qs.filter(query) if query else qs.none()


def notes(sales_order_id: int) -> QuerySet[Note]:
    return scoping.scoped(Note.objects.select_related("created_by").filter(sales_order_id=sales_order_id))


# --- many orders as plain rows (lists, board, dispatch day) ----------------------------------------
def row_values(qs: QuerySet[SalesOrder], *extra: str) -> QuerySet[Any]:
    """`qs` as `.values()` rows with what a `SalesOrderRow` shows (plus `extra` paths)."""
    return qs.values(*ROW_PATHS, *extra)


def rows_by_id(ids: list[int]) -> list[dict[str, Any]]:
    """`SalesOrderRow` dicts of these orders, in the order of `ids` (one query)."""
    if not ids:
        return []
    found = {row["id"]: row for row in row_values(SalesOrder.objects.filter(AnyOf("id", ids)).order_by())}
    return build_rows(found[i] for i in ids if i in found)


# The list's sort keys on the order's own columns (api.LIST_SPEC sorts by these aliases).
ORDER_SORT_ALIASES = {
    "sort_planned_date": "planned_date",
    "sort_number": "number",
    "sort_status": "status",
    "sort_total": "total",
    "sort_po_number": "po_number",
    "sort_created_at": "created_at",
    "sort_updated_at": "updated_at",
}


def order_sort_keys(qs: QuerySet[SalesOrder], *, unindexed: bool) -> QuerySet[SalesOrder]:
    return sort_aliases(qs, ORDER_SORT_ALIASES, unindexed=unindexed)


def build_rows(values: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """`SalesOrderRow` dicts from `row_values` rows (their `allowed_actions` read once per status)."""
    from tenants.sales.workflow import allowed_actions

    actions: dict[str, list[dict[str, str]]] = {}
    out = []
    for value in values:
        item = rows.build(ROW_PLAN, value)
        status = item["status"]
        if status not in actions:
            actions[status] = allowed_actions(status)
        item["allowed_actions"] = actions[status]
        out.append(item)
    return out


def line_rows(order_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
    """The `LineOut` dicts of these orders, by order, in the order's line order. One query."""
    ids = list(order_ids)
    by_order: dict[int, list[dict[str, Any]]] = defaultdict(list)
    if not ids:
        return by_order
    values = (
        LineItem.objects.filter(sales_order_id__in=ids)
        .order_by("position", "id")
        .values(*LINE_PATHS, "sales_order_id")
    )
    for value in values:
        by_order[value["sales_order_id"]].append(rows.build(LINE_PLAN, value))
    return by_order
