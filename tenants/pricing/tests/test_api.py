"""Every pricing route: what a user sees (messages, defaults, errors)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from conftest import Api, token_for
from tenants.pricing.tests.factories import DAY, make_world


def test_tax_crud_rates_and_apply_to_all_fill(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    res = api_a.post(
        "/api/tax",
        {
            "name": "State sales tax",
            "code": "sst",
            "kind": "percent",
            "applies_to_all_states": True,
            "state_ids": [],
            "product_ids": [w.diesel.id],
        },
    )
    assert res.status_code == 201, res.json()
    tax = res.json()["data"]
    assert res.json()["message"] == "Tax created successfully"
    assert tax["code"] == "SST" and tax["state_ids"] == [w.state.id]  # flag + empty list: every state
    assert tax["product_ids"] == [w.diesel.id] and tax["rates"] == []

    r1 = api_a.post(f"/api/tax/tax-rate?tax_id={tax['id']}", {"rate": "6.25", "effective_from": "2026-01-01"})
    assert r1.status_code == 201 and r1.json()["message"] == "Tax rate added successfully"
    r2 = api_a.post(f"/api/tax/tax-rate?tax_id={tax['id']}", {"rate": "6.5", "effective_from": "2026-04-01"})
    assert r2.status_code == 201
    rates = api_a.get(f"/api/tax/{tax['id']}").json()["data"]["rates"]
    assert [(r["rate"], r["effective_from"], r["effective_to"]) for r in rates] == [
        ("6.500000", "2026-04-01", None),
        ("6.250000", "2026-01-01", "2026-03-31"),  # the open rate was closed by the next one
    ]
    clash = api_a.post(
        f"/api/tax/tax-rate?tax_id={tax['id']}",
        {"rate": "7", "effective_from": "2026-02-01", "effective_to": "2026-02-10"},
    )
    assert clash.status_code == 409 and "overlaps the rate of 6.250000" in clash.json()["detail"]
    assert (
        api_a.post(
            "/api/tax/tax-rate?tax_id=999999", {"rate": "1", "effective_from": "2026-01-01"}
        ).status_code
        == 404
    )
    assert (
        api_a.delete(f"/api/tax/tax-rate/{r2.json()['data']['id']}").json()["message"]
        == "Tax rate deleted successfully"
    )
    assert api_a.delete("/api/tax/tax-rate/999999").status_code == 404

    page = api_a.get("/api/tax").json()["data"]
    assert page["size"] == 25 and any(t["code"] == "SST" for t in page["items"])
    upd = api_a.put(
        f"/api/tax/{tax['id']}",
        {"name": "Texas sales tax", "applies_to_all_products": True, "product_ids": []},
    )
    assert upd.status_code == 200 and upd.json()["data"]["name"] == "Texas sales tax"
    assert set(upd.json()["data"]["product_ids"]) == {w.diesel.id, w.gas.id}
    dup = api_a.post("/api/tax", {"name": "Other", "code": "SST"})
    assert dup.status_code == 409 and dup.json()["detail"] == "A tax with this code already exists."
    assert api_a.delete(f"/api/tax/{tax['id']}").json()["message"] == "Tax deleted successfully"
    assert api_a.get(f"/api/tax/{tax['id']}").status_code == 404


def test_tax_summaries_of_documents_not_built_here_answer_the_empty_default(api_a):
    for kind in ("purchase-orders", "invoices"):
        res = api_a.get(f"/api/tax/{kind}/taxes/12345")
        assert res.status_code == 404
        assert res.json() == {
            "detail": f"{'Purchase order' if kind == 'purchase-orders' else 'Invoice'} not found",
            "total_tax_amount": "0.00",
            "taxable_items": [],
        }


def test_fee_crud_messages_and_customer_filter(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    res = api_a.post("/api/fee", {"name": "Hazmat", "fee_code": "haz", "rate": "12.5", "quantity": "2"})
    assert res.status_code == 201
    fee = res.json()["data"]
    assert (fee["fee_type"], fee["amount_type"], fee["fee_code"], fee["subtotal"]) == (
        "flat",
        "fixed_amount",
        "HAZ",
        "25.00",
    )
    own = api_a.post(
        "/api/fee", {"name": "Acme small load", "rate": "40", "customer_id": w.customer.id}
    ).json()["data"]
    assert own["customer_name"] == "Acme Construction"
    other = api_a.post("/api/customer/customers", {"name": "Other Co"}).json()["data"]
    listed = api_a.get(f"/api/fee?customer_id={other['id']}").json()["data"]
    assert own["id"] not in [f["id"] for f in listed["items"]] and listed["size"] == 25
    assert [f["name"] for f in api_a.get("/api/fee?search=hazm").json()["data"]["items"]] == ["Hazmat"]
    assert api_a.put(f"/api/fee/{fee['id']}", {"rate": "15"}).json()["data"]["subtotal"] == "30.00"
    res = api_a.delete(f"/api/fee/{fee['id']}")
    assert res.json()["message"] == "Fee deleted successfully"
    missing = api_a.delete(f"/api/fee/{fee['id']}")
    assert missing.status_code == 404 and missing.json()["detail"] == "Fee not found"
    bad = api_a.post("/api/fee", {"name": "Pct", "fee_type": "percentage", "rate": "150"})
    assert bad.status_code == 422 and "at most 100" in bad.json()["detail"]


def test_buying_prices_save_update_overlap_delete_and_list_filters(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    body = {
        "supplier_id": w.supplier.id,
        "terminal_id": w.terminal.id,
        "product_id": w.diesel.id,
        "price": "2.201234",
        "effective_from": "2026-03-11",
    }
    res = api_a.post("/api/buying-price", body)
    assert res.status_code == 201 and res.json()["message"] == "Buying price saved successfully!"
    bp = res.json()["data"]
    assert bp["price"] == "2.201234" and bp["supplier"]["name"] == "Gulf Coast Fuels"
    again = api_a.post("/api/buying-price", {**body, "price": "2.2100"})
    assert again.status_code == 200 and again.json()["data"]["id"] == bp["id"]  # same key: an update
    clash = api_a.post(
        "/api/buying-price", {**body, "effective_from": "2026-03-01", "effective_to": "2026-03-12"}
    )
    assert clash.status_code == 409 and "overlaps" in clash.json()["detail"]

    page = api_a.get("/api/buying-price").json()["data"]
    assert page["size"] == 100 and page["total"] == 5
    on_day = api_a.get(f"/api/buying-price?on=2026-03-10&product_id={w.diesel.id}").json()["data"]["items"]
    assert sorted(i["price"] for i in on_day) == ["2.150000", "2.190000"]
    later = api_a.get(
        f"/api/buying-price?effective_from=2026-03-11&supplier_id={w.supplier.id}&product_id={w.diesel.id}"
    )
    assert [i["price"] for i in later.json()["data"]["items"]] == ["2.210000"]
    res = api_a.delete(f"/api/buying-price/{bp['id']}")
    assert res.json()["message"] == "Buying price deleted successfully!"
    assert api_a.delete(f"/api/buying-price/{bp['id']}").status_code == 404


def test_rack_sheet_board_history_and_csv_import(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    nxt = (DAY + dt.timedelta(days=1)).isoformat()
    res = api_a.post(
        "/api/buying-price/sheet",
        {
            "supplier_id": w.supplier.id,
            "effective_from": nxt,
            "rows": [
                {"terminal_id": w.terminal.id, "product_id": w.diesel.id, "price": "2.1800"},
                {"terminal_id": w.terminal.id, "product_id": w.gas.id, "price": None},
            ],
        },
    )
    assert res.status_code == 200 and res.json()["data"] == {"created": 1, "updated": 0, "skipped": 1}
    board = api_a.get(f"/api/buying-price/board?date={nxt}&supplier_id={w.supplier.id}").json()["data"]
    cell = next(c for c in board["cells"] if c["product_id"] == w.diesel.id)
    assert (cell["price"], cell["previous"], cell["change"]) == ("2.180000", "2.150000", "0.030000")
    lowest = api_a.get(f"/api/buying-price/board?date={nxt}").json()["data"]
    assert next(c for c in lowest["cells"] if c["product_id"] == w.diesel.id)["price"] == "2.180000"
    hist = api_a.get(
        f"/api/buying-price/history?terminal_id={w.terminal.id}&product_id={w.diesel.id}&days=2&end={nxt}"
    )
    points = hist.json()["data"]["points"]
    assert [
        (p["date"], p["supplier_name"], p["price"]) for p in points if p["supplier_id"] == w.supplier.id
    ] == [("2026-03-10", "Gulf Coast Fuels", "2.150000"), ("2026-03-11", "Gulf Coast Fuels", "2.180000")]
    csv = (
        "supplier,terminal,product,price,effective_from\n"
        f"Lone Star Petroleum,T-76-TX-2000,ULSD,2.1777,{nxt}\n"
    ).encode()
    from django.core.files.uploadedfile import SimpleUploadedFile

    up = api_a.client.post(
        "/api/buying-price/import",
        {"file": SimpleUploadedFile("rack.csv", csv, "text/csv")},
        HTTP_AUTHORIZATION=f"Bearer {api_a.token}",
    )
    assert up.status_code == 200, up.json()
    imp = up.json()["data"]
    assert imp["valid_rows"] == 1 and imp["error_rows"] == 0
    done = api_a.post(f"/api/buying-price/import/{imp['import_id']}/confirm")
    assert done.status_code == 200 and done.json()["data"]["status"] == "completed"
    board = api_a.get(f"/api/buying-price/board?date={nxt}").json()["data"]
    assert next(c for c in board["cells"] if c["product_id"] == w.diesel.id)["price"] == "2.177700"


def test_pricing_rules_validation_and_ties(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    body = {
        "name": "Acme diesel",
        "customer_id": w.customer.id,
        "product_id": w.diesel.id,
        "basis": "rack",
        "rack_mode": "lowest",
        "terminal_id": w.terminal.id,
        "margin": "0.12",
        "priority": 5,
    }
    res = api_a.post("/api/pricing-rule", body)
    assert res.status_code == 201, res.json()
    rule = res.json()["data"]
    assert (
        rule["scope"] == ["Customer: Acme Construction", "Product: ULSD Clear"] and rule["specificity"] == 18
    )
    tie = api_a.post("/api/pricing-rule", {**body, "name": "Same"})
    assert tie.status_code == 409 and "ties with rule 'Acme diesel'" in tie.json()["detail"]
    assert (
        api_a.post("/api/pricing-rule", {**body, "name": "Other priority", "priority": 6}).status_code == 201
    )
    no_terminal = api_a.post("/api/pricing-rule", {"name": "x", "basis": "rack"})
    assert no_terminal.status_code == 422 and "terminal" in no_terminal.json()["detail"]
    no_price = api_a.post("/api/pricing-rule", {"name": "x", "basis": "fixed"})
    assert no_price.status_code == 422 and "fixed_price" in no_price.json()["detail"]
    page = api_a.get("/api/pricing-rule").json()["data"]
    assert page["size"] == 25 and page["items"][0]["name"] == "Other priority"
    assert (
        api_a.put(f"/api/pricing-rule/{rule['id']}", {"margin": "0.2"}).json()["data"]["margin"] == "0.2000"
    )
    assert (
        api_a.delete(f"/api/pricing-rule/{rule['id']}").json()["message"]
        == "Pricing rule deleted successfully"
    )


def test_customer_pricing_index_add_update_delete_and_final_price(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    cid = w.customer.id
    res = api_a.post(
        f"/api/customer-price/{cid}",
        {
            "customer_pricing_type": "fixed",
            "pricings": [
                {"product_id": w.diesel.id, "product_price": "2.4999"},
                {"product_id": w.gas.id, "unit_price": "2.90", "margin": "0.05"},
            ],
        },
    )
    assert res.status_code == 201 and res.json()["message"].startswith("Customer pricing added successfully")
    idx = api_a.get(f"/api/customer-price?customer_id={cid}&pricing_date={DAY}").json()["data"]
    assert idx["customer_pricing_type"] == "fixed" and idx["size"] == 50 and idx["total"] == 2
    finals = {p["product_code"]: p["final_price"] for p in idx["pricings"]}
    assert finals == {"ULSD": "2.4999", "UNL87": "2.9500"}
    fields = api_a.get(
        f"/api/customer-price/specific/fields?product_id={w.gas.id}&customer_id={cid}&pricing_date={DAY}"
    )
    assert (
        fields.json()["data"]["final_price"] == "2.9500"
        and fields.json()["data"]["breakdown"]["basis"] == "contract"
    )

    upd = api_a.put(f"/api/customer-price/{cid}", {"customer_pricing_type": "standard", "pricings": []})
    assert (
        upd.status_code == 200
        and upd.json()["message"] == "Customer pricing updated successfully (pricing type)"
    )
    fields = api_a.get(
        f"/api/customer-price/specific/fields?product_id={w.diesel.id}&customer_id={cid}&pricing_date={DAY}"
    )
    assert fields.json()["data"]["final_price"] == "2.3800"  # the rule again: rack 2.15 + 0.15 + 0.08
    item = idx["pricings"][0]["id"]
    res = api_a.delete(f"/api/customer-price/{cid}?id={item}")
    assert res.json()["message"] == "Pricing item deleted successfully"
    assert api_a.delete(f"/api/customer-price/{cid}?id={item}").status_code == 404
    assert (
        api_a.delete(f"/api/customer-price/{cid}").json()["message"]
        == "Customer pricing deleted successfully"
    )
    assert api_a.get("/api/customer-price?customer_id=999999").status_code == 404
    bad = api_a.put(f"/api/customer-price/{cid}", {"customer_pricing_type": "cheap"})
    assert bad.status_code == 422
    none = api_a.get(
        f"/api/customer-price/specific/fields?product_id={w.diesel.id}&customer_id={cid}&pricing_date=2020-01-01"
    )
    assert none.status_code == 409 and none.json()["detail"].startswith("No price found for ULSD Clear")
    assert api_a.get("/api/customer-price?sales_order_id=1").status_code == 404


def test_price_check_explains_a_price(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    res = api_a.get(
        "/api/customer-price/explain",
        {
            "customer_id": w.customer.id,
            "ship_to_id": w.ship_to.id,
            "product_id": w.diesel.id,
            "quantity": "3000",
            "pricing_date": DAY.isoformat(),
            "fee_ids": f"{w.fees['ENV'].id},{w.fees['DEL'].id}",
        },
    )
    assert res.status_code == 200, res.json()
    data = res.json()["data"]
    assert data["total"] == "9181.80" and data["tax_total"] == "1824.00" and data["fee_total"] == "217.80"
    text = " | ".join(data["explanation"])
    assert "Rule 'Fuel rack + 15c'" in text and "Gulf Coast Fuels at Galena Park" in text
    assert "3000 x 2.3800 = 7140.00" in text and "Sales tax: 6.250000 % of 7872.00 = 492.00" in text
    assert text.endswith("Total: 7140.00 + fees 217.80 + taxes 1824.00 = 9181.80.")
    other = api_a.post("/api/customer/customers", {"name": "Other Co"}).json()["data"]
    wrong = api_a.get(
        "/api/customer-price/explain",
        {"customer_id": other["id"], "ship_to_id": w.ship_to.id, "product_id": w.diesel.id},
    )
    assert wrong.status_code == 422 and "not a delivery location" in wrong.json()["detail"]
    assert (
        api_a.get(
            "/api/customer-price/explain", {"customer_id": 999999, "product_id": w.diesel.id}
        ).status_code
        == 404
    )


def test_roles_can_view_or_change_pricing(tenant_a):
    sales = Api(token_for(tenant_a, "Sales", email="sales.pricing@alpha.test"))
    assert sales.get("/api/tax").status_code == 200
    assert sales.post("/api/tax", {"name": "x", "code": "x"}).status_code == 403
    assert sales.get("/api/buying-price").status_code == 403
    driver = Api(token_for(tenant_a, "Driver", email="driver.pricing@alpha.test"))
    assert driver.get("/api/customer-price/explain?customer_id=1&product_id=1").status_code == 403


def test_tax_summary_hooks_answer_the_owning_apps_documents(api_a, tenant_a, in_tenant):
    from tenants.pricing import services
    from tenants.pricing.services import LineRequest, price_document

    with in_tenant(tenant_a):
        w = make_world()
    calls = []

    def invoice_doc(doc_id):
        calls.append(doc_id)
        if doc_id != 77:
            return None
        return price_document(
            customer_id=w.customer.id,
            ship_to_id=w.ship_to.id,
            lines=[LineRequest("L1", w.diesel.id, D("3000"))],
            pricing_date=DAY,
        )

    saved = dict(services.TAX_DOCUMENT_SOURCES)
    services.register_tax_document_source("invoices", invoice_doc)
    try:
        res = api_a.get("/api/tax/invoices/taxes/77")
        missing = api_a.get("/api/tax/invoices/taxes/78")
    finally:
        services.TAX_DOCUMENT_SOURCES.clear()
        services.TAX_DOCUMENT_SOURCES.update(saved)
    assert res.status_code == 200, res.json()
    data = res.json()["data"]
    assert data["total_tax_amount"] == "1824.00"
    assert {t["code"] for t in data["taxable_items"][0]["taxes"]} == {"FET", "TXD", "ST", "HOU"}
    assert missing.status_code == 404 and missing.json()["taxable_items"] == []
    assert calls == [77, 78]
