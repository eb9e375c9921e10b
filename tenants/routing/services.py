"""Writes of the routing app: settings and per-truck/driver/site data, "Plan the day" (queued to the
worker, progress, stop), evaluating adjusted routes, and accepting a plan through the sales workflow."""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Sequence
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from core import csp
from core.crud import save_object
from core.errors import ApiError
from core.jobs import Document, report_progress, send_job
from django.db import connection, transaction
from django.utils import timezone

from tenants.fleet.models import CompanyAsset, Driver
from tenants.parties.models import ShipTo
from tenants.routing import problem_builder, selectors
from tenants.routing.models import (
    DriverShift,
    PlannedStop,
    RoutePlan,
    RoutingSettings,
    SiteConstraint,
    TruckRouting,
)
from tenants.sales import workflow
from tenants.sales.models import SalesOrder

log = logging.getLogger(__name__)
S = RoutePlan.Status
HAS_PLAN = (S.READY, S.STOPPED, S.ACCEPTED)
UNFINISHED = (S.QUEUED, S.RUNNING)
# How often the running job writes its progress and reads a stop request (seconds).
PROGRESS_EVERY_S = 0.5


# --- settings ---------------------------------------------------------------------------------------
MAP_URL_FIELDS = {"map_style_url": "style", "map_tile_url": "tile"}


def save_settings(data: dict[str, Any], own_origin: str) -> RoutingSettings:
    """``own_origin``: the site's origin as the browser sees it (the map's URLs may point there)."""
    for field, what in MAP_URL_FIELDS.items():
        url = data.get(field) or ""
        if url and not csp.connect_allows(url, own_origin):
            origin = csp.origin_of(url)
            raise ApiError(
                422,
                f"Browsers would refuse the map {what} URL: its site {origin} is not allowed by this "
                f"server's security policy (CSP connect-src). Ask your FuelDesk operator to add {origin} "
                "to CSP_CONNECT_SRC, or use a map from a site already allowed.",
                errors=[
                    {
                        "loc": ["body", "payload", field],
                        "msg": f"{origin} is not allowed by this server's security policy (CSP_CONNECT_SRC)",
                        "type": "csp_blocked",
                    }
                ],
            )
    with transaction.atomic():
        row = RoutingSettings.objects.select_for_update().order_by("id").first() or RoutingSettings()
        save_object(row, data)
    return row


# --- per truck / driver / site ------------------------------------------------------------------------
def _truck(truck_id: int) -> CompanyAsset:
    unit = CompanyAsset.objects.select_related("asset_type").filter(pk=truck_id).first()
    if unit is None:
        raise ApiError(422, f"No truck with id {truck_id}.")
    if unit.asset_type.category not in problem_builder.TRUCK_CATEGORIES:
        raise ApiError(
            422,
            f"{unit.asset_number} is not a truck (it is a {unit.asset_type.get_category_display().lower()}).",
        )
    return unit


def _yards(data: dict[str, Any]) -> None:
    from tenants.geo.models import Yard

    for key in ("start_yard_id", "end_yard_id"):
        if data.get(key) is not None and not Yard.objects.filter(pk=data[key]).exists():
            raise ApiError(422, f"No yard with id {data[key]} ({key}).")


def _products(ids: list[int]) -> list[int]:
    from tenants.catalog.models import Product

    found = dict(Product.objects.filter(pk__in=ids).values_list("pk", "is_fuel"))
    missing = [i for i in ids if i not in found]
    if missing:
        raise ApiError(422, f"No product with id {', '.join(map(str, missing))} (product_ids).")
    not_fuel = [i for i in ids if not found[i]]
    if not_fuel:
        raise ApiError(
            422, f"Product {', '.join(map(str, not_fuel))} is not a fuel: a truck's tank carries fuels only."
        )
    return ids


def create_truck_routing(data: dict[str, Any]) -> TruckRouting:
    unit = _truck(data["truck_id"])
    if TruckRouting.objects.filter(truck_id=unit.pk).exists():
        raise ApiError(409, f"Truck {unit.asset_number} already has its routing data: edit it instead.")
    return save_truck_routing(TruckRouting(), data)


