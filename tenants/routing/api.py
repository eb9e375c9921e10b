"""Route planning (issue 27): the routing settings, per-truck / per-driver / per-site planning data, and
"Plan the day" (`/route-plan`: start, read with progress, stop, evaluate adjusted routes, accept)."""

from __future__ import annotations

from typing import Any

from core import csp
from core.crud import Crud
from core.envelope import Answer, Envelope, ok
from core.errors import ApiError
from core.listing import ListSpec
from core.permissions import perm, register_resource
from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Query, Router

from tenants.routing import problem_builder, selectors, services
from tenants.routing.models import DriverShift, RoutePlan, SiteConstraint, TruckRouting
from tenants.routing.schemas import (
    DriverShiftIn,
    DriverShiftOut,
    PlanBodyOut,
    RoutePlanAcceptIn,
    RoutePlanAcceptOut,
    RoutePlanEvaluateIn,
    RoutePlanIn,
    RoutePlanListOut,
    RoutePlanOut,
    RoutePlanQuery,
    RoutingSettingsIn,
    RoutingSettingsOut,
    SiteConstraintIn,
    SiteConstraintOut,
    SiteConstraintQuery,
    TruckRoutingIn,
    TruckRoutingOut,
)

ALL_OPS = ("list", "all", "get", "create", "update", "delete")

# --- settings ---------------------------------------------------------------------------------------
settings_router = Router(tags=["routing-settings"])
register_resource("routing_settings", "Routing settings", ("view", "change"))


COMPUTED_SETTINGS = {"saved", "map_allowed_sites"}


def _settings_out() -> dict[str, object]:
    row = problem_builder.settings_row()
    out = {f: getattr(row, f) for f in RoutingSettingsOut.model_fields if f not in COMPUTED_SETTINGS}
    out["saved"] = row.pk is not None
    out["map_allowed_sites"] = csp.connect_sources()
    return out


@settings_router.get(
    "",
    response=Envelope[RoutingSettingsOut],
    auth=perm("routing_settings.view"),
    operation_id="routing_settings_get",
    summary="The company's routing settings (the defaults until first saved)",
)
def get_settings(request: HttpRequest) -> Answer:
    return ok(_settings_out(), "Routing settings retrieved successfully")


@settings_router.put(
    "",
    response=Envelope[RoutingSettingsOut],
    auth=perm("routing_settings.change"),
    operation_id="routing_settings_update",
    summary="Save the routing settings (every field; omitted ones take their default)",
)
def put_settings(request: HttpRequest, payload: RoutingSettingsIn) -> Answer:
    services.save_settings(payload.model_dump(), own_origin=f"{request.scheme}://{request.get_host()}")
    return ok(_settings_out(), "Routing settings saved successfully")


# --- per truck, per driver, per site ----------------------------------------------------------------
truck_routing_router = Router(tags=["truck-routing"])
Crud(
    router=truck_routing_router,
    resource="truck_routing",
    label="Truck routing",
    plural="Truck routing",
    model=TruckRouting,
    out=TruckRoutingOut,
    create_in=TruckRoutingIn,
    ops=ALL_OPS,
    default_size=50,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("truck_number", "skills", "product_ids"),
    extra_columns=("truck_number", "skills"),  # an annotation; the JSON list as written (checked then)
    fill_rows=selectors.fill_product_ids,
    queryset=selectors.truck_routings,
    create=services.create_truck_routing,
    update=services.save_truck_routing,
    spec=ListSpec(
        search=("truck__asset_number",),
        sort={"truck_number": "truck__asset_number", "created_at": "created_at"},
        filters={"truck_id": ("truck_id", "int"), "plans": ("plans", "bool")},
        default_sort="truck__asset_number",
    ),
)

driver_shift_router = Router(tags=["driver-shift"])
Crud(
    router=driver_shift_router,
    resource="driver_shift",
    label="Driver shift",
    model=DriverShift,
    out=DriverShiftOut,
    create_in=DriverShiftIn,
    ops=ALL_OPS,
    default_size=50,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("driver_name", "days"),
    extra_columns=("driver_name", "days"),  # an annotation; the JSON list as written (checked then)
    queryset=selectors.driver_shifts,
    create=services.create_driver_shift,
    update=services.save_driver_shift,
    spec=ListSpec(
        search=("driver__name",),
        sort={"driver_name": "driver__name", "start": "start", "created_at": "created_at"},
        filters={"driver_id": ("driver_id", "int"), "truck_id": ("truck_id", "int")},
        default_sort="driver__name",
    ),
)

site_constraint_router = Router(tags=["site-constraint"])


def _site_constraints_of(qs: QuerySet[SiteConstraint], params: Any) -> QuerySet[SiteConstraint]:
    return qs.filter(ship_to__customer_id=params.customer_id) if params.customer_id else qs


