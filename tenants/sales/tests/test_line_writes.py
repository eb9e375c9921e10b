"""A save of an order writes each of its lines once (issue 24: it used to insert or update every line,
then update it again with its price), and the price a user types is sent as `unit_price_override`."""

from __future__ import annotations

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tenants.sales.tests.helpers import ORDERS, master_data
from tenants.sales.tests.test_api import body


def line_writes(ctx: CaptureQueriesContext) -> dict[str, int]:
    """INSERT / UPDATE / DELETE statements on the order lines' table."""
    counts = {"INSERT": 0, "UPDATE": 0, "DELETE": 0}
    for q in ctx.captured_queries:
        sql = q["sql"].lstrip()
        verb = sql.split(" ", 1)[0].upper()
        if verb in counts and re.search(r'"sales_lineitem"', sql.split(" WHERE ", 1)[0]):
            counts[verb] += 1
    return counts


def test_each_line_is_written_once_per_save(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    with CaptureQueriesContext(connection) as ctx:
        res = api_a.post(ORDERS, body(md))
    assert res.status_code == 201, res.json()
    so = res.json()["data"]
    assert line_writes(ctx) == {"INSERT": 2, "UPDATE": 0, "DELETE": 0}
    # the prices are on the lines all the same: 1500 x 3.25 and 2 x 845 (typed)
    assert [ln["amount"] for ln in so["line_items"]] == ["4875.00", "1690.00"]
    assert [ln["unit_price"] for ln in so["line_items"]] == ["3.2500", "845.0000"]
    assert [ln["unit_price_override"] for ln in so["line_items"]] == ["3.2500", "845.0000"]
    assert so["subtotal"] == "6565.00"

    # one line kept (changed), one dropped, one added: one UPDATE, one DELETE, one INSERT
    kept = so["line_items"][0]
    lines = [
        {"id": kept["id"], "product_id": md["diesel"].pk, "quantity": "1000", "unit_price_override": "3.1"},
        {"product_id": md["oil"].pk, "quantity": "1", "unit_price_override": "845"},
    ]
    with CaptureQueriesContext(connection) as ctx:
        res = api_a.put(f"{ORDERS}/{so['id']}", {"line_items": lines})
    assert res.status_code == 200, res.json()
    assert line_writes(ctx) == {"INSERT": 1, "UPDATE": 1, "DELETE": 1}
    data = res.json()["data"]
    assert [ln["amount"] for ln in data["line_items"]] == ["3100.00", "845.00"]
    assert data["line_items"][0]["id"] == kept["id"] and data["total"] == "3945.00"

    # a save of the header alone reprices the draft's stored lines: one UPDATE each, nothing else
    with CaptureQueriesContext(connection) as ctx:
        assert api_a.put(f"{ORDERS}/{so['id']}", {"po_number": "PO-9"}).status_code == 200
    assert line_writes(ctx) == {"INSERT": 0, "UPDATE": 2, "DELETE": 0}


def test_the_old_input_name_of_a_typed_price_is_refused_not_dropped(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    old = body(md)
    old["line_items"] = [{"product_id": md["diesel"].pk, "quantity": "10", "unit_price": "3.25"}]
    res = api_a.post(ORDERS, old)
    assert res.status_code == 422, res.json()
    assert "unit_price_override" in str(res.json()["detail"])
