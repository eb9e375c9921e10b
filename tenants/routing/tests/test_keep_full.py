"""Keep-full tanks in "Plan the day": a due tank near the day's route is an optional stop the planner
takes, one far away is not (listed as "not on the way"); accept orders the taken tank through the
forecast's create-orders (priced, ForecastOrder) and assigns it, once; in-delivery stops are marked."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from tenants.routing.tests.helpers import PLANS, order_at, planning_day, run_plan


def _next_weekday() -> dt.date:
    day = timezone.localdate() + dt.timedelta(days=1)
    while day.isoweekday() > 5:
        day += dt.timedelta(days=1)
    return day


def _due_tank(md: dict[str, Any], name: str, lat: str, lng: str, day: dt.date, gallons: int = 400) -> Any:
    """A keep-full diesel tank at its own ship-to (lat, lng), due on `day`, with no open order."""
    from tenants.forecast.models import TankForecast, TankSettings
    from tenants.parties.models import CustomerAsset, ShipTo

    site = ShipTo.objects.create(
        customer=md["customer"], name=f"{name} site", latitude=Decimal(lat), longitude=Decimal(lng)
    )
    asset = CustomerAsset.objects.create(
        customer=md["customer"],
        ship_to=site,
        asset_name=name,
        serial_number=f"SN-{name}",
        capacity=Decimal("1000"),
        product=md["diesel"],
    )
    TankSettings.objects.create(asset=asset, program=TankSettings.Program.KEEP_FULL)
    TankForecast.objects.create(
        asset=asset,
        computed_at=timezone.now(),
        suggested_date=day,
        suggested_gallons=Decimal(gallons),
        level_gallons=Decimal("300"),
        risk=0.3,
        reason="test",
    )
    return asset


def _keep_full_day(*, near_only: bool = False) -> tuple[dict[str, Any], dt.date, Any, Any]:
    """One truck, two orders a few miles from the Houston yard on the next weekday, a diesel price rule
    (so orders created from the forecast are priced); a due tank next to the route and one ~150 miles
    away (Austin)."""
    from tenants.catalog.models import ProductCategory
    from tenants.parties.models import ShipTo
    from tenants.pricing.models import PricingRule

    day = _next_weekday()
    md = planning_day(orders=0, trucks=1)
    for i, (lat, lng) in enumerate(((29.80, -95.40), (29.72, -95.35))):
        site = ShipTo.objects.create(
            customer=md["customer"],
            name=f"Stop {i + 1}",
            latitude=Decimal(str(lat)),
            longitude=Decimal(str(lng)),
        )
        order_at(md, site, "800", planned_date=day)
    fuel = ProductCategory.objects.create(name="Fuel KF")
    md["diesel"].category = fuel
    md["diesel"].save()
    from tenants.parties.models import Supplier

    PricingRule.objects.create(
        name="Diesel rack + 20c",
        category=fuel,
        basis="rack",
        rack_mode="named",
        terminal=md["terminal"],
        supplier=Supplier.objects.get(name="Gulf Supply"),
        margin=Decimal("0.20"),
    )
    near = _due_tank(md, "Near tank", "29.78", "-95.38", day)
    far = None if near_only else _due_tank(md, "Far tank", "30.27", "-97.74", day)
    return md, day, near, far


def test_a_due_tank_on_the_way_is_taken_and_one_far_away_is_listed_not_on_the_way(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    with in_tenant(tenant_a):
        md, day, near, far = _keep_full_day()
    plan = run_plan(api_a, jobs, django_capture_on_commit_callbacks, day=day)
    assert plan["status"] == "ready", plan
    body = plan["plan"]
    stops = [v for r in body["routes"] for v in r["visits"] if v["kind"] == "stop"]
    kf = [v for v in stops if v["keep_full"]]
    assert [v["ref"] for v in kf] == [f"tank:{near.pk}"]
    k = kf[0]["keep_full"]
    assert k["asset_id"] == near.pk and k["asset_name"] == "Near tank" and k["gallons"] == 400
    assert k["customer_name"] == md["customer"].name and k["ship_to_name"] == "Near tank site"
    assert k["suggested_date"] == day.isoformat() and k["risk"] == 0.3 and k["prize"] > 0
    assert kf[0]["gallons"] == 400 and kf[0]["label"].startswith("Keep-full")
    # The far tank is optional: listed apart, not an unplanned order.
    assert body["unplanned"] == [] and body["totals"]["unplanned"] == 0
    assert [t["asset_id"] for t in body["keep_full_not_taken"]] == [far.pk]
    assert body["keep_full_not_taken"][0]["reason"].startswith("Not on the way today")
    assert body["totals"]["keep_full"] == 1
    assert body["violations"] == []

    # Drag the far tank onto the truck: evaluate takes "tank:<id>" stop ids (and refuses bad ones).
    route = body["routes"][0]
    refs = [v["ref"] for v in route["visits"] if v["kind"] == "stop"] + [f"tank:{far.pk}"]
    ev = api_a.post(
        f"{PLANS}/{plan['id']}/evaluate", {"routes": [{"truck_id": route["truck_id"], "stop_ids": refs}]}
    )
    assert ev.status_code == 200, ev.json()
    last = [v for v in ev.json()["data"]["routes"][0]["visits"] if v["kind"] == "stop"][-1]
    assert last["ref"] == f"tank:{far.pk}" and last["keep_full"]["asset_name"] == "Far tank"
    assert ev.json()["data"]["keep_full_not_taken"] == []
    for bad in ("tank:x", "tank:999999"):
        res = api_a.post(
            f"{PLANS}/{plan['id']}/evaluate", {"routes": [{"truck_id": route["truck_id"], "stop_ids": [bad]}]}
        )
        assert res.status_code == 422 and res.json()["detail"], res.json()


def test_a_past_day_is_offered_no_keep_full_stops(tenant_a, in_tenant):
    from tenants.routing import problem_builder

    with in_tenant(tenant_a):
        _md, day, near, _far = _keep_full_day(near_only=True)
        row = problem_builder.settings_row()
        assert [s.id for s in problem_builder.keep_full_stops(day, row, set())] == [f"tank:{near.pk}"]
        yesterday = timezone.localdate() - dt.timedelta(days=1)
        assert problem_builder.keep_full_stops(yesterday, row, set()) == []


def test_accept_orders_each_taken_tank_once_priced_and_assigned(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    from tenants.forecast.models import ForecastOrder
    from tenants.sales.models import SalesOrder

    with in_tenant(tenant_a):
        md, day, near, _far = _keep_full_day()
    plan = run_plan(api_a, jobs, django_capture_on_commit_callbacks, day=day)
    route = plan["plan"]["routes"][0]
    refs = [v["ref"] for v in route["visits"] if v["kind"] == "stop"]
    assert f"tank:{near.pk}" in refs
    res = api_a.post(f"{PLANS}/{plan['id']}/accept", {})
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["keep_full_orders"] == 1
    assert res.json()["message"].endswith(", 1 keep-full order(s) created")
    with in_tenant(tenant_a):
        made = list(ForecastOrder.objects.filter(asset=near).select_related("sales_order"))
        assert len(made) == 1
        order = made[0].sales_order
        line = order.line_items.get()
        assert (
            line.quantity == Decimal("400")
            and line.unit_price is not None
            and line.customer_asset_id == near.pk
        )
        assert order.status == "assigned" and order.planned_date == day
        assert order.truck_id == md["truck"].pk and order.driver_id == md["driver"].pk
        assert order.stop_sequence == refs.index(f"tank:{near.pk}") + 1
        assert order.planned_stop.route_plan_id == plan["id"]
    again = api_a.post(f"{PLANS}/{plan['id']}/accept", {})
    assert again.status_code == 200, again.json()
    assert again.json()["data"]["keep_full_orders"] == 0
    # Adjusted routes naming the tank stop reuse its order too.
    adjusted = api_a.post(
        f"{PLANS}/{plan['id']}/accept", {"routes": [{"truck_id": route["truck_id"], "stop_ids": refs}]}
    )
    assert adjusted.status_code == 200, adjusted.json()
    with in_tenant(tenant_a):
        assert SalesOrder.objects.filter(line_items__customer_asset_id=near.pk).count() == 1
        assert ForecastOrder.objects.filter(asset=near).count() == 1


def test_a_tank_ordered_meanwhile_is_a_change_and_in_delivery_stops_are_fixed(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    from tenants.forecast import services as forecast_services
    from tenants.routing.models import RoutingSettings
    from tenants.sales.models import SalesOrder

    with in_tenant(tenant_a):
        md, day, near, _far = _keep_full_day(near_only=True)
    plan = run_plan(api_a, jobs, django_capture_on_commit_callbacks, day=day)
    assert any(v["ref"] == f"tank:{near.pk}" for r in plan["plan"]["routes"] for v in r["visits"])
    with in_tenant(tenant_a):
        made = forecast_services.create_due_orders([{"asset_id": near.pk}], by=None)
    res = api_a.post(f"{PLANS}/{plan['id']}/accept", {})
    assert res.status_code == 409, res.json()
    assert f"keep-full tank Near tank got an order meanwhile ({made[0]['number']})" in res.json()["changes"]

    # An order in delivery on the truck: marked fixed; keep-full stops off: no tank stops.
    with in_tenant(tenant_a):
        RoutingSettings.objects.create(keep_full_stops=False)
        first = SalesOrder.objects.filter(planned_date=day, ship_to__name="Stop 1").get()
        SalesOrder.objects.filter(pk=first.pk).update(
            status="in_delivery", truck_id=md["truck"].pk, driver_id=md["driver"].pk
        )
    plan = run_plan(api_a, jobs, django_capture_on_commit_callbacks, day=day)
    visits = {v["ref"]: v for r in plan["plan"]["routes"] for v in r["visits"] if v["kind"] == "stop"}
    assert visits[first.pk]["in_delivery"] is True and visits[first.pk]["fixed"] is True
    assert all(v["in_delivery"] is False and v["fixed"] is False for k, v in visits.items() if k != first.pk)
    assert not any(isinstance(k, str) for k in visits)
    assert plan["plan"]["keep_full_not_taken"] == []
