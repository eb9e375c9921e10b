"""Invoices through the API: built from delivered quantities at the fixed prices, brought up to date
with the right counts, numbered, moved through their workflow, listed, and their tax summary."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from conftest import Api
from tenants.invoicing.tests.helpers import D, delivered_order, flat_fee, fuel_tax, master_data

pytestmark = pytest.mark.django_db
CREATE = "/api/invoice/create"


@pytest.fixture
def world(tenant_a: Any, in_tenant: Any) -> dict[str, Any]:
    from tenants.pricing.models import PaymentTerm

    with in_tenant(tenant_a):
        term = PaymentTerm.objects.create(name="Net 30", net_days=30)
        md = master_data(payment_term=term)
        fuel_tax()
        fee = flat_fee()
        order = delivered_order(
            md,
            lines=(
                ("diesel", "1000", "3.1275", "987.3"),
                ("oil", "2", "45.5000", "2"),
                ("gas", "500", "2.9", None),
            ),
            fees=((fee, None),),
            po_number="PO-77",
        )
        return {**md, "order": order, "fee": fee, "term": term}


def test_create_bills_the_delivered_quantities_at_fixed_prices_to_the_cent(api_a: Api, world: Any) -> None:
    r = api_a.post(f"{CREATE}?sales_order_id={world['order'].pk}")
    assert r.status_code == 200, r.content
    body = r.json()
    data = body["data"]
    assert data["summary"] == {"created": 3, "updated": 0, "removed": 0}
    assert data["is_new"] is True
    assert body["message"] == f"Invoice {data['invoice_no']} created: 0 updated, 3 created, 0 removed"
    assert data["invoice_no"].startswith("INV-")
    assert data["status"] == "draft" and data["customer"]["customer_name"] == "Acme Construction"
    lines = {ln["description"]: ln for ln in data["line_items"]}
    assert set(lines) == {"Clear Diesel", "Engine oil drum"}  # the gas line was not delivered
    assert D(lines["Clear Diesel"]["quantity"]) == D("987.3")
    assert D(lines["Clear Diesel"]["unit_price"]) == D("3.1275")
    assert D(lines["Clear Diesel"]["amount"]) == D("3087.78")  # 3087.78075 rounded half up
    assert D(lines["Clear Diesel"]["tax_amount"]) == D("197.46")
    assert D(lines["Engine oil drum"]["amount"]) == D("91.00")
    assert [(f["description"], D(f["amount"])) for f in data["fees"]] == [("Delivery fee", D("25.00"))]
    assert D(data["subtotal"]) == D("3178.78")
    assert D(data["fee_total"]) == D("25.00")
    assert D(data["tax_total"]) == D("197.86")
    assert D(data["total"]) == D("3401.64")
    assert D(data["balance"]) == D("3401.64") and D(data["amount_paid"]) == 0
    today = dt.date.fromisoformat(data["invoice_date"])
    assert data["due_date"] == (today + dt.timedelta(days=30)).isoformat()
    assert data["payment_term_name"] == "Net 30" and data["po_number"] == "PO-77"
    assert [a["action"] for a in data["allowed_actions"]] == ["issue", "void"]
    assert [e["action"] for e in data["events"]] == ["create"]

    got = api_a.get(f"/api/invoice/{data['id']}").json()["data"]
    assert got["invoice_no"] == data["invoice_no"] and D(got["total"]) == D("3401.64")
    taxes = api_a.get(f"/api/tax/invoices/taxes/{data['id']}").json()["data"]
    assert D(taxes["total_tax_amount"]) == D("197.86")
    assert len(taxes["taxable_items"]) == 2
    lines_api = api_a.get("/api/invoice-line-item", {"invoice_id": data["id"]}).json()["data"]
    assert lines_api["total"] == 3
    one = api_a.get(f"/api/invoice-line-item/{lines_api['items'][0]['id']}")
    assert one.status_code == 200 and one.json()["data"]["invoice_id"] == data["id"]


def test_running_create_again_updates_with_the_right_counts(
    api_a: Api, world: Any, tenant_a: Any, in_tenant: Any
) -> None:
    order = world["order"]
    first = api_a.post(f"{CREATE}?sales_order_id={order.pk}").json()["data"]
    again = api_a.post(f"{CREATE}?sales_order_id={order.pk}").json()
    assert again["data"]["summary"] == {"created": 0, "updated": 0, "removed": 0}
    assert again["data"]["id"] == first["id"] and again["data"]["invoice_no"] == first["invoice_no"]
    with in_tenant(tenant_a):
        diesel, oil, gas = order.line_items.order_by("position")
        diesel.delivered_quantity = D("990")  # corrected: updated
        diesel.save()
        oil.delivered_quantity = None  # not delivered after all: removed
        oil.save()
        gas.delivered_quantity = D("100")  # delivered: created
        gas.save()
    r = api_a.post(f"{CREATE}?sales_order_id={order.pk}").json()
    assert r["data"]["summary"] == {"created": 1, "updated": 1, "removed": 1}
    assert r["message"] == f"Invoice {first['invoice_no']} updated: 1 updated, 1 created, 1 removed"
    # 990 x 3.1275 = 3096.225 → 3096.23; 100 x 2.9 = 290.00; tax 0.20 x 1090 = 218.00; fee 25
    assert D(r["data"]["subtotal"]) == D("3386.23")
    assert D(r["data"]["tax_total"]) == D("218.00")
    assert D(r["data"]["total"]) == D("3629.23")


def test_an_issued_invoice_is_not_rebuilt_and_void_lets_the_order_be_invoiced_again(
    api_a: Api, world: Any
) -> None:
    order = world["order"]
    inv = api_a.post(f"{CREATE}?sales_order_id={order.pk}").json()["data"]
    r = api_a.post(f"/api/invoice/sales-orders/{order.pk}/invoice-status?status=issued")
    assert r.status_code == 200 and r.json()["data"]["status"] == "issued"
    assert r.json()["message"] == f"Invoice {inv['invoice_no']} is now issued"
    again = api_a.post(f"{CREATE}?sales_order_id={order.pk}")
    assert again.status_code == 409
    assert "void it to invoice the order again" in again.json()["detail"]
    no_reason = api_a.post(f"/api/invoice/{inv['id']}/void")
    assert (
        no_reason.status_code == 422
        and no_reason.json()["detail"] == "A reason is required to void an invoice."
    )
    voided = api_a.post(f"/api/invoice/{inv['id']}/void?reason=Wrong%20customer")
    assert voided.status_code == 200
    assert (
        voided.json()["data"]["status"] == "void" and voided.json()["data"]["void_reason"] == "Wrong customer"
    )
    bad = api_a.post(f"/api/invoice/{inv['id']}/issue")
    assert bad.status_code == 409 and "allowed now: none" in bad.json()["detail"]
    fresh = api_a.post(f"{CREATE}?sales_order_id={order.pk}").json()["data"]
    assert fresh["id"] != inv["id"] and fresh["invoice_no"] != inv["invoice_no"]


def test_issue_route_and_status_history(api_a: Api, world: Any) -> None:
    inv = api_a.post(f"{CREATE}?sales_order_id={world['order'].pk}").json()["data"]
    r = api_a.post(f"/api/invoice/{inv['id']}/issue")
    assert r.status_code == 200 and r.json()["data"]["status"] == "issued"
    events = r.json()["data"]["events"]
    assert [(e["from_status"], e["to_status"]) for e in events] == [("", "draft"), ("draft", "issued")]
    assert events[1]["by_name"]
    bad = api_a.post(f"/api/invoice/sales-orders/{world['order'].pk}/invoice-status?status=paid")
    assert bad.status_code == 422


def test_only_delivered_orders_are_invoiced(api_a: Api, world: Any, tenant_a: Any, in_tenant: Any) -> None:
    from tenants.sales.tests.helpers import order_in_db

    with in_tenant(tenant_a):
        verified = order_in_db(world, status="verified")
    r = api_a.post(f"{CREATE}?sales_order_id={verified.pk}")
    assert r.status_code == 409
    assert (
        r.json()["detail"]
        == f"Sales order {verified.number} is verified: only delivered orders can be invoiced."
    )
    assert api_a.post(f"{CREATE}?sales_order_id=999999").status_code == 404
    assert api_a.get("/api/invoice", {"sales_order_id": verified.pk}).json()["data"]["total"] == 0


def test_update_notes(api_a: Api, world: Any) -> None:
    inv = api_a.post(f"{CREATE}?sales_order_id={world['order'].pk}").json()["data"]
    r = api_a.put(f"/api/invoice/{inv['id']}", {"notes": "Thanks!", "po_number": "PO-78"})
    assert r.status_code == 200 and r.json()["data"]["notes"] == "Thanks!"
    assert r.json()["data"]["po_number"] == "PO-78"


def test_list_filters_search_sort_and_overdue(
    api_a: Api, world: Any, tenant_a: Any, in_tenant: Any, django_assert_max_num_queries: Any
) -> None:
    from tenants.invoicing.models import Invoice
    from tenants.parties.models import Customer

    with in_tenant(tenant_a):
        other = master_data(name="Zeta Farms")
        second = delivered_order(other, lines=(("diesel", "10", "3.0000", "10"),))
    a = api_a.post(f"{CREATE}?sales_order_id={world['order'].pk}").json()["data"]
    b = api_a.post(f"{CREATE}?sales_order_id={second.pk}").json()["data"]
    api_a.post(f"/api/invoice/{b['id']}/issue")
    with in_tenant(tenant_a):
        Invoice.objects.filter(pk=b["id"]).update(
            invoice_date=dt.date(2026, 1, 5), due_date=dt.date(2026, 2, 4)
        )
        assert Customer.objects.count() >= 2

    def ids(**params: Any) -> list[int]:
        r = api_a.get("/api/invoice", params)
        assert r.status_code == 200, r.content
        return [row["id"] for row in r.json()["data"]["items"]]

    assert ids(sort_by="customer.customer_name", sort_direction="asc") == [a["id"], b["id"]]
    assert ids(sort_by="customer.customer_name", sort_direction="desc") == [b["id"], a["id"]]
    assert ids(sort_by="invoice_no", sort_direction="asc") == [a["id"], b["id"]]
    assert ids(status="draft") == [a["id"]]
    assert ids(status="overdue") == [b["id"]]
    assert ids(search="zeta") == [b["id"]]
    assert ids(invoice_date_start="2026-01-01", invoice_date_end="2026-01-31") == [b["id"]]
    row = api_a.get("/api/invoice", {"status": "overdue"}).json()["data"]["items"][0]
    assert row["is_overdue"] is True and row["days_overdue"] > 0
    assert row["customer"] == {"id": b["customer"]["id"], "customer_name": "Zeta Farms"}
    assert api_a.get("/api/invoice", {"status": "bogus"}).status_code == 422
    assert api_a.get("/api/invoice", {"sort_by": "nope"}).status_code == 422
    with django_assert_max_num_queries(8):
        api_a.get("/api/invoice", {"size": 50})


def test_roles_without_invoice_permission_are_refused(tenant_a: Any, world: Any) -> None:
    from conftest import token_for

    driver = Api(token_for(tenant_a, role="Driver"))
    r = driver.post(f"{CREATE}?sales_order_id={world['order'].pk}")
    assert r.status_code == 403
    assert driver.get("/api/invoice").status_code == 403
    accounting = Api(token_for(tenant_a, role="Accounting"))
    assert accounting.post(f"{CREATE}?sales_order_id={world['order'].pk}").status_code == 200


def test_document_data_has_what_the_invoice_document_needs(
    api_a: Api, world: Any, tenant_a: Any, in_tenant: Any
) -> None:
    from tenants.documents.contract import DocumentData
    from tenants.invoicing.selectors import invoice_document_data

    inv = api_a.post(f"{CREATE}?sales_order_id={world['order'].pk}").json()["data"]
    with in_tenant(tenant_a):
        data = invoice_document_data(inv["id"])
        doc = DocumentData.model_validate(data)
    assert doc.document.number == inv["invoice_no"]
    assert doc.document.payment_terms == "Net 30"
    assert doc.totals.total == Decimal("3401.64") and doc.totals.balance_due == Decimal("3401.64")
    assert [ln.product_name for ln in doc.lines] == ["Clear Diesel", "Engine oil drum"]
    assert doc.fees[0].amount == Decimal("25.00")
    assert doc.taxes[0].rate_label == "$0.2000/unit" and doc.taxes[0].amount == Decimal("197.86")
    assert "logo_key" in data["company"] and data["billing_email"] == ""
    assert data["customer_id"] == inv["customer"]["id"] and data["balance"] == Decimal("3401.64")
