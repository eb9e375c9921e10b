"""One customer, one product, one day: one price (issue 23, section 4). The final price
(`/specific/fields`), the price check (`/explain`) and an order all come from the one pricing service;
an answer that names no ship-to says which ship-to and terminal it assumed."""

from __future__ import annotations

from decimal import Decimal as D

from tenants.parties.models import ShipTo
from tenants.pricing.models import PricingRule
from tenants.pricing.tests.factories import DAY, make_world


def _customer_rule_world():
    """A product with list price 3.00 and a customer's rack + margin + freight rule for its yard:
    2.15 at Galena Park (Gulf Coast Fuels) + 0.40 + 0.15 = 2.70."""
    w = make_world()
    w.rule.delete()
    w.diesel.unit_price = D("3.00")
    w.diesel.save(update_fields=["unit_price"])
    PricingRule.objects.create(
        name="Acme yard rack",
        customer=w.customer,
        ship_to=w.ship_to,
        basis="rack",
        rack_mode="named",
        terminal=w.terminal,
        supplier=w.supplier,
        margin=D("0.40"),
        freight_per_unit=D("0.15"),
    )
    return w


def test_the_final_price_and_the_price_check_agree_and_say_what_they_assumed(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = _customer_rule_world()
    day = DAY.isoformat()
    final = api_a.get(
        f"/api/customer-price/specific/fields?product_id={w.diesel.id}&customer_id={w.customer.id}"
        f"&pricing_date={day}"
    )
    assert final.status_code == 200, final.json()
    data = final.json()["data"]
    explained = api_a.get(
        "/api/customer-price/explain",
        {
            "customer_id": w.customer.id,
            "ship_to_id": w.ship_to.id,
            "product_id": w.diesel.id,
            "pricing_date": day,
        },
    ).json()["data"]
    assert explained["lines"][0]["unit_price"] == "2.7000"
    assert data["final_price"] == "2.7000"  # was 3.0000, basis list
    assert data["breakdown"]["basis"] == "rack" and data["breakdown"]["rule_name"] == "Acme yard rack"
    assert data["assumed"] == {
        "ship_to_id": w.ship_to.id,
        "ship_to_name": "Yard 1",
        "terminal_id": w.terminal.id,
        "terminal_name": "Galena Park",
        "note": "No ship-to named: priced for Yard 1, the customer's only delivery location. "
        "Cost taken at terminal Galena Park.",
    }
    # Named, the ship-to is not an assumption; the terminal still is said.
    assert explained["assumed"]["ship_to_id"] is None
    assert explained["assumed"]["terminal_name"] == "Galena Park"
    # The price check without a ship-to gives the same price and says why, first.
    unnamed = api_a.get(
        "/api/customer-price/explain",
        {"customer_id": w.customer.id, "product_id": w.diesel.id, "pricing_date": day},
    ).json()["data"]
    assert unnamed["lines"][0]["unit_price"] == "2.7000"
    assert unnamed["explanation"][0].startswith("No ship-to named: priced for Yard 1")
    # The customer's price list shows the same final price.
    with in_tenant(tenant_a):
        from tenants.pricing.models import CustomerPrice

        CustomerPrice.objects.create(customer=w.customer, product=w.diesel, margin=D("0"))
    index = api_a.get(f"/api/customer-price?customer_id={w.customer.id}&pricing_date={day}").json()["data"]
    assert [p["final_price"] for p in index["pricings"]] == ["2.7000"]


def test_with_several_ship_tos_nothing_is_assumed_and_the_answer_says_so(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = _customer_rule_world()
        ShipTo.objects.create(customer=w.customer, name="Yard 2", state=w.state, city=w.city)
    final = api_a.get(
        f"/api/customer-price/specific/fields?product_id={w.diesel.id}&customer_id={w.customer.id}"
        f"&pricing_date={DAY.isoformat()}"
    ).json()["data"]
    assert final["final_price"] == "3.0000" and final["breakdown"]["basis"] == "list"
    assert final["assumed"]["ship_to_id"] is None and final["assumed"]["terminal_id"] is None
    assert final["assumed"]["note"].startswith("No ship-to named and the customer has several")


def test_an_order_without_a_ship_to_is_priced_as_the_price_check_says(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = _customer_rule_world()
    made = api_a.post(
        "/api/sales-order/sales-orders",
        {
            "customer_id": w.customer.id,
            "planned_date": DAY.isoformat(),
            "line_items": [{"product_id": w.diesel.id, "quantity": "100"}],
        },
    )
    assert made.status_code == 201, made.json()
    order = api_a.get(f"/api/sales-order/sales-orders/{made.json()['data']['id']}").json()["data"]
    assert order["line_items"][0]["unit_price"] == "2.7000"
