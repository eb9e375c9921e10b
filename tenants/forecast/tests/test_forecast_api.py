"""Keep-full forecasting through the API: settings, readings, the run, the due list and its orders,
a tank's page, the rules of bad input (nothing changed), and who may do what."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from typing import Any

import pytest
from django.utils import timezone

from conftest import Api, token_for
from tenants.forecast.tests.helpers import BASE, days_ago, post_readings, settings_body, tank, zone
from tenants.pricing.tests.factories import make_world


def _setup(api: Any, tenant: Any, in_tenant: Any) -> dict[str, Any]:
    """A priced customer (pricing world) with a keep-full heating tank at its ship-to, readings that
    say ~18 gal/day, in a cold zone."""
    with in_tenant(tenant):
        w = make_world()
        z = zone()
        t = tank(w.customer, ship_to=w.ship_to, product=w.diesel)
    res = api.put(f"{BASE}/tank/{t.pk}/settings", settings_body(z.pk))
    assert res.status_code == 200, res.json()
    post_readings(api, "SN-1000")
    return {"world": w, "zone": z, "tank": t}


def _run(api: Any, jobs: Any, capture: Any) -> dict[str, Any]:
    with capture(execute=True):
        res = api.post(f"{BASE}/run")
    assert res.status_code == 202, res.json()
    assert res.json()["message"] == "Forecast run queued"
    run_id = res.json()["data"]["id"]
    jobs()
    got = api.get(f"{BASE}/run/{run_id}")
    assert got.status_code == 200, got.json()
    return dict(got.json()["data"])


def test_the_due_list_proposes_the_tank_and_one_action_creates_its_priced_order(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    s = _setup(api_a, tenant_a, in_tenant)
    run = _run(api_a, jobs, django_capture_on_commit_callbacks)
    assert run["status"] == "succeeded" and run["total"] == 1 and run["done"] == 1
    assert run["tanks_forecast"] == 1 and run["tanks_failed"] == 0 and run["due"] == 1

    res = api_a.get(f"{BASE}/due", {"within_days": 7})
    assert res.status_code == 200, res.json()
    rows = res.json()["data"]["rows"]
    assert res.json()["message"] == "1 tanks due within 7 days"
    assert [r["asset_id"] for r in rows] == [s["tank"].pk]
    row = rows[0]
    today = timezone.localdate()
    assert row["customer_name"] == s["world"].customer.name and row["product_name"] == s["world"].diesel.name
    assert D(row["usable_gallons"]) == D("800.00")  # 1000 gal at 80 % max fill
    # Readings fell 486 gal in 27 days (18 gal/day): from 294 gal 3 days ago the level is ~240 today.
    assert D("220") <= D(row["level_gallons"]) <= D("260")
    assert row["suggested_date"] == today.isoformat()
    # Fill to usable capacity at that date, in whole gallons.
    assert (
        D(row["suggested_gallons"]) == D(800) - D(row["level_gallons"]).quantize(D(1))
        or abs(D(row["suggested_gallons"]) - (D(800) - D(row["level_gallons"]))) <= 1
    )
    assert row["reorder_date"] <= today.isoformat() and row["runout_date"] is not None
    assert row["open_order_id"] is None and row["reason"]

    made = api_a.post(f"{BASE}/due/orders", {"tanks": [{"asset_id": s["tank"].pk}]})
    assert made.status_code == 201, made.json()
    assert made.json()["message"] == "1 sales order created"
    order = made.json()["data"]["orders"][0]
    assert D(order["quantity"]) == D(row["suggested_gallons"])
    assert order["unit_price"] == "2.3800"  # the pricing engine: rack 2.15 + rule's margin and freight
    assert order["planned_date"] == row["suggested_date"]
    so = api_a.get(f"/api/sales-order/sales-orders/{order['sales_order_id']}")
    assert so.status_code == 200
    assert so.json()["data"]["status"] == "draft"
    assert so.json()["data"]["line_items"][0]["customer_asset_id"] == s["tank"].pk

    with in_tenant(tenant_a):
        from tenants.forecast.models import ForecastOrder

        origin = ForecastOrder.objects.get(sales_order_id=order["sales_order_id"])
        assert origin.asset_id == s["tank"].pk and origin.run_id == run["id"]
        assert origin.snapshot["suggested_gallons"] == row["suggested_gallons"]
        assert origin.snapshot["fit"]["n_intervals"] == 3

    again = api_a.get(f"{BASE}/due", {"within_days": 7}).json()["data"]["rows"]
    assert (
        again[0]["open_order_id"] == order["sales_order_id"]
        and again[0]["open_order_number"] == order["number"]
    )
    hidden = api_a.get(f"{BASE}/due", {"within_days": 7, "include_ordered": "false"}).json()["data"]["rows"]
    assert hidden == []
    twice = api_a.post(f"{BASE}/due/orders", {"tanks": [{"asset_id": s["tank"].pk}]})
    assert twice.status_code == 409
    assert (
        twice.json()["detail"]
        == f"House tank already has an open order ({order['number']}): it is not ordered twice."
    )
    with in_tenant(tenant_a):
        from tenants.sales.models import SalesOrder

        assert SalesOrder.objects.filter(line_items__customer_asset_id=s["tank"].pk).count() == 1


def test_orders_from_the_due_list_are_all_or_nothing(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    s = _setup(api_a, tenant_a, in_tenant)
    with in_tenant(tenant_a):
        bare = tank(s["world"].customer, name="No product tank", serial="SN-2")
    _run(api_a, jobs, django_capture_on_commit_callbacks)
    body = {"tanks": [{"asset_id": s["tank"].pk}, {"asset_id": bare.pk, "quantity": "100"}]}
    res = api_a.post(f"{BASE}/due/orders", body)
    assert res.status_code == 422
    assert res.json()["detail"] == "tanks[1]: No product tank has no product: set the tank's product first."
    dup = api_a.post(
        f"{BASE}/due/orders", {"tanks": [{"asset_id": s["tank"].pk}, {"asset_id": s["tank"].pk}]}
    )
    assert dup.status_code == 422 and dup.json()["detail"] == f"tanks: tank {s['tank'].pk} is selected twice."
    past = api_a.post(
        f"{BASE}/due/orders",
        {
            "tanks": [
                {
                    "asset_id": s["tank"].pk,
                    "planned_date": (timezone.localdate() - dt.timedelta(1)).isoformat(),
                }
            ]
        },
    )
    assert past.status_code == 422 and past.json()["detail"].startswith("tanks[0].planned_date: ")
    unknown = api_a.post(f"{BASE}/due/orders", {"tanks": [{"asset_id": 999999}]})
    assert (
        unknown.status_code == 422
        and unknown.json()["detail"] == "tanks[0].asset_id: no tank with id 999999."
    )
    with in_tenant(tenant_a):
        from tenants.forecast.models import ForecastOrder
        from tenants.sales.models import SalesOrder

        assert SalesOrder.objects.count() == 0 and ForecastOrder.objects.count() == 0
    # A quantity and a date of the dispatcher's own win over the suggestion.
    day = (timezone.localdate() + dt.timedelta(3)).isoformat()
    ok = api_a.post(
        f"{BASE}/due/orders", {"tanks": [{"asset_id": s["tank"].pk, "quantity": "500", "planned_date": day}]}
    )
    assert ok.status_code == 201, ok.json()
    assert (
        ok.json()["data"]["orders"][0]["quantity"] == "500.000"
        and ok.json()["data"]["orders"][0]["planned_date"] == day
    )


def test_a_tank_page_shows_its_fit_history_and_projection(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    s = _setup(api_a, tenant_a, in_tenant)
    res = api_a.get(f"{BASE}/tank/{s['tank'].pk}")
    assert res.status_code == 200, res.json()
    page = res.json()["data"]
    # Readings refit the tank at once: no run needed for its page.
    assert page["cannot_forecast"] == ""
    fit = page["fit"]
    assert fit["model"] == "weather" and fit["n_intervals"] == 3 and fit["overridden"] is False
    # 18 gal/day at 30 HDD: K about 30 / 17.5 = 1.7 (the prior of a house is 5.5).
    assert 1.2 < fit["k_factor"] < 2.5
    assert fit["low"]["k_factor"] >= fit["k_factor"] >= fit["high"]["k_factor"]
    assert len(page["projection"]) == 15 and page["projection"][0]["day"] == timezone.localdate().isoformat()
    first = page["projection"][0]
    assert D(first["low"]) <= D(first["level"]) <= D(first["high"])
    assert D(page["projection"][-1]["level"]) < D(first["level"])
    assert [h["kind"] for h in page["history"]] == ["reading"] * 4
    assert page["history"][0]["level_gallons"] == "780.00" and page["history"][0]["level_percent"] == "78.00"
    assert D(page["usable_gallons"]) == D(800) and D(page["reorder_gallons"]) == D(250)
    assert page["settings"]["zone"]["code"] == "GSO" and page["tank"]["serial_number"] == "SN-1000"

    # The office overrides K: the projection follows it and says so.
    over = api_a.put(
        f"{BASE}/tank/{s['tank'].pk}/settings", settings_body(s["zone"].pk, k_factor_override="6")
    )
    assert over.status_code == 200 and over.json()["data"]["k_factor_override"] == "6.000"
    page2 = api_a.get(f"{BASE}/tank/{s['tank'].pk}").json()["data"]
    assert page2["fit"]["overridden"] is True and page2["fit"]["k_factor"] == 6.0
    assert D(page2["projection"][-1]["level"]) > D(page["projection"][-1]["level"])

    missing = api_a.get(f"{BASE}/tank/999999")
    assert missing.status_code == 404 and missing.json()["detail"] == "Customer asset not found"


def test_a_tank_that_cannot_be_forecast_says_why_and_the_run_goes_on(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    s = _setup(api_a, tenant_a, in_tenant)
    with in_tenant(tenant_a):
        from tenants.forecast.models import TankSettings

        no_cap = tank(s["world"].customer, name="Unknown size", serial="SN-3", capacity=None)
        no_hist = tank(s["world"].customer, name="New tank", serial="SN-4")
        for t in (no_cap, no_hist):
            TankSettings.objects.create(asset=t, program="keep_full", zone=s["zone"], max_fill_percent=D(80))
    run = _run(api_a, jobs, django_capture_on_commit_callbacks)
    assert run["status"] == "succeeded" and run["total"] == 3
    assert run["tanks_forecast"] == 1 and run["tanks_failed"] == 2
    a = api_a.get(f"{BASE}/tank/{no_cap.pk}").json()["data"]
    assert (
        a["cannot_forecast"] == "the tank has no capacity: set its capacity (gallons)"
        and a["projection"] == []
    )
    b = api_a.get(f"{BASE}/tank/{no_hist.pk}").json()["data"]
    assert b["cannot_forecast"] == "no history: record a reading or a delivery of this tank"
    rows = api_a.get(f"{BASE}/due", {"within_days": 14}).json()["data"]["rows"]
    assert [r["asset_id"] for r in rows] == [s["tank"].pk]
    runs = api_a.get(f"{BASE}/runs")
    assert runs.status_code == 200 and runs.json()["data"]["items"][0]["id"] == run["id"]
    assert api_a.get(f"{BASE}/run/999999").status_code == 404


def test_bad_readings_are_refused_naming_the_field_and_change_nothing(api_a, tenant_a, in_tenant):
    s = _setup(api_a, tenant_a, in_tenant)
    with in_tenant(tenant_a):
        from tenants.forecast.models import TankForecast, TankReading

        before = TankReading.objects.count()
        computed = TankForecast.objects.get(asset=s["tank"]).computed_at
    in_two_hours = (timezone.now() + dt.timedelta(hours=2)).isoformat()
    cases = [
        ({"serial_number": "SN-1000", "level_percent": "140", "taken_at": days_ago(1)},
         "level_percent: 140 % is above 100 %: a tank cannot hold more than its capacity."),
        ({"serial_number": "SN-1000", "level_percent": "-5", "taken_at": days_ago(1)},
         "level_percent: -5 % is negative: a level is 0 to 100 %."),
        ({"serial_number": "SN-1000", "level_gallons": "1200", "taken_at": days_ago(1)},
         "level_gallons: 1200 gal is above the tank's capacity (1000 gal)."),
        ({"serial_number": "NOPE-9", "level_percent": "40", "taken_at": days_ago(1)},
         "serial_number: no tank has serial number 'NOPE-9'."),
        ({"serial_number": "SN-1000", "level_percent": "40", "taken_at": in_two_hours},
         "taken_at: a reading cannot be in the future."),
        ({"serial_number": "SN-1000", "taken_at": days_ago(1)},
         "level_percent: send the level as level_percent or level_gallons."),
        ({"level_percent": "40", "taken_at": days_ago(1)},
         "serial_number: send the tank's serial number (or its asset_id)."),
    ]  # fmt: skip
    for body, detail in cases:
        res = api_a.post(f"{BASE}/reading", body)
        assert res.status_code == 422, (body, res.json())
        assert res.json()["detail"] == detail
    with in_tenant(tenant_a):
        assert TankReading.objects.count() == before
        assert TankForecast.objects.get(asset=s["tank"]).computed_at == computed
    # The same reading twice (a monitor resending): the stored one, unchanged.
    body = {"serial_number": "sn-1000", "level_percent": "30", "taken_at": days_ago(1)}
    first = api_a.post(f"{BASE}/reading", body)
    assert first.status_code == 201 and first.json()["data"]["level_gallons"] == "300.00"
    second = api_a.post(f"{BASE}/reading", {**body, "level_percent": "31"})
    assert second.status_code == 200 and second.json()["message"] == "This reading was already recorded"
    assert (
        second.json()["data"]["id"] == first.json()["data"]["id"]
        and second.json()["data"]["level_percent"] == "30.00"
    )
    listed = api_a.get(f"{BASE}/reading", {"asset_id": s["tank"].pk})
    assert listed.status_code == 200 and listed.json()["data"]["total"] == 5
    assert listed.json()["data"]["items"][0]["level_percent"] == "30.00"  # newest first
    one = api_a.get(f"{BASE}/reading/{first.json()['data']['id']}")
    assert one.status_code == 200 and one.json()["data"]["serial_number"] == "SN-1000"


def test_tank_settings_rules(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
        z = zone()
        t = tank(w.customer)
    url = f"{BASE}/tank/{t.pk}/settings"
    too_high = "reorder_gallons: 900 gal is not below the usable capacity (800 gal at 80 % max fill)."
    cases = [
        (settings_body(z.pk, reorder_percent="85"), "reorder_percent: 85 % is not below the max fill (80 %)."),  # noqa: E501
        (settings_body(z.pk, reorder_percent=None, reorder_gallons="900"), too_high),
        (settings_body(999999), "zone_id: no weather zone with id 999999."),
        (settings_body(z.pk, usage_model="calendar", k_factor_override="3"),
         "k_factor_override: K and baseload are for the weather model; send daily_rate_override."),
    ]  # fmt: skip
    for body, detail in cases:
        res = api_a.put(url, body)
        assert res.status_code == 422, res.json()
        assert res.json()["detail"] == detail
    both = api_a.put(url, settings_body(z.pk, reorder_gallons="100"))
    assert (
        both.status_code == 422
        and "send reorder_percent or reorder_gallons, not both" in both.json()["detail"]
    )
    with in_tenant(tenant_a):
        from tenants.forecast.models import TankSettings

        assert not TankSettings.objects.filter(asset=t).exists()
    assert api_a.put(f"{BASE}/tank/999999/settings", settings_body(z.pk)).status_code == 404
    # A calendar tank (farm diesel) with no zone is fine; without history it cannot be forecast yet.
    cal = api_a.put(
        url, settings_body(None, usage_model="calendar", usage_type="farm_diesel", daily_rate_override="20")
    )
    assert cal.status_code == 200, cal.json()
    assert cal.json()["data"]["daily_rate_override"] == "20.000" and cal.json()["data"]["zone"] is None
    page = api_a.get(f"{BASE}/tank/{t.pk}").json()["data"]
    assert page["cannot_forecast"] == "no history: record a reading or a delivery of this tank"
    assert page["fit"]["daily_rate"] == 20.0 and page["fit"]["method"] == "override"
    # A weather tank needs a zone.
    res = api_a.put(url, settings_body(None))
    assert res.status_code == 200
    assert api_a.get(f"{BASE}/tank/{t.pk}").json()["data"]["cannot_forecast"] == (
        "the weather usage model needs a weather zone"
    )


def test_a_delivery_with_the_drivers_level_before_teaches_the_forecast(api_a, tenant_a, in_tenant):
    """The driver portal records the level before the drop: it becomes a reading, and the tank is
    refit from the fill at once."""
    s = _setup(api_a, tenant_a, in_tenant)
    t = s["tank"]
    with in_tenant(tenant_a):
        from tenants.delivery import services as delivery
        from tenants.forecast.models import TankForecast, TankReading
        from tenants.sales.tests.helpers import master_data, order_in_db

        md = master_data()
        order = order_in_db(
            {**md, "customer": t.customer, "ship_to": t.ship_to},
            status="assigned",
            truck=md["truck"],
            driver=md["driver"],
        )
        line = order.line_items.first()
        before = TankForecast.objects.get(asset=t)
        delivery.record_delivery(
            order=order,
            lines=[
                {
                    "line_item_id": line.pk,
                    "delivered_quantity": "560",
                    "tank_id": t.pk,
                    "level_before_percent": "24",
                }
            ],
            signer_name="",
            signature_key=None,
            photo_keys=None,
            latitude=None,
            longitude=None,
            delivered_at=timezone.now() - dt.timedelta(hours=1),
            by=None,
        )
        reading = TankReading.objects.get(asset=t, source="driver")
        assert reading.level_gallons == D("240.00") and reading.level_percent == D("24.00")
        after = TankForecast.objects.get(asset=t)
        assert after.computed_at > before.computed_at
        # Level after the drop: 240 + 560 = 800 gal (its usable capacity), less today's use.
        assert after.level_as_of == timezone.localdate() and after.suggested_date is None
        assert after.fit["n_intervals"] == 4  # the driver's reading closes one more interval
    page = api_a.get(f"{BASE}/tank/{t.pk}").json()["data"]
    assert [h["kind"] for h in page["history"]][-2:] == ["reading", "delivery"]
    assert page["history"][-1]["gallons_delivered"] == "560.000"


def test_a_level_before_out_of_range_is_refused_and_nothing_is_delivered(api_a, tenant_a, in_tenant):
    from core.errors import ApiError

    with in_tenant(tenant_a):
        from tenants.delivery import services as delivery
        from tenants.sales.tests.helpers import master_data, order_in_db

        md = master_data()
        order = order_in_db(md, status="assigned", truck=md["truck"], driver=md["driver"])
        line = order.line_items.first()
        bad_line = {
            "line_item_id": line.pk,
            "delivered_quantity": "500",
            "tank_id": md["tank"].pk,
            "level_before_percent": "140",
        }
        with pytest.raises(ApiError) as err:
            delivery.record_delivery(
                order=order,
                lines=[bad_line],
                signer_name="", signature_key=None, photo_keys=None, latitude=None, longitude=None,
                delivered_at=None, by=None,
            )  # fmt: skip
        assert str(err.value.message) == "lines[0].level_before_percent: 140.0 % is outside 0 to 100 %."
        order.refresh_from_db()
        assert order.status == "assigned"


@pytest.mark.parametrize(
    ("role", "allowed"),
    [("Dispatcher", True), ("Sales", True), ("Accounting", False), ("Driver", False), (None, False)],
)
def test_who_may_see_the_due_list_and_order_from_it(tenant_a, in_tenant, role, allowed):
    api = Api(token_for(tenant_a, role=role))
    res = api.get(f"{BASE}/due")
    assert res.status_code == (200 if allowed else 403), res.json()
    if not allowed:
        assert res.json()["detail"] == "You do not have permission to view keep-full forecasts."
    with in_tenant(tenant_a):
        t = tank(make_world().customer)
    settings = api.put(
        f"{BASE}/tank/{t.pk}/settings", settings_body(None, usage_model="calendar", usage_type="fleet")
    )
    assert settings.status_code == (200 if allowed else 403)
    run = api.post(f"{BASE}/run")
    assert run.status_code == (202 if allowed else 403)
    reading = api.post(
        f"{BASE}/reading", {"serial_number": "SN-1000", "level_percent": "50", "taken_at": days_ago(1)}
    )
    assert reading.status_code == (201 if role == "Dispatcher" else 403), reading.json()
    with in_tenant(tenant_a):
        from tenants.forecast.models import TankReading, TankSettings

        assert TankSettings.objects.filter(asset=t).exists() == allowed
        assert TankReading.objects.filter(asset=t).exists() == (role == "Dispatcher")


def test_an_accounting_user_cannot_create_orders_from_the_due_list_without_order_rights(tenant_a, in_tenant):
    """Creating orders needs sales_order.add beside forecast.view."""
    from tenants.accounts.models import Role

    with in_tenant(tenant_a):
        role = Role.objects.create(name="Forecast viewer", permissions=["forecast.view"])
        t = tank(make_world().customer)
    api = Api(token_for(tenant_a, role=role.name, email="viewer@forecast.test"))
    res = api.post(f"{BASE}/due/orders", {"tanks": [{"asset_id": t.pk, "quantity": "100"}]})
    assert res.status_code == 403
    assert res.json()["detail"] == "You do not have permission to create sales orders."


def test_one_forecast_run_at_a_time(api_a, tenant_a, in_tenant):
    first = api_a.post(f"{BASE}/run")
    assert first.status_code == 202
    second = api_a.post(f"{BASE}/run")
    assert second.status_code == 409
    assert (
        second.json()["detail"]
        == f"A forecast run is already queued (run {first.json()['data']['id']}): wait for it to finish."
    )


def test_the_due_list_reads_a_fixed_number_of_statements(api_a, tenant_a, in_tenant):
    """No N+1: the same statements for one due tank as for four."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    s = _setup(api_a, tenant_a, in_tenant)

    def count() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as ctx:
            res = api_a.get(f"{BASE}/due", {"within_days": 14})
        assert res.status_code == 200
        return len(res.json()["data"]["rows"]), len(ctx.captured_queries)

    one = count()
    for n in range(3):
        with in_tenant(tenant_a):
            from tenants.parties.models import ShipTo

            site = ShipTo.objects.create(customer=s["world"].customer, name=f"Site {n}")
            tank(s["world"].customer, ship_to=site, product=s["world"].diesel, serial=f"SN-X{n}")
        t_id = api_a.get(f"{BASE}/reading", {"asset_id": s["tank"].pk}).json()["data"]["items"][0]["asset_id"]
        assert t_id == s["tank"].pk
    with in_tenant(tenant_a):
        from tenants.parties.models import CustomerAsset

        extra = list(CustomerAsset.objects.filter(serial_number__startswith="SN-X"))
    for t in extra:
        assert api_a.put(f"{BASE}/tank/{t.pk}/settings", settings_body(s["zone"].pk)).status_code == 200
        post_readings(api_a, t.serial_number)
    four = count()
    assert one[0] == 1 and four[0] == 4
    assert four[1] == one[1]
