"""The dispatch center: a day's trucks against its orders, assignment checks and truck loads.

A truck's load for a day is every fuel line (products with `is_fuel`) of the orders assigned to it that
day, per product. Each compartment carries one product; the truck's compartments (and its trailer's)
are filled by `pack`: products from the largest quantity down, each into the smallest compartment
that holds what is left of it, else the largest free one. What does not fit is over capacity, and an
assignment that would leave any product over capacity is refused. One load per truck per day (a second
trip to the rack is planned as another day's load or another truck); non-fuel products (drums, cases)
do not take compartment space.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol

from core.errors import ApiError
from django.db import transaction
from django.db.models import Max, Prefetch, QuerySet

from tenants.fleet.models import CompanyAsset, Driver
from tenants.geo.models import Yard
from tenants.sales.models import ON_TRUCK_STATUSES, LineItem, SalesOrder

ZERO = Decimal("0")
ASSIGN_ERROR = "Error assigning driver/assets to sales order"


@dataclass
class Compartment:
    unit: str  # asset number of the truck or trailer
    number: int
    capacity: Decimal
    product_id: int | None = None
    quantity: Decimal = ZERO


@dataclass
class Packing:
    compartments: list[Compartment]
    overflow: dict[int, Decimal] = field(default_factory=dict)  # product id → quantity that did not fit

    @property
    def fits(self) -> bool:
        return not self.overflow


class HasCompartments(Protocol):
    """A truck or trailer: a CompanyAsset, or one read as a row (`_Unit`)."""

    @property
    def asset_number(self) -> str: ...
    @property
    def capacity(self) -> int | None: ...
    @property
    def compartments(self) -> Any: ...


def compartments_of(*units: HasCompartments | None) -> list[Compartment]:
    out = []
    for unit in units:
        if unit is None:
            continue
        if unit.compartments:
            out += [
                Compartment(unit.asset_number, int(c["number"]), Decimal(c["capacity"]))
                for c in unit.compartments
            ]
        elif unit.capacity:
            out.append(Compartment(unit.asset_number, 1, Decimal(unit.capacity)))
    return out


def pack(compartments: list[Compartment], loads: dict[int, Decimal]) -> Packing:
    """Fill compartments with products (one product per compartment). Pure: no database."""
    free = sorted(compartments, key=lambda c: c.capacity)
    for c in free:
        c.product_id, c.quantity = None, ZERO
    overflow: dict[int, Decimal] = {}
    for product_id, qty in sorted(loads.items(), key=lambda kv: (-kv[1], kv[0])):
        left = qty
        while left > 0:
            empty = [c for c in free if c.product_id is None]
            if not empty:
                break
            fitting = [c for c in empty if c.capacity >= left]
            chosen = fitting[0] if fitting else empty[-1]
            chosen.product_id = product_id
            chosen.quantity = min(left, chosen.capacity)
            left -= chosen.quantity
        if left > 0:
            overflow[product_id] = left
    ordered = sorted(compartments, key=lambda c: (c.unit, c.number))
    return Packing(ordered, overflow)


def fuel_loads(orders: list[SalesOrder]) -> dict[int, Decimal]:
    loads: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for order in orders:
        for line in order.line_items.all():
            if line.product.is_fuel:
                loads[line.product_id] += line.quantity
    return dict(loads)


def _unit(asset_id: int | None, label: str, *, trailer: bool = False) -> CompanyAsset | None:
    if asset_id is None:
        return None
    unit = CompanyAsset.objects.select_related("asset_type").filter(pk=asset_id).first()
    if unit is None:
        raise ApiError(422, f"{ASSIGN_ERROR}: no {label} with id {asset_id}.")
    if not unit.is_active:
        raise ApiError(422, f"{ASSIGN_ERROR}: {label} {unit.asset_number} is inactive.")
    is_trailer = unit.asset_type.category == "trailer"
    if trailer and not is_trailer:
        raise ApiError(422, f"{ASSIGN_ERROR}: {unit.asset_number} is not a trailer.")
    if not trailer and is_trailer:
        raise ApiError(422, f"{ASSIGN_ERROR}: {unit.asset_number} is a trailer; choose it as the trailer.")
    return unit


def check_assignment(
    order: SalesOrder, driver_id: int, truck_id: int, trailer_id: int | None, *, one_load: bool = True
) -> tuple[Driver, CompanyAsset, CompanyAsset | None]:
    """The driver and units exist and are active, and the truck's day still fits with this order.

    `one_load=False`: the route planner's accept (tenants/routing), whose routes may reload at a
    terminal during the day; each of its loads was checked against the compartments by the planner's
    checker, so the one-load-a-day rule is not applied here."""
    driver = Driver.objects.filter(pk=driver_id).first()
    if driver is None:
        raise ApiError(422, f"{ASSIGN_ERROR}: no driver with id {driver_id}.")
    if not driver.is_active:
        raise ApiError(422, f"{ASSIGN_ERROR}: driver {driver.name} is inactive.")
    truck = _unit(truck_id, "truck")
    trailer = _unit(trailer_id, "trailer", trailer=True)
    assert truck is not None
    if not one_load:
        return driver, truck, trailer
    day_orders = list(
        truck_day_orders(truck.pk, order.planned_date).exclude(pk=order.pk).prefetch_related(_LINES)
    )
    this = SalesOrder.objects.filter(pk=order.pk).prefetch_related(_LINES).get()
    loads = fuel_loads([*day_orders, this])
    packing = pack(compartments_of(truck, trailer), loads)
    if not packing.fits:
        names = _product_names(packing.overflow)
        over = ", ".join(f"{names[pid]} {qty:,.0f} gal" for pid, qty in packing.overflow.items())
        capacity = sum((c.capacity for c in packing.compartments), ZERO)
        raise ApiError(
            409,
            f"{ASSIGN_ERROR}: over capacity. {truck.asset_number}"
            f"{' + ' + trailer.asset_number if trailer else ''} holds {capacity:,.0f} gal in "
            f"{len(packing.compartments)} compartment(s) on {order.planned_date:%Y-%m-%d}; "
            f"what does not fit: {over}.",
            overflow={str(pid): str(qty) for pid, qty in packing.overflow.items()},
        )
    return driver, truck, trailer


def _product_names(ids: Any) -> dict[int, str]:
    from tenants.catalog.models import Product

    return dict(Product.objects.filter(pk__in=list(ids)).values_list("pk", "name"))


_LINES = Prefetch(
    "line_items", queryset=LineItem.objects.select_related("product").order_by("position", "id")
)


def truck_day_orders(truck_id: int, day: dt.date) -> QuerySet[SalesOrder]:
    return SalesOrder.objects.filter(truck_id=truck_id, planned_date=day, status__in=ON_TRUCK_STATUSES)


def next_stop(truck_id: int, day: dt.date, *, exclude: int | None = None) -> int:
    qs = truck_day_orders(truck_id, day)
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    return int(qs.aggregate(m=Max("stop_sequence"))["m"] or 0) + 1


def reorder_stops(truck_id: int, day: dt.date, order_ids: list[int]) -> list[SalesOrder]:
    """Set the truck's stops of the day in this order (every stop of the day, each once)."""
    if len(set(order_ids)) != len(order_ids):
        raise ApiError(422, "Each order may appear only once in the stop order.")
    with transaction.atomic():
        current = list(truck_day_orders(truck_id, day).select_for_update().order_by("id"))
        ids = {o.pk for o in current}
        if set(order_ids) != ids:
            raise ApiError(
                409,
                "The stop order must list exactly the truck's orders of the day "
                f"({len(ids)} order(s)); the plan changed meanwhile, reload it.",
            )
        by_id = {o.pk: o for o in current}
        for n, oid in enumerate(order_ids, start=1):
            o = by_id[oid]
            if o.stop_sequence != n:
                o.stop_sequence = n
                o.save(update_fields=["stop_sequence", "updated_at"])
    return [by_id[i] for i in order_ids]


