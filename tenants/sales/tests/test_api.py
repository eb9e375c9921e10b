"""The sales order API as a user drives it: create, list, edit, the workflow calls, credit control,
notes, line removal, the board and the dispatch center."""

from __future__ import annotations

from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from conftest import Api, token_for
from tenants.sales.tests.helpers import DAY, ORDERS, master_data, order_in_db


def body(md, **extra):
    return {
        "customer_id": md["customer"].pk,
        "ship_to_id": md["ship_to"].pk,
        "po_number": "PO-77",
        "planned_date": str(DAY),
        "planned_time_from": "08:00",
        "planned_time_to": "12:00",
        "line_items": [
            {
                "product_id": md["diesel"].pk,
                "quantity": "1500",
                "unit_price_override": "3.2500",
                "customer_asset_id": md["tank"].pk,
            },
            {
                "product_id": md["oil"].pk,
                "quantity": "2",
                "unit_price_override": "845.0000",
                "po_number": "PO-77-B",
            },
        ],
        **extra,
    }


def test_create_read_update_and_numbers(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    res = api_a.post(ORDERS, body(md))
    assert res.status_code == 201, res.json()
    assert res.json()["message"] == "Sales order created successfully"
    so = res.json()["data"]
    assert so["number"].startswith("SO-") and len(so["number"]) == 9
    assert so["status"] == "draft" and so["customer"]["name"] == "Acme Construction"
    assert [ln["product"]["code"] for ln in so["line_items"]] == ["ULSD-T", "EO-T"]
    assert so["line_items"][0]["customer_asset"]["asset_name"] == "Tank 1"
    assert so["subtotal"] == "6565.00" and so["total"] == "6565.00"  # 1500 x 3.25 + 2 x 845
    assert {"action": "verify", "to": "verified", "label": "Verify"} in so["allowed_actions"]
    assert so["created_by"]["name"] and so["timeline"] == []
    second = api_a.post(ORDERS, body(md)).json()["data"]
    assert int(second["number"][3:]) == int(so["number"][3:]) + 1

    line_id = so["line_items"][0]["id"]
    res = api_a.put(
        f"{ORDERS}/{so['id']}",
        {
            "po_number": "PO-78",
            "line_items": [
                {
                    "id": line_id,
                    "product_id": md["diesel"].pk,
                    "quantity": "1000",
                    "unit_price_override": "3.2500",
                }
            ],
        },
    )
    assert res.status_code == 200, res.json()
    data = res.json()["data"]
    assert data["po_number"] == "PO-78" and len(data["line_items"]) == 1
    assert data["line_items"][0]["id"] == line_id and data["total"] == "3250.00"
    assert api_a.get(f"{ORDERS}/{so['id']}").json()["data"]["po_number"] == "PO-78"

    for path, payload in (
        (ORDERS, {"po_number": "x"}),
        (f"{ORDERS}/update", {}),
        (f"{ORDERS}/undefined", {}),
    ):
        res = api_a.put(path, payload)
        assert res.status_code == 422 and res.json()["detail"] == "Sales order ID is required for update"
    res = api_a.put(ORDERS, {"id": so["id"], "instructions": "Gate code 4411"})
    assert res.status_code == 200 and res.json()["data"]["instructions"] == "Gate code 4411"
    assert api_a.get(f"{ORDERS}/999999").status_code == 404


def test_create_validation(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
        other = master_data(name="Other Co")
    bad_site = body(md, ship_to_id=other["ship_to"].pk)
    res = api_a.post(ORDERS, bad_site)
    assert res.status_code == 422 and res.json()["detail"] == "Invalid delivery location"
    res = api_a.post(ORDERS, body(md, line_items=[{"product_id": 999999, "quantity": "1"}]))
    assert res.status_code == 422 and "no product with id 999999" in res.json()["detail"]
    res = api_a.post(
        ORDERS,
        body(
            md,
            line_items=[
                {"product_id": md["diesel"].pk, "quantity": "1", "customer_asset_id": other["tank"].pk}
            ],
        ),
    )
    assert res.status_code == 422 and "not this customer's" in res.json()["detail"]
    res = api_a.post(ORDERS, body(md, planned_time_from="14:00", planned_time_to="09:00"))
    assert res.status_code == 422 and "ends before it starts" in res.json()["detail"]
    res = api_a.post(ORDERS, body(md, line_items=[{"product_id": md["diesel"].pk, "quantity": "0"}]))
    assert res.status_code == 422
    res = api_a.post(ORDERS, {"customer_id": 999999})
    assert res.status_code == 422 and "no customer with id 999999" in res.json()["detail"]


def test_workflow_calls_and_spec_messages(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    so = api_a.post(ORDERS, body(md)).json()["data"]
    url = f"{ORDERS}/{so['id']}"
    res = api_a.put(f"{url}/status?status=archive")
    assert res.status_code == 409
    assert res.json()["detail"].startswith(
        "Error archiving sales order: the sales order is draft; allowed now:"
    )
    assert res.json()["current_status"] == "draft"
    assert [m["action"] for m in res.json()["allowed_actions"]] == ["verify", "cancel"]
    res = api_a.post(f"{url}/assign", {"driver_id": md["driver"].pk, "truck_id": md["truck"].pk})
    assert res.status_code == 409 and res.json()["detail"].startswith(
        "Error assigning driver/assets to sales order"
    )
    assert api_a.put(f"{url}/start-delivery").json()["detail"].startswith("Error starting delivery")
    res = api_a.post(
        f"{url}/deliver-products",
        {"line_items": [{"line_item_id": so["line_items"][0]["id"], "delivered_quantity": "1"}]},
    )
    assert res.status_code == 409 and res.json()["detail"].startswith("Error delivering products")
    assert api_a.put(f"{url}/status?status=bogus").status_code == 422

    res = api_a.put(f"{url}/status?status=verified")
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["status"] == "verified"
    assert all(ln["price_fixed"] for ln in res.json()["data"]["line_items"])
    # Lines of a verified order are fixed
    res = api_a.delete(f"/api/line-item/{so['line_items'][0]['id']}")
    assert res.status_code == 409 and "only be removed in draft" in res.json()["detail"]
    res = api_a.put(url, {"line_items": []})
    assert res.status_code == 409
    res = api_a.post(f"{url}/assign", {"driver_id": md["driver"].pk, "truck_id": md["truck"].pk})
    assert res.status_code == 200, res.json()
    data = res.json()["data"]
    assert data["status"] == "assigned" and data["driver"]["name"] == "Dana Driver"
    assert data["truck"]["asset_number"] == "T-101" and data["stop_sequence"] == 1
    res = api_a.put(f"{url}/start-delivery?start_date_time=2026-12-01T08:15:00Z")
    assert res.status_code == 200 and res.json()["data"]["delivery_started_at"].startswith("2026-12-01T")
    lines = res.json()["data"]["line_items"]
    res = api_a.post(
        f"{url}/deliver-products",
        {"line_items": [{"line_item_id": lines[0]["id"], "delivered_quantity": "1490.5"}]},
    )
    assert res.status_code == 200 and res.json()["data"]["line_items"][0]["delivered_quantity"] == "1490.500"
    res = api_a.post(f"{url}/deliver", {})
    assert res.status_code == 422 and "Engine oil drum" in res.json()["detail"]
    res = api_a.post(
        f"{url}/deliver", {"line_items": [{"line_item_id": lines[1]["id"], "delivered_quantity": "2"}]}
    )
    assert res.status_code == 200 and res.json()["data"]["status"] == "delivered"
    assert api_a.put(f"{url}/status?status=completed").json()["data"]["status"] == "completed"
    res = api_a.put(f"{url}/status?status=archive")
    assert res.status_code == 200 and res.json()["message"].endswith("is now archived")
    timeline = res.json()["data"]["timeline"]
    assert [e["to_status"] for e in timeline] == [
        "verified",
        "assigned",
        "in_delivery",
        "in_delivery",
        "delivered",
        "completed",
        "archive",
    ]
    assert all(e["by_name"] for e in timeline)


def test_list_filters_search_sort_archive_and_query_count(api_a, tenant_a, in_tenant):
    import datetime as dt

    with in_tenant(tenant_a):
        md = master_data()
        other = master_data(name="Zenith Farms")
        for i in range(30):
            order_in_db(
                md if i % 2 else other,
                planned_date=DAY + dt.timedelta(days=i % 5),
                po_number=f"PO-{i:03d}",
                status="verified" if i % 3 else "draft",
            )
        for _ in range(12):
            order_in_db(md, status="archive")
    res = api_a.get(ORDERS)
    page = res.json()["data"]
    assert page["total"] == 30 and page["size"] == 50 and len(page["items"]) == 30
    dates = [r["planned_date"] for r in page["items"]]
    assert dates == sorted(dates, reverse=True)
    archive = api_a.get(ORDERS, {"status": "archive"}).json()["data"]
    assert archive["total"] == 12 and archive["size"] == 10 and len(archive["items"]) == 10
    res = api_a.get(ORDERS, {"customer_id": md["customer"].pk, "status": "verified"}).json()["data"]
    assert res["total"] == 10 and {r["customer_id"] for r in res["items"]} == {md["customer"].pk}
    res = api_a.get(
        ORDERS,
        {
            "planned_date_start": str(DAY + dt.timedelta(days=1)),
            "planned_date_end": str(DAY + dt.timedelta(days=2)),
        },
    ).json()["data"]
    assert res["total"] == 12
    assert api_a.get(ORDERS, {"search": "zenith"}).json()["data"]["total"] == 15
    assert api_a.get(ORDERS, {"search": "PO-01"}).json()["data"]["total"] == 10
    res = api_a.get(ORDERS, {"sort_by": "po_number", "order": "asc", "size": 3}).json()["data"]
    assert [r["po_number"] for r in res["items"]] == ["PO-000", "PO-001", "PO-002"] and res["pages"] == 10
    ops = {
        ("po_number", "contains", "02"): 3,  # PO-002, PO-020..029 → contains '02': 002, 020-029 = 11
        ("po_number", "equals", "po-005"): 1,
        ("po_number", "startsWith", "PO-02"): 10,
        ("po_number", "endsWith", "9"): 3,
        ("customer_name", "contains", "zenith"): 15,
        ("planned_date", "greaterThan", str(DAY + dt.timedelta(days=3))): 6,
        ("planned_date", "lessThan", str(DAY + dt.timedelta(days=1))): 6,
        ("planned_date", "between", f"{DAY},{DAY + dt.timedelta(days=1)}"): 12,
    }
    ops[("po_number", "contains", "02")] = 11
    for (field, op, value), expected in ops.items():
        res = api_a.get(ORDERS, {"filter_field": field, "filter_operator": op, "filter_value": value})
        assert res.status_code == 200, res.json()
        assert res.json()["data"]["total"] == expected, (field, op, value)
    assert api_a.get(ORDERS, {"sort_by": "bogus"}).status_code == 422
    with CaptureQueriesContext(connection) as ctx:
        assert api_a.get(ORDERS).status_code == 200
    small = len(ctx.captured_queries)
    with in_tenant(tenant_a):
        for _ in range(20):
            order_in_db(other)
    # Warm the per-process auth memo again (1 s): making the orders may take longer than that.
    assert api_a.get(ORDERS, {"size": 1}).status_code == 200
    with CaptureQueriesContext(connection) as ctx:
        assert len(api_a.get(ORDERS).json()["data"]["items"]) == 50
    assert len(ctx.captured_queries) == small <= 6


def test_credit_control(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data(credit_limit=Decimal("5000.00"))
        big = order_in_db(md, lines=(("diesel", "1000", "3.0000"),))  # 3,000.00
        open_one = order_in_db(md, status="assigned", lines=(("diesel", "1000", "2.5000"),))  # 2,500.00
        assert open_one.total == Decimal("2500.00")
    sales = Api(token_for(tenant_a, "Sales"))
    res = sales.put(f"{ORDERS}/{big.pk}/status?status=verified")
    assert res.status_code == 409, res.json()
    detail = res.json()["detail"]
    assert "exceed the credit limit of 5,000.00" in detail and "open orders of 2,500.00" in detail
    assert res.json()["can_override"] is False
    res = sales.put(f"{ORDERS}/{big.pk}/status?status=verified&override_credit=true")
    assert res.status_code == 409 and "do not have permission to override" in res.json()["detail"]
    res = api_a.put(f"{ORDERS}/{big.pk}/status?status=verified")
    assert res.status_code == 409 and res.json()["can_override"] is True
    res = api_a.put(
        f"{ORDERS}/{big.pk}/status?status=verified&override_credit=true&reason=Paid by wire today"
    )
    assert res.status_code == 200, res.json()
    event = res.json()["data"]["timeline"][-1]
    assert event["details"]["credit_override"]["reason"] == "Paid by wire today"
    assert event["details"]["credit_override"]["open_orders_total"] == "2500.00"

    with in_tenant(tenant_a):
        md["customer"].status = "credit_hold"
        md["customer"].credit_limit = None
        md["customer"].save()
        small = order_in_db(md, lines=(("diesel", "10", "3.0000"),))
    res = sales.put(f"{ORDERS}/{small.pk}/status?status=verified")
    assert res.status_code == 409 and "Acme Construction is on credit hold" in res.json()["detail"]
    with in_tenant(tenant_a):
        md["customer"].status = "active"
        md["customer"].save()
    assert sales.put(f"{ORDERS}/{small.pk}/status?status=verified").status_code == 200


def test_permissions_of_actions(tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
        order = order_in_db(md)
    driver = Api(token_for(tenant_a, "Driver"))
    # Not his stop: a driver's grants reach his own orders only (issue 23), so it is not found.
    assert driver.get(f"{ORDERS}/{order.pk}").status_code == 404
    with in_tenant(tenant_a):
        _link_driver(md, "driver@" + tenant_a.schema + ".test", order)
    res = driver.put(f"{ORDERS}/{order.pk}/status?status=verified")
    assert res.status_code == 403 and "verify" in res.json()["detail"]
    assert driver.get(f"{ORDERS}/{order.pk}").status_code == 200
    assert driver.post(ORDERS, {"customer_id": md["customer"].pk}).status_code == 403


def _link_driver(md, email, order):
    """The Driver sign-in `email` becomes the master data's driver, and `order` his stop."""
    from tenants.accounts.models import User
    from tenants.sales.models import SalesOrder

    md["driver"].user = User.objects.get(email=email)
    md["driver"].save()
    SalesOrder.objects.filter(pk=order.pk if hasattr(order, "pk") else order).update(driver=md["driver"])


def test_notes_and_line_delete(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    so = api_a.post(ORDERS, body(md)).json()["data"]
    res = api_a.post("/api/note", {"sales_order_id": so["id"], "body": "  Call before arrival  "})
    assert res.status_code == 201 and res.json()["data"]["body"] == "Call before arrival"
    note = res.json()["data"]
    assert api_a.get("/api/note", {"sales_order_id": so["id"]}).json()["data"][0]["id"] == note["id"]
    res = api_a.put(f"/api/note/{note['id']}", {"body": "Call 30 min before"})
    assert res.json()["data"]["body"] == "Call 30 min before"
    assert api_a.get(f"{ORDERS}/{so['id']}").json()["data"]["notes"][0]["body"] == "Call 30 min before"
    sales = Api(token_for(tenant_a, "Sales"))
    assert sales.delete(f"/api/note/{note['id']}").status_code == 200  # Sales may delete orders
    driver = Api(token_for(tenant_a, "Driver"))
    with in_tenant(tenant_a):
        _link_driver(md, "driver@" + tenant_a.schema + ".test", so["id"])  # his stop (issue 23)
    mine = driver.post("/api/note", {"sales_order_id": so["id"], "body": "Gate locked"}).json()["data"]
    other = api_a.post("/api/note", {"sales_order_id": so["id"], "body": "Admin note"}).json()["data"]
    assert driver.delete(f"/api/note/{other['id']}").status_code == 403
    assert driver.delete(f"/api/note/{mine['id']}").status_code == 200
    assert api_a.post("/api/note", {"sales_order_id": 999999, "body": "x"}).status_code == 422

    res = api_a.delete(f"/api/line-item/{so['line_items'][1]['id']}")
    assert res.status_code == 200 and res.json()["message"] == "Line item deleted successfully"
    data = api_a.get(f"{ORDERS}/{so['id']}").json()["data"]
    assert len(data["line_items"]) == 1 and data["total"] == "4875.00"
    assert api_a.delete("/api/line-item/999999").status_code == 404


def test_dispatch_center_assign_capacity_and_stops(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
        first = order_in_db(md, status="verified", lines=(("diesel", "2500", "3.0000"),))
        second = order_in_db(md, status="verified", lines=(("gas", "1800", "3.0000"), ("oil", "4", "845")))
        third = order_in_db(md, status="verified", lines=(("diesel", "600", "3.0000"),))
        tractor_type = md["truck"].asset_type
    day = api_a.get("/api/dispatch/day", {"date": str(DAY)}).json()["data"]
    assert {o["id"] for o in day["unassigned"]} == {first.pk, second.pk, third.pk}
    truck = next(t for t in day["trucks"] if t["truck"]["id"] == md["truck"].pk)
    assert truck["capacity"] == "5000" and truck["orders"] == []
    assign = {"driver_id": md["driver"].pk, "truck_id": md["truck"].pk}
    assert api_a.post(f"{ORDERS}/{first.pk}/assign", assign).status_code == 200
    assert api_a.post(f"{ORDERS}/{second.pk}/assign", assign).status_code == 200
    # 2500 diesel in the 3000 compartment, 1800 gas in the 2000: no room for 600 more diesel
    res = api_a.post(f"{ORDERS}/{third.pk}/assign", assign)
    assert res.status_code == 409, res.json()
    assert "over capacity. T-101 holds 5,000 gal in 2 compartment(s)" in res.json()["detail"]
    assert "what does not fit: Unleaded 87 1,800 gal" in res.json()["detail"]
    # with the trailer it fits
    res = api_a.post(f"{ORDERS}/{third.pk}/assign", {**assign, "trailer_id": md["trailer"].pk})
    assert res.status_code == 200, res.json()
    res = api_a.post(f"{ORDERS}/{third.pk}/assign", {**assign, "truck_id": md["trailer"].pk})
    assert res.status_code == 422 and "is a trailer" in res.json()["detail"]
    day = api_a.get("/api/dispatch/day", {"date": str(DAY)}).json()["data"]
    truck = next(t for t in day["trucks"] if t["truck"]["id"] == md["truck"].pk)
    assert [o["id"] for o in truck["orders"]] == [first.pk, second.pk, third.pk]
    assert [o["stop_sequence"] for o in truck["orders"]] == [1, 2, 3]
    assert {ld["product_name"]: ld["quantity"] for ld in truck["loads"]} == {
        "Clear Diesel": "3100.000",
        "Unleaded 87": "1800.000",
    }
    assert truck["over_capacity"] is False and day["unassigned"] == []
    res = api_a.put(
        "/api/dispatch/stops",
        {"truck_id": md["truck"].pk, "date": str(DAY), "order_ids": [third.pk, first.pk, second.pk]},
    )
    assert res.status_code == 200 and [o["stop_sequence"] for o in res.json()["data"]] == [1, 2, 3]
    assert [o["id"] for o in res.json()["data"]] == [third.pk, first.pk, second.pk]
    res = api_a.put(
        "/api/dispatch/stops", {"truck_id": md["truck"].pk, "date": str(DAY), "order_ids": [first.pk]}
    )
    assert res.status_code == 409
    assert api_a.post(f"{ORDERS}/{third.pk}/unassign").json()["data"]["status"] == "verified"
    with CaptureQueriesContext(connection) as ctx:
        assert api_a.get("/api/dispatch/day", {"date": str(DAY)}).status_code == 200
    assert len(ctx.captured_queries) <= 10
    assert tractor_type is not None


def test_board(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
        for status in ("draft", "draft", "verified", "completed", "archive"):
            order_in_db(md, status=status)
    board = api_a.get(f"{ORDERS}/board").json()["data"]
    columns = {c["status"]: c for c in board["columns"]}
    assert "archive" not in columns and columns["draft"]["total"] == 2 and columns["verified"]["total"] == 1
    assert [m["to"] for m in board["transitions"]["completed"]] == ["archive"]
    card = columns["verified"]["cards"][0]
    assert {m["to"] for m in card["allowed_actions"]} == {"draft", "assigned", "cancelled"}


def test_dispatch_region_and_yard_filters_narrow_the_unassigned_orders(api_a, tenant_a, in_tenant):
    """Orders have no region: the yards serving the delivery place decide (nearest by coordinates,
    else the same city, else the same state)."""
    from decimal import Decimal as D

    from tenants.geo.models import City, Region, State, Yard
    from tenants.parties.models import ShipTo

    with in_tenant(tenant_a):
        md = master_data()
        tx, _ = State.objects.get_or_create(code="TX", defaults={"name": "Texas"})
        la, _ = State.objects.get_or_create(code="LA", defaults={"name": "Louisiana"})
        houston, _ = City.objects.get_or_create(name="Houston", state=tx)
        gulf = Region.objects.create(name="Gulf Coast")
        bayou = Region.objects.create(name="Bayou")
        hou = Yard.objects.create(
            name="Houston yard",
            region=gulf,
            state=tx,
            city=houston,
            latitude=D("29.76"),
            longitude=D("-95.37"),
        )
        btr = Yard.objects.create(
            name="Baton Rouge yard", region=bayou, state=la, latitude=D("30.45"), longitude=D("-91.19")
        )
        # By coordinates: a site in Pasadena TX is nearest Houston; one in Lafayette LA nearest Baton Rouge.
        near_hou = ShipTo.objects.create(
            customer=md["customer"], name="Pasadena", latitude=D("29.69"), longitude=D("-95.21")
        )
        near_btr = ShipTo.objects.create(
            customer=md["customer"], name="Lafayette", latitude=D("30.22"), longitude=D("-92.02")
        )
        # No coordinates: by city (Houston), then by state (Louisiana); nothing known: no yard.
        by_city = ShipTo.objects.create(customer=md["customer"], name="Downtown", city=houston, state=tx)
        by_state = ShipTo.objects.create(customer=md["customer"], name="Somewhere LA", state=la)
        unknown = ShipTo.objects.create(customer=md["customer"], name="Nowhere")
        made = {
            name: order_in_db({**md, "ship_to": site}, status="verified")
            for name, site in {
                "near_hou": near_hou,
                "near_btr": near_btr,
                "by_city": by_city,
                "by_state": by_state,
                "unknown": unknown,
            }.items()
        }
    names = {o.pk: n for n, o in made.items()}

    def unassigned(**params):
        res = api_a.get("/api/dispatch/day", {"date": str(DAY), **params})
        assert res.status_code == 200, res.json()
        return sorted(names[o["id"]] for o in res.json()["data"]["unassigned"])

    assert unassigned() == ["by_city", "by_state", "near_btr", "near_hou", "unknown"]
    assert unassigned(region_id=gulf.pk) == ["by_city", "near_hou"]
    assert unassigned(region_id=bayou.pk) == ["by_state", "near_btr"]
    assert unassigned(yard_id=btr.pk) == ["by_state", "near_btr"]
    assert unassigned(yard_id=hou.pk, region_id=bayou.pk) == []