def save_truck_routing(obj: TruckRouting, data: dict[str, Any]) -> TruckRouting:
    if "truck_id" in data and obj.pk and data["truck_id"] != obj.truck_id:
        raise ApiError(422, "The truck of routing data cannot change: delete it and create another.")
    _yards(data)
    product_ids = data.pop("product_ids", None)
    with transaction.atomic():
        save_object(obj, data)
        if product_ids is not None:
            obj.products.set(_products(product_ids))
    return obj


def create_driver_shift(data: dict[str, Any]) -> DriverShift:
    driver = Driver.objects.filter(pk=data["driver_id"]).first()
    if driver is None:
        raise ApiError(422, f"No driver with id {data['driver_id']}.")
    if DriverShift.objects.filter(driver_id=driver.pk).exists():
        raise ApiError(409, f"{driver.name} already has a shift: edit it instead.")
    return save_driver_shift(DriverShift(), data)


def save_driver_shift(obj: DriverShift, data: dict[str, Any]) -> DriverShift:
    if "driver_id" in data and obj.pk and data["driver_id"] != obj.driver_id:
        raise ApiError(422, "The driver of a shift cannot change: delete it and create another.")
    if data.get("truck_id") is not None:
        _truck(data["truck_id"])
    start = data.get("start", obj.start if obj.pk else None)
    end = data.get("end", obj.end if obj.pk else None)
    if start is not None and end is not None and start == end:
        raise ApiError(422, "A shift must end after it starts.")
    save_object(obj, data)
    return obj


def create_site_constraint(data: dict[str, Any]) -> SiteConstraint:
    ship_to = ShipTo.objects.filter(pk=data["ship_to_id"]).first()
    if ship_to is None:
        raise ApiError(422, f"No ship-to with id {data['ship_to_id']}.")
    if SiteConstraint.objects.filter(ship_to_id=ship_to.pk).exists():
        raise ApiError(409, f"Ship-to {ship_to.name} already has its site constraints: edit them instead.")
    return save_site_constraint(SiteConstraint(), data)


def save_site_constraint(obj: SiteConstraint, data: dict[str, Any]) -> SiteConstraint:
    if "ship_to_id" in data and obj.pk and data["ship_to_id"] != obj.ship_to_id:
        raise ApiError(422, "The ship-to of site constraints cannot change: delete them and create others.")
    save_object(obj, data)
    return obj


# --- plan the day ------------------------------------------------------------------------------------
def start_plan(*, day: dt.date, seconds: int | None, user: Any) -> RoutePlan:
    from tenants.routing import tasks

    budget = seconds or problem_builder.settings_row().default_seconds
    with transaction.atomic():
        # One run per day at a time: a second would fight the first for the worker's cores.
        busy = RoutePlan.objects.select_for_update().filter(planned_date=day, status__in=UNFINISHED).first()
        if busy is not None:
            raise ApiError(
                409,
                f"The day {day:%Y-%m-%d} is already being planned (plan {busy.pk}): wait for it or stop it.",
            )
        row = RoutePlan.objects.create(planned_date=day, seconds=budget, created_by=user)
        schema = connection.schema_name
        transaction.on_commit(
            lambda: send_job(
                tasks.plan_day,
                plan_id=row.pk,
                schema=schema,
                document=Document(
                    selectors.ROUTE_PLAN_DOCUMENT,
                    row.pk,
                    f"Route plan {day:%Y-%m-%d}",
                    f"/dispatch/plan/{row.pk}",
                ),
            )
        )
    return row


def plan_dict(plan: Any) -> dict[str, Any]:
    """The solver's Plan as JSON (tuples as lists)."""
    out: dict[str, Any] = plan.as_dict()
    return out


