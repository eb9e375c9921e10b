"""Receivables with hand-worked examples: payments applied to invoices (partial, full, oldest due
first, overpayment kept as credit and applied later), the customer statement, the AR aging report
and its CSV, and open receivables in the sales orders' credit control."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from conftest import Api
from tenants.invoicing.tests.helpers import D, delivered_order, master_data

pytestmark = pytest.mark.django_db
PAY = "/api/invoice/payments"


def enter(tenant: Any) -> None:
    """Back in the tenant's schema after an API call (a request ends in the public schema)."""
    from django.db import connection

    connection.set_tenant(tenant.tenant)


def issued(api: Api, order: Any, invoice_date: dt.date, due_date: dt.date, tenant: Any) -> dict[str, Any]:
    """Invoice the order, issue it and date it (as if made on `invoice_date`)."""
    from tenants.invoicing.models import Invoice

    inv = api.post(f"/api/invoice/create?sales_order_id={order.pk}").json()["data"]
    assert api.post(f"/api/invoice/{inv['id']}/issue").status_code == 200
    enter(tenant)
    Invoice.objects.filter(pk=inv["id"]).update(invoice_date=invoice_date, due_date=due_date)
    return inv


@pytest.fixture
def book(api_a: Api, tenant_a: Any, in_tenant: Any) -> Any:
    """Four issued invoices of one customer (no taxes, no fees):
    I1 1,000.00 due 2026-12-31; I2 500.00 due 2026-12-16; I3 250.25 due 2026-11-15; I4 100.00 due
    2026-10-01. And a cash payment method."""
    from django.db import connection

    from tenants.pricing.models import PaymentMethod

    connection.set_tenant(tenant_a.tenant)
    md = master_data(name="Harbor Freight Lines")
    method = PaymentMethod.objects.create(name="Check", code="CHK")
    specs = [
        ("1000", "1.0000", dt.date(2026, 12, 1), dt.date(2026, 12, 31)),
        ("500", "1.0000", dt.date(2026, 11, 16), dt.date(2026, 12, 16)),
        ("100.1", "2.5000", dt.date(2026, 10, 16), dt.date(2026, 11, 15)),
        ("100", "1.0000", dt.date(2026, 9, 1), dt.date(2026, 10, 1)),
    ]
    invoices = []
    for qty, price, inv_date, due in specs:
        order = delivered_order(md, lines=(("diesel", qty, price, qty),))
        invoices.append(issued(api_a, order, inv_date, due, tenant_a))
    assert [D(i["total"]) for i in invoices] == [D("1000.00"), D("500.00"), D("250.25"), D("100.00")]
    yield {"customer": md["customer"], "method": method, "invoices": invoices, "md": md, "tenant": tenant_a}
    connection.set_schema_to_public()


def inv_state(api: Api, inv: dict[str, Any]) -> tuple[str, Any, Any]:
    d = api.get(f"/api/invoice/{inv['id']}").json()["data"]
    return d["status"], D(d["amount_paid"]), D(d["balance"])


