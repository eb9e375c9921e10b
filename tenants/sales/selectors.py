"""Reads of sales orders. Lists join what they show (customer, ship-to, driver, units) in one query."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from tenants.sales.models import LineItem, Note, OrderFee, SalesOrder, StatusEvent

ARCHIVE = SalesOrder.Status.ARCHIVE.value


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
    return order_detail().filter(pk=order_id).first()


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


def notes(sales_order_id: int) -> QuerySet[Note]:
    return Note.objects.select_related("created_by").filter(sales_order_id=sales_order_id)
