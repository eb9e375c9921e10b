"""What the OpenAPI document says is what the server takes and answers (issue 23 §2): times of day,
the invoice email's PDF upload, JSON bodies only as JSON."""

from __future__ import annotations

import re

import jsonschema_rs

from tenants.sales.tests.helpers import DAY, ORDERS, master_data


def document() -> dict:
    from fueldesk.api import api

    return api.get_openapi_schema(path_prefix="/api")


def _walk(node, found):
    if isinstance(node, dict):
        found.append(node)
        for v in node.values():
            _walk(v, found)
    elif isinstance(node, list):
        for v in node:
            _walk(v, found)
    return found


def test_times_of_day_are_answered_as_the_document_declares_them(api_a, tenant_a, in_tenant):
    doc = document()
    nodes = _walk(doc, [])
    assert not [n for n in nodes if n.get("format") == "time"], "RFC 3339 `time` needs a zone"
    row = doc["components"]["schemas"]["SalesOrderOut"]["properties"]["planned_time_to"]
    time_schema = next(o for o in row.get("anyOf", [row]) if o.get("type") == "string")
    with in_tenant(tenant_a):
        md = master_data()
    res = api_a.post(
        ORDERS,
        {
            "customer_id": md["customer"].pk,
            "ship_to_id": md["ship_to"].pk,
            "planned_date": str(DAY),
            "planned_time_from": "08:00",
            "planned_time_to": "11:25:11.611",
            "line_items": [
                {"product_id": md["diesel"].pk, "quantity": "10", "unit_price_override": "3.2500"}
            ],
        },
    )
    assert res.status_code == 201, res.json()
    order = res.json()["data"]
    assert (order["planned_time_from"], order["planned_time_to"]) == ("08:00:00", "11:25:11")
    listed = api_a.get(ORDERS).json()["data"]["items"][0]
    assert listed["planned_time_to"] == "11:25:11"
    validator = jsonschema_rs.validator_for(time_schema, validate_formats=True)
    for value in (order["planned_time_to"], listed["planned_time_to"], "08:00"):
        assert validator.is_valid(value), value
    assert re.fullmatch(r"\d\d:\d\d:\d\d", listed["planned_time_from"])


def test_the_invoice_email_takes_its_pdf_as_a_multipart_file():
    for path in ("/api/invoice/{id}/send-email", "/api/invoice/{id}/email"):
        op = document()["paths"][path]["post"]
        assert "invoice_pdf" not in [p["name"] for p in op["parameters"]], path
        form = op["requestBody"]["content"]["multipart/form-data"]["schema"]
        pdf = form["properties"]["invoice_pdf"]
        assert {"type": "string", "format": "binary"} in pdf.get("anyOf", [pdf]), path


def test_json_bodies_declare_the_415_of_another_content_type():
    for path, methods in document()["paths"].items():
        for method, op in methods.items():
            if "application/json" in (op.get("requestBody") or {}).get("content", {}):
                assert "415" in op["responses"], (method, path)
