"""Schemas of the dashboard (names prefixed: OpenAPI schema names are unique across apps)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from ninja import Field, Schema

from tenants.dashboard.selectors import MAX_DAYS


class DashboardSummaryQuery(Schema):
    days: int = Field(7, ge=1, le=MAX_DAYS, description="The window: the last `days` days, today included")
    force_refresh: bool = Field(False, description="Recompute instead of answering the cached summary")


class DashboardDateRange(Schema):
    start_date: dt.date
    end_date: dt.date
    days: int


class DashboardProductDay(Schema):
    date: dt.date
    quantity_ordered: Decimal
    quantity_delivered: Decimal
    revenue: Decimal
    margin: Decimal
    lines: int


class DashboardProduct(Schema):
    product_id: int
    name: str
    code: str
    sold_as: str
    quantity_ordered: Decimal
    quantity_delivered: Decimal
    revenue: Decimal
    cost: Decimal
    margin: Decimal
    uncosted_revenue: Decimal = Field(
        ..., description="Revenue of lines with no known cost (not in the margin)"
    )
    lines: int
    daily: list[DashboardProductDay]


class DashboardTotals(Schema):
    revenue: Decimal
    cost: Decimal
    margin: Decimal
    uncosted_revenue: Decimal
    lines: int


class DashboardStatusCount(Schema):
    status: str
    label: str
    count: int


class DashboardToday(Schema):
    planned: int
    in_delivery: int
    delivered: int


class DashboardKpis(Schema):
    open_orders: int
    open_orders_by_status: list[DashboardStatusCount]
    deliveries_today: DashboardToday
    late_orders: int


class DashboardSummaryOut(Schema):
    date_range: DashboardDateRange
    products: list[DashboardProduct]
    totals: DashboardTotals
    kpis: DashboardKpis
    generated_at: dt.datetime
    cached: bool