def test_payment_split_over_two_invoices_partial_and_full(api_a: Api, book: Any) -> None:
    i1, i2, _i3, i4 = book["invoices"]
    r = api_a.post(
        PAY,
        {
            "customer_id": book["customer"].pk,
            "payment_date": "2026-12-20",
            "amount": "300.00",
            "payment_method_id": book["method"].pk,
            "reference": "CHK 1001",
            "allocations": [
                {"invoice_id": i2["id"], "amount": "200.00"},
                {"invoice_id": i4["id"], "amount": "100.00"},
            ],
        },
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["message"] == f"Payment {body['data']['number']} of 300.00 recorded"
    assert D(body["data"]["unapplied"]) == 0 and len(body["data"]["allocations"]) == 2
    assert inv_state(api_a, i2) == ("partially_paid", D("200.00"), D("300.00"))
    assert inv_state(api_a, i4) == ("paid", D("100.00"), D("0.00"))
    assert inv_state(api_a, i1) == ("issued", D("0"), D("1000.00"))
    view = api_a.get(f"/api/invoice/{i2['id']}").json()["data"]
    assert [(p["payment_method"], p["reference"], D(p["amount"])) for p in view["payments"]] == [
        ("Check", "CHK 1001", D("200.00"))
    ]
    assert [e["to_status"] for e in view["events"]][-1] == "partially_paid"
    # A paid invoice can no longer be voided; a partly paid one neither.
    assert api_a.post(f"/api/invoice/{i2['id']}/void?reason=x").status_code == 409
    # Too much on one invoice, or more than the payment: refused, nothing changed.
    over = api_a.post(
        PAY,
        {
            "customer_id": book["customer"].pk,
            "payment_date": "2026-12-21",
            "amount": "400.00",
            "allocations": [{"invoice_id": i2["id"], "amount": "300.01"}],
        },
    )
    assert over.status_code == 409 and "more than the balance of invoice" in over.json()["detail"]
    assert api_a.get(PAY, {"customer_id": book["customer"].pk}).json()["data"]["total"] == 1


def test_overpayment_is_kept_as_credit_and_applied_later_oldest_due_first(api_a: Api, book: Any) -> None:
    i1, i2, i3, i4 = book["invoices"]
    # 2,000.00 with no allocations given: oldest due first (I4 100, I3 250.25, I2 500, I1 1000),
    # 149.75 left over as credit.
    r = api_a.post(PAY, {"customer_id": book["customer"].pk, "payment_date": "2026-12-20", "amount": "2000"})
    assert r.status_code == 201
    data = r.json()["data"]
    assert [(a["invoice_no"], D(a["amount"])) for a in data["allocations"]] == [
        (i4["invoice_no"], D("100.00")),
        (i3["invoice_no"], D("250.25")),
        (i2["invoice_no"], D("500.00")),
        (i1["invoice_no"], D("1000.00")),
    ]
    assert D(data["unapplied"]) == D("149.75")
    assert r.json()["message"].endswith("; 149.75 kept as credit")
    assert all(inv_state(api_a, i)[0] == "paid" for i in book["invoices"])
    credit = api_a.get(PAY, {"customer_id": book["customer"].pk, "with_credit": True}).json()["data"]
    assert [D(p["unapplied"]) for p in credit["items"]] == [D("149.75")]
    # A new invoice of 200.00: the credit pays 149.75 of it.
    enter(book["tenant"])
    order = delivered_order(book["md"], lines=(("diesel", "200", "1.0000", "200"),))
    i5 = issued(api_a, order, dt.date(2026, 12, 22), dt.date(2027, 1, 21), book["tenant"])
    applied = api_a.post(f"{PAY}/{data['id']}/allocate", {})
    assert applied.status_code == 200, applied.content
    assert D(applied.json()["data"]["unapplied"]) == 0
    assert inv_state(api_a, i5) == ("partially_paid", D("149.75"), D("50.25"))
    assert api_a.post(f"{PAY}/{data['id']}/allocate", {}).status_code == 409  # nothing left
    got = api_a.get(f"{PAY}/{data['id']}").json()["data"]
    assert len(got["allocations"]) == 5


def test_deleting_a_payment_takes_its_allocations_back(api_a: Api, book: Any) -> None:
    i1 = book["invoices"][0]
    p = api_a.post(
        PAY,
        {
            "customer_id": book["customer"].pk,
            "payment_date": "2026-12-20",
            "amount": "1000",
            "allocations": [{"invoice_id": i1["id"], "amount": "1000"}],
        },
    ).json()["data"]
    assert inv_state(api_a, i1) == ("paid", D("1000.00"), D("0.00"))
    r = api_a.delete(f"{PAY}/{p['id']}")
    assert r.status_code == 200 and r.json()["message"] == "Payment deleted successfully"
    assert inv_state(api_a, i1) == ("issued", D("0.00"), D("1000.00"))
    assert api_a.get(f"{PAY}/{p['id']}").status_code == 404


def test_payment_on_a_draft_or_another_customers_invoice_is_refused(
    api_a: Api, book: Any, tenant_a: Any
) -> None:
    enter(tenant_a)
    other = master_data(name="Other Co")
    draft = api_a.post(
        f"/api/invoice/create?sales_order_id={delivered_order(other, lines=(('diesel', '5', '1', '5'),)).pk}"
    ).json()["data"]
    wrong = api_a.post(
        PAY,
        {
            "customer_id": book["customer"].pk,
            "payment_date": "2026-12-20",
            "amount": "5",
            "allocations": [{"invoice_id": draft["id"], "amount": "5"}],
        },
    )
    assert wrong.status_code == 422 and wrong.json()["detail"].endswith("belongs to another customer.")
    own_draft = api_a.post(
        PAY,
        {
            "customer_id": other["customer"].pk,
            "payment_date": "2026-12-20",
            "amount": "5",
            "allocations": [{"invoice_id": draft["id"], "amount": "5"}],
        },
    )
    assert (
        own_draft.status_code == 409
        and "only issued or partially paid invoices" in own_draft.json()["detail"]
    )
    from tenants.invoicing.models import Payment

    enter(tenant_a)
    assert Payment.objects.count() == 0


def test_aging_buckets_hand_worked(api_a: Api, book: Any) -> None:
    _i1, i2, _i3, i4 = book["invoices"]
    cust = book["customer"].pk
    api_a.post(
        PAY,
        {
            "customer_id": cust,
            "payment_date": "2026-12-20",
            "amount": "300.00",
            "allocations": [
                {"invoice_id": i2["id"], "amount": "200.00"},
                {"invoice_id": i4["id"], "amount": "100.00"},
            ],
        },
    )
    api_a.post(PAY, {"customer_id": cust, "payment_date": "2026-12-20", "amount": "50.00", "allocations": []})

    def row(as_of: str) -> dict[str, Any]:
        r = api_a.get("/api/invoice/aging", {"as_of": as_of, "customer_id": cust})
        assert r.status_code == 200, r.content
        rows = r.json()["data"]["rows"]
        assert len(rows) == 1 and rows[0]["customer_name"] == "Harbor Freight Lines"
        return {
            k: (D(v) if k not in ("customer_id", "customer_name", "invoices") else v)
            for k, v in rows[0].items()
        }

    # On 2026-12-31: I1 due today (current) 1,000.00; I2 15 days late, 300.00 left (1-30); I3 46 days
    # (31-60) 250.25; I4 paid. Credit 50.00.
    end = row("2026-12-31")
    assert (end["current"], end["days_1_30"], end["days_31_60"], end["days_61_90"], end["over_90"]) == (
        D("1000.00"),
        D("300.00"),
        D("250.25"),
        D("0"),
        D("0"),
    )
    assert (end["total"], end["credit"], end["net"], end["invoices"]) == (
        D("1550.25"),
        D("50.00"),
        D("1500.25"),
        3,
    )
    # On 2026-12-19, before the payments: I2 3 days late 500.00; I3 34 days; I4 79 days (61-90).
    before = row("2026-12-19")
    assert (before["current"], before["days_1_30"], before["days_31_60"], before["days_61_90"]) == (
        D("1000.00"),
        D("500.00"),
        D("250.25"),
        D("100.00"),
    )
    assert (before["total"], before["credit"]) == (D("1850.25"), D("0"))
    # On 2027-01-31: I1 31 days (31-60), I2 46 days (31-60), I3 77 days (61-90).
    later = row("2027-01-31")
    assert (later["current"], later["days_1_30"], later["days_31_60"], later["days_61_90"]) == (
        D("0"),
        D("0"),
        D("1300.00"),
        D("250.25"),
    )
    # Over 90: on 2027-03-01, I3 is 106 days late.
    assert row("2027-03-01")["over_90"] == D("250.25")
    whole = api_a.get("/api/invoice/aging", {"as_of": "2026-12-31"}).json()["data"]
    assert D(whole["totals"]["total"]) >= D("1550.25")
    assert [b["label"] for b in whole["buckets"]] == [
        "Current",
        "1–30 days",
        "31–60 days",
        "61–90 days",
        "Over 90 days",
    ]
    csv = api_a.get("/api/invoice/aging/export", {"as_of": "2026-12-31", "customer_id": cust})
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode("utf-8-sig").strip().splitlines()
    assert lines[0] == "Customer,Current,1–30 days,31–60 days,61–90 days,Over 90 days,Total,Credit,Net"
    assert lines[1] == "Harbor Freight Lines,1000.00,300.00,250.25,0.00,0.00,1550.25,50.00,1500.25"
    assert lines[2].startswith("Total,1000.00,300.00,250.25")


def test_statement_hand_worked(api_a: Api, book: Any) -> None:
    i1, i2, i3, i4 = book["invoices"]
    cust = book["customer"].pk
    api_a.post(
        PAY,
        {
            "customer_id": cust,
            "payment_date": "2026-12-20",
            "amount": "300.00",
            "payment_method_id": book["method"].pk,
            "reference": "1001",
            "allocations": [
                {"invoice_id": i2["id"], "amount": "200.00"},
                {"invoice_id": i4["id"], "amount": "100.00"},
            ],
        },
    )
    r = api_a.get(f"/api/invoice/customers/{cust}/statement", {"start": "2026-11-01", "end": "2026-12-31"})
    assert r.status_code == 200, r.content
    s = r.json()["data"]
    # Brought forward: I3 (Oct 16) 250.25 + I4 (Sep 1) 100.00 = 350.25
    assert D(s["opening_balance"]) == D("350.25")
    got = [(e["date"], e["reference"], D(e["charge"]), D(e["credit"]), D(e["balance"])) for e in s["entries"]]
    assert got == [
        ("2026-11-16", i2["invoice_no"], D("500.00"), D("0"), D("850.25")),
        ("2026-12-01", i1["invoice_no"], D("1000.00"), D("0"), D("1850.25")),
        ("2026-12-20", got[2][1], D("0"), D("300.00"), D("1550.25")),
    ]
    assert s["entries"][2]["description"] == "Check 1001"
    assert D(s["closing_balance"]) == D("1550.25") == D(s["open_balance"])
    assert [i["invoice_no"] for i in s["open_invoices"]] == [
        i3["invoice_no"],
        i2["invoice_no"],
        i1["invoice_no"],
    ]
    assert api_a.get("/api/invoice/customers/999999/statement").status_code == 404


def test_open_receivables_feed_credit_control(api_a: Api, book: Any) -> None:
    """Credit limit 2,000.00; issued invoices owe 1,850.25: a new 200.00 order is refused, and after a
    payment of 100.00 (1,750.25 owed) it passes."""
    from tenants.sales.tests.helpers import order_in_db

    enter(book["tenant"])
    customer = book["customer"]
    customer.credit_limit = D("2000.00")
    customer.save()
    order = order_in_db(book["md"], lines=(("diesel", "200", "1.0000"),))
    r = api_a.put(f"/api/sales-order/sales-orders/{order.pk}/status?status=verified")
    assert r.status_code == 409, r.content
    detail = r.json()["detail"]
    assert "open orders of 0.00 and open receivables of 1,850.25 plus this order's 200.00 exceed" in detail
    api_a.post(PAY, {"customer_id": customer.pk, "payment_date": "2026-12-20", "amount": "100"})
    ok = api_a.put(f"/api/sales-order/sales-orders/{order.pk}/status?status=verified")
    assert ok.status_code == 200, ok.content
