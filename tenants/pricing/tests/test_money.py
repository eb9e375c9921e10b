"""Pricing is the only home of money (issue 24): one rounding module, one mapping of pricing errors to
HTTP, and a typed price priced by the server (the order form's preview and the saved order agree to
the cent, the browser computes nothing)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from tenants.pricing import money
from tenants.pricing.engine import LineRequest, PricingError
from tenants.pricing.errors import as_http_error
from tenants.pricing.tests.factories import DAY, make_world


def test_money_rounds_half_up_to_the_cent_and_unit_prices_to_4_places():
    assert money.money(D("2.005")) == D("2.01") and money.money(D("-2.005")) == D("-2.01")
    assert money.money(D("2.0049")) == D("2.00")
    assert money.unit(D("2.38005")) == D("2.3801")
    assert money.round_to_step(D("2.3849"), D("0.05")) == D("2.4000")
    assert money.line_amount(D("3000"), D("2.3845")) == D("7153.50")


@pytest.mark.parametrize(
    ("code", "fields", "status", "detail"),
    [
        ("unknown_customer", None, 404, "Customer 9 not found."),
        ("unknown_product", None, 404, "Customer 9 not found."),
        ("unknown_fee", {"unknown_fee": "fees"}, 422, "fees: Customer 9 not found."),
        ("unknown_customer", {"unknown_fee": "fees"}, 404, "Customer 9 not found."),
        ("bad_ship_to", None, 422, "Customer 9 not found."),
        ("bad_quantity", None, 422, "Customer 9 not found."),
        ("no_price", None, 409, "Customer 9 not found."),
    ],
)
def test_one_mapping_of_pricing_errors_to_http(code, fields, status, detail):
    err = as_http_error(PricingError("Customer 9 not found.", code=code), fields=fields)
    assert (err.status_code, err.message) == (status, detail)


def test_a_prefix_says_what_the_caller_was_doing():
    err = as_http_error(PricingError("No price found for X.", code="no_price"), prefix="Failed to invoice: ")
    assert (err.status_code, err.message) == (409, "Failed to invoice: No price found for X.")


def test_a_fixed_price_wins_over_a_typed_one_over_the_engine():
    assert LineRequest.of("1", 1, D("1"), fixed=D("2.1"), typed=D("3")).unit_price_override == D("2.1")
    assert LineRequest.of("1", 1, D("1"), typed=D("3")).unit_price_override == D("3")
    assert LineRequest.of("1", 1, D("1")).unit_price_override is None


def test_a_typed_price_is_previewed_by_the_server_as_the_order_prices_it(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    query = {
        "customer_id": w.customer.id,
        "ship_to_id": w.ship_to.id,
        "product_id": w.diesel.id,
        "quantity": "3000",
        "pricing_date": DAY.isoformat(),
        "unit_price_override": "2.5",
    }
    res = api_a.get("/api/customer-price/explain", query)
    assert res.status_code == 200, res.json()
    preview = res.json()["data"]
    line = preview["lines"][0]
    assert (line["unit_price"], line["amount"], line["breakdown"]["basis"]) == (
        "2.5000",
        "7500.00",
        "override",
    )
    assert "Unit price 2.5000 was fixed earlier on the document." in preview["explanation"]
    assert "3000 x 2.5000 = 7500.00." in preview["explanation"]
    # the order saved with that typed price carries the same figures, taxes included
    made = api_a.post(
        "/api/sales-order/sales-orders",
        {
            "customer_id": w.customer.id,
            "ship_to_id": w.ship_to.id,
            "planned_date": DAY.isoformat(),
            "line_items": [{"product_id": w.diesel.id, "quantity": "3000", "unit_price_override": "2.5"}],
        },
    )
    assert made.status_code == 201, made.json()
    saved = made.json()["data"]["line_items"][0]
    assert (saved["unit_price"], saved["amount"]) == (line["unit_price"], line["amount"])
    assert saved["unit_price_override"] == "2.5000"
    assert (
        saved["tax_amount"]
        == money.money(sum((D(t["amount"]) for t in line["taxes"]), D("0"))).to_eng_string()
    )
    assert made.json()["data"]["total"] == preview["total"]
    bad = api_a.get("/api/customer-price/explain", {**query, "unit_price_override": "-1"})
    assert bad.status_code == 422
