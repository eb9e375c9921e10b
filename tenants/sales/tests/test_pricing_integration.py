"""Orders priced by the pricing engine: lines follow it until verification, then keep their price;
fees, the tax summary, a product's price on an order, and repricing after a rack price change."""

from __future__ import annotations

from decimal import Decimal as D

from tenants.pricing.tests.factories import DAY, make_world
from tenants.sales.tests.helpers import ORDERS


def order_body(w, **extra):
    return {
        "customer_id": w.customer.pk,
        "ship_to_id": w.ship_to.pk,
        "planned_date": str(DAY),
        "line_items": [
            {"product_id": w.diesel.pk, "quantity": "3000"},
            {"product_id": w.gas.pk, "quantity": "1000"},
        ],
        "fees": [{"fee_id": w.fees["ENV"].pk}, {"fee_id": w.fees["DEL"].pk}],
        **extra,
    }


def engine_doc(w, quantities=(("d", "3000"), ("g", "1000"))):
    from tenants.pricing.services import FeeRequest, LineRequest, price_document

    products = {"d": w.diesel.pk, "g": w.gas.pk}
    return price_document(
        customer_id=w.customer.pk,
        ship_to_id=w.ship_to.pk,
        lines=[LineRequest(k, products[k], D(q)) for k, q in quantities],
        pricing_date=DAY,
        fees=[FeeRequest("e", w.fees["ENV"].pk), FeeRequest("f", w.fees["DEL"].pk)],
    )


