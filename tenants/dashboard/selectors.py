"""The product summary and the KPI tiles, read from the rollup (`ProductDay`) and the orders, and
cached per tenant (the cache key goes through django_tenants' make_key, so it carries the schema).

Cache: the answer for (days, today) is kept under the tenant's rollup version for CACHE_SECONDS;
every change of the rollup bumps the version (rollup._changed), so an order change is seen at the
next request; the TTL bounds what a lost bump could leave (and the KPI tiles, which also move with
the clock). `force_refresh=true` recomputes and replaces the cached answer."""

from __future__ import annotations

import datetime as dt
import logging
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q
from django.utils import timezone

from tenants.dashboard.models import ProductDay
from tenants.dashboard.rollup import VERSION_KEY

log = logging.getLogger(__name__)
ZERO = Decimal("0")
CACHE_SECONDS = 300
MAX_DAYS = 366
STATUS_LABELS = {
    "draft": "Draft",
    "verified": "Verified",
    "assigned": "Assigned",
    "in_delivery": "In delivery",
    "delivered": "Delivered",
}
# Late: planned before today and not out of the door yet (a draft planned for yesterday is late too).
LATE_STATUSES = ("draft", "verified", "assigned", "in_delivery")
DONE_STATUSES = ("delivered", "completed")


def date_range(days: int, today: dt.date) -> dict[str, Any]:
    return {"start_date": today - dt.timedelta(days=days - 1), "end_date": today, "days": days}


def products(start: dt.date, end: dt.date) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows = (
        ProductDay.objects.filter(day__gte=start, day__lte=end, lines__gt=0)
        .order_by()
        .values(
            "day",
            "product_id",
            "product__name",
            "product__code",
            "product__sold_as",
            "ordered_quantity",
            "delivered_quantity",
            "revenue",
            "cost",
            "costed_revenue",
            "lines",
        )
    )
    days = [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]
    index = {d: i for i, d in enumerate(days)}
    by_product: dict[int, dict[str, Any]] = {}
    for r in rows:
        p = by_product.get(r["product_id"])
        if p is None:
            p = by_product[r["product_id"]] = {
                "product_id": r["product_id"],
                "name": r["product__name"],
                "code": r["product__code"],
                "sold_as": r["product__sold_as"],
                "quantity_ordered": ZERO,
                "quantity_delivered": ZERO,
                "revenue": ZERO,
                "cost": ZERO,
                "margin": ZERO,
                "uncosted_revenue": ZERO,
                "lines": 0,
                "daily": [_day(d) for d in days],
            }
        margin = r["costed_revenue"] - r["cost"]
        cell = p["daily"][index[r["day"]]]
        cell.update(
            quantity_ordered=r["ordered_quantity"],
            quantity_delivered=r["delivered_quantity"],
            revenue=r["revenue"],
            margin=margin,
            lines=r["lines"],
        )
        p["quantity_ordered"] += r["ordered_quantity"]
        p["quantity_delivered"] += r["delivered_quantity"]
        p["revenue"] += r["revenue"]
        p["cost"] += r["cost"]
        p["margin"] += margin
        p["uncosted_revenue"] += r["revenue"] - r["costed_revenue"]
        p["lines"] += r["lines"]
    items = sorted(by_product.values(), key=lambda p: (-p["revenue"], p["name"], p["product_id"]))
    totals = {
        "revenue": sum((p["revenue"] for p in items), ZERO),
        "cost": sum((p["cost"] for p in items), ZERO),
        "margin": sum((p["margin"] for p in items), ZERO),
        "uncosted_revenue": sum((p["uncosted_revenue"] for p in items), ZERO),
        "lines": sum(p["lines"] for p in items),
    }
    return items, totals


def _day(d: dt.date) -> dict[str, Any]:
    return {
        "date": d,
        "quantity_ordered": ZERO,
        "quantity_delivered": ZERO,
        "revenue": ZERO,
        "margin": ZERO,
        "lines": 0,
    }


def kpis(today: dt.date) -> dict[str, Any]:
    from tenants.sales.models import SalesOrder

    orders = SalesOrder.objects.order_by()
    by_status = dict(
        orders.filter(status__in=list(STATUS_LABELS)).values_list("status").annotate(n=Count("id"))
    )
    today_counts = orders.filter(planned_date=today).aggregate(
        planned=Count("id", filter=~Q(status__in=("draft", "cancelled", "archive"))),
        in_delivery=Count("id", filter=Q(status="in_delivery")),
        delivered=Count("id", filter=Q(status__in=DONE_STATUSES)),
    )
    late = orders.filter(planned_date__lt=today, status__in=LATE_STATUSES).count()
    return {
        "open_orders": sum(by_status.values()),
        "open_orders_by_status": [
            {"status": s, "label": label, "count": by_status.get(s, 0)} for s, label in STATUS_LABELS.items()
        ],
        "deliveries_today": today_counts,
        "late_orders": late,
    }


def compute_summary(days: int, today: dt.date) -> dict[str, Any]:
    rng = date_range(days, today)
    items, totals = products(rng["start_date"], rng["end_date"])
    return {
        "date_range": rng,
        "products": items,
        "totals": totals,
        "kpis": kpis(today),
        "generated_at": timezone.now(),
        "cached": False,
    }


def _version() -> Any:
    try:
        return cache.get(VERSION_KEY) or 0
    except Exception:  # no cache: every request computes
        log.warning("dashboard: cache unavailable", exc_info=True)
        return None


def product_summary(
    *, days: int, force_refresh: bool = False, today: dt.date | None = None
) -> dict[str, Any]:
    today = today or timezone.localdate()
    version = _version()
    key = f"dashboard:summary:{version}:{days}:{today.isoformat()}"
    if version is not None and not force_refresh:
        try:
            hit = cache.get(key)
        except Exception:
            log.warning("dashboard: cache read failed", exc_info=True)
            hit = None
        if hit is not None:
            return {**hit, "cached": True}
    data = compute_summary(days, today)
    if version is not None:
        try:
            cache.set(key, data, CACHE_SECONDS)
        except Exception:
            log.warning("dashboard: cache write failed", exc_info=True)
    return data
