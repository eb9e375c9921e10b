"""Keeping `ProductDay` in step with the sales orders.

Which orders count: those that are commitments — verified, assigned, in delivery, delivered,
completed — and archived orders that were delivered (an archived order that was cancelled has no
`delivered_at`). Drafts and cancelled orders do not count. A line counts on its order's planned day.

A line's contribution: ordered quantity, delivered quantity (0 until recorded), revenue (the line's
amount, before tax) and cost = unit cost x ordered quantity (2 dp, half up), where the unit cost is
the one the pricing engine priced the line on (`price_breakdown["cost"]`: the rack, last-cost or
rule basis carries it) and otherwise the buying price in force on the planned day
(`tenants.pricing.services.buying_price_in_force`, lowest across suppliers and terminals). A line
with neither has no cost: its revenue is counted, its margin is not (it shows as uncosted revenue).

Every change of a line or of its order goes through `line_changed` / `line_deleted` /
`order_changed` / `order_deleted` (receivers.py), inside the writer's transaction: under a
transaction-scoped advisory lock on the order, the line's new contribution is computed from the
database, the difference from its stored `LineContribution` is added to the `ProductDay` cells by an
upsert (`ON CONFLICT ... DO UPDATE SET x = x + excluded.x`, so concurrent orders on one cell add up),
and the contribution is replaced. `rebuild()` recomputes everything from scratch (bulk-loaded rows,
or after buying prices of past days were corrected)."""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F
from django_tenants.utils import schema_context

from tenants.dashboard.models import LineContribution, ProductDay
from tenants.pricing.money import ZERO, money

log = logging.getLogger(__name__)
COUNTED_STATUSES = ("verified", "assigned", "in_delivery", "delivered", "completed")
_LOCK_CLASS = 0x44617368  # 'Dash': the advisory lock space of the rollup
VERSION_KEY = "dashboard:version"
_NUMERIC = r"^\s*-?[0-9]+(\.[0-9]+)?\s*$"  # a cost in a price breakdown: plain decimal text


def counts(status: str, delivered_at: Any) -> bool:
    return status in COUNTED_STATUSES or (status == "archive" and delivered_at is not None)


@dataclass(frozen=True)
class Contribution:
    day: dt.date
    product_id: int
    ordered: Decimal
    delivered: Decimal
    revenue: Decimal
    cost: Decimal | None


Cell = tuple[dt.date, int]


def breakdown_cost(breakdown: Any) -> Decimal | None:
    """The unit cost a line's price breakdown carries (the breakdown, or its `cost` text)."""
    value = breakdown.get("cost") if isinstance(breakdown, Mapping) else breakdown
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Decimal)):
        return None
    # The same rule as rebuild()'s SQL (plain decimal notation), so both value a line alike.
    text = value if isinstance(value, str) else str(value)
    if not re.match(_NUMERIC, text):
        return None
    try:
        return Decimal(text.strip())
    except InvalidOperation:
        return None


class CostBook:
    """Unit costs of lines, with the buying-price fallback asked once per product and day."""

    def __init__(self) -> None:
        self._in_force: dict[Cell, Decimal | None] = {}

    def unit_cost(self, product_id: int, breakdown: Any, day: dt.date) -> Decimal | None:
        cost = breakdown_cost(breakdown)
        if cost is not None:
            return cost
        key = (day, product_id)
        if key not in self._in_force:
            from tenants.pricing.services import PricingError, buying_price_in_force

            try:
                rack = buying_price_in_force(
                    product_id=product_id, terminal_id=None, supplier_id=None, on=day, basis="lowest"
                )
            except PricingError:
                rack = None
            self._in_force[key] = rack.price if rack is not None else None
        return self._in_force[key]


def contribution(row: Mapping[str, Any], book: CostBook) -> Contribution | None:
    """A line's contribution from its values and its order's (`status`, `planned_date`, `delivered_at`)."""
    if not counts(row["status"], row["delivered_at"]):
        return None
    day = row["planned_date"]
    unit = book.unit_cost(row["product_id"], row["price_breakdown"], day)
    qty = row["quantity"]
    return Contribution(
        day=day,
        product_id=row["product_id"],
        ordered=qty,
        delivered=row["delivered_quantity"] or ZERO,
        revenue=row["amount"],
        cost=money(unit * qty) if unit is not None else None,
    )


def _stored(c: LineContribution) -> Contribution:
    return Contribution(
        day=c.day,
        product_id=c.product_id,
        ordered=c.ordered_quantity,
        delivered=c.delivered_quantity,
        revenue=c.revenue,
        cost=c.cost,
    )


