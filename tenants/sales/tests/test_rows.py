"""The order list and the dispatch day are built from `.values()` rows and rendered without output
validation (selectors.ROW_PLAN, dayview.day_view). These tests pin that the answers are what the
schemas give for the same orders read as model instances, and that the dispatch day costs a fixed
number of queries whatever its size."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

from core.renderers import dumps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tenants.sales.tests.helpers import DAY, ORDERS, master_data, order_in_db

DAY_APPS = ("sales", "fleet", "geo", "parties", "catalog")


def as_json(data: Any) -> Any:
    return json.loads(dumps(data))


def varied_day(md: dict[str, Any]) -> None:
    """Orders of DAY in every dispatch status, with and without ship-to, time window, PO, driver,
    trailer, creator, a line into a tank with a price breakdown and a delivered quantity."""
    from tenants.accounts.models import User
    from tenants.sales.models import LineItem

    user = User.objects.order_by("id").first()
    order_in_db(md, status="verified", po_number="PO-1", created_by=user)
    bare = order_in_db(md, status="verified", lines=(("oil", "2", "845.0000"), ("gas", "700", "3.1")))
    bare.ship_to = None
    bare.planned_time_from, bare.planned_time_to = dt.time(8, 0), dt.time(11, 30)
    bare.save()
    on_truck = {"truck": md["truck"], "driver": md["driver"]}
    order_in_db(md, status="assigned", stop_sequence=1, trailer=md["trailer"], **on_truck)
    moving = order_in_db(md, status="in_delivery", stop_sequence=2, **on_truck)
    line = LineItem.objects.get(sales_order=moving)
    line.customer_asset = md["tank"]
    line.price_breakdown = {"basis": "rack", "cost": "2.6100", "steps": [{"rule": "rack + 0.10"}]}
    line.delivered_quantity = Decimal("990.5")
    line.po_number = "PO-L"
    line.save()
    order_in_db(md, status="draft")  # not on the dispatch center
    order_in_db(md, status="archive")  # only in the archive tab


def test_order_list_rows_equal_the_row_schema(api_a, tenant_a, in_tenant):
    from tenants.sales.models import SalesOrder
    from tenants.sales.schemas import SalesOrderRow
    from tenants.sales.selectors import orders

    with in_tenant(tenant_a):
        varied_day(master_data())
    for params in ({}, {"status": "archive"}, {"search": "acme", "sort_by": "customer"}):
        res = api_a.get(ORDERS, params)
        assert res.status_code == 200, res.json()
        page = res.json()["data"]
        assert page["items"], params
        with in_tenant(tenant_a):
            by_id: dict[int, SalesOrder] = {o.pk: o for o in orders()}
            expected = [
                as_json(SalesOrderRow.model_validate(by_id[r["id"]]).model_dump()) for r in page["items"]
            ]
        assert page["items"] == expected
    assert {r["status"] for r in api_a.get(ORDERS).json()["data"]["items"]} == {
        "draft",
        "verified",
        "assigned",
        "in_delivery",
    }


def test_dispatch_day_rows_equal_the_schemas(api_a, tenant_a, in_tenant):
    from tenants.sales.dispatch import _LINES
    from tenants.sales.schemas import DispatchDayOut, StopOut
    from tenants.sales.selectors import orders

    with in_tenant(tenant_a):
        varied_day(master_data())
    res = api_a.get("/api/dispatch/day", {"date": str(DAY)})
    assert res.status_code == 200, res.json()
    day = res.json()["data"]
    stops = [
        *day["unassigned"],
        *day["assigned_elsewhere"],
        *(stop for truck in day["trucks"] for stop in truck["orders"]),
    ]
    assert sorted(s["status"] for s in stops) == ["assigned", "in_delivery", "verified", "verified"]
    with in_tenant(tenant_a):
        by_id = {o.pk: o for o in orders().prefetch_related(_LINES)}
        for stop in stops:
            assert stop == as_json(StopOut.model_validate(by_id[stop["id"]]).model_dump()), stop["number"]
    # The rest of the body (trucks, loads, compartments, drivers) is what the day's schema makes of it.
    rest = {
        **day,
        "unassigned": [],
        "assigned_elsewhere": [],
        "trucks": [{**t, "orders": []} for t in day["trucks"]],
    }
    assert as_json(DispatchDayOut.model_validate(rest).model_dump()) == rest
    truck = next(t for t in day["trucks"] if t["orders"])
    assert truck["trailer"]["asset_number"] == "TR-1" and truck["drivers"] == [
        [truck["orders"][0]["driver_id"], "Dana Driver"]
    ]
    assert [c["capacity"] for c in truck["compartments"]] == ["3000", "2000", "4000"]


def test_dispatch_day_query_count_does_not_grow_with_the_day(api_a, tenant_a, in_tenant):
    from tenants.fleet.models import CompanyAsset, Driver

    with in_tenant(tenant_a):
        md = master_data()
        varied_day(md)

    def queries() -> int:
        """Statements of the day itself (sign-in and tenant lookups vary with the auth cache's memo)."""
        with CaptureQueriesContext(connection) as ctx:
            assert api_a.get("/api/dispatch/day", {"date": str(DAY)}).status_code == 200
        return sum(1 for q in ctx.captured_queries if any(f'FROM "{app}_' in q["sql"] for app in DAY_APPS))

    small = queries()
    with in_tenant(tenant_a):
        for i in range(6):
            truck = CompanyAsset.objects.create(
                asset_number=f"T-2{i:02d}", name="Truck", asset_type=md["truck"].asset_type, capacity=9000
            )
            driver = Driver.objects.create(name=f"Driver {i}")
            for n in range(3):
                order_in_db(
                    md,
                    status="assigned",
                    truck=truck,
                    driver=driver,
                    trailer=md["trailer"] if n == 0 else None,
                    stop_sequence=n + 1,
                    lines=(("diesel", "100", "3"), ("gas", "100", "3"), ("oil", "1", "845")),
                )
            order_in_db(md, status="verified")
    assert queries() == small <= 6


def test_search_matches_the_same_orders_with_inlined_customers_or_the_join(
    api_a, tenant_a, in_tenant, monkeypatch
):
    from core import listing

    with in_tenant(tenant_a):
        md = master_data()
        zenith = master_data(name="Zenith Farms")
        for i in range(6):
            order_in_db(zenith if i % 2 else md, po_number=f"PO-ZEN-{i}" if i < 2 else "")
    found: dict[tuple[int, str], list[str]] = {}
    by_name = {"filter_field": "customer_name", "filter_value": "ZENITH f"}
    queries = {
        "search": {"search": " zen "},
        "contains": {**by_name, "filter_operator": "contains", "filter_value": "nith fa"},
        "startsWith": {**by_name, "filter_operator": "startsWith"},
        "equals": {**by_name, "filter_operator": "equals", "filter_value": "zenith FARMS"},
        "endsWith": {**by_name, "filter_operator": "endsWith", "filter_value": "FARMS"},
    }
    for inline in (1000, 0):  # 0: more customers match than are inlined, so the join is used
        monkeypatch.setattr(listing, "RELATED_IDS_INLINE", inline)
        for name, params in queries.items():
            res = api_a.get(ORDERS, params)
            assert res.status_code == 200, res.json()
            found[inline, name] = sorted(r["number"] for r in res.json()["data"]["items"])
    for name in queries:
        assert found[1000, name] == found[0, name], name
    # Zenith's three orders and the one of Acme with a PO number containing "zen".
    assert len(found[0, "search"]) == 4
    assert len(found[0, "contains"]) == len(found[0, "startsWith"]) == len(found[0, "equals"]) == 3
    assert len(found[0, "endsWith"]) == 3


def test_a_list_narrowed_by_text_sorts_as_the_unnarrowed_list(api_a, tenant_a, in_tenant):
    """A search or a text filter sorts by index-free keys (core.listing.Unindexed) and pages by ids
    first: for every sort key and direction the page holds the orders the ORM's plain column sort gives
    (ties broken by id), as does the list narrowed by the customer's id."""
    from tenants.sales.api import LIST_SPEC
    from tenants.sales.models import SalesOrder
    from tenants.sales.selectors import ORDER_SORT_ALIASES

    with in_tenant(tenant_a):
        md = master_data(name="Quillon Haulage")
        other = master_data(name="Other Farms")
        statuses = ("draft", "verified", "assigned", "completed", "cancelled")
        for i in range(12):
            # Repeated dates, totals and statuses (ties), blank and set PO numbers, both customers.
            order = order_in_db(
                md if i % 3 else other,
                status=statuses[i % len(statuses)],
                planned_date=DAY + dt.timedelta(days=(i * 5) % 4),
                po_number=f"PO-{(i * 7) % 5}" if i % 2 else "",
            )
            order.total = Decimal(100 + ((i * 5) % 3) * 50)
            order.save(update_fields=["total"])
        customer_id = md["customer"].pk
        theirs = SalesOrder.objects.filter(customer_id=customer_id)
        expected: dict[tuple[str, str], list[int]] = {}
        for sort_by, path in LIST_SPEC.sort.items():
            field = ORDER_SORT_ALIASES.get(path, path)
            for direction, prefix in (("asc", ""), ("desc", "-")):
                ordered = theirs.order_by(f"{prefix}{field}", f"{prefix}id").values_list("id", flat=True)
                expected[sort_by, direction] = list(ordered[:5])
    assert len(set(map(tuple, expected.values()))) > 2  # the sorts differ: the test can tell them apart
    for (sort_by, direction), ids in expected.items():
        common = {"sort_by": sort_by, "order": direction, "size": 5}
        by_filter = {"filter_field": "customer_name", "filter_operator": "contains", "filter_value": "QUILL"}
        for params in ({"customer_id": customer_id}, {"search": "quillon"}, by_filter):
            res = api_a.get(ORDERS, {**common, **params})
            assert res.status_code == 200, res.json()
            assert res.json()["data"]["total"] == 8
            assert [r["id"] for r in res.json()["data"]["items"]] == ids, (sort_by, direction, params)
