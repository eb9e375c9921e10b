"""The dispatch center's day view: trucks with their stops, loads and compartments, the drivers, and the
day's unassigned orders, as the plain rows `DispatchDayOut` describes (read with `.values()`, no model
instances: 400 orders with their lines are a few thousand objects otherwise). The load rules and the
packing are `dispatch.py`'s; this module only reads.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Any

from tenants.fleet.models import CompanyAsset, Driver
from tenants.geo.models import Yard
from tenants.sales import selectors
from tenants.sales.dispatch import PLACE_PATHS, ZERO, compartments_of, pack, place_of, served_by
from tenants.sales.models import DISPATCH_STATUSES, SalesOrder
from tenants.sales.schemas import DispatchDriverOut

# --- the day view ----------------------------------------------------------------------------------
TRUCK_CATEGORIES = ("truck", "tank_wagon", "bobtail")
_UNIT_PATHS = ("id", "asset_number", "name", "capacity", "compartments")


class _Unit:
    """A truck or trailer read with `.values()`, shaped as `compartments_of` reads a CompanyAsset."""

    __slots__ = ("asset_number", "capacity", "compartments", "ref")

    def __init__(self, row: dict[str, Any]) -> None:
        self.asset_number = row["asset_number"]
        self.capacity = row["capacity"]
        self.compartments = row["compartments"]
        self.ref = {"id": row["id"], "asset_number": row["asset_number"], "name": row["name"]}


def _yard_ref(row: dict[str, Any]) -> dict[str, Any] | None:
    if row["home_yard_id"] is None:
        return None
    return {"id": row["home_yard_id"], "name": row["home_yard__name"], "code": row["home_yard__code"]}


def _line_loads(stops: list[dict[str, Any]]) -> dict[int, Decimal]:
    """`fuel_loads` of orders given as rows with their `line_items` rows."""
    loads: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for order in stops:
        for line in order["line_items"]:
            if line["product"]["is_fuel"]:
                loads[line["product_id"]] += line["quantity"]
    return dict(loads)


def day_view(day: dt.date, *, region_id: int | None = None, yard_id: int | None = None) -> dict[str, Any]:
    """Trucks (with their orders, load and compartments), drivers, and the day's unassigned orders,
    as the plain rows `DispatchDayOut` describes (read with `.values()`, no model instances): 400
    orders are a few thousand objects otherwise. A fixed number of queries whatever the size of the day."""
    verified = SalesOrder.Status.VERIFIED.value

    trucks_qs = CompanyAsset.objects.filter(is_active=True, asset_type__category__in=TRUCK_CATEGORIES)
    drivers_qs = Driver.objects.filter(is_active=True)
    if yard_id:
        trucks_qs = trucks_qs.filter(home_yard_id=yard_id)
        drivers_qs = drivers_qs.filter(home_yard_id=yard_id)
    if region_id:
        trucks_qs = trucks_qs.filter(home_yard__region_id=region_id)
        drivers_qs = drivers_qs.filter(region_id=region_id)
    trucks = list(
        trucks_qs.order_by("asset_number", "id").values(
            *_UNIT_PATHS, "home_yard_id", "home_yard__name", "home_yard__code"
        )
    )
    filtered = bool(region_id or yard_id)
    values = list(
        selectors.row_values(
            SalesOrder.objects.filter(planned_date=day, status__in=DISPATCH_STATUSES).order_by(
                "stop_sequence", "planned_time_from", "id"
            ),
            *(PLACE_PATHS if filtered else ()),
        )
    )
    if filtered:
        # Orders have no region of their own: an unassigned order belongs to the yards that serve
        # its delivery place (served_by); one on a truck follows the truck (the trucks are filtered).
        serving = served_by(
            (place_of(v) for v in values if v["status"] == verified), Yard.objects.order_by("id")
        )
        values = [
            v
            for v in values
            if v["status"] != verified
            or any(
                (not yard_id or y.pk == yard_id) and (not region_id or y.region_id == region_id)
                for y in serving[v["id"]]
            )
        ]
    orders = selectors.build_rows(values)
    lines = selectors.line_rows(o["id"] for o in orders)
    for o in orders:
        o["line_items"] = lines.get(o["id"], [])
    trailer_ids = {o["trailer_id"] for o in orders if o["trailer_id"]}
    trailers = (
        {t["id"]: _Unit(t) for t in CompanyAsset.objects.filter(pk__in=trailer_ids).values(*_UNIT_PATHS)}
        if trailer_ids
        else {}
    )
    by_truck: dict[int, list[dict[str, Any]]] = defaultdict(list)
    unassigned = []
    for o in orders:
        if o["truck_id"] and o["status"] != verified:
            by_truck[o["truck_id"]].append(o)
        elif o["status"] == verified:
            unassigned.append(o)
    names: dict[int, str] = {}
    for o in orders:
        for line in o["line_items"]:
            names[line["product_id"]] = line["product"]["name"]
    truck_rows = []
    for row in trucks:
        truck = _Unit(row)
        stops = by_truck.get(row["id"], [])
        trailer = next((trailers.get(o["trailer_id"]) for o in stops if o["trailer_id"]), None)
        loads = _line_loads(stops)
        packing = pack(compartments_of(truck, trailer), loads)
        capacity = sum((c.capacity for c in packing.compartments), ZERO)
        truck_rows.append(
            {
                "truck": truck.ref,
                "trailer": trailer.ref if trailer else None,
                "home_yard": (
                    {
                        "id": row["home_yard_id"],
                        "name": row["home_yard__name"],
                        "code": row["home_yard__code"],
                    }
                    if row["home_yard_id"]
                    else None
                ),
                "drivers": sorted({(o["driver_id"], o["driver"]["name"]) for o in stops if o["driver"]}),
                "capacity": capacity,
                "load_total": sum(loads.values(), ZERO),
                "loads": [
                    {
                        "product_id": pid,
                        "product_name": names.get(pid, ""),
                        "quantity": qty,
                        "over_capacity": packing.overflow.get(pid, ZERO),
                    }
                    for pid, qty in sorted(loads.items(), key=lambda kv: -kv[1])
                ],
                "compartments": [
                    {
                        "unit": c.unit,
                        "number": c.number,
                        "capacity": c.capacity,
                        "product_id": c.product_id,
                        "product_name": names.get(c.product_id, "") if c.product_id else "",
                        "quantity": c.quantity,
                    }
                    for c in packing.compartments
                ],
                "over_capacity": not packing.fits,
                "orders": stops,
            }
        )
    # Orders on a truck the filters hide (or an inactive one) still show, under "other trucks".
    shown = {t["id"] for t in trucks}
    elsewhere = [o for tid, stops in by_truck.items() if tid not in shown for o in stops]
    driver_fields = tuple(DispatchDriverOut.model_fields)  # plain columns of Driver
    return {
        "date": day,
        "trucks": truck_rows,
        "drivers": list(drivers_qs.order_by("name", "id").values(*driver_fields)),
        "unassigned": unassigned,
        "assigned_elsewhere": elsewhere,
    }