# ---- the cells: sums of contributions -------------------------------------------------------

_FIELDS = ("ordered_quantity", "delivered_quantity", "revenue", "cost", "costed_revenue", "lines")


def _vector(c: Contribution) -> tuple[Decimal, Decimal, Decimal, Decimal, Decimal, int]:
    costed = c.cost is not None
    return (c.ordered, c.delivered, c.revenue, c.cost or ZERO, c.revenue if costed else ZERO, 1)


def _add(deltas: dict[Cell, list[Any]], c: Contribution | None, sign: int) -> None:
    if c is None:
        return
    cell = deltas.setdefault((c.day, c.product_id), [ZERO, ZERO, ZERO, ZERO, ZERO, 0])
    vector: tuple[Any, ...] = _vector(c)
    for i, v in enumerate(vector):
        cell[i] += v * sign


def _apply(deltas: Mapping[Cell, list[Any]]) -> bool:
    rows = [(day, pid, *vec) for (day, pid), vec in deltas.items() if any(vec)]
    if not rows:
        return False
    table = ProductDay._meta.db_table
    sets = ", ".join(f"{f} = {table}.{f} + excluded.{f}" for f in _FIELDS)
    values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows))
    params = [v for row in sorted(rows) for v in row]  # a fixed order: no deadlock between writers
    with connection.cursor() as cur:
        cur.execute(
            f"INSERT INTO {table} (day, product_id, {', '.join(_FIELDS)}) VALUES {values} "  # noqa: S608
            f"ON CONFLICT (day, product_id) DO UPDATE SET {sets}",
            params,
        )
    return True


def _lock(order_id: int) -> None:
    """The order's rollup lock, taken once per transaction (held until it ends)."""
    hook = _tx_hook()
    if order_id in hook.locked:
        return
    with connection.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_CLASS, order_id % 2_147_483_647])
    hook.locked.add(order_id)


_CONTRIBUTION_FIELDS = [
    "sales_order_id",
    "day",
    "product_id",
    "ordered_quantity",
    "delivered_quantity",
    "revenue",
    "cost",
]


def _store(line_id: int, order_id: int, c: Contribution) -> LineContribution:
    return LineContribution(
        line_item_id=line_id,
        sales_order_id=order_id,
        day=c.day,
        product_id=c.product_id,
        ordered_quantity=c.ordered,
        delivered_quantity=c.delivered,
        revenue=c.revenue,
        cost=c.cost,
    )


class _BumpAfterCommit:
    def __init__(self, schema: str) -> None:
        self.schema = schema
        self.done = False
        self.locked: set[int] = set()  # orders whose lock this transaction holds

    def __call__(self) -> None:
        self.done = True
        if connection.schema_name == self.schema:
            bump_version()
            return
        with schema_context(self.schema):  # the cache key carries the schema (make_key)
            bump_version()


def mark_changed() -> None:
    _changed()


def _changed() -> None:
    """The summary's cached answers are stale: bump the tenant's version once the transaction
    commits (once per transaction, however many lines it wrote). A reader that computed from the
    rows before the commit cached its answer under the old version, which the bump leaves behind."""
    _tx_hook()


def _tx_hook() -> _BumpAfterCommit:
    """The current transaction's after-commit hook for this schema (registered on first use; a
    rolled-back savepoint drops it with what it registered, locks included)."""
    schema = connection.schema_name
    for entry in connection.run_on_commit:
        hook = entry[1]
        if isinstance(hook, _BumpAfterCommit) and hook.schema == schema and not hook.done:
            return hook
    hook = _BumpAfterCommit(schema)
    transaction.on_commit(hook)
    return hook


def bump_version() -> None:
    try:
        try:
            cache.incr(VERSION_KEY)
        except ValueError:
            cache.set(VERSION_KEY, 1, None)
    except Exception:  # the cache is an optimisation: its TTL bounds staleness
        log.warning("dashboard: could not bump the summary version", exc_info=True)


_LINE_VALUES = (
    "id",
    "sales_order_id",
    "product_id",
    "quantity",
    "delivered_quantity",
    "amount",
    "price_breakdown",
)
_ORDER_VALUES = {
    "status": F("sales_order__status"),
    "planned_date": F("sales_order__planned_date"),
    "delivered_at": F("sales_order__delivered_at"),
}