Crud(
    router=site_constraint_router,
    resource="site_constraint",
    label="Site constraint",
    model=SiteConstraint,
    out=SiteConstraintOut,
    create_in=SiteConstraintIn,
    ops=ALL_OPS,
    default_size=50,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("ship_to_name", "customer_id", "customer_name", "skills"),
    # annotations (the sites screen lists every customer's ship-tos); the JSON list as written
    extra_columns=("ship_to_name", "customer_id", "customer_name", "skills"),
    queryset=selectors.site_constraints,
    filters=SiteConstraintQuery,
    apply_filters=_site_constraints_of,
    create=services.create_site_constraint,
    update=services.save_site_constraint,
    spec=ListSpec(
        search=("ship_to__name", "ship_to__customer__name"),
        sort={
            "ship_to_name": "ship_to__name",
            "customer_name": "ship_to__customer__name",
            "max_truck_gallons": "max_truck_gallons",
            "created_at": "created_at",
        },
        filters={"ship_to_id": ("ship_to_id", "int"), "customer_id": ("ship_to__customer_id", "int")},
        default_sort="ship_to__name",
    ),
)

# --- plans ------------------------------------------------------------------------------------------
plan_router = Router(tags=["route-plan"])
register_resource("route_plan", "Route plans", ("view", "add", "change", "accept"))


def _plan(plan_id: int) -> RoutePlan:
    row = RoutePlan.objects.filter(pk=plan_id).first()
    if row is None:
        raise ApiError(404, "Route plan not found")
    return row


@plan_router.post(
    "",
    response={201: Envelope[RoutePlanOut]},
    auth=perm("route_plan.add"),
    operation_id="route_plan_start",
    summary="Plan the day: queue the planner for a day with a time budget",
    description="The worker (job log kind `route_plan`, queue `planning`) builds the day's problem, "
    "solves it within `seconds` (default: the settings') and stores the best plan. 409 while the day "
    "is already being planned.",
)
def start(request: HttpRequest, payload: RoutePlanIn) -> Answer:
    row = services.start_plan(day=payload.planned_date, seconds=payload.seconds, user=request.auth)
    return ok(selectors.plan_out(row), "The day is being planned", status=201)


@plan_router.get(
    "",
    response=Envelope[RoutePlanListOut],
    auth=perm("route_plan.view"),
    operation_id="route_plan_list",
    summary="The latest plans (of a day, with planned_date), newest first",
)
def list_plans(request: HttpRequest, q: Query[RoutePlanQuery]) -> Answer:
    rows = list(selectors.plans(q.planned_date)[:10])
    return ok({"items": selectors.plans_out(rows)}, "Route plans retrieved successfully")


@plan_router.get(
    "/{int:plan_id}",
    response=Envelope[RoutePlanOut],
    auth=perm("route_plan.view"),
    operation_id="route_plan_get",
    summary="A plan: status, progress, routes with loads and ETAs, unplanned orders, the current plan",
)
def get_plan(request: HttpRequest, plan_id: int) -> Answer:
    return ok(selectors.plan_out(_plan(plan_id)), "Route plan retrieved successfully")


@plan_router.post(
    "/{int:plan_id}/stop",
    response=Envelope[RoutePlanOut],
    auth=perm("route_plan.add"),
    operation_id="route_plan_stop",
    summary="Stop the planner: the best plan found so far is kept",
)
def stop(request: HttpRequest, plan_id: int) -> Answer:
    row = services.stop_plan(_plan(plan_id))
    return ok(selectors.plan_out(row), "The planner stops and keeps the best plan so far")


@plan_router.post(
    "/{int:plan_id}/evaluate",
    response=Envelope[PlanBodyOut],
    auth=perm("route_plan.view"),
    operation_id="route_plan_evaluate",
    summary="ETAs, loads, slack and violations of adjusted routes (no solving; nothing is saved)",
)
def evaluate(request: HttpRequest, plan_id: int, payload: RoutePlanEvaluateIn) -> Answer:
    row = _plan(plan_id)
    data = services.evaluate_routes(row, payload.routes)
    n = len(data["violations"])
    return ok(data, "Routes evaluated" + (f": {n} violation(s)" if n else ": feasible"))


@plan_router.post(
    "/{int:plan_id}/accept",
    response=Envelope[RoutePlanAcceptOut],
    auth=perm("route_plan.accept"),
    operation_id="route_plan_accept",
    summary="Accept the plan (all, some trucks, or adjusted routes): assigns orders through the workflow",
    description="Each accepted truck's stops are assigned to it and its shift's driver in order; its "
    "other orders of the day go back to verified. An order in delivery is never moved. 409 naming what "
    "changed when the day changed since the plan.",
)
def accept(request: HttpRequest, plan_id: int, payload: RoutePlanAcceptIn) -> Answer:
    row = _plan(plan_id)
    result = services.accept(row, truck_ids=payload.truck_ids, routes=payload.routes, by=request.auth)
    result["plan"] = selectors.plan_out(result["plan"])
    return ok(
        result,
        f"Plan accepted: {result['assigned']} order(s) assigned on {len(result['trucks'])} truck(s)"
        + (
            f", {result['keep_full_orders']} keep-full order(s) created" if result["keep_full_orders"] else ""
        ),
    )


routes = [
    ("/route-plan", plan_router),
    ("/routing-settings", settings_router),
    ("/truck-routing", truck_routing_router),
    ("/driver-shift", driver_shift_router),
    ("/site-constraint", site_constraint_router),
]
