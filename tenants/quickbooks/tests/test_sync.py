"""Customers both ways, the item map, the invoice push (exactly once through a dropped connection, an
edit made in QBO, a conflict) and payments back (CDC and webhooks, exactly once, never crossing
companies), against the fake QuickBooks Online."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from conftest import Api
from infra.fakes.qbo import FakeQbo, cloudevents_payload, legacy_payload, signature
from tenants.quickbooks.tests.conftest import VERIFIER, connect

PUSHED = "Posted to QuickBooks Online successfully"


def _excise() -> Any:
    from tenants.invoicing.tests.helpers import DAY
    from tenants.pricing.models import Tax, TaxRate

    tax, made = Tax.objects.get_or_create(
        code="FX",
        defaults={
            "name": "Fuel excise",
            "kind": "per_unit",
            "applies_to_all_states": True,
            "applies_to_all_cities": True,
            "applies_to_all_products": True,
        },
    )
    if made:
        TaxRate.objects.create(tax=tax, rate=Decimal("0.2000"), effective_from=DAY - dt.timedelta(days=365))
    return tax


def issued_invoice(api: Api, in_tenant: Any, tenant: Any, name: str = "Acme Construction") -> Any:
    """An issued invoice: 987.5 gal of diesel at 3.0000, a 25.00 delivery fee, 0.20/gal excise."""
    from tenants.invoicing.services import create_or_update_invoice
    from tenants.invoicing.tests.helpers import delivered_order, master_data
    from tenants.pricing.models import Fee

    with in_tenant(tenant):
        _excise()
        fee, _ = Fee.objects.get_or_create(
            name="Delivery fee", defaults={"fee_type": "flat", "rate": Decimal("25")}
        )
        md = master_data(name=name)
        order = delivered_order(md, lines=(("diesel", "1000", "3.0000", "987.5"),), fees=((fee, None),))
        invoice, _summary, _created = create_or_update_invoice(sales_order_id=order.pk)
    r = api.post(f"/api/invoice/{invoice.pk}/issue")
    assert r.status_code == 200, r.content
    with in_tenant(tenant):
        invoice.refresh_from_db()
    return invoice


def map_everything(api: Api, jobs: Any) -> None:
    rows = api.get("/api/quickbook/item-map").json()["data"]
    r = api.post(
        "/api/quickbook/sync-selected-items",
        {"items": [{"kind": row["kind"], "local_id": row["local_id"]} for row in rows]},
    )
    assert r.status_code == 200, r.content
    jobs()


def qbo_invoices(fake: FakeQbo, realm_id: str) -> list[dict[str, Any]]:
    return fake.records(realm_id, "Invoice")


# --------------------------------------------------------------------------- customers


def test_200_customers_sync_and_an_inactive_qbo_customer_is_mapped_not_duplicated(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any
) -> None:
    from tenants.jobs.models import JobLog
    from tenants.parties.models import Customer
    from tenants.quickbooks.models import QboLink

    realm = connect(api_a, fake_qbo)["realm_id"]
    inactive = fake_qbo.create(realm, "Customer", {"DisplayName": "Customer 007", "Active": False})
    fake_qbo.create(realm, "Vendor", {"DisplayName": "Fuel Supply Co"})
    with in_tenant(tenant_a):
        Customer.objects.bulk_create(
            [Customer(name=f"Customer {n:03d}", account_number=f"C-{n:03d}") for n in range(200)]
            + [Customer(name="Fuel Supply Co", account_number="C-VENDOR")]
        )
    before = fake_qbo.realms[realm].requests

    r = api_a.post("/api/intuit/customers/sync", {"customer_ids": None})
    assert r.status_code == 200, r.content
    assert r.json()["data"]["kind"] == "quickbooks_customers"
    jobs()

    qbo_customers = fake_qbo.records(realm, "Customer")
    names = [c["DisplayName"] for c in qbo_customers]
    assert len(qbo_customers) == 200 and len(set(names)) == 200  # 199 made + the inactive one, reused
    seven = next(c for c in qbo_customers if c["DisplayName"] == "Customer 007")
    assert seven["Id"] == inactive["Id"] and seven["Active"] is True
    # One query for the existing names, 199 creates, one update to reactivate Customer 007, and
    # for the vendor's name a refused create and one look-up.
    assert fake_qbo.realms[realm].requests - before == 203
    with in_tenant(tenant_a):
        seven_local = Customer.objects.get(name="Customer 007")
        assert seven_local.external_id == inactive["Id"] and seven_local.sync_state == "synced"
        assert QboLink.objects.filter(kind="customer").exclude(qbo_id="").count() == 200
        entry = JobLog.objects.get(kind="quickbooks_customers")
        assert entry.status == "failed" and "1 record failed" in entry.error

    # The list shows each one's state; the name a vendor holds is refused with QBO's 6240.
    rows = api_a.get("/api/intuit/customers", {"search": "Fuel Supply"}).json()["data"]
    assert rows["total"] == 1
    row = rows["items"][0]
    assert row["sync_state"] == "failed"
    assert "6240" in row["last_sync_error"] and "vendor or employee" in row["last_sync_error"]
    page = api_a.get("/api/intuit/customers", {"page": 2, "size": 50}).json()["data"]
    assert page["total"] == 201 and page["items"][0]["name"] == "Customer 050"
    assert page["items"][0]["sync_state"] == "synced" and page["items"][0]["external_id"]

    # Again: nothing new in QBO, nothing changed.
    api_a.post("/api/intuit/customers/sync", {"customer_ids": None})
    jobs()
    assert len(fake_qbo.records(realm, "Customer")) == 200
    assert api_a.get("/api/quickbook/connection").json()["data"]["pending"]["customers"] == 1


def test_import_pulls_qbo_customers_without_duplicates(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any
) -> None:
    from tenants.parties.models import Customer

    realm = connect(api_a, fake_qbo)["realm_id"]
    fake_qbo.create(
        realm, "Customer", {"DisplayName": "Harbor Marine", "PrimaryEmailAddr": {"Address": "ap@harbor.test"}}
    )
    fake_qbo.create(realm, "Customer", {"DisplayName": "acme construction"})
    with in_tenant(tenant_a):
        acme = Customer.objects.create(name="Acme Construction", account_number="ACME-1")
    for _ in range(2):
        r = api_a.post("/api/intuit/customers/import")
        assert r.status_code == 200, r.content
        jobs()
    with in_tenant(tenant_a):
        assert Customer.objects.filter(name__iexact="acme construction").count() == 1
        harbor = Customer.objects.get(name="Harbor Marine")
        assert harbor.email == "ap@harbor.test" and harbor.external_id
        acme.refresh_from_db()
        assert acme.sync_state == "synced" and acme.external_id


# --------------------------------------------------------------------------- items


def test_item_map_suggests_maps_and_syncs_selected(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any
) -> None:
    realm = connect(api_a, fake_qbo)["realm_id"]
    income = fake_qbo.query(realm, "SELECT * FROM Account WHERE AccountType = 'Income'")["QueryResponse"][
        "Account"
    ][0]
    diesel = fake_qbo.create(
        realm,
        "Item",
        {"Name": "Clear Diesel", "Type": "NonInventory", "IncomeAccountRef": {"value": income["Id"]}},
    )
    issued_invoice(api_a, in_tenant, tenant_a)

    items = api_a.get("/api/quickbook/items")
    assert items.status_code == 200
    assert [i["name"] for i in items.json()["data"]] == ["Clear Diesel"]
    rows = api_a.get("/api/quickbook/item-map").json()["data"]
    by_name = {r["local_name"]: r for r in rows}
    assert {r["kind"] for r in rows} == {"product", "fee", "tax"}
    assert by_name["Clear Diesel"]["suggestion"] == {"id": diesel["Id"], "name": "Clear Diesel"}
    assert by_name["Delivery fee"]["suggestion"] is None and by_name["Fuel excise"]["kind"] == "tax"

    r = api_a.put(
        "/api/quickbook/item-map",
        {"kind": "product", "local_id": by_name["Clear Diesel"]["local_id"], "qbo_item_id": diesel["Id"]},
    )
    assert r.status_code == 200, r.content
    assert r.json()["data"]["qbo_item_id"] == diesel["Id"] and r.json()["data"]["sync_state"] == "synced"
    bad = api_a.put(
        "/api/quickbook/item-map",
        {"kind": "fee", "local_id": by_name["Delivery fee"]["local_id"], "qbo_item_id": "999"},
    )
    assert bad.status_code == 422 and bad.json()["detail"] == "qbo_item_id: QuickBooks has no item 999."

    r = api_a.post(
        "/api/quickbook/sync-selected-items",
        {
            "items": [
                {"kind": "fee", "local_id": by_name["Delivery fee"]["local_id"]},
                {"kind": "tax", "local_id": by_name["Fuel excise"]["local_id"]},
            ]
        },
    )
    assert r.status_code == 200
    jobs()
    names = sorted(i["Name"] for i in fake_qbo.records(realm, "Item"))
    assert names == ["Clear Diesel", "Delivery fee", "Fuel excise"]
    rows = {r["local_name"]: r for r in api_a.get("/api/quickbook/item-map").json()["data"]}
    assert rows["Delivery fee"]["qbo_item_name"] == "Delivery fee" and rows["Fuel excise"]["qbo_item_id"]

    r = api_a.put(
        "/api/quickbook/item-map",
        {"kind": "fee", "local_id": rows["Delivery fee"]["local_id"], "qbo_item_id": None},
    )
    assert r.status_code == 200 and r.json()["data"]["qbo_item_id"] is None


def test_item_map_lists_every_product_before_quickbooks_is_connected(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any
) -> None:
    issued_invoice(api_a, in_tenant, tenant_a)
    with in_tenant(tenant_a):
        from tenants.catalog.models import Product

        products = set(Product.objects.values_list("name", flat=True))
    assert products
    r = api_a.get("/api/quickbook/item-map")
    assert r.status_code == 200, r.content
    rows = r.json()["data"]
    assert {x["local_name"] for x in rows if x["kind"] == "product"} == products
    assert all(x["qbo_item_id"] is None and x["suggestion"] is None for x in rows)
    assert api_a.get("/api/quickbook/connection").json()["data"]["state"] == "disconnected"


# --------------------------------------------------------------------------- invoices


def test_invoice_push_creates_once_then_updates_keeping_what_qbo_users_wrote(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any
) -> None:
    realm = connect(api_a, fake_qbo)["realm_id"]
    invoice = issued_invoice(api_a, in_tenant, tenant_a)
    r = api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push")
    assert r.status_code == 409
    assert r.json()["detail"].startswith(
        "Failed to post to QuickBooks Online: map these to QuickBooks items first"
    )
    map_everything(api_a, jobs)

    r = api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push")
    assert r.status_code == 200, r.content
    assert r.json()["message"] == PUSHED
    [qbo] = qbo_invoices(fake_qbo, realm)
    assert qbo["DocNumber"] == invoice.number
    assert Decimal(str(qbo["TotalAmt"])) == invoice.subtotal + invoice.fee_total + invoice.tax_total
    amounts = sorted(Decimal(str(line["Amount"])) for line in qbo["Line"])
    assert amounts == sorted([Decimal("2962.50"), Decimal("197.50"), Decimal("25.00")])
    assert {line["SalesItemLineDetail"]["TaxCodeRef"]["value"] for line in qbo["Line"]} == {"NON"}
    with in_tenant(tenant_a):
        invoice.refresh_from_db()
        assert invoice.external_id == qbo["Id"] and invoice.sync_state == "synced"

    # Someone edits it in QBO (a memo): the next push meets a stale SyncToken, re-reads, updates
    # only what FuelDesk owns, and the memo stays.
    fake_qbo.update(
        realm, "Invoice", {"Id": qbo["Id"], "CustomerMemo": {"value": "Gate code 4411"}}, as_user=True
    )
    r = api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push")
    assert r.status_code == 200, r.content
    [after] = qbo_invoices(fake_qbo, realm)
    assert after["CustomerMemo"] == {"value": "Gate code 4411"}
    assert int(after["SyncToken"]) == int(qbo["SyncToken"]) + 2
    assert after["DocNumber"] == invoice.number and len(after["Line"]) == 3

    # Edited again during the retry: the conflict is shown, nothing is lost.
    fake_qbo.inject(
        kind="status",
        status=400,
        code="5010",
        message="Stale Object Error",
        entity="Invoice",
        method="POST",
        times=2,
    )
    r = api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push")
    assert r.status_code == 409
    assert r.json()["detail"].startswith(
        "Failed to post to QuickBooks Online: the invoice was changed in QuickBooks"
    )
    with in_tenant(tenant_a):
        invoice.refresh_from_db()
        assert invoice.sync_state == "failed" and "5010" in invoice.last_sync_error


def test_an_invoice_is_posted_exactly_once_through_a_dropped_connection(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any
) -> None:
    realm = connect(api_a, fake_qbo)["realm_id"]
    first = issued_invoice(api_a, in_tenant, tenant_a)
    map_everything(api_a, jobs)

    # QBO commits the invoice, then the connection drops before the answer: the retry with the same
    # requestid gets the first result.
    fake_qbo.inject(kind="drop_after_commit", entity="Invoice", method="POST", times=1)
    r = api_a.post(f"/api/quickbook/invoice/{first.pk}/push")
    assert r.status_code == 200, r.content
    assert len(qbo_invoices(fake_qbo, realm)) == 1
    assert fake_qbo.calls["replayed"] == 1

    # Every try drops (the push fails), yet QBO has it: the next push finds it by DocNumber.
    second = issued_invoice(api_a, in_tenant, tenant_a, name="Bayside Farms")
    fake_qbo.inject(kind="drop_after_commit", entity="Invoice", method="POST", times=1)
    fake_qbo.inject(
        kind="status",
        status=503,
        code="3001",
        message="Service unavailable",
        entity="Invoice",
        method="POST",
        times=5,
    )
    r = api_a.post(f"/api/quickbook/invoice/{second.pk}/push")
    assert r.status_code == 502
    assert r.json()["detail"].startswith("Failed to post to QuickBooks Online")
    fake_qbo.faults.clear()
    r = api_a.post(f"/api/quickbook/invoice/{second.pk}/push")
    assert r.status_code == 200, r.content
    docs = sorted(i["DocNumber"] for i in qbo_invoices(fake_qbo, realm))
    assert docs == sorted([first.number, second.number])


def test_push_needs_a_connection_and_an_issued_invoice(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any
) -> None:
    invoice = issued_invoice(api_a, in_tenant, tenant_a)
    r = api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push")
    assert r.status_code == 409
    assert r.json()["detail"] == (
        "Failed to post to QuickBooks Online: QuickBooks Online needs reconnecting: the authorization was "
        "revoked or expired."
    )
    assert api_a.post("/api/quickbook/invoice/999999/push").status_code == 404


# --------------------------------------------------------------------------- payments


def _pay(fake: FakeQbo, realm: str, qbo_invoice: dict[str, Any], amount: str) -> dict[str, Any]:
    return fake.create(
        realm,
        "Payment",
        {
            "CustomerRef": qbo_invoice["CustomerRef"],
            "TotalAmt": float(amount),
            "TxnDate": "2026-11-20",
            "Line": [
                {"Amount": float(amount), "LinkedTxn": [{"TxnId": qbo_invoice["Id"], "TxnType": "Invoice"}]}
            ],
        },
    )


def test_a_payment_made_in_qbo_settles_the_invoice_once_by_cdc(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any
) -> None:
    from tenants.invoicing.models import Payment

    realm = connect(api_a, fake_qbo)["realm_id"]
    invoice = issued_invoice(api_a, in_tenant, tenant_a)
    map_everything(api_a, jobs)
    assert api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push").status_code == 200
    [qbo] = qbo_invoices(fake_qbo, realm)
    payment = _pay(fake_qbo, realm, qbo, str(invoice.total))
    fake_qbo.create(
        realm, "Payment", {"CustomerRef": qbo["CustomerRef"], "TotalAmt": 50.0, "Line": []}
    )  # not ours

    for _ in range(2):
        r = api_a.post("/api/quickbook/sync-payments")
        assert r.status_code == 200
        assert r.json()["data"]["kind"] == "quickbooks_payments"
        jobs()
    with in_tenant(tenant_a):
        invoice.refresh_from_db()
        assert invoice.status == "paid" and invoice.balance == 0
        [local] = Payment.objects.all()
        assert local.reference == f"QBO payment {payment['Id']}" and local.amount == invoice.total
        assert local.payment_date == dt.date(2026, 11, 20)
    assert api_a.get("/api/quickbook/connection").json()["data"]["last_sync_at"]


def _webhook(anon: Api, body: bytes, sig: str | None = None) -> Any:
    return anon.client.post(
        "/api/quickbook/webhook",
        data=body,
        content_type="application/json",
        HTTP_INTUIT_SIGNATURE=sig if sig is not None else signature(body, VERIFIER),
    )


def test_webhooks_settle_invoices_and_never_cross_companies(
    api_a: Api,
    api_b: Api,
    anon: Api,
    fake_qbo: FakeQbo,
    tenant_a: Any,
    tenant_b: Any,
    in_tenant: Any,
    jobs: Any,
) -> None:
    from tenants.invoicing.models import Payment

    realm_a = connect(api_a, fake_qbo, realm_id="1111000000000001")["realm_id"]
    realm_b = connect(api_b, fake_qbo, realm_id="2222000000000002")["realm_id"]
    inv_a = issued_invoice(api_a, in_tenant, tenant_a)
    inv_b = issued_invoice(api_b, in_tenant, tenant_b)
    map_everything(api_a, jobs)
    map_everything(api_b, jobs)
    assert api_a.post(f"/api/quickbook/invoice/{inv_a.pk}/push").status_code == 200
    assert api_b.post(f"/api/quickbook/invoice/{inv_b.pk}/push").status_code == 200
    [qbo_a] = qbo_invoices(fake_qbo, realm_a)
    [qbo_b] = qbo_invoices(fake_qbo, realm_b)
    assert qbo_a["DocNumber"] == inv_a.number and qbo_b["DocNumber"] == inv_b.number

    # B's payment, announced for B's realm (legacy payload): only B's invoice is paid.
    pay_b = _pay(fake_qbo, realm_b, qbo_b, "1000.00")
    body = legacy_payload(realm_b, [("Payment", pay_b["Id"], "Create")])
    r = _webhook(anon, body)
    assert r.status_code == 200, r.content
    jobs()
    r = _webhook(anon, body)  # Intuit may deliver twice
    assert r.status_code == 200
    jobs()
    with in_tenant(tenant_b):
        inv_b.refresh_from_db()
        assert inv_b.status == "partially_paid" and inv_b.amount_paid == Decimal("1000.00")
        assert Payment.objects.count() == 1
    with in_tenant(tenant_a):
        inv_a.refresh_from_db()
        assert inv_a.status == "issued" and not Payment.objects.exists()

    # A webhook naming A's realm with B's payment id: A reads its own realm and finds nothing of it.
    r = _webhook(anon, legacy_payload(realm_a, [("Payment", pay_b["Id"], "Create")]))
    assert r.status_code == 200
    jobs()
    with in_tenant(tenant_a):
        assert not Payment.objects.exists()

    # CloudEvents: A's payment for the rest of its invoice.
    pay_a = _pay(fake_qbo, realm_a, qbo_a, str(inv_a.total))
    r = _webhook(anon, cloudevents_payload(realm_a, [("Payment", pay_a["Id"], "Create")]))
    assert r.status_code == 200, r.content
    jobs()
    with in_tenant(tenant_a):
        inv_a.refresh_from_db()
        assert inv_a.status == "paid"
        assert Payment.objects.get().reference == f"QBO payment {pay_a['Id']}"


def test_a_badly_signed_or_junk_webhook_is_refused(anon: Api, fake_qbo: FakeQbo, jobs: Any, db: None) -> None:
    body = legacy_payload("1111000000000001", [("Payment", "1", "Create")])
    r = _webhook(anon, body, sig=signature(body, "not-the-verifier"))
    assert r.status_code == 401 and r.json()["detail"] == "The webhook signature is not valid."
    r = _webhook(anon, body + b" ", sig=signature(body, VERIFIER))  # the body was altered
    assert r.status_code == 401
    assert _webhook(anon, body, sig="").status_code == 401
    junk = b"\xff\x00not json"
    assert _webhook(anon, junk).status_code == 400
    assert _webhook(anon, b'{"something": "else"}').status_code == 400
    assert jobs() == 0