def run_plan(plan_id: int) -> None:
    """The worker's side of "Plan the day": build the problem, solve within the budget (progress and a
    stop request checked every PROGRESS_EVERY_S), store the best plan and the current one evaluated."""
    from tenants.routing.solver.checker import check
    from tenants.routing.solver.evaluate import evaluate
    from tenants.routing.solver.solve import solve

    row = RoutePlan.objects.filter(pk=plan_id).first()
    if row is None or row.status not in UNFINISHED:
        return  # deleted, or a redelivery of a finished run
    RoutePlan.objects.filter(pk=row.pk).update(status=S.RUNNING, started_at=timezone.now(), error="")
    built = problem_builder.build(row.planned_date)
    problem = built.problem
    known = {st.id for st in problem.stops}
    current = {
        t.id: [s for s in built.current.get(t.id, []) if s in known]
        for t in problem.trucks
        if built.current.get(t.id)
    }
    current_plan = plan_dict(evaluate(problem, current)) if problem.trucks else None

    last = {"at": 0.0, "checked": 0.0}
    stop = {"asked": bool(row.stop_requested)}

    def on_progress(fraction: float, best_cost: int) -> None:
        now = time.monotonic()
        if now - last["at"] < PROGRESS_EVERY_S:
            return
        last["at"] = now
        RoutePlan.objects.filter(pk=plan_id).update(
            progress=min(1.0, max(0.0, float(fraction))), best_cost=int(best_cost)
        )
        report_progress()

    def should_stop() -> bool:
        if stop["asked"]:
            return True
        now = time.monotonic()
        if now - last["checked"] >= PROGRESS_EVERY_S:
            last["checked"] = now
            stop["asked"] = RoutePlan.objects.filter(pk=plan_id, stop_requested=True).exists()
        return stop["asked"]

    plan = solve(problem, float(row.seconds), on_progress=on_progress, should_stop=should_stop)
    result = plan_dict(plan)
    result["violations"] = check(problem, plan)
    result["keep_full"] = built.tanks
    stopped = stop["asked"] or not plan.complete
    RoutePlan.objects.filter(pk=plan_id).update(
        status=S.STOPPED if stopped else S.READY,
        progress=1.0 if not stopped else RoutePlan.objects.get(pk=plan_id).progress,
        best_cost=int(plan.cost),
        plan=result,
        current=current_plan,
        snapshot=built.snapshot(),
        left_out=built.left_out,
        finished_at=timezone.now(),
    )


def fail_plan(plan_id: int, reason: str) -> None:
    RoutePlan.objects.filter(pk=plan_id, status__in=UNFINISHED).update(
        status=S.FAILED, error=reason[:2000], finished_at=timezone.now()
    )


def stop_plan(row: RoutePlan) -> RoutePlan:
    if row.status not in UNFINISHED:
        raise ApiError(409, f"This plan is {row.get_status_display().lower()}: there is nothing to stop.")
    RoutePlan.objects.filter(pk=row.pk).update(stop_requested=True)
    row.refresh_from_db()
    return row


# --- evaluate and accept ----------------------------------------------------------------------------
def _routes(routes: Sequence[Any], built: problem_builder.Built, *, error: str) -> dict[Any, list[Any]]:
    """Adjusted routes checked against the day: known trucks and orders, each order once."""
    trucks = {t.id for t in built.problem.trucks}
    stops = {s.id for s in built.problem.stops}
    seen: set[Any] = set()
    out: dict[Any, list[Any]] = {}
    for r in routes:
        if r.truck_id not in trucks:
            raise ApiError(
                422,
                f"{error}: truck {r.truck_id} is not planned on {built.problem.day:%Y-%m-%d} "
                "(no driver shift that day, or it does not plan).",
            )
        if r.truck_id in out:
            raise ApiError(422, f"{error}: truck {r.truck_id} appears twice.")
        for sid in r.stop_ids:
            if sid not in stops:
                what = f"keep-full stop {sid}" if isinstance(sid, str) else f"order {sid}"
                raise ApiError(422, f"{error}: {what} is not a stop of {built.problem.day:%Y-%m-%d}.")
            if sid in seen:
                raise ApiError(422, f"{error}: order {sid} appears more than once.")
            seen.add(sid)
        out[r.truck_id] = list(r.stop_ids)
    return out


