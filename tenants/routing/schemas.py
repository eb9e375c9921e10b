"""Schemas of the routing app: settings, per-truck / per-driver / per-site data, and the route plans."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import field_validator

from tenants.geo.schemas import StrippedIn
from tenants.pricing.schemas import MAX_ID

Day = Annotated[dt.date, Field(ge=dt.date(1900, 1, 1), le=dt.date(2999, 12, 31))]
Skill = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.\- ]+$")]
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Money = Annotated[Decimal, Field(ge=0, max_digits=8, decimal_places=2)]
MAX_SECONDS = 600


def _clean_skills(values: list[str]) -> list[str]:
    seen: list[str] = []
    for v in values:
        s = v.strip().lower()
        if s and s not in seen:
            seen.append(s)
    return seen


# --- settings ---------------------------------------------------------------------------------------
class RoutingSettingsIn(StrippedIn):
    circuity: Decimal = Field(Decimal("1.30"), ge=1, le=3, max_digits=4, decimal_places=2)
    speed_mph: Decimal = Field(Decimal("35"), ge=5, le=90, max_digits=5, decimal_places=1)
    osrm_url: str = Field("", max_length=300, pattern=r"^(https?://\S+)?$", description="OSRM base URL")
    map_tile_url: str = Field(
        "", max_length=500, pattern=r"^(https?://\S+)?$", description="Raster tiles, {z}/{x}/{y}"
    )
    map_style_url: str = Field("", max_length=500, pattern=r"^(https?://\S+)?$", description="MapLibre style")
    map_attribution: str = Field("", max_length=300)
    service_fixed_minutes: int = Field(15, ge=0, le=600)
    pump_gpm: Decimal = Field(Decimal("60"), ge=1, le=2000, max_digits=6, decimal_places=1)
    hours_of_service: Literal["us_property", "custom", "none"] = "us_property"
    max_duty_hours: Decimal = Field(Decimal("14"), ge=1, le=24, max_digits=4, decimal_places=2)
    default_cost_per_mile: Money = Decimal("2.50")
    default_cost_per_hour: Money = Decimal("35.00")
    default_seconds: int = Field(30, ge=1, le=MAX_SECONDS)
    keep_full_stops: bool = Field(True, description="Offer due keep-full tanks as optional stops")
    keep_full_days: int = Field(3, ge=0, le=14, description="Tanks due up to this many days after the day")
    keep_full_value_per_gallon: Decimal = Field(
        Decimal("0.15"), ge=0, le=10, max_digits=6, decimal_places=3, description="Dollars per gallon"
    )


class RoutingSettingsOut(Schema):
    circuity: Decimal
    speed_mph: Decimal
    osrm_url: str
    map_tile_url: str
    map_style_url: str
    map_attribution: str
    service_fixed_minutes: int
    pump_gpm: Decimal
    hours_of_service: str
    max_duty_hours: Decimal
    default_cost_per_mile: Decimal
    default_cost_per_hour: Decimal
    default_seconds: int
    keep_full_stops: bool
    keep_full_days: int
    keep_full_value_per_gallon: Decimal
    saved: bool = Field(description="False: the defaults, never saved")
    map_allowed_sites: list[str] = Field(
        description="Sites a map style or tile URL may be on besides this one (the page's CSP connect-src, "
        "set by the operator: CSP_CONNECT_SRC)"
    )


# --- per truck ---------------------------------------------------------------------------------------
class TruckRoutingIn(StrippedIn):
    truck_id: Id
    product_ids: list[Id] = Field(default_factory=list, max_length=200, description="Empty: every fuel")
    cost_per_mile: Money | None = None
    cost_per_hour: Money | None = None
    skills: list[Skill] = Field(default_factory=list, max_length=20)
    start_yard_id: Id | None = None
    end_yard_id: Id | None = None
    plans: bool = True

    _skills = field_validator("skills")(_clean_skills)


class TruckRoutingOut(Schema):
    id: int
    truck_id: int
    truck_number: str
    product_ids: list[int]
    cost_per_mile: Decimal | None
    cost_per_hour: Decimal | None
    skills: list[str]
    start_yard_id: int | None
    end_yard_id: int | None
    plans: bool
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_product_ids(obj: Any) -> list[int]:
        return sorted(p.pk for p in obj.products.all())


# --- per driver --------------------------------------------------------------------------------------
class DriverShiftIn(StrippedIn):
    driver_id: Id
    truck_id: Id | None = None
    days: list[Annotated[int, Field(ge=1, le=7)]] = Field(
        default_factory=lambda: [1, 2, 3, 4, 5], max_length=7, description="ISO weekdays, 1 = Monday"
    )
    start: dt.time
    end: dt.time
    max_duty_hours: Decimal | None = Field(None, ge=1, le=24, max_digits=4, decimal_places=2)

    @field_validator("days")
    @classmethod
    def _days(cls, v: list[int]) -> list[int]:
        return sorted(set(v))


class DriverShiftOut(Schema):
    id: int
    driver_id: int
    driver_name: str
    truck_id: int | None
    days: list[int]
    start: dt.time
    end: dt.time
    max_duty_hours: Decimal | None
    created_at: dt.datetime
    updated_at: dt.datetime


# --- per ship-to -------------------------------------------------------------------------------------
class SiteConstraintIn(StrippedIn):
    ship_to_id: Id
    max_truck_gallons: int | None = Field(None, ge=1, le=100_000)
    skills: list[Skill] = Field(default_factory=list, max_length=20)
    extra_service_minutes: int = Field(0, ge=0, le=600)

    _skills = field_validator("skills")(_clean_skills)


class SiteConstraintQuery(Schema):
    customer_id: int | None = Field(None, ge=1, description="The site constraints of one customer's ship-tos")


class SiteConstraintOut(Schema):
    id: int
    ship_to_id: int
    ship_to_name: str
    customer_id: int
    customer_name: str
    max_truck_gallons: int | None
    skills: list[str]
    extra_service_minutes: int
    created_at: dt.datetime
    updated_at: dt.datetime


# --- plans -------------------------------------------------------------------------------------------
class RoutePlanIn(Schema):
    planned_date: Day
    seconds: int | None = Field(None, ge=1, le=MAX_SECONDS, description="Time budget; default: settings")


class RoutePlanQuery(Schema):
    planned_date: Day | None = None


TankStop = Annotated[str, Field(pattern=r"^tank:[1-9][0-9]{0,11}$")]


class PlanRouteIn(Schema):
    truck_id: Id
    stop_ids: list[Id | TankStop] = Field(
        max_length=1000, description='Order ids (or "tank:<id>" keep-full stops) in visiting order'
    )


class RoutePlanEvaluateIn(Schema):
    routes: list[PlanRouteIn] = Field(max_length=500)


class RoutePlanAcceptIn(Schema):
    truck_ids: list[Id] | None = Field(None, max_length=500, description="Only these trucks' routes")
    routes: list[PlanRouteIn] | None = Field(
        None, max_length=500, description="Adjusted routes (these replace the plan's routes of their trucks)"
    )


class PlanCompartmentOut(Schema):
    compartment: int
    product: str
    gallons: int


class PlanLoadOut(Schema):
    terminal_id: int | str
    terminal_name: str
    compartments: list[PlanCompartmentOut]
    gallons: int


class PlanKeepFullOut(Schema):
    asset_id: int
    asset_name: str
    customer_id: int | None = None
    customer_name: str
    ship_to_id: int | None = None
    ship_to_name: str
    product: str
    gallons: int
    suggested_date: dt.date | None = None
    runout_date: dt.date | None = None
    risk: float = 0.0
    prize: float = Field(0.0, description="Dollars the planner weighed against the detour")


class PlanKeepFullSkippedOut(PlanKeepFullOut):
    stop_id: str
    reason: str


class PlanVisitOut(Schema):
    kind: str  # start | reload | stop | end
    ref: int | str
    label: str
    order_number: str | None = None
    customer_name: str | None = None
    lat: float | None = None
    lng: float | None = None
    arrival: str  # HH:MM
    departure: str
    arrival_s: int
    departure_s: int
    window: str | None = None
    window_slack_min: int | None = None
    late_min: int = 0
    gallons: int = 0
    keep_full: PlanKeepFullOut | None = Field(None, description="An optional keep-full top-up (no order yet)")
    in_delivery: bool = False
    fixed: bool = Field(False, description="Stays on its truck (in delivery): not to be moved")


class PlanRouteOut(Schema):
    truck_id: int | str
    truck_number: str
    driver_id: int | str | None
    driver_name: str | None
    visits: list[PlanVisitOut]
    loads: list[PlanLoadOut]
    miles: float
    hours: float
    utilization: float
    stops: int
    violations: list[str] = Field(default_factory=list, description="What this route breaks (evaluate)")


class PlanUnplannedOut(Schema):
    stop_id: int | str
    order_number: str | None
    customer_name: str | None
    reason: str
    in_delivery: bool = Field(False, description="In delivery: stays on its truck (not to be moved)")


class PlanTotalsOut(Schema):
    miles: float
    hours: float
    trucks_used: int
    late_stops: int
    cost: float
    stops: int
    unplanned: int
    keep_full: int = Field(0, description="Keep-full top-ups taken")


class PlanDiffOut(Schema):
    miles: float
    hours: float
    trucks_used: int
    late_stops: int


class PlanBodyOut(Schema):
    routes: list[PlanRouteOut]
    unplanned: list[PlanUnplannedOut]
    keep_full_not_taken: list[PlanKeepFullSkippedOut] = Field(
        default_factory=list, description="Due keep-full tanks the planner left out (optional: not a failure)"
    )
    totals: PlanTotalsOut
    solver: str
    elapsed_s: float
    complete: bool
    violations: list[str] = Field(default_factory=list)


class PlanLeftOutOut(Schema):
    kind: str  # truck | order | tank
    ref: int
    label: str
    reason: str


class RoutePlanOut(Schema):
    id: int
    planned_date: dt.date
    status: str
    seconds: int
    progress: float
    best_cost: int | None
    stop_requested: bool
    error: str
    job_id: int | None
    plan: PlanBodyOut | None
    current: PlanBodyOut | None
    difference: PlanDiffOut | None
    left_out: list[PlanLeftOutOut]
    created_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    accepted_at: dt.datetime | None


class RoutePlanListOut(Schema):
    items: list[RoutePlanOut]


class RoutePlanAcceptOut(Schema):
    plan: RoutePlanOut
    assigned: int
    kept_in_delivery: int
    keep_full_orders: int = Field(0, description="Orders created for keep-full top-ups")
    trucks: list[int | str]
