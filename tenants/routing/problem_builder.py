"""The planning Problem of a day, built from the company's rows (orders, ship-tos, trucks, drivers'
shifts, yards, terminals and their rack prices, the routing settings). Reads only.

What goes in (docs/routing.md):
- stops: the day's orders that are verified, assigned or in delivery (in delivery: fixed to its truck);
  demand per fuel product in whole gallons (rounded up); the window from `planned_time_from/to`;
  service = the settings' fixed minutes + the site's extra minutes + pumping at the settings' rate;
  the ship-to's site constraint (largest truck, skills). Optional stops with a prize come from the
  keep-full due list (`keep_full_stops`).
- trucks: active trucks (truck, tank wagon, bobtail) that plan (`TruckRouting.plans`) and whose
  driver has a shift on the day's weekday (`DriverShift.truck`); compartments from the fleet data;
  start/end at the truck's routing yards, else its home yard, else the driver's.
- terminals: active terminals with coordinates, each with the fuel products it has a rack price for
  (effective on or before the day).
Rows that cannot be given to the solver are `left_out` with their reason (a truck with no driver, no
yard with coordinates; an order with no fuel to carry; an order in delivery on a truck that does not
plan).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch
from django.utils import timezone

from tenants.catalog.models import Product
from tenants.fleet.models import CompanyAsset
from tenants.parties.models import ShipTo, Terminal
from tenants.pricing.models import BuyingPrice
from tenants.routing.models import DriverShift, RoutingSettings, SiteConstraint, TruckRouting
from tenants.sales.models import DISPATCH_STATUSES, LineItem, SalesOrder

if TYPE_CHECKING:
    from tenants.routing.solver.problem import Location, Problem, Settings, Stop

TRUCK_CATEGORIES = ("truck", "tank_wagon", "bobtail")
DAY_S = 24 * 3600
# 49 CFR 395.3(a)(2): no driving beyond the 14th hour after coming on duty.
US_PROPERTY_DUTY_S = 14 * 3600


@dataclass
class Built:
    problem: Problem
    left_out: list[dict[str, Any]] = field(default_factory=list)
    # order id -> what the plan assumed (status, truck, day, ship-to, lines): accept compares it.
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)
    # truck id -> its driver, number (accept assigns the driver with the truck).
    trucks: dict[str, dict[str, Any]] = field(default_factory=dict)
    # order id -> the current truck and stop sequence (the current plan).
    current: dict[Any, list[Any]] = field(default_factory=dict)
    # "tank:<id>" -> the keep-full tank behind an optional stop (what the plan page shows, accept orders).
    tanks: dict[str, dict[str, Any]] = field(default_factory=dict)

    def snapshot(self) -> dict[str, Any]:
        return {"orders": self.orders, "trucks": self.trucks, "tanks": self.tanks}


def settings_row() -> RoutingSettings:
    """The company's routing settings (its saved row, else the defaults; nothing is written)."""
    return RoutingSettings.objects.order_by("id").first() or RoutingSettings()


def solver_settings(row: RoutingSettings) -> Settings:
    from tenants.routing.solver.problem import Settings

    return Settings(
        circuity=float(row.circuity),
        speed_mph=float(row.speed_mph),
        osrm_url=row.osrm_url or None,
        service_fixed_s=int(row.service_fixed_minutes) * 60,
        pump_gpm=float(row.pump_gpm),
    )


def duty_limit_s(row: RoutingSettings, shift: DriverShift) -> int:
    shift_s = _seconds(shift.end) - _seconds(shift.start)
    if shift_s <= 0:
        shift_s += DAY_S
    if shift.max_duty_hours is not None:
        return min(shift_s, int(shift.max_duty_hours * 3600))
    if row.hours_of_service == RoutingSettings.HoursOfService.US_PROPERTY:
        return min(shift_s, US_PROPERTY_DUTY_S)
    if row.hours_of_service == RoutingSettings.HoursOfService.CUSTOM:
        return min(shift_s, int(row.max_duty_hours * 3600))
    return shift_s


def _seconds(t: dt.time) -> int:
    return t.hour * 3600 + t.minute * 60 + t.second


def _location(lat: Decimal | None, lng: Decimal | None) -> Location | None:
    from tenants.routing.solver.problem import Location

    if lat is None or lng is None:
        return None
    return Location(float(lat), float(lng))