def _line_rows(**filters: Any) -> list[dict[str, Any]]:
    from tenants.sales.models import LineItem

    return list(LineItem.objects.filter(**filters).order_by().values(*_LINE_VALUES, **_ORDER_VALUES))


# One line, its order's fields and its stored contribution (in Contribution's field order), in one
# read; a contribution whose line is gone still comes back (with the line's columns null).
_JOINED_COLUMNS = (
    "id",
    "sales_order_id",
    "product_id",
    "quantity",
    "delivered_quantity",
    "amount",
    "price_breakdown",
    "status",
    "planned_date",
    "delivered_at",
)
_LINE_AND_CONTRIBUTION = """
SELECT l.id, l.sales_order_id, l.product_id, l.quantity, l.delivered_quantity, l.amount,
       l.price_breakdown->>'cost', o.status, o.planned_date, o.delivered_at,
       c.day, c.product_id, c.ordered_quantity, c.delivered_quantity, c.revenue, c.cost
FROM (SELECT %s::bigint AS id) k
LEFT JOIN sales_lineitem l ON l.id = k.id
LEFT JOIN sales_salesorder o ON o.id = l.sales_order_id
LEFT JOIN dashboard_linecontribution c ON c.line_item_id = k.id
WHERE l.id IS NOT NULL OR c.line_item_id = %s
"""


# ---- the entry points (receivers.py) --------------------------------------------------------


def line_changed(line_id: int, order_id: int) -> None:
    with transaction.atomic(savepoint=False):
        _lock(order_id)
        with connection.cursor() as cur:
            cur.execute(_LINE_AND_CONTRIBUTION, [line_id, line_id])
            found = cur.fetchone()
        if found is None:
            return
        row = dict(zip(_JOINED_COLUMNS, found[:10], strict=True))
        new = contribution(row, CostBook()) if row["id"] is not None else None
        old = Contribution(*found[10:]) if found[10] is not None else None
        if new == old:
            return
        deltas: dict[Cell, list[Any]] = {}
        _add(deltas, old, -1)
        _add(deltas, new, +1)
        _apply(deltas)
        if new is None:
            LineContribution.objects.filter(pk=line_id).delete()
        else:
            LineContribution.objects.bulk_create(
                [_store(line_id, order_id, new)],
                update_conflicts=True,
                unique_fields=["line_item_id"],
                update_fields=_CONTRIBUTION_FIELDS,
            )
        _changed()


def line_deleted(line_id: int, order_id: int) -> None:
    with transaction.atomic(savepoint=False):
        _lock(order_id)
        old_row = LineContribution.objects.filter(pk=line_id).first()
        if old_row is None:
            return
        deltas: dict[Cell, list[Any]] = {}
        _add(deltas, _stored(old_row), -1)
        _apply(deltas)
        old_row.delete()
        _changed()


def order_changed(order_id: int) -> None:
    """The order's status, day or delivery changed (or may have): its lines' contributions follow.
    Cheap when nothing that counts changed: two reads."""
    with transaction.atomic(savepoint=False):
        _lock(order_id)
        stored = {c.pk: c for c in LineContribution.objects.filter(sales_order_id=order_id)}
        rows = _line_rows(sales_order_id=order_id)
        book = CostBook()
        deltas: dict[Cell, list[Any]] = {}
        replace: list[int] = []
        keep: list[LineContribution] = []
        for row in rows:
            old_row = stored.pop(row["id"], None)
            old = _stored(old_row) if old_row else None
            if old is not None and old.day == row["planned_date"] and _same_line(old, row):
                # The line's own saves keep it right: only the order's status can have moved it.
                new = old if counts(row["status"], row["delivered_at"]) else None
            else:
                new = contribution(row, book)
            if new == old:
                continue
            _add(deltas, old, -1)
            _add(deltas, new, +1)
            replace.append(row["id"])
            if new is not None:
                keep.append(_store(row["id"], order_id, new))
        gone = list(stored.values())  # contributions of lines no longer there
        for c in gone:
            _add(deltas, _stored(c), -1)
        _changed()  # the KPI tiles count orders by status, whatever their lines
        if not replace and not gone:
            return
        _apply(deltas)
        LineContribution.objects.filter(pk__in=replace + [c.pk for c in gone]).delete()
        LineContribution.objects.bulk_create(keep)


def _same_line(old: Contribution, row: Mapping[str, Any]) -> bool:
    return (
        old.product_id == row["product_id"]
        and old.ordered == row["quantity"]
        and old.revenue == row["amount"]
        and old.delivered == (row["delivered_quantity"] or ZERO)
    )


