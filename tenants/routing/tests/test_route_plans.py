"""Plan the day through the API: the worker plans a small day, the plan is read with loads and ETAs,
adjusted routes are evaluated, the plan is accepted through the sales workflow; the rules (a day
that changed since the plan, an order in delivery, bad input) with their exact sentences."""

from __future__ import annotations

import datetime as dt

from conftest import Api, token_for
from tenants.routing.tests.helpers import DAY, PLANS, order_at, planning_day, run_plan


def _stops(route: dict) -> list[int]:
    return [v["ref"] for v in route["visits"] if v["kind"] == "stop"]


def test_the_worker_plans_a_small_day_and_every_order_gets_a_truck_with_etas(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    with in_tenant(tenant_a):
        md = planning_day(orders=4, trucks=2, window_first=True)
    plan = run_plan(api_a, jobs, django_capture_on_commit_callbacks)
    assert plan["status"] == "ready", plan
    assert plan["progress"] == 1.0 and plan["job_id"] is not None
    body = plan["plan"]
    planned = sorted(s for r in body["routes"] for s in _stops(r))
    assert planned == sorted(o.pk for o in md["orders"])
    assert body["unplanned"] == [] and body["violations"] == []
    for route in body["routes"]:
        assert route["truck_number"] in {"T-101", "T-102"}
        assert route["driver_name"] in {"Dana Driver", "Driver 2"}
        kinds = [v["kind"] for v in route["visits"]]
        assert kinds[0] == "start" and kinds[-1] == "end"
        # Loads: diesel only, each compartment within its capacity, at least what the stops take.
        assert route["loads"] and all(
            c["product"] == "ULSD-T" for ld in route["loads"] for c in ld["compartments"]
        )
        assert sum(ld["gallons"] for ld in route["loads"]) >= 800 * route["stops"]
        assert route["loads"][0]["terminal_name"] == "Pasadena rack"
        assert route["miles"] > 0 and 0 < route["utilization"] <= 1
        arrivals = [v["arrival_s"] for v in route["visits"]]
        assert arrivals == sorted(arrivals) and arrivals[0] >= 6 * 3600
    first = next(
        v
        for r in body["routes"]
        for v in r["visits"]
        if v["kind"] == "stop" and v["ref"] == md["orders"][0].pk
    )
    assert (
        first["window"] == "08:00–10:00" and first["window_slack_min"] is not None and first["late_min"] == 0
    )
    assert "08:00" <= first["arrival"] <= "10:00"
    assert first["order_number"] == md["orders"][0].number and first["gallons"] == 800
    assert body["totals"]["stops"] == 4 and body["totals"]["unplanned"] == 0
    # Nothing was assigned yet: the current plan has no routes, so the difference is the whole plan.
    assert plan["current"]["routes"] == []
    assert plan["difference"]["trucks_used"] == body["totals"]["trucks_used"]

    listed = api_a.get(PLANS, {"planned_date": DAY.isoformat()}).json()["data"]["items"]
    assert [p["id"] for p in listed] == [plan["id"]]
    assert api_a.get(PLANS, {"planned_date": "2026-12-02"}).json()["data"]["items"] == []


def test_bad_input_gets_a_reason_per_order_and_never_fails_the_run(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    from tenants.catalog.models import Product
    from tenants.fleet.models import CompanyAsset
    from tenants.parties.models import ShipTo

    with in_tenant(tenant_a):
        md = planning_day(orders=2, trucks=1)
        nowhere = ShipTo.objects.create(customer=md["customer"], name="No coordinates")
        lost = order_at(md, nowhere, "500")
        huge = order_at(md, md["orders"][0].ship_to, "9000")
        kero = Product.objects.create(code="KERO-T", name="Kerosene", sold_as="gallon", is_fuel=True)
        md["kero"] = kero
        odd = order_at(md, md["orders"][1].ship_to, "300", product="kero")
        drums = order_at(md, md["orders"][1].ship_to, "2", product="oil")
        CompanyAsset.objects.create(
            asset_number="T-900",
            name="Spare",
            asset_type=md["truck"].asset_type,
            capacity=3000,
            compartments=[{"number": 1, "capacity": 3000}],
        )
    plan = run_plan(api_a, jobs, django_capture_on_commit_callbacks)
    assert plan["status"] == "ready", plan
    reasons = {u["stop_id"]: u["reason"] for u in plan["plan"]["unplanned"]}
    assert set(reasons) == {lost.pk, huge.pk, odd.pk}
    assert all(reasons.values())
    assert sorted(s for r in plan["plan"]["routes"] for s in _stops(r)) == sorted(o.pk for o in md["orders"])
    left = {(x["kind"], x["label"]): x["reason"] for x in plan["left_out"]}
    assert left[("truck", "T-900")] == "No driver has a shift on this truck on Tuesday."
    assert left[("order", drums.number)].startswith("No fuel on this order")


def test_accepting_assigns_orders_trucks_drivers_and_stop_order_then_the_driver_sees_the_eta(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    from tenants.sales.models import SalesOrder

    with in_tenant(tenant_a):
        md = planning_day(orders=3, trucks=1)
    plan = run_plan(api_a, jobs, django_capture_on_commit_callbacks)
    route = plan["plan"]["routes"][0]
    order = _stops(route)
    res = api_a.post(f"{PLANS}/{plan['id']}/accept", {})
    assert res.status_code == 200, res.json()
    data = res.json()["data"]
    assert res.json()["message"] == "Plan accepted: 3 order(s) assigned on 1 truck(s)"
    assert data["assigned"] == 3 and data["plan"]["status"] == "accepted"
    with in_tenant(tenant_a):
        rows = {o.pk: o for o in SalesOrder.objects.filter(pk__in=order)}
        assert [rows[i].stop_sequence for i in order] == [1, 2, 3]
        assert {rows[i].status for i in order} == {"assigned"}
        assert {rows[i].truck_id for i in order} == {md["truck"].pk}
        assert {rows[i].driver_id for i in order} == {md["driver"].pk}
        # Through the workflow: each order's timeline has the assign move.
        assert all(rows[i].events.filter(action="assign").exists() for i in order)
        from tenants.routing.models import PlannedStop

        etas = {p.sales_order_id: p.eta.strftime("%H:%M") for p in PlannedStop.objects.all()}
    assert etas == {v["ref"]: v["arrival"] for v in route["visits"] if v["kind"] == "stop"}

    # The driver's today list: the accepted stop order with each ETA.
    driver = Api(token_for(tenant_a, role="Driver", email="eta-driver@alpha.test"))
    with in_tenant(tenant_a):
        from tenants.accounts.models import User

        md["driver"].user = User.objects.get(email="eta-driver@alpha.test")
        md["driver"].save()
    today = driver.get("/api/driver-portal/todays-orders", {"date": DAY.isoformat()}).json()["data"]["orders"]
    assert [o["id"] for o in today] == order
    assert [o["eta"][:5] for o in today] == [etas[i] for i in order]
    # The daily summary: planned miles from the accepted route; driven miles only once GPS points exist.
    summary = driver.get("/api/driver-portal/daily-summary", {"date": DAY.isoformat()}).json()["data"]
    assert summary["planned_miles"] == f"{route['miles']:.1f}"
    assert summary["driven_miles"] is None and summary["gps_points"] == 0
    with in_tenant(tenant_a):
        from tenants.delivery.models import DeliveryTicket

        for oid in order:
            site = SalesOrder.objects.select_related("ship_to").get(pk=oid).ship_to
            DeliveryTicket.objects.create(
                sales_order_id=oid, number=f"DT-{oid}", latitude=site.latitude, longitude=site.longitude
            )
    summary = driver.get("/api/driver-portal/daily-summary", {"date": DAY.isoformat()}).json()["data"]
    assert summary["gps_points"] == 3 and float(summary["driven_miles"]) > 0

    # Accepting again needs the day unchanged: a cancelled order is named.
    with in_tenant(tenant_a):
        from tenants.sales import workflow

        workflow.cancel(SalesOrder.objects.get(pk=order[1]), by=None)
    res = api_a.post(f"{PLANS}/{plan['id']}/accept", {})
    assert res.status_code == 409
    assert res.json()["detail"] == (
        f"The day changed since this plan was made: {rows[order[1]].number} was cancelled. "
        "Plan the day again."
    )


def test_accept_per_truck_and_adjusted_routes_never_move_an_order_in_delivery(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    from tenants.sales.models import SalesOrder

    with in_tenant(tenant_a):
        md = planning_day(orders=4, trucks=2)
        moving = md["orders"][3]
        SalesOrder.objects.filter(pk=moving.pk).update(
            status="in_delivery", truck=md["trucks"][1], driver=md["drivers"][1], stop_sequence=1
        )
    plan = run_plan(api_a, jobs, django_capture_on_commit_callbacks)
    routes = {r["truck_id"]: _stops(r) for r in plan["plan"]["routes"]}
    assert moving.pk in routes[md["trucks"][1].pk]  # fixed to its truck

    # Dragging the order in delivery onto the other truck: evaluated (marked), refused at accept.
    t1, t2 = md["trucks"][0].pk, md["trucks"][1].pk
    others = [o.pk for o in md["orders"][:3]]
    res = api_a.post(
        f"{PLANS}/{plan['id']}/evaluate", {"routes": [{"truck_id": t1, "stop_ids": [*others, moving.pk]}]}
    )
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["violations"]
    res = api_a.post(f"{PLANS}/{plan['id']}/accept", {"routes": [{"truck_id": t1, "stop_ids": [moving.pk]}]})
    assert res.status_code == 409
    assert res.json()["detail"] == (
        f"Cannot accept this plan: {moving.number} is in delivery on another truck and cannot be moved."
    )
    with in_tenant(tenant_a):
        assert SalesOrder.objects.filter(status="assigned").count() == 0  # nothing changed

    # Per truck: only T-101's route is assigned.
    res = api_a.post(f"{PLANS}/{plan['id']}/accept", {"truck_ids": [t1]})
    assert res.status_code == 200, res.json()
    with in_tenant(tenant_a):
        assigned = set(SalesOrder.objects.filter(status="assigned").values_list("pk", flat=True))
        assert assigned == set(routes.get(t1, []))
        assert SalesOrder.objects.get(pk=moving.pk).truck_id == t2

    # Adjusted: all three others on T-102 behind the order in delivery, in this order.
    res = api_a.post(
        f"{PLANS}/{plan['id']}/accept", {"routes": [{"truck_id": t2, "stop_ids": [moving.pk, *others]}]}
    )
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["kept_in_delivery"] == 1
    with in_tenant(tenant_a):
        rows = {o.pk: o for o in SalesOrder.objects.filter(pk__in=[*others, moving.pk])}
        assert [rows[i].stop_sequence for i in others] == [2, 3, 4]
        assert {rows[i].truck_id for i in others} == {t2}
        assert rows[moving.pk].status == "in_delivery" and rows[moving.pk].stop_sequence == 1


def test_plan_rules_bad_input_and_permissions(
    api_a, api_b, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    with in_tenant(tenant_a):
        md = planning_day(orders=2, trucks=1)
    # One run per day at a time.
    with django_capture_on_commit_callbacks(execute=False):
        first = api_a.post(PLANS, {"planned_date": DAY.isoformat(), "seconds": 1})
    assert first.status_code == 201
    pid = first.json()["data"]["id"]
    res = api_a.post(PLANS, {"planned_date": DAY.isoformat()})
    assert res.status_code == 409
    assert (
        res.json()["detail"]
        == f"The day 2026-12-01 is already being planned (plan {pid}): wait for it or stop it."
    )
    # Nothing to accept yet.
    res = api_a.post(f"{PLANS}/{pid}/accept", {})
    assert res.status_code == 409
    assert res.json()["detail"] == "Cannot accept this plan: it is queued, there is no plan to accept yet."
    # Stop before it ran: the worker keeps the best it finds at once and says it was stopped.
    res = api_a.post(f"{PLANS}/{pid}/stop")
    assert res.status_code == 200 and res.json()["data"]["stop_requested"] is True
    jobs()
    from tenants.routing.tasks import plan_day

    with in_tenant(tenant_a):
        plan_day.fn(pid)  # the message was not queued (on-commit not run): run the job's body
    got = api_a.get(f"{PLANS}/{pid}").json()["data"]
    assert got["status"] == "stopped", got
    res = api_a.post(f"{PLANS}/{pid}/stop")
    assert res.status_code == 409
    assert res.json()["detail"] == "This plan is stopped (best so far): there is nothing to stop."

    # Bad routes: unknown order, twice the same order, a truck that does not plan.
    t = md["truck"].pk
    o1, o2 = (o.pk for o in md["orders"])
    for routes, detail in (
        (
            [{"truck_id": t, "stop_ids": [o1, 999999]}],
            "Cannot evaluate these routes: order 999999 is not a stop of 2026-12-01.",
        ),
        (
            [{"truck_id": t, "stop_ids": [o1, o1]}],
            f"Cannot evaluate these routes: order {o1} appears more than once.",
        ),
        (
            [{"truck_id": 424242, "stop_ids": [o2]}],
            "Cannot evaluate these routes: truck 424242 is not planned on 2026-12-01 "
            "(no driver shift that day, or it does not plan).",
        ),
    ):
        res = api_a.post(f"{PLANS}/{pid}/evaluate", {"routes": routes})
        assert res.status_code == 422, res.json()
        assert res.json()["detail"] == detail
    res = api_a.post(f"{PLANS}/{pid}/accept", {"truck_ids": [424242]})
    assert res.status_code == 422
    assert res.json()["detail"] == "Cannot accept this plan: truck 424242 has no route in this plan."
    assert api_a.get(f"{PLANS}/999999").json()["detail"] == "Route plan not found"
    assert api_a.post(PLANS, {"planned_date": DAY.isoformat(), "seconds": 0}).status_code == 422

    # Roles: Accounting may not plan; another company sees nothing.
    accounting = Api(token_for(tenant_a, role="Accounting", email="acc-plan@alpha.test"))
    assert (
        accounting.post(PLANS, {"planned_date": (DAY + dt.timedelta(days=1)).isoformat()}).status_code == 403
    )
    assert accounting.get(PLANS).status_code == 403
    assert api_b.get(f"{PLANS}/{pid}").status_code == 404
    assert api_b.get(PLANS).json()["data"]["items"] == []