def evaluate_routes(row: RoutePlan, routes: Sequence[Any]) -> dict[str, Any]:
    """ETAs, loads, slack and violations of the dispatcher's routes (no solving). Trucks not sent keep
    the plan's routes."""
    from tenants.routing.solver.checker import check
    from tenants.routing.solver.evaluate import evaluate

    built = problem_builder.build(row.planned_date)
    chosen = {
        r["truck_id"]: [v["ref"] for v in r["visits"] if v["kind"] == "stop"]
        for r in (row.plan or {}).get("routes", [])
    }
    adjusted = _routes(routes, built, error="Cannot evaluate these routes")
    moved = {s for stops in adjusted.values() for s in stops}
    for truck_id in list(chosen):
        chosen[truck_id] = [s for s in chosen[truck_id] if s not in moved]
    chosen.update(adjusted)
    known = {s.id for s in built.problem.stops}
    chosen = {
        t: [s for s in stops if s in known]
        for t, stops in chosen.items()
        if t in {tr.id for tr in built.problem.trucks}
    }
    plan = evaluate(built.problem, chosen)
    result = plan_dict(plan)
    result["keep_full"] = built.tanks
    violations = [v for r in plan.routes for v in r.violations] or check(built.problem, plan)
    return selectors.plan_view(result, selectors.Labels([result]), violations) or {}


def day_changes(row: RoutePlan) -> list[str]:
    """What changed in the day since the plan: orders cancelled, moved to another day or ship-to, their
    lines changed, delivered or started on another truck."""
    planned = (row.snapshot or {}).get("orders", {})
    tank_changes = _tank_changes(row)
    if not planned:
        return tank_changes
    now = {
        o["id"]: o
        for o in SalesOrder.objects.filter(pk__in=[int(i) for i in planned]).values(
            "id", "number", "status", "planned_date", "ship_to_id", "truck_id"
        )
    }
    from tenants.sales.models import LineItem

    lines: dict[int, list[LineItem]] = {}
    for ln in LineItem.objects.filter(sales_order_id__in=list(now)).only(
        "id", "product_id", "quantity", "sales_order_id"
    ):
        lines.setdefault(ln.sales_order_id, []).append(ln)
    changes = []
    for key, was in sorted(planned.items(), key=lambda kv: int(kv[0])):
        o = now.get(int(key))
        number = was["number"]
        if o is None:
            changes.append(f"{number} was deleted")
            continue
        if o["status"] == SalesOrder.Status.CANCELLED:
            changes.append(f"{number} was cancelled")
        elif o["planned_date"].isoformat() != was["planned_date"]:
            changes.append(f"{number} moved to {o['planned_date']:%Y-%m-%d}")
        elif o["status"] not in (
            SalesOrder.Status.VERIFIED,
            SalesOrder.Status.ASSIGNED,
            SalesOrder.Status.IN_DELIVERY,
        ):
            changes.append(f"{number} is now {SalesOrder.Status(o['status']).label.lower()}")
        elif o["status"] == SalesOrder.Status.IN_DELIVERY and was["status"] != SalesOrder.Status.IN_DELIVERY:
            changes.append(f"{number} started delivery")
        elif o["ship_to_id"] != was["ship_to_id"]:
            changes.append(f"{number} has another ship-to")
        elif problem_builder.lines_key(lines.get(o["id"], [])) != was["lines"]:
            changes.append(f"{number}'s products or quantities changed")
    return changes + tank_changes


def _taken_tanks(row: RoutePlan) -> dict[int, str]:
    """Keep-full tanks on the plan's routes: asset id -> stop id."""
    out: dict[int, str] = {}
    for r in (row.plan or {}).get("routes", []):
        for v in r.get("visits", []):
            ref = v.get("ref")
            if v["kind"] == "stop" and isinstance(ref, str) and ref.startswith("tank:"):
                out[int(ref.split(":", 1)[1])] = ref
    return out


def _plan_orders_of_tanks(row: RoutePlan, asset_ids: list[int]) -> dict[int, SalesOrder]:
    """The open orders an earlier accept of this plan created for these tanks (a re-accept reuses them)."""
    from tenants.forecast.models import ForecastOrder
    from tenants.forecast.selectors import OPEN_ORDER_STATUSES

    out: dict[int, SalesOrder] = {}
    for fo in (
        ForecastOrder.objects.filter(
            asset_id__in=asset_ids,
            sales_order__planned_stop__route_plan=row,
            sales_order__status__in=OPEN_ORDER_STATUSES,
        )
        .select_related("sales_order")
        .order_by("id")
    ):
        out.setdefault(fo.asset_id, fo.sales_order)
    return out


