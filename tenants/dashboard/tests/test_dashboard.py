"""The dashboard's product summary and KPI tiles, checked against orders made in the test; the cache
and force_refresh; tenant isolation; the rollup against a from-scratch aggregate after random edits."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.utils import timezone

from conftest import Api, token_for
from tenants.sales.tests.helpers import ORDERS, master_data, order_in_db

URL = "/api/dashboard/product_summary"
D = Decimal


@pytest.fixture
def fresh_cache(tenant_a, tenant_b, in_tenant):
    """Each test starts from its own summary version (the cache outlives the rolled-back rows)."""
    from tenants.dashboard.rollup import bump_version

    for t in (tenant_a, tenant_b):
        with in_tenant(t):
            bump_version()


def ago(days: int) -> dt.date:
    return timezone.localdate() - dt.timedelta(days=days)


def _product(data, code):
    return next(p for p in data["products"] if p["code"] == code)


def _seed(md):
    """Orders over the window, in every state that counts or not. Returns today."""
    from tenants.parties.models import Supplier, Terminal
    from tenants.pricing.models import BuyingPrice

    today = timezone.localdate()
    # Diesel: 1000 @ 3.00 verified today (engine cost 2.50 in its breakdown), 500 @ 3.20 delivered
    # 2 days ago (480 delivered; cost from the buying price in force: 2.60).
    o1 = order_in_db(md, status="verified", lines=(("diesel", "1000", "3.0000"),), planned_date=today)
    line = o1.line_items.get()
    line.price_breakdown = {"basis": "rack", "cost": "2.5000"}
    line.save()
    supplier = Supplier.objects.create(name="Rack Co")
    terminal = Terminal.objects.create(name="Galena Park", terminal_code="T-76-TX-2004")
    BuyingPrice.objects.create(
        supplier=supplier,
        terminal=terminal,
        product=md["diesel"],
        price=D("2.6"),
        effective_from=today - dt.timedelta(days=10),
    )
    o2 = order_in_db(
        md,
        status="delivered",
        lines=(("diesel", "500", "3.2000"),),
        planned_date=today - dt.timedelta(days=2),
        delivered_at=timezone.now(),
    )
    ln2 = o2.line_items.get()
    ln2.delivered_quantity = D("480")
    ln2.save(update_fields=["delivered_quantity", "updated_at"])
    # Gasoline, no cost anywhere: 200 @ 2.50 completed yesterday; oil 2 drums archived after delivery.
    order_in_db(
        md,
        status="completed",
        lines=(("gas", "200", "2.5000"), ("oil", "2", "845.0000")),
        planned_date=today - dt.timedelta(days=1),
        delivered_at=timezone.now(),
    )
    # Not counted: a draft, a cancelled and an archived cancelled order, one outside the window.
    order_in_db(md, status="draft", lines=(("diesel", "9999", "3.0000"),), planned_date=today)
    order_in_db(md, status="cancelled", lines=(("diesel", "8888", "3.0000"),), planned_date=today)
    order_in_db(md, status="archive", lines=(("diesel", "7777", "3.0000"),), planned_date=today)
    order_in_db(
        md,
        status="verified",
        lines=(("diesel", "6666", "3.0000"),),
        planned_date=today - dt.timedelta(days=7),
    )
    # Late: an assigned order planned 3 days ago (counted in the window: 100 diesel @ 3.00, cost 2.60).
    order_in_db(
        md, status="assigned", lines=(("diesel", "100", "3.0000"),), planned_date=today - dt.timedelta(days=3)
    )
    return today


def test_summary_numbers_match_the_orders(api_a, tenant_a, in_tenant, fresh_cache):
    with in_tenant(tenant_a):
        md = master_data()
        today = _seed(md)
    res = api_a.get(URL)
    assert res.status_code == 200, res.json()
    body = res.json()
    assert body["message"] == "Product summary retrieved successfully"
    data = body["data"]
    assert data["date_range"] == {
        "start_date": str(today - dt.timedelta(days=6)),
        "end_date": str(today),
        "days": 7,
    }
    assert [p["code"] for p in data["products"]] == ["ULSD-T", "EO-T", "UNL-T"]  # by revenue
    diesel = _product(data, "ULSD-T")
    assert D(diesel["quantity_ordered"]) == D("1600")
    assert D(diesel["quantity_delivered"]) == D("480")
    assert D(diesel["revenue"]) == D("4900.00")  # 3000 + 1600 + 300
    # cost: 1000 x 2.50 (breakdown) + 500 x 2.60 + 100 x 2.60 (buying price in force) = 4060
    assert D(diesel["cost"]) == D("4060.00") and D(diesel["margin"]) == D("840.00")
    assert D(diesel["uncosted_revenue"]) == 0 and diesel["lines"] == 3
    assert len(diesel["daily"]) == 7
    by_day = {d["date"]: d for d in diesel["daily"]}
    assert D(by_day[str(today)]["revenue"]) == D("3000.00") and D(by_day[str(today)]["margin"]) == D("500.00")
    two_ago = by_day[str(today - dt.timedelta(days=2))]
    assert D(two_ago["quantity_ordered"]) == 500 and D(two_ago["quantity_delivered"]) == 480
    assert D(two_ago["margin"]) == D("300.00")
    assert D(by_day[str(today - dt.timedelta(days=4))]["revenue"]) == 0
    gas = _product(data, "UNL-T")
    assert D(gas["revenue"]) == D("500.00") and D(gas["uncosted_revenue"]) == D("500.00")
    assert D(gas["margin"]) == 0 and D(gas["cost"]) == 0
    assert D(_product(data, "EO-T")["revenue"]) == D("1690.00")
    assert D(data["totals"]["revenue"]) == D("7090.00") and D(data["totals"]["margin"]) == D("840.00")

    kpis = data["kpis"]
    by_status = {s["status"]: s["count"] for s in kpis["open_orders_by_status"]}
    # verified: today's and the one 7 days ago; draft 1; assigned 1; delivered 1.
    assert by_status == {"draft": 1, "verified": 2, "assigned": 1, "in_delivery": 0, "delivered": 1}
    assert kpis["open_orders"] == 5
    assert kpis["deliveries_today"] == {"planned": 1, "in_delivery": 0, "delivered": 0}
    assert kpis["late_orders"] == 2  # the assigned one 3 days ago, the verified one 7 days ago

    # A 30-day window takes the order of 7 days ago in.
    wide = api_a.get(URL, {"days": 30}).json()["data"]
    assert D(_product(wide, "ULSD-T")["quantity_ordered"]) == D("8266")
    assert len(_product(wide, "ULSD-T")["daily"]) == 30


def test_an_order_taken_through_the_api_shows_once_verified(
    api_a, tenant_a, in_tenant, fresh_cache, django_capture_on_commit_callbacks
):
    with in_tenant(tenant_a):
        md = master_data()
    today = timezone.localdate()
    body = {
        "customer_id": md["customer"].pk,
        "ship_to_id": md["ship_to"].pk,
        "planned_date": str(today),
        "line_items": [{"product_id": md["gas"].pk, "quantity": "250", "unit_price_override": "2.4000"}],
    }
    first = api_a.get(URL).json()["data"]
    assert first["products"] == [] and first["cached"] is False
    assert api_a.get(URL).json()["data"]["cached"] is True
    with django_capture_on_commit_callbacks(execute=True):  # each request commits in real life
        so = api_a.post(ORDERS, body).json()["data"]
    assert api_a.get(URL).json()["data"]["products"] == []  # a draft is no sale yet
    with django_capture_on_commit_callbacks(execute=True) as hooks:  # as if committed
        res = api_a.put(f"{ORDERS}/{so['id']}/status?status=verified")
    assert res.status_code == 200, res.json()
    assert len([h for h in hooks if type(h).__name__ == "_BumpAfterCommit"]) == 1  # once per transaction
    data = api_a.get(URL).json()["data"]  # the change invalidated the cached answer
    assert data["cached"] is False
    assert [(p["code"], p["quantity_ordered"], p["revenue"]) for p in data["products"]] == [
        ("UNL-T", "250.000", "600.00")
    ]
    assert data["kpis"]["open_orders_by_status"][1] == {"status": "verified", "label": "Verified", "count": 1}
    with django_capture_on_commit_callbacks(execute=True):
        api_a.put(f"{ORDERS}/{so['id']}/status?status=cancelled")
    assert api_a.get(URL).json()["data"]["products"] == []


def test_cache_and_force_refresh(api_a, tenant_a, in_tenant, fresh_cache):
    from tenants.dashboard.models import ProductDay

    with in_tenant(tenant_a):
        md = master_data()
        today = timezone.localdate()
        order_in_db(md, status="verified", lines=(("diesel", "100", "3.0000"),), planned_date=today)
    first = api_a.get(URL).json()["data"]
    assert first["cached"] is False and _product(first, "ULSD-T")["revenue"] == "300.00"
    # A write the receivers do not see (a raw table edit): the cached answer stays until forced.
    with in_tenant(tenant_a):
        ProductDay.objects.filter(day=today).update(revenue=D("999.00"))
    again = api_a.get(URL).json()["data"]
    assert again["cached"] is True and _product(again, "ULSD-T")["revenue"] == "300.00"
    assert again["generated_at"] == first["generated_at"]
    forced = api_a.get(URL, {"force_refresh": "true"}).json()["data"]
    assert forced["cached"] is False and _product(forced, "ULSD-T")["revenue"] == "999.00"
    # The forced answer replaced the cached one.
    assert _product(api_a.get(URL).json()["data"], "ULSD-T")["revenue"] == "999.00"
    # Another window is its own entry.
    assert api_a.get(URL, {"days": 14}).json()["data"]["cached"] is False


def test_bad_window_and_permission(api_a, tenant_a, fresh_cache):
    for days in (0, -1, 367, "x"):
        res = api_a.get(URL, {"days": days})
        assert res.status_code == 422, (days, res.status_code)
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get(URL).status_code == 403
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    assert dispatcher.get(URL).status_code == 200


def test_isolation_between_companies(
    api_a, api_b, tenant_a, tenant_b, in_tenant, fresh_cache, django_capture_on_commit_callbacks
):
    with in_tenant(tenant_a):
        md = master_data()
        order_in_db(
            md, status="verified", lines=(("diesel", "100", "3.0000"),), planned_date=timezone.localdate()
        )
    assert len(api_a.get(URL).json()["data"]["products"]) == 1
    data_b = api_b.get(URL).json()["data"]
    assert data_b["products"] == [] and data_b["kpis"]["open_orders"] == 0
    with in_tenant(tenant_b), django_capture_on_commit_callbacks(execute=True):
        md_b = master_data(name="Bravo customer")
        order_in_db(
            md_b, status="verified", lines=(("gas", "7", "1.0000"),), planned_date=timezone.localdate()
        )
    data_b = api_b.get(URL).json()["data"]
    assert [(p["code"], p["revenue"]) for p in data_b["products"]] == [("UNL-T", "7.00")]
    assert [p["code"] for p in api_a.get(URL).json()["data"]["products"]] == ["ULSD-T"]


def test_rollup_equals_a_from_scratch_aggregate_after_random_edits(tenant_a, in_tenant, fresh_cache):
    from tenants.dashboard import rollup
    from tenants.sales.models import LineItem, SalesOrder

    rng = random.Random(20261124)
    statuses = [
        "draft",
        "verified",
        "assigned",
        "in_delivery",
        "delivered",
        "completed",
        "archive",
        "cancelled",
    ]
    with in_tenant(tenant_a):
        md = master_data()
        today = timezone.localdate()
        orders = []
        for _ in range(12):
            lines = tuple(
                (rng.choice(["diesel", "gas", "oil"]), str(rng.randint(1, 3000)), f"{rng.uniform(1, 5):.4f}")
                for _ in range(rng.randint(1, 3))
            )
            orders.append(
                order_in_db(
                    md,
                    status=rng.choice(statuses),
                    lines=lines,
                    planned_date=today - dt.timedelta(days=rng.randint(0, 5)),
                )
            )
        for _step in range(150):
            order = rng.choice(orders)
            order.refresh_from_db()
            op = rng.randrange(7)
            if op == 0:
                order.status = rng.choice(statuses)
                order.delivered_at = timezone.now() if rng.random() < 0.5 else None
                order.save()
            elif op == 1:
                order.planned_date = today - dt.timedelta(days=rng.randint(0, 5))
                order.save(update_fields=["planned_date", "updated_at"])
            elif op == 2 and order.line_items.exists():
                line = rng.choice(list(order.line_items.all()))
                line.quantity = D(rng.randint(1, 3000))
                line.amount = (line.quantity * (line.unit_price or 1)).quantize(D("0.01"))
                line.save()
            elif op == 3 and order.line_items.exists():
                line = rng.choice(list(order.line_items.all()))
                line.delivered_quantity = D(rng.randint(0, 3000))
                line.save(update_fields=["delivered_quantity", "updated_at"])
            elif op == 4 and order.line_items.exists():
                line = rng.choice(list(order.line_items.all()))
                line.price_breakdown = {"cost": f"{rng.uniform(1, 4):.4f}"} if rng.random() < 0.7 else {}
                line.save()
            elif op == 5:
                if order.line_items.count() > 1 and rng.random() < 0.5:
                    rng.choice(list(order.line_items.all())).delete()
                else:
                    LineItem.objects.create(
                        sales_order=order,
                        product=md[rng.choice(["diesel", "gas", "oil"])],
                        quantity=D(rng.randint(1, 500)),
                        unit_price=D("2.0000"),
                        amount=D(rng.randint(1, 500)) * 2,
                    )
            elif op == 6 and rng.random() < 0.2:
                orders.remove(order)
                order.delete()
                if not orders:
                    break
        expected = rollup.aggregate_from_scratch()
        assert expected, "the random edits left something to count"
        assert rollup.stored_cells() == expected
        assert SalesOrder.objects.exists()
        # And the bulk rebuild agrees with both.
        rollup.rebuild()
        assert rollup.stored_cells() == expected