# --- which yards serve an order's delivery place ----------------------------------------------------


def _distance_km(lat1: Decimal, lon1: Decimal, lat2: Decimal, lon2: Decimal) -> float:
    p1, p2 = math.radians(float(lat1)), math.radians(float(lat2))
    dp, dl = p2 - p1, math.radians(float(lon2) - float(lon1))
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0 * 2 * math.asin(math.sqrt(min(1.0, a)))


@dataclass(frozen=True)
class Place:
    """Where an order is delivered, as far as it is known: the ship-to's coordinates, and its city
    and state (else the customer's)."""

    order_id: int
    latitude: Decimal | None
    longitude: Decimal | None
    city_id: int | None
    state_id: int | None


# The `.values()` paths a Place is read from (ship-to first, the customer's address as the fallback).
PLACE_PATHS = (
    "ship_to__latitude",
    "ship_to__longitude",
    "ship_to__city_id",
    "ship_to__state_id",
    "customer__city_id",
    "customer__state_id",
)


def place_of(row: dict[str, Any]) -> Place:
    return Place(
        row["id"],
        row["ship_to__latitude"],
        row["ship_to__longitude"],
        row["ship_to__city_id"] or row["customer__city_id"],
        row["ship_to__state_id"] or row["customer__state_id"],
    )


def served_by(places: Iterable[Place], yards: Iterable[Yard]) -> dict[int, list[Yard]]:
    """The yards that serve each order's delivery place (the ship-to, else the customer's address):
    the nearest yard when the place and yards have coordinates; else the yards in the same city;
    else those in the same state; else none (the order then shows only without a region or yard
    filter). Pure once the yards are loaded: no query per order."""
    yards = list(yards)
    located = [
        (y, y.latitude, y.longitude) for y in yards if y.latitude is not None and y.longitude is not None
    ]
    out: dict[int, list[Yard]] = {}
    for p in places:
        lat, lon = p.latitude, p.longitude
        if lat is not None and lon is not None and located:
            out[p.order_id] = [min(located, key=lambda yl: _distance_km(lat, lon, yl[1], yl[2]))[0]]
            continue
        same_city = [y for y in yards if p.city_id and y.city_id == p.city_id]
        out[p.order_id] = same_city or [y for y in yards if p.state_id and y.state_id == p.state_id]
    return out