def _tank_changes(row: RoutePlan) -> list[str]:
    """Keep-full tanks on the plan that got an order since (not by this plan's accept)."""
    from tenants.forecast.selectors import open_orders

    taken = _taken_tanks(row)
    if not taken:
        return []
    tanks = (row.snapshot or {}).get("tanks", {})
    ours = _plan_orders_of_tanks(row, list(taken))
    changes = []
    for asset_id, (order_id, number) in sorted(open_orders(list(taken)).items()):
        if asset_id in ours and ours[asset_id].pk == order_id:
            continue
        name = tanks.get(taken[asset_id], {}).get("asset_name") or f"tank {asset_id}"
        changes.append(f"keep-full tank {name} got an order meanwhile ({number})")
    return changes


def _keep_full_orders(
    row: RoutePlan, chosen: dict[Any, list[Any]], by: Any, error: str
) -> tuple[dict[str, int], int]:
    """The orders of the keep-full stops on the accepted routes: an earlier accept's (re-accepting does
    not order a tank twice), else created through the forecast's create-orders (priced, recorded in
    ForecastOrder) for the plan's day, then verified so they can be assigned. Answers stop id -> order
    id and how many were created."""
    from tenants.forecast import services as forecast_services

    wanted = {int(s.split(":", 1)[1]): s for stops in chosen.values() for s in stops if isinstance(s, str)}
    if not wanted:
        return {}, 0
    tanks = (row.snapshot or {}).get("tanks", {})
    ours = _plan_orders_of_tanks(row, list(wanted))
    out = {wanted[a]: o.pk for a, o in ours.items()}
    new = [a for a in wanted if a not in ours]
    if not new:
        return out, 0
    rows = []
    for asset_id in sorted(new):
        tank = tanks.get(wanted[asset_id])
        if tank is None:
            raise ApiError(422, f"{error}: {wanted[asset_id]} is not a keep-full stop of this plan.")
        rows.append(
            {
                "asset_id": asset_id,
                "quantity": Decimal(int(tank["gallons"])),
                "planned_date": row.planned_date,
            }
        )
    created = forecast_services.create_due_orders(rows, by=by)
    orders = {o.pk: o for o in SalesOrder.objects.filter(pk__in=[c["sales_order_id"] for c in created])}
    for c in created:
        order = orders[c["sales_order_id"]]
        workflow.verify(order, by=by)
        out[wanted[c["asset_id"]]] = order.pk
    return out, len(created)


