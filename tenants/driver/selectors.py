"""Reads of the driver portal: the signed-in driver, today's stops, the day's summary, conflicts."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import defaultdict
from decimal import Decimal
from typing import Any
from urllib.parse import quote_plus

from core.dates import day_span
from core.errors import ApiError
from core.scoping import scoped
from django.db.models import Prefetch, Q
from django.utils import timezone

from tenants.driver.models import DriverAction
from tenants.fleet.models import Driver
from tenants.parties.models import CustomerAsset
from tenants.routing import selectors as routing_selectors
from tenants.sales.models import LineItem, SalesOrder

S = SalesOrder.Status
# What a driver sees on the day: their stops still to do and those done.
DAY_STATUSES = (S.ASSIGNED, S.IN_DELIVERY, S.DELIVERED, S.COMPLETED)
DONE_STATUSES = (S.DELIVERED, S.COMPLETED, S.ARCHIVE)
OPEN_STATUSES = (S.ASSIGNED, S.IN_DELIVERY)
NOT_A_DRIVER = "This sign-in is not linked to a driver: ask the office to link it on the Drivers page."


def driver_of(user: Any) -> Driver:
    """The Driver row linked to the signed-in user (fleet.Driver.user), else 403."""
    pk = getattr(user, "pk", None)
    driver = Driver.objects.filter(user_id=pk).first() if pk is not None else None
    if driver is None:
        raise ApiError(403, NOT_A_DRIVER)
    return driver


def order_version(order: SalesOrder, lines: list[LineItem] | None = None) -> str:
    """A fingerprint of what the office decides about an order and the driver relies on: who and
    what delivers it, where, when, and its lines. The driver's own moves (start, delivered
    quantities, status) do not change it, so an action queued after another by the same phone still
    matches; an office edit (lines, address, truck, driver, day) does."""
    rows = lines if lines is not None else list(order.line_items.all())
    body = {
        "driver": order.driver_id,
        "truck": order.truck_id,
        "trailer": order.trailer_id,
        "day": order.planned_date.isoformat() if order.planned_date else None,
        "customer": order.customer_id,
        "ship_to": order.ship_to_id,
        "lines": sorted(
            (ln.pk, ln.product_id, str(ln.quantity.normalize()), ln.customer_asset_id) for ln in rows
        ),
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def parse_ids(raw: str) -> list[int]:
    ids: list[int] = []
    for part in (raw or "").split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or len(part) > 18:
            raise ApiError(422, f"truck_ids: '{part}' is not a company asset id.")
        ids.append(int(part))
    return ids[:50]


def _address(ship_to: Any, customer: Any) -> str:
    src = ship_to or customer
    city = getattr(src, "city", None)
    state = getattr(src, "state", None)
    parts = [
        src.address_one,
        src.address_two,
        ", ".join(
            p
            for p in (city.name if city else "", f"{state.code if state else ''} {src.zip_code}".strip())
            if p
        ),
    ]
    return ", ".join(p for p in parts if p)


def map_links(address: str, lat: Decimal | None, lng: Decimal | None) -> tuple[str, str]:
    """(https maps URL, geo: URI): coordinates when the ship-to has them, else the address."""
    if lat is not None and lng is not None:
        where = f"{lat.normalize()},{lng.normalize()}"
        return f"https://maps.google.com/?q={where}", f"geo:{where}?q={where}"
    q = quote_plus(address or "")
    return f"https://maps.google.com/?q={q}", f"geo:0,0?q={q}"


def _truck(asset: Any) -> dict[str, Any] | None:
    if asset is None:
        return None
    return {"id": asset.pk, "asset_number": asset.asset_number, "name": asset.name}


def _tank(asset: Any) -> dict[str, Any]:
    return {
        "id": asset.pk,
        "name": asset.asset_name,
        "capacity": asset.capacity,
        "product": asset.product.name if asset.product_id else "",
    }


def todays_orders(driver: Driver, *, day: dt.date, truck_ids: list[int]) -> list[dict[str, Any]]:
    """The driver's stops of `day` on the chosen trucks (all of theirs when none is chosen), in stop
    order: three queries whatever the number of stops."""
    qs = (
        SalesOrder.objects.filter(driver=driver, planned_date=day, status__in=DAY_STATUSES)
        .select_related(
            "customer",
            "customer__city",
            "customer__state",
            "ship_to",
            "ship_to__city",
            "ship_to__state",
            "truck",
            "trailer",
        )
        .prefetch_related(
            Prefetch(
                "line_items",
                queryset=LineItem.objects.select_related("product", "customer_asset__product").order_by(
                    "position", "id"
                ),
            )
        )
        .order_by("stop_sequence", "planned_time_from", "id")
    )
    if truck_ids:
        qs = qs.filter(truck_id__in=truck_ids)
    orders = list(qs)
    planned = routing_selectors.planned_stops(o.pk for o in orders)  # the accepted plan's ETAs
    site_ids = {o.ship_to_id for o in orders if o.ship_to_id}
    tanks: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for asset in (
        CustomerAsset.objects.filter(ship_to_id__in=site_ids, is_active=True)
        .select_related("product")
        .order_by("asset_name", "id")
    ):
        tanks[asset.ship_to_id].append(_tank(asset))  # type: ignore[index]
    out = []
    # The driver's own stops are numbered 1..n in the answer's order: the truck's stop_sequence counts
    # other drivers' stops on the same truck too (a driver's first stop could read "Stop 2").
    for number, o in enumerate(orders, start=1):
        lines = list(o.line_items.all())
        site = o.ship_to
        address = _address(site, o.customer)
        lat = site.latitude if site else None
        lng = site.longitude if site else None
        maps_url, geo_url = map_links(address, lat, lng)
        out.append(
            {
                "id": o.pk,
                "number": o.number,
                "status": o.status,
                "version": order_version(o, lines),
                "stop_number": number,
                "stop_sequence": o.stop_sequence,
                "eta": planned[o.pk]["eta"] if o.pk in planned else None,
                "planned_date": o.planned_date,
                "planned_time_from": o.planned_time_from,
                "planned_time_to": o.planned_time_to,
                "po_number": o.po_number,
                "instructions": o.instructions,
                "customer_name": o.customer.name,
                "customer_phone": o.customer.phone,
                "ship_to": {
                    "id": site.pk if site else None,
                    "name": site.name if site else o.customer.name,
                    "address": address,
                    "latitude": lat,
                    "longitude": lng,
                    "delivery_instructions": site.delivery_instructions if site else "",
                    "access_hours": site.access_hours if site else "",
                },
                "maps_url": maps_url,
                "geo_url": geo_url,
                "truck": _truck(o.truck),
                "trailer": _truck(o.trailer),
                "delivery_started_at": o.delivery_started_at,
                "delivered_at": o.delivered_at,
                "lines": [
                    {
                        "id": ln.pk,
                        "product_id": ln.product_id,
                        "product_name": ln.product.name,
                        "product_code": ln.product.code,
                        "unit": ln.product.sold_as,
                        "is_fuel": ln.product.is_fuel,
                        "quantity": ln.quantity,
                        "delivered_quantity": ln.delivered_quantity,
                        "po_number": ln.po_number,
                        "tank": _tank(ln.customer_asset) if ln.customer_asset_id else None,
                    }
                    for ln in lines
                ],
                "tanks": tanks.get(o.ship_to_id or 0, []),
            }
        )
    return out


def daily_summary(driver: Driver, *, day: dt.date) -> dict[str, Any]:
    """The driver's day: stops planned for it or delivered on it, what was delivered per product and
    per truck (gallons: products sold by the gallon), and the stops still open."""
    tz = timezone.get_current_timezone()
    start, end = day_span(day, field="date", tz=tz)
    orders = list(
        SalesOrder.objects.filter(driver=driver)
        .filter(
            Q(planned_date=day, status__in=(*OPEN_STATUSES, *DONE_STATUSES))
            | Q(delivered_at__gte=start, delivered_at__lt=end)
        )
        .select_related("customer", "truck")
        .prefetch_related(Prefetch("line_items", queryset=LineItem.objects.select_related("product")))
        .order_by("stop_sequence", "id")
    )
    products: dict[int, dict[str, Any]] = {}
    trucks: dict[int | None, dict[str, Any]] = {}
    done = [
        o for o in orders if o.status in DONE_STATUSES and o.delivered_at and start <= o.delivered_at < end
    ]
    for o in done:
        key = o.truck_id
        truck = trucks.setdefault(
            key,
            {
                "truck_id": key,
                "truck": o.truck.asset_number if o.truck else "No truck",
                "deliveries": 0,
                "gallons": Decimal("0"),
            },
        )
        truck["deliveries"] += 1
        for ln in o.line_items.all():
            qty = ln.delivered_quantity or Decimal("0")
            row = products.setdefault(
                ln.product_id,
                {
                    "product_id": ln.product_id,
                    "product_name": ln.product.name,
                    "unit": ln.product.sold_as,
                    "quantity": Decimal("0"),
                },
            )
            row["quantity"] += qty
            if ln.product.sold_as == "gallon":
                truck["gallons"] += qty
    open_stops = [o for o in orders if o.status in OPEN_STATUSES and o.planned_date == day]
    miles = routing_selectors.miles_summary([o.pk for o in orders if o.planned_date == day], day)
    return {
        **miles,
        "date": day,
        "driver_name": driver.name,
        "deliveries_done": len(done),
        "open_stops": len(open_stops),
        "total_gallons": sum((t["gallons"] for t in trucks.values()), Decimal("0")),
        "products": sorted(products.values(), key=lambda p: p["product_name"]),
        "trucks": sorted(trucks.values(), key=lambda t: t["truck"]),
        "stops": [
            {
                "id": o.pk,
                "number": o.number,
                "customer_name": o.customer.name,
                "status": o.status,
                "stop_number": n,
                "stop_sequence": o.stop_sequence,
                "delivered_at": o.delivered_at,
            }
            for n, o in enumerate(orders, start=1)
        ],
    }


def action_conflicts(*, outcome: str, order_id: int | None) -> list[dict[str, Any]]:
    """What the office must look at: the drivers' actions that were not applied (latest 200)."""
    # Through the request's row scope (core.scoping): a driver lists his own actions only.
    qs = scoped(DriverAction.objects.filter(outcome=outcome).select_related("sales_order", "driver"))
    if order_id is not None:
        qs = qs.filter(order_ref=order_id)
    return [
        {
            "id": a.pk,
            "client_action_id": a.client_action_id,
            "kind": a.kind,
            "order_id": a.order_ref,
            "order_number": a.sales_order.number if a.sales_order else None,
            "driver_name": a.driver.name if a.driver else "",
            "outcome": a.outcome,
            "reason": a.reason,
            "taken_at": a.taken_at,
            "received_at": a.received_at,
            "payload": a.payload,
        }
        for a in qs.order_by("-received_at", "-id")[:200]
    ]