def _window(order: SalesOrder) -> tuple[int, int] | None:
    start, end = order.planned_time_from, order.planned_time_to
    if start is None and end is None:
        return None
    lo = _seconds(start) if start else 0
    hi = _seconds(end) if end else DAY_S
    return (lo, hi) if hi >= lo else (lo, DAY_S)


def service_seconds(row: RoutingSettings, gallons: int, extra_minutes: int = 0) -> int:
    """Fixed minutes + the site's extra minutes + pumping time (gallons / gallons per minute), rounded up."""
    pumping = math.ceil(gallons * 60 / float(row.pump_gpm)) if gallons else 0
    return int(row.service_fixed_minutes) * 60 + int(extra_minutes) * 60 + pumping


def lines_key(lines: list[LineItem]) -> str:
    text = ";".join(f"{ln.product_id}:{ln.quantity}" for ln in sorted(lines, key=lambda x: x.pk))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def keep_full_prize_cents(
    row: RoutingSettings, gallons: int, risk: float, suggested: dt.date | None, day: dt.date
) -> int:
    """What topping a keep-full tank up on `day` is worth to the planner (cents): the solver takes the
    stop when its prize is more than the detour costs (miles x cost per mile + hours x cost per hour).

        prize = gallons x value per gallon x (1 + risk) x (1 + urgency)

    risk: the forecast's chance of running out before the suggested date (0..1). urgency: 1 when the
    tank is due on or before the day, falling to 0 for a tank due `keep_full_days` after it
    ((look-ahead - days until due) / look-ahead, clipped to 0..1). So a tank is worth 1x to 4x its
    gallons x value per gallon: at the default 15 c/gal, 500 gal due today at risk 0.2 is worth
    500 x 0.15 x 1.2 x 2 = $180 (a detour of a few miles), one due in 3 days at risk 0 $75."""
    ahead = max(1, int(row.keep_full_days))
    days_until = (suggested - day).days if suggested else ahead
    urgency = min(1.0, max(0.0, (ahead - days_until) / ahead))
    risk = min(1.0, max(0.0, float(risk or 0)))
    value = float(row.keep_full_value_per_gallon) * 100
    return max(1, round(gallons * value * (1 + risk) * (1 + urgency)))


def keep_full_stops(
    day: dt.date, row: RoutingSettings, taken_ship_tos: set[int], built: Built | None = None
) -> list[Stop]:
    """Optional stops from the keep-full due list (tenants.forecast): each tank due by the day plus the
    settings' look-ahead, without an open order, whose ship-to has no order on the day, becomes
    `Stop(id="tank:<asset id>", demand={product: suggested gallons}, prize=keep_full_prize_cents(...))`.
    A tank without ship-to coordinates, a fuel product or a suggested quantity is left out (kind
    "tank") with its reason. `built.tanks` gets what the plan page shows of each stop. A day before
    today has none."""
    from tenants.forecast import selectors as forecast_selectors
    from tenants.routing.solver.problem import Stop

    today = timezone.localdate()
    # A past day (a plan looked at afterwards) gets no fills proposed: none can be made on it.
    if not row.keep_full_stops or day < today:
        return []
    within = max(0, (day - today).days + int(row.keep_full_days))
    rows = forecast_selectors.due_rows(within_days=within, include_ordered=False)["rows"]
    rows = [r for r in rows if r["ship_to_id"] not in taken_ship_tos]
    if not rows:
        return []
    ship_tos = {
        s.pk: s for s in ShipTo.objects.filter(pk__in={r["ship_to_id"] for r in rows if r["ship_to_id"]})
    }
    sites = {s.ship_to_id: s for s in SiteConstraint.objects.filter(ship_to_id__in=list(ship_tos))}
    products = {p.pk: p for p in Product.objects.filter(pk__in={r["product_id"] for r in rows})}
    stops: list[Stop] = []
    for r in rows:
        label = f"{r['asset_name']} ({r['customer_name']})"

        def leave(reason: str, r: dict[str, Any] = r, label: str = label) -> None:
            if built is not None:
                built.left_out.append(
                    {"kind": "tank", "ref": r["asset_id"], "label": label, "reason": reason}
                )

        st = ship_tos.get(r["ship_to_id"]) if r["ship_to_id"] else None
        location = _location(st.latitude, st.longitude) if st else None
        product = products.get(r["product_id"]) if r["product_id"] else None
        gallons = int(r["suggested_gallons"] or 0)
        if location is None:
            leave("Keep-full tank without a ship-to with coordinates: not offered to the planner.")
            continue
        if product is None or not product.is_fuel:
            leave("Keep-full tank without a fuel product: set the tank's product.")
            continue
        if gallons <= 0:
            leave("Keep-full tank without a suggested quantity.")
            continue
        site = sites.get(st.pk) if st else None
        prize = keep_full_prize_cents(row, gallons, r["risk"], r["suggested_date"], day)
        stop_id = f"tank:{r['asset_id']}"
        stops.append(
            Stop(
                id=stop_id,
                location=location,
                demand={product.code: gallons},
                window=None,
                service_s=service_seconds(row, gallons, site.extra_service_minutes if site else 0),
                max_truck_gallons=site.max_truck_gallons if site else None,
                skills=frozenset(site.skills if site else ()),
                prize=prize,
            )
        )
        if built is not None:
            built.tanks[stop_id] = {
                "asset_id": r["asset_id"],
                "asset_name": r["asset_name"],
                "customer_id": r["customer_id"],
                "customer_name": r["customer_name"],
                "ship_to_id": r["ship_to_id"],
                "ship_to_name": r["ship_to_name"],
                "product": product.code,
                "gallons": gallons,
                "suggested_date": r["suggested_date"].isoformat() if r["suggested_date"] else None,
                "runout_date": r["runout_date"].isoformat() if r["runout_date"] else None,
                "risk": round(float(r["risk"] or 0), 3),
                "prize": round(prize / 100, 2),
                "lat": location.lat,
                "lng": location.lng,
            }
    return stops