def test_an_order_is_priced_by_the_engine_with_its_breakdown(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
        expected = engine_doc(w)
    res = api_a.post(ORDERS, order_body(w))
    assert res.status_code == 201, res.json()
    so = res.json()["data"]
    diesel, gas = so["line_items"]
    assert diesel["unit_price"] == "2.3800" and diesel["amount"] == "7140.00"  # rack 2.15 + 0.15 + 0.08
    assert diesel["price_breakdown"]["rule_id"] == w.rule.pk
    assert diesel["price_breakdown"]["basis"] == "rack" and D(diesel["price_breakdown"]["rack_price"]) == D(
        "2.15"
    )
    assert {t["code"] for t in diesel["price_breakdown"]["taxes"]} == {"FET", "TXD", "ST", "HOU"}
    assert diesel["tax_amount"] == "1824.00"
    assert [f["name"] for f in so["fees"]] == ["Environmental", "Delivery"]
    assert so["fees"][1]["subtotal"] == "75.00"
    assert so["subtotal"] == str(expected.subtotal) and so["fee_total"] == str(expected.fee_total)
    assert so["tax_total"] == str(expected.tax_total) and so["total"] == str(expected.total)
    assert D(so["total"]) == D(so["subtotal"]) + D(so["fee_total"]) + D(so["tax_total"])
    assert gas["unit_price"] == "2.3800"

    taxes = api_a.get(f"/api/tax/sales-orders/taxes/{so['id']}")
    assert taxes.status_code == 200, taxes.json()
    assert D(taxes.json()["data"]["total_tax_amount"]) == expected.tax_total
    assert {i["product_name"] for i in taxes.json()["data"]["taxable_items"]} == {"ULSD Clear", "Unleaded 87"}
    missing = api_a.get("/api/tax/sales-orders/taxes/999999")
    assert missing.status_code == 404
    assert missing.json()["taxable_items"] == [] and D(missing.json()["total_tax_amount"]) == 0

    fee = api_a.get("/api/fee/calculate", {"fee_id": w.fees["ENV"].pk, "sales_order_id": so["id"]})
    assert fee.status_code == 200, fee.json()
    assert fee.json()["data"]["subtotal"] == "190.40"  # 2 % of 9,520.00
    assert fee.json()["data"]["rate"] == "2.0000"
    assert api_a.get("/api/fee/calculate", {"fee_id": 999999, "sales_order_id": so["id"]}).status_code == 404
    assert (
        api_a.get("/api/fee/calculate", {"fee_id": w.fees["ENV"].pk, "sales_order_id": 999999}).status_code
        == 404
    )

    price = api_a.get("/api/customer-price/specific", {"sales_order_id": so["id"], "product_id": w.diesel.pk})
    assert price.status_code == 200 and price.json()["data"]["unit_price"] == "2.3800"

    prices = api_a.get("/api/customer-price", {"sales_order_id": so["id"]})
    assert prices.status_code == 200, prices.content
    simple = prices.json()["data"]["simple_prices"]
    assert [(p["product_id"], p["unit_price"]) for p in simple] == [
        (w.diesel.pk, "2.3800"),
        (w.gas.pk, "2.3800"),
    ]
    assert api_a.get("/api/customer-price", {"sales_order_id": 999999}).status_code == 404

    # a fee removed, then a line
    res = api_a.delete(f"/api/sales-order/sales-orders/fee/{so['fees'][0]['id']}")
    assert res.status_code == 200 and res.json()["message"] == "Fee deleted successfully"
    after = api_a.get(f"{ORDERS}/{so['id']}").json()["data"]
    assert [f["name"] for f in after["fees"]] == ["Delivery"] and after["fee_total"] == "75.00"
    assert api_a.delete("/api/sales-order/sales-orders/fee/999999").status_code == 404


def test_prices_follow_the_engine_until_verified_then_stay(api_a, tenant_a, in_tenant, jobs):
    from tenants.pricing.models import BuyingPrice
    from tenants.pricing.services import rack_price_changed

    with in_tenant(tenant_a):
        w = make_world()
    draft = api_a.post(ORDERS, order_body(w)).json()["data"]
    verified = api_a.post(ORDERS, order_body(w)).json()["data"]
    res = api_a.put(f"{ORDERS}/{verified['id']}/status?status=verified")
    assert res.status_code == 200, res.json()
    assert all(ln["price_fixed"] for ln in res.json()["data"]["line_items"])
    with in_tenant(tenant_a):
        BuyingPrice.objects.filter(supplier=w.supplier, product=w.diesel).update(price=D("2.45"))
        rack_price_changed.send(
            sender=BuyingPrice,
            supplier_id=w.supplier.pk,
            terminal_id=w.terminal.pk,
            product_id=w.diesel.pk,
            effective_from=DAY,
        )
        assert jobs() == 1
    d = api_a.get(f"{ORDERS}/{draft['id']}").json()["data"]
    v = api_a.get(f"{ORDERS}/{verified['id']}").json()["data"]
    assert d["line_items"][0]["unit_price"] == "2.6800"  # 2.45 + 0.15 + 0.08
    assert d["line_items"][1]["unit_price"] == "2.3800"  # gas: its rack did not move
    assert v["line_items"][0]["unit_price"] == "2.3800"  # fixed at verification
    assert D(d["total"]) > D(draft["total"]) and v["total"] == verified["total"]
    # reopening lets the engine price it again
    res = api_a.put(f"{ORDERS}/{verified['id']}/status?status=draft")
    assert res.status_code == 200 and res.json()["data"]["status"] == "draft"
    res = api_a.put(f"{ORDERS}/{verified['id']}", {"po_number": "PO-NEW"})
    assert res.json()["data"]["line_items"][0]["unit_price"] == "2.6800"


def test_a_product_without_a_price_is_shown_and_blocks_verification(api_a, tenant_a, in_tenant):
    from tenants.catalog.models import Product

    with in_tenant(tenant_a):
        w = make_world()
        lube = Product.objects.create(name="Gear oil pail", code="GO-PAIL", sold_as="pail")
    res = api_a.post(
        ORDERS,
        order_body(
            w,
            fees=[],
            line_items=[
                {"product_id": w.diesel.pk, "quantity": "100"},
                {"product_id": lube.pk, "quantity": "2"},
            ],
        ),
    )
    assert res.status_code == 201, res.json()
    so = res.json()["data"]
    assert so["line_items"][0]["unit_price"] == "2.3800"
    assert so["line_items"][1]["unit_price"] is None and "Gear oil pail" in so["line_items"][1]["price_error"]
    assert so["subtotal"] == "238.00"
    res = api_a.put(f"{ORDERS}/{so['id']}/status?status=verified")
    assert (
        res.status_code == 422
        and res.json()["detail"] == "Error verifying sales order: no price for Gear oil pail."
    )
    # a typed price is passed to the engine as an override
    lines = [
        {"id": so["line_items"][0]["id"], "product_id": w.diesel.pk, "quantity": "100"},
        {
            "id": so["line_items"][1]["id"],
            "product_id": lube.pk,
            "quantity": "2",
            "unit_price_override": "39.5",
        },
    ]
    res = api_a.put(f"{ORDERS}/{so['id']}", {"line_items": lines})
    assert res.json()["data"]["line_items"][1]["unit_price"] == "39.5000"
    assert res.json()["data"]["line_items"][1]["price_breakdown"]["basis"] == "override"
    assert api_a.put(f"{ORDERS}/{so['id']}/status?status=verified").status_code == 200