def accept(
    row: RoutePlan, *, truck_ids: list[int] | None, routes: Sequence[Any] | None, by: Any
) -> dict[str, Any]:
    """Assign the plan's (or the adjusted) routes through the sales workflow: for each accepted truck,
    its orders not in its new route go back to verified, then each stop is assigned to the truck and its
    shift's driver with its position. An order in delivery is never moved. All or nothing."""
    error = "Cannot accept this plan"
    if row.status not in HAS_PLAN or not row.plan:
        raise ApiError(
            409, f"{error}: it is {row.get_status_display().lower()}, there is no plan to accept yet."
        )
    changes = day_changes(row)
    if changes:
        raise ApiError(
            409,
            f"The day changed since this plan was made: {'; '.join(changes)}. Plan the day again.",
            changes=changes,
        )
    plan_routes = {r["truck_id"]: r for r in row.plan.get("routes", [])}
    chosen: dict[Any, list[Any]] = {}
    for tid in truck_ids or []:
        if tid not in plan_routes:
            raise ApiError(422, f"{error}: truck {tid} has no route in this plan.")
    if truck_ids is None and routes is None:
        truck_ids = list(plan_routes)
    for tid in truck_ids or []:
        chosen[tid] = [v["ref"] for v in plan_routes[tid]["visits"] if v["kind"] == "stop"]
    built: problem_builder.Built | None = None
    if routes:
        built = problem_builder.build(row.planned_date)
        # A keep-full stop an earlier accept of this plan ordered is that order now.
        sent = [int(s.split(":", 1)[1]) for r in routes for s in r.stop_ids if isinstance(s, str)]
        ours = {f"tank:{a}": o.pk for a, o in _plan_orders_of_tanks(row, sent).items()}
        routes = [
            SimpleNamespace(truck_id=r.truck_id, stop_ids=[ours.get(s, s) for s in r.stop_ids])
            for r in routes
        ]
        chosen = {t: [ours.get(s, s) for s in stops] for t, stops in chosen.items()}
        adjusted = _routes(routes, built, error=error)
        moved = {s for stops in adjusted.values() for s in stops}
        chosen = {t: [s for s in stops if s not in moved] for t, stops in chosen.items()}
        chosen.update(adjusted)
    if not chosen:
        raise ApiError(422, f"{error}: no route to accept (send truck_ids of the plan or routes).")
    trucks = (row.snapshot or {}).get("trucks", {})
    if built is not None:
        trucks = {**trucks, **built.trucks}
    # ETAs of what is accepted: the plan's own when unchanged, else the adjusted routes evaluated.
    if routes:
        from tenants.routing.solver.evaluate import evaluate

        assert built is not None
        evaluated = plan_dict(evaluate(built.problem, chosen))
        timing = {r["truck_id"]: r for r in evaluated["routes"]}
    else:
        timing = plan_routes
    assigned = kept = 0
    with transaction.atomic():
        tank_orders, created = _keep_full_orders(row, chosen, by, error)
        stop_ids = [tank_orders.get(s, s) for stops in chosen.values() for s in stops]
        stop_ids = [s for s in stop_ids if isinstance(s, int)]
        orders = {
            o.pk: o for o in SalesOrder.objects.select_for_update().filter(pk__in=stop_ids).order_by("id")
        }
        # The accepted trucks' other orders of the day go back to the board (verified).
        for o in (
            SalesOrder.objects.select_for_update()
            .filter(
                planned_date=row.planned_date,
                truck_id__in=[t for t in chosen if isinstance(t, int)],
                status=SalesOrder.Status.ASSIGNED,
            )
            .exclude(pk__in=stop_ids)
            .order_by("id")
        ):
            workflow.unassign(o, by=by)
        for truck_id, stops in chosen.items():
            truck = trucks.get(str(truck_id))
            if truck is None:
                raise ApiError(422, f"{error}: truck {truck_id} has no driver shift in this plan.")
            visits = {v["ref"]: v for v in timing.get(truck_id, {}).get("visits", []) if v["kind"] == "stop"}
            miles = Decimal(str(round(float(timing.get(truck_id, {}).get("miles", 0)), 1)))
            for position, stop_id in enumerate(stops, start=1):
                order_id = tank_orders.get(stop_id, stop_id)
                if not isinstance(order_id, int):
                    continue
                order = orders[order_id]
                if order.status == SalesOrder.Status.IN_DELIVERY:
                    if order.truck_id != truck_id:
                        raise ApiError(
                            409,
                            f"{error}: {order.number} is in delivery on another truck and cannot be moved.",
                        )
                    kept += 1
                else:
                    workflow.assign(
                        order,
                        driver_id=truck["driver_id"],
                        truck_id=truck_id,
                        stop_sequence=position,
                        by=by,
                        one_load=False,
                    )
                    assigned += 1
                v = visits.get(stop_id)
                if v is not None:
                    PlannedStop.objects.update_or_create(
                        sales_order_id=order_id,
                        defaults={
                            "route_plan": row,
                            "truck_id": truck_id,
                            "position": position,
                            "eta": _time(v["arrival_s"]),
                            "departure": _time(v["departure_s"]),
                            "route_miles": miles,
                        },
                    )
        row.status = S.ACCEPTED
        row.accepted_at = timezone.now()
        row.save(update_fields=["status", "accepted_at", "updated_at"])
    return {
        "plan": row,
        "assigned": assigned,
        "kept_in_delivery": kept,
        "keep_full_orders": created,
        "trucks": list(chosen),
    }


def _time(seconds: int) -> dt.time:
    seconds = max(0, min(int(seconds), 24 * 3600 - 1))
    return dt.time(seconds // 3600, seconds % 3600 // 60, seconds % 60)