def order_deleted(order_id: int) -> None:
    with transaction.atomic(savepoint=False):
        _lock(order_id)
        rows = list(LineContribution.objects.filter(sales_order_id=order_id))
        if not rows:
            return
        deltas: dict[Cell, list[Any]] = {}
        for c in rows:
            _add(deltas, _stored(c), -1)
        _apply(deltas)
        LineContribution.objects.filter(sales_order_id=order_id).delete()
        _changed()


# ---- from scratch ----------------------------------------------------------------------------


def rebuild() -> int:
    """Recompute every contribution and cell from the orders (the rows bulk-loaded without the
    receivers, or costs restated). Writers wait on the table locks meanwhile. Returns the lines."""
    from tenants.sales.models import LineItem, SalesOrder

    lc, pd = LineContribution._meta.db_table, ProductDay._meta.db_table
    lines, orders = LineItem._meta.db_table, SalesOrder._meta.db_table
    statuses = ", ".join(f"'{s}'" for s in COUNTED_STATUSES)
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(f"LOCK TABLE {lc}, {pd} IN EXCLUSIVE MODE")
        cur.execute(f"DELETE FROM {lc}")  # noqa: S608 - model table names
        cur.execute(f"DELETE FROM {pd}")  # noqa: S608 - model table names
        cur.execute(
            f"""INSERT INTO {lc} (line_item_id, sales_order_id, day, product_id, ordered_quantity,
                    delivered_quantity, revenue, cost)
                SELECT l.id, o.id, o.planned_date, l.product_id, l.quantity,
                       COALESCE(l.delivered_quantity, 0), l.amount,
                       CASE WHEN l.price_breakdown->>'cost' ~ %s
                            THEN round((l.price_breakdown->>'cost')::numeric * l.quantity, 2) END
                FROM {lines} l JOIN {orders} o ON o.id = l.sales_order_id
                WHERE o.status IN ({statuses}) OR (o.status = 'archive' AND o.delivered_at IS NOT NULL)""",  # noqa: S608
            [_NUMERIC],
        )
        count = cur.rowcount
        # Lines the engine left without a cost: the buying price in force, once per product and day.
        cur.execute(f"SELECT DISTINCT day, product_id FROM {lc} WHERE cost IS NULL")  # noqa: S608
        book = CostBook()
        found = [(d, p, book.unit_cost(p, None, d)) for d, p in cur.fetchall()]
        found = [f for f in found if f[2] is not None]
        if found:
            values = ", ".join(["(%s::date, %s::bigint, %s::numeric)"] * len(found))
            cur.execute(
                f"""UPDATE {lc} c SET cost = round(v.unit * c.ordered_quantity, 2)
                    FROM (VALUES {values}) AS v(day, product_id, unit)
                    WHERE c.cost IS NULL AND c.day = v.day AND c.product_id = v.product_id""",  # noqa: S608
                [x for f in found for x in f],
            )
        cur.execute(
            f"""INSERT INTO {pd} (day, product_id, ordered_quantity, delivered_quantity, revenue, cost,
                    costed_revenue, lines)
                SELECT day, product_id, SUM(ordered_quantity), SUM(delivered_quantity), SUM(revenue),
                       COALESCE(SUM(cost), 0), COALESCE(SUM(revenue) FILTER (WHERE cost IS NOT NULL), 0),
                       COUNT(*)
                FROM {lc} GROUP BY day, product_id"""  # noqa: S608
        )
        _changed()
    return count


def aggregate_from_scratch(
    start: dt.date | None = None, end: dt.date | None = None
) -> dict[Cell, tuple[Any, ...]]:
    """The cells computed straight from the orders in Python (the reference the rollup must equal)."""
    filters: dict[str, Any] = {}
    if start is not None:
        filters["sales_order__planned_date__gte"] = start
    if end is not None:
        filters["sales_order__planned_date__lte"] = end
    deltas: dict[Cell, list[Any]] = defaultdict(lambda: [ZERO, ZERO, ZERO, ZERO, ZERO, 0])
    book = CostBook()
    for row in _line_rows(**filters):
        _add(deltas, contribution(row, book), +1)
    return {cell: tuple(vec) for cell, vec in deltas.items() if vec[5]}


def stored_cells(cells: Iterable[ProductDay] | None = None) -> dict[Cell, tuple[Any, ...]]:
    rows = ProductDay.objects.filter(lines__gt=0) if cells is None else cells
    return {(r.day, r.product_id): tuple(getattr(r, f) for f in _FIELDS) for r in rows}
