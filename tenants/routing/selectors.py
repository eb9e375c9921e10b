"""Reads of the routing app: the plans with their routes shown as the dispatcher reads them, the ETAs
of accepted stops (the driver portal), the settings."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from core import rows as kit_rows
from django.db.models import F, QuerySet

from tenants.fleet.models import CompanyAsset, Driver
from tenants.geo.models import Yard
from tenants.parties.models import Terminal
from tenants.routing.models import DriverShift, PlannedStop, RoutePlan, SiteConstraint, TruckRouting
from tenants.sales.models import SalesOrder

ROUTE_PLAN_DOCUMENT = "route_plan"


# The planning data's lists read the related names as annotated columns (the kit's kept lists).
def truck_routings() -> QuerySet[TruckRouting]:
    return TruckRouting.objects.annotate(truck_number=F("truck__asset_number")).prefetch_related("products")


def fill_product_ids(rows: list[dict[str, Any]]) -> None:
    """Each truck profile's product ids, sorted (as `TruckRoutingOut.resolve_product_ids`): one kept
    statement for the page (core.crud `fill_rows`)."""
    kit_rows.fill_related_ids(rows, TruckRouting, "products", "product_ids")


def driver_shifts() -> QuerySet[DriverShift]:
    return DriverShift.objects.annotate(driver_name=F("driver__name"))


def site_constraints() -> QuerySet[SiteConstraint]:
    return SiteConstraint.objects.annotate(
        ship_to_name=F("ship_to__name"),
        customer_id=F("ship_to__customer_id"),
        customer_name=F("ship_to__customer__name"),
    )


def plans(day: dt.date | None = None) -> QuerySet[RoutePlan]:
    qs = RoutePlan.objects.all()
    if day is not None:
        qs = qs.filter(planned_date=day)
    return qs.order_by("-created_at", "-id")


def hhmm(seconds: int | None) -> str:
    if seconds is None:
        return ""
    seconds = max(0, int(seconds))
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}"


def _window(o: Any) -> str | None:
    a, b = o.get("planned_time_from"), o.get("planned_time_to")
    if a is None and b is None:
        return None
    return (f"{a:%H:%M}" if a else "") + "–" + (f"{b:%H:%M}" if b else "")


class Labels:
    """Names of what a plan refers to by id, read once per answer (a few queries whatever its size)."""

    def __init__(self, plans: Iterable[dict[str, Any] | None]) -> None:
        order_ids: set[int] = set()
        truck_ids: set[int] = set()
        driver_ids: set[int] = set()
        terminal_ids: set[int] = set()
        for p in plans:
            if not p:
                continue
            for r in p.get("routes", []):
                _add_int(truck_ids, r.get("truck_id"))
                _add_int(driver_ids, r.get("driver_id"))
                for v in r.get("visits", []):
                    if v["kind"] == "stop":
                        _add_int(order_ids, v["ref"])
                    elif v["kind"] == "reload":
                        _add_int(terminal_ids, v["ref"])
                for load in r.get("loads", []):
                    _add_int(terminal_ids, load.get("terminal_id"))
            for u in p.get("unplanned", []):
                _add_int(order_ids, u.get("stop_id"))
        rows = SalesOrder.objects.filter(pk__in=order_ids).values(
            "id",
            "number",
            "customer__name",
            "ship_to__name",
            "ship_to__latitude",
            "ship_to__longitude",
            "planned_time_from",
            "planned_time_to",
            "status",
        )
        self.orders = {r["id"]: r for r in rows}
        self.gallons: dict[int, Decimal] = {}
        from tenants.sales.models import LineItem

        for oid, qty in LineItem.objects.filter(
            sales_order_id__in=order_ids, product__is_fuel=True
        ).values_list("sales_order_id", "quantity"):
            self.gallons[oid] = self.gallons.get(oid, Decimal("0")) + qty
        self.trucks = dict(CompanyAsset.objects.filter(pk__in=truck_ids).values_list("pk", "asset_number"))
        self.drivers = dict(Driver.objects.filter(pk__in=driver_ids).values_list("pk", "name"))
        self.terminals = dict(Terminal.objects.filter(pk__in=terminal_ids).values_list("pk", "name"))
        self.yards = {t: (y.name, y.latitude, y.longitude) for t, y in _truck_yards(truck_ids).items()}


def _truck_yards(truck_ids: set[int]) -> dict[int, Yard]:
    out: dict[int, Yard] = {}
    for r in TruckRouting.objects.filter(truck_id__in=truck_ids, start_yard__isnull=False).select_related(
        "start_yard"
    ):
        assert r.start_yard is not None
        out[r.truck_id] = r.start_yard
    for unit in CompanyAsset.objects.filter(
        pk__in=truck_ids - set(out), home_yard__isnull=False
    ).select_related("home_yard"):
        assert unit.home_yard is not None
        out[unit.pk] = unit.home_yard
    return out


def _add_int(bucket: set[int], value: Any) -> None:
    if isinstance(value, int) and not isinstance(value, bool):
        bucket.add(value)


def _f(value: Any) -> float | None:
    return float(value) if value is not None else None


def keep_full_view(tank: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "asset_id", "asset_name", "customer_id", "customer_name", "ship_to_id", "ship_to_name",
        "product", "gallons", "suggested_date", "runout_date", "risk", "prize",
    )  # fmt: skip
    return {k: tank.get(k) for k in keys} | {
        "customer_name": tank.get("customer_name") or "",
        "ship_to_name": tank.get("ship_to_name") or "",
        "asset_name": tank.get("asset_name") or "",
        "product": tank.get("product") or "",
        "risk": float(tank.get("risk") or 0),
        "prize": float(tank.get("prize") or 0),
    }


def visit_view(
    v: dict[str, Any], truck_id: Any, labels: Labels, tanks: dict[str, Any] | None = None
) -> dict[str, Any]:
    kind, ref = v["kind"], v["ref"]
    out: dict[str, Any] = {
        "kind": kind,
        "ref": ref,
        "label": str(ref),
        "arrival": hhmm(v["arrival_s"]),
        "departure": hhmm(v["departure_s"]),
        "arrival_s": int(v["arrival_s"]),
        "departure_s": int(v["departure_s"]),
        "window_slack_min": None if v.get("window_slack_s") is None else int(v["window_slack_s"]) // 60,
        "late_min": math.ceil(int(v.get("late_s") or 0) / 60),
    }
    if kind == "stop":
        o = labels.orders.get(ref) if isinstance(ref, int) else None
        if o:
            out.update(
                label=f"{o['number']} · {o['ship_to__name'] or o['customer__name']}",
                order_number=o["number"],
                customer_name=o["customer__name"],
                lat=_f(o["ship_to__latitude"]),
                lng=_f(o["ship_to__longitude"]),
                window=_window(o),
                gallons=int(labels.gallons.get(ref, 0)),
            )
            if o.get("status") == SalesOrder.Status.IN_DELIVERY:
                out.update(in_delivery=True, fixed=True)
        tank = (tanks or {}).get(ref) if isinstance(ref, str) else None
        if tank:
            out.update(
                label=f"Keep-full · {tank['asset_name']} · {tank['ship_to_name'] or tank['customer_name']}",
                customer_name=tank["customer_name"],
                lat=_f(tank.get("lat")),
                lng=_f(tank.get("lng")),
                gallons=int(tank["gallons"]),
                keep_full=keep_full_view(tank),
            )
    elif kind == "reload":
        out["label"] = f"Reload at {labels.terminals.get(ref, ref)}"
    else:
        yard = labels.yards.get(truck_id)
        if yard:
            out.update(label=yard[0], lat=_f(yard[1]), lng=_f(yard[2]))
        else:
            out["label"] = "Yard"
    return out


def plan_view(
    p: dict[str, Any] | None, labels: Labels, violations: list[str] | None = None
) -> dict[str, Any] | None:
    if not p:
        return None
    tanks: dict[str, Any] = p.get("keep_full") or {}
    routes = []
    for r in p.get("routes", []):
        loads = []
        for load in r.get("loads", []):
            comps: list[dict[str, Any]] = [
                {"compartment": int(c[0]), "product": str(c[1]), "gallons": int(c[2])}
                for c in load["compartments"]
            ]
            loads.append(
                {
                    "terminal_id": load["terminal_id"],
                    "terminal_name": labels.terminals.get(load["terminal_id"], str(load["terminal_id"])),
                    "compartments": comps,
                    "gallons": sum(c["gallons"] for c in comps),
                }
            )
        visits = [visit_view(v, r["truck_id"], labels, tanks) for v in r.get("visits", [])]
        routes.append(
            {
                "truck_id": r["truck_id"],
                "truck_number": labels.trucks.get(r["truck_id"], str(r["truck_id"])),
                "driver_id": r.get("driver_id"),
                "driver_name": labels.drivers.get(r.get("driver_id")),
                "visits": visits,
                "loads": loads,
                "miles": round(float(r["miles"]), 1),
                "hours": round(float(r["hours"]), 2),
                "utilization": round(float(r["utilization"]), 3),
                "stops": sum(1 for v in visits if v["kind"] == "stop"),
                "violations": list(r.get("violations") or []),
            }
        )
    unplanned = []
    not_taken = []
    for u in p.get("unplanned", []):
        tank = tanks.get(u["stop_id"]) if isinstance(u["stop_id"], str) else None
        if tank is not None or _is_tank(u["stop_id"]):
            if tank is not None:
                reason = "Not on the way today" + (f" ({u['reason']})" if u.get("reason") else "")
                not_taken.append({**keep_full_view(tank), "stop_id": u["stop_id"], "reason": reason})
            continue
        o = labels.orders.get(u["stop_id"]) if isinstance(u["stop_id"], int) else None
        unplanned.append(
            {
                "stop_id": u["stop_id"],
                "order_number": o["number"] if o else None,
                "customer_name": o["customer__name"] if o else None,
                "reason": u["reason"],
                "in_delivery": bool(o and o.get("status") == SalesOrder.Status.IN_DELIVERY),
            }
        )
    return {
        "routes": routes,
        "unplanned": unplanned,
        "keep_full_not_taken": not_taken,
        "totals": totals(p),
        "solver": p.get("solver", ""),
        "elapsed_s": round(float(p.get("elapsed_s", 0)), 2),
        "complete": bool(p.get("complete", False)),
        "violations": violations if violations is not None else list(p.get("violations", [])),
    }


def totals(p: dict[str, Any]) -> dict[str, Any]:
    routes = p.get("routes", [])
    return {
        "miles": round(float(p.get("miles", 0)), 1),
        "hours": round(float(p.get("hours", 0)), 2),
        "trucks_used": int(p.get("trucks_used", 0)),
        "late_stops": int(p.get("late_stops", 0)),
        "cost": round(float(p.get("cost", 0)), 2),
        "stops": sum(1 for r in routes for v in r.get("visits", []) if v["kind"] == "stop"),
        "unplanned": sum(1 for u in p.get("unplanned", []) if not _is_tank(u["stop_id"])),
        "keep_full": sum(
            1 for r in routes for v in r.get("visits", []) if v["kind"] == "stop" and _is_tank(v["ref"])
        ),
    }


def _is_tank(stop_id: Any) -> bool:
    """A keep-full optional stop ("tank:<asset id>"), not an order."""
    return isinstance(stop_id, str) and stop_id.startswith("tank:")


def difference(plan: dict[str, Any] | None, current: dict[str, Any] | None) -> dict[str, Any] | None:
    if not plan or not current:
        return None
    a, b = totals(plan), totals(current)
    return {
        "miles": round(a["miles"] - b["miles"], 1),
        "hours": round(a["hours"] - b["hours"], 2),
        "trucks_used": a["trucks_used"] - b["trucks_used"],
        "late_stops": a["late_stops"] - b["late_stops"],
    }


def job_ids(plan_ids: list[int]) -> dict[int, int]:
    from tenants.jobs.models import JobLog

    out: dict[int, int] = {}
    for pk, doc_id in (
        JobLog.objects.filter(document_type=ROUTE_PLAN_DOCUMENT, document_id__in=plan_ids)
        .order_by("id")
        .values_list("pk", "document_id")
    ):
        if doc_id is not None:
            out[int(doc_id)] = pk
    return out


def plan_out(row: RoutePlan, *, labels: Labels | None = None, job_id: int | None = None) -> dict[str, Any]:
    labels = labels or Labels([row.plan, row.current])
    return {
        "id": row.pk,
        "planned_date": row.planned_date,
        "status": row.status,
        "seconds": row.seconds,
        "progress": round(row.progress, 3),
        "best_cost": row.best_cost,
        "stop_requested": row.stop_requested,
        "error": row.error,
        "job_id": job_id if job_id is not None else job_ids([row.pk]).get(row.pk),
        "plan": plan_view(row.plan, labels),
        "current": plan_view(row.current, labels),
        "difference": difference(row.plan, row.current),
        "left_out": row.left_out or [],
        "created_at": row.created_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
        "accepted_at": row.accepted_at,
    }


def plans_out(rows: list[RoutePlan]) -> list[dict[str, Any]]:
    labels = Labels([p for r in rows for p in (r.plan, r.current)])
    jobs = job_ids([r.pk for r in rows])
    return [plan_out(r, labels=labels, job_id=jobs.get(r.pk)) for r in rows]


# --- the driver portal -------------------------------------------------------------------------------
def planned_stops(order_ids: Iterable[int]) -> dict[int, Any]:
    """The accepted plan's ETA and position of each order that has one (the driver's today list)."""
    return {
        r["sales_order_id"]: r
        for r in PlannedStop.objects.filter(sales_order_id__in=list(order_ids)).values(
            "sales_order_id", "eta", "departure", "position", "truck_id", "route_miles"
        )
    }


def _great_circle_miles(a: tuple[float, float], b: tuple[float, float]) -> float:
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 3958.8 * 2 * math.asin(math.sqrt(min(1.0, h)))


def miles_summary(order_ids: Iterable[int], day: dt.date) -> dict[str, Any]:
    """Planned vs driven miles of a driver's day: planned = the accepted routes' miles of the trucks of
    these orders; driven = from the trucks' start yard through the GPS points of the day's delivery
    tickets (in delivery order) and back, great-circle x the settings' circuity (the same measure the
    planner uses without OSRM). None when there is no accepted route, or no GPS point."""
    from tenants.delivery.models import DeliveryTicket
    from tenants.routing.problem_builder import settings_row

    ids = list(order_ids)
    stops = list(
        PlannedStop.objects.filter(sales_order_id__in=ids).values_list("truck_id", "route_miles").distinct()
    )
    planned = {t: m for t, m in stops}
    points = [
        (float(lat or 0), float(lng or 0), truck_id)
        for lat, lng, truck_id in DeliveryTicket.objects.filter(
            sales_order_id__in=ids, latitude__isnull=False, longitude__isnull=False
        )
        .order_by("delivered_at", "created_at", "id")
        .values_list("latitude", "longitude", "sales_order__truck_id")
    ]
    driven: float | None = None
    if points:
        yards = _truck_yards({t for _, _, t in points if t is not None})
        circuity = float(settings_row().circuity)
        total = 0.0
        for truck_id in dict.fromkeys(t for _, _, t in points):
            path = [(a, b) for a, b, t in points if t == truck_id]
            yard = yards.get(truck_id) if truck_id is not None else None
            if yard is not None and yard.latitude is not None and yard.longitude is not None:
                home = (float(yard.latitude), float(yard.longitude))
                path = [home, *path, home]
            total += sum(_great_circle_miles(path[i], path[i + 1]) for i in range(len(path) - 1))
        driven = total * circuity
    return {
        "planned_miles": sum(planned.values(), Decimal("0")).quantize(Decimal("0.1")) if planned else None,
        "driven_miles": Decimal(str(round(driven, 1))) if driven is not None else None,
        "gps_points": len(points),
    }