def build(day: dt.date) -> Built:
    from tenants.routing.solver.problem import Location, Problem, Stop, Truck
    from tenants.routing.solver.problem import Terminal as SolverTerminal

    row = settings_row()
    orders = list(
        SalesOrder.objects.filter(planned_date=day, status__in=DISPATCH_STATUSES)
        .select_related("ship_to", "customer", "truck")
        .prefetch_related(
            Prefetch(
                "line_items", queryset=LineItem.objects.select_related("product").order_by("position", "id")
            )
        )
        .order_by("id")
    )
    sites = {
        s.ship_to_id: s
        for s in SiteConstraint.objects.filter(ship_to_id__in={o.ship_to_id for o in orders if o.ship_to_id})
    }
    fuel_codes = set(Product.objects.filter(is_fuel=True).values_list("code", flat=True))

    # Trucks with a driver's shift on this weekday.
    weekday = day.isoweekday()
    shifts: dict[int, DriverShift] = {}
    for shift in (
        DriverShift.objects.select_related("driver", "driver__home_yard")
        .filter(driver__is_active=True, truck__isnull=False)
        .order_by("driver__name", "id")
    ):
        if weekday in (shift.days or []) and shift.truck_id not in shifts:
            shifts[shift.truck_id] = shift  # type: ignore[index]
    routing = {
        r.truck_id: r
        for r in TruckRouting.objects.select_related("start_yard", "end_yard").prefetch_related("products")
    }
    built = Built(problem=Problem(day=day, stops=[], trucks=[], terminals=[], settings=solver_settings(row)))
    trucks: list[Truck] = []
    for unit in (
        CompanyAsset.objects.filter(is_active=True, asset_type__category__in=TRUCK_CATEGORIES)
        .select_related("home_yard")
        .order_by("asset_number", "id")
    ):
        conf = routing.get(unit.pk)
        if conf is not None and not conf.plans:
            continue
        found = shifts.get(unit.pk)
        if found is None:
            built.left_out.append(
                {
                    "kind": "truck",
                    "ref": unit.pk,
                    "label": unit.asset_number,
                    "reason": f"No driver has a shift on this truck on {day:%A}.",
                }
            )
            continue
        shift = found
        start_yard = (conf.start_yard if conf else None) or unit.home_yard or shift.driver.home_yard
        end_yard = (conf.end_yard if conf else None) or start_yard
        start = _location(start_yard.latitude, start_yard.longitude) if start_yard else None
        end = _location(end_yard.latitude, end_yard.longitude) if end_yard else None
        if start is None or end is None:
            built.left_out.append(
                {
                    "kind": "truck",
                    "ref": unit.pk,
                    "label": unit.asset_number,
                    "reason": "No start or end yard with coordinates: set a home yard with its location.",
                }
            )
            continue
        compartments = tuple(int(c["capacity"]) for c in unit.compartments or []) or (
            (int(unit.capacity),) if unit.capacity else ()
        )
        if not compartments:
            built.left_out.append(
                {
                    "kind": "truck",
                    "ref": unit.pk,
                    "label": unit.asset_number,
                    "reason": "No tank capacity or compartments in the fleet data.",
                }
            )
            continue
        products = frozenset(p.code for p in conf.products.all()) if conf else frozenset()
        start_s, end_s = _seconds(shift.start), _seconds(shift.end)
        if end_s <= start_s:
            end_s = DAY_S
        trucks.append(
            Truck(
                id=unit.pk,
                compartments=compartments,
                products=products or frozenset(fuel_codes),
                start=start,
                end=end,
                shift=(start_s, end_s),
                max_duty_s=duty_limit_s(row, shift),
                cost_per_mile=float(
                    conf.cost_per_mile
                    if conf and conf.cost_per_mile is not None
                    else row.default_cost_per_mile
                ),
                cost_per_hour=float(
                    conf.cost_per_hour
                    if conf and conf.cost_per_hour is not None
                    else row.default_cost_per_hour
                ),
                skills=frozenset(conf.skills if conf else ()),
                driver_id=shift.driver_id,
            )
        )
        built.trucks[str(unit.pk)] = {
            "number": unit.asset_number,
            "driver_id": shift.driver_id,
            "driver_name": shift.driver.name,
        }
    truck_ids = {t.id for t in trucks}

    stops: list[Stop] = []
    for order in orders:
        lines = list(order.line_items.all())
        built.orders[str(order.pk)] = {
            "number": order.number,
            "status": order.status,
            "planned_date": order.planned_date.isoformat(),
            "ship_to_id": order.ship_to_id,
            "lines": lines_key(lines),
        }
        if order.truck_id is not None:
            built.current.setdefault(order.truck_id, []).append(order.pk)
        by_product: dict[str, Decimal] = defaultdict(Decimal)
        for ln in lines:
            if ln.product.is_fuel:
                by_product[ln.product.code] += ln.quantity
        # Whole gallons, rounded up: the truck must hold what was ordered.
        demand = {code: math.ceil(qty) for code, qty in by_product.items() if qty > 0}
        if not demand:
            built.left_out.append(
                {
                    "kind": "order",
                    "ref": order.pk,
                    "label": order.number,
                    "reason": "No fuel on this order: nothing to load (deliver it with the packaged goods).",
                }
            )
            continue
        in_delivery = order.status == SalesOrder.Status.IN_DELIVERY
        if in_delivery and order.truck_id not in truck_ids:
            built.left_out.append(
                {
                    "kind": "order",
                    "ref": order.pk,
                    "label": order.number,
                    "reason": "In delivery on a truck the planner does not use today: left where it is.",
                }
            )
            continue
        site = sites.get(order.ship_to_id) if order.ship_to_id else None
        st = order.ship_to
        stops.append(
            Stop(
                id=order.pk,
                location=_location(st.latitude, st.longitude) if st else None,
                demand=dict(demand),
                window=_window(order),
                service_s=service_seconds(
                    row, sum(demand.values()), site.extra_service_minutes if site else 0
                ),
                max_truck_gallons=site.max_truck_gallons if site else None,
                skills=frozenset(site.skills if site else ()),
                fixed_truck=order.truck_id if in_delivery else None,
                fixed_position=None,
                prize=None,
            )
        )
    for truck_id in built.current:
        built.current[truck_id] = [
            o.pk
            for o in sorted(
                (o for o in orders if o.truck_id == truck_id),
                key=lambda o: (o.stop_sequence or 0, o.planned_time_from or dt.time.min, o.pk),
            )
        ]
    stops += keep_full_stops(day, row, {o.ship_to_id for o in orders if o.ship_to_id}, built)

    # Terminals with the fuel products they have a rack price for.
    racks: dict[int, set[str]] = defaultdict(set)
    for terminal_id, code in (
        BuyingPrice.objects.filter(effective_from__lte=day, product__is_fuel=True)
        .values_list("terminal_id", "product__code")
        .distinct()
    ):
        racks[terminal_id].add(code)
    terminals = [
        SolverTerminal(
            id=t.pk,
            location=Location(float(t.latitude or 0), float(t.longitude or 0)),
            products=frozenset(racks[t.pk]),
        )
        for t in Terminal.objects.filter(
            is_active=True, latitude__isnull=False, longitude__isnull=False
        ).order_by("id")
        if racks.get(t.pk)
    ]
    built.problem = Problem(
        day=day, stops=stops, trucks=trucks, terminals=terminals, settings=solver_settings(row)
    )
    return built
