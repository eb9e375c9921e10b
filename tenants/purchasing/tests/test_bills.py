"""Bills through the API: entry (due date from the supplier's term, totals, duplicate numbers), the
three-way match with hand-worked variances, approval and its override, pay, void, permissions."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from conftest import Api, token_for
from tenants.purchasing.tests.helpers import BILLS, DAY, POS, master_data, received_po


def bill_body(md, po=None, **extra):
    lines = [
        {"product_id": md["diesel"].pk, "quantity": "7950", "unit_price": "2.4512", "bol_number": "BOL-1001"},
        {"product_id": md["gas"].pk, "quantity": "4000", "unit_price": "2.0900"},
    ]
    return {
        "supplier_id": md["supplier"].pk,
        "bill_number": "INV-55012",
        "bill_date": str(DAY + dt.timedelta(days=1)),
        "purchase_order_id": po["id"] if po else None,
        "freight": "125.00",
        "lines": lines,
        "charges": [{"kind": "tax", "name": "Federal excise", "amount": "1939.80"}],
        **extra,
    }


def test_enter_bill_due_date_totals_and_match(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    po = received_po(api_a, md)
    res = api_a.post(BILLS, bill_body(md, po))
    assert res.status_code == 201, res.json()
    bill = res.json()["data"]
    assert res.json()["message"] == "Bill INV-55012 created successfully"
    # Net 15 from the supplier's term: 2026-11-03 + 15 days.
    assert bill["due_date"] == "2026-11-18" and bill["payment_term"]["name"] == "Net 15 P"
    # 7950 x 2.4512 = 19487.04; 4000 x 2.09 = 8360.00; + tax 1939.80 + freight 125.00
    assert bill["subtotal"] == "27847.04" and bill["tax_total"] == "1939.80"
    assert bill["total"] == "29911.84"
    # Lines matched to the order's lines by product.
    assert [ln["purchase_order_line_id"] for ln in bill["lines"]] == [
        po["lines"][0]["id"],
        po["lines"][1]["id"],
    ]
    assert bill["match_status"] == "matched" and bill["match"]["out_of_tolerance"] == []
    assert bill["terminal_id"] == md["terminal"].pk


def test_duplicate_bill_number_per_supplier_case_insensitive(api_a, tenant_a, in_tenant):
    from tenants.parties.models import Supplier

    with in_tenant(tenant_a):
        md = master_data()
        other = Supplier.objects.create(name="Marathon Fuels", code="MAR-B")
    first = api_a.post(BILLS, bill_body(md)).json()["data"]
    res = api_a.post(BILLS, bill_body(md, bill_number="inv-55012"))
    assert (
        res.status_code == 409
        and res.json()["detail"] == "This supplier already has a bill numbered inv-55012."
    )
    # Another supplier may use the same number.
    assert api_a.post(BILLS, bill_body(md, supplier_id=other.pk)).status_code == 201
    # A void bill's number may be used again.
    assert api_a.post(f"{BILLS}/{first['id']}/void", {}).status_code == 200
    assert api_a.post(BILLS, bill_body(md)).status_code == 201


def test_three_way_match_hand_worked_variances(api_a, tenant_a, in_tenant):
    """PO: diesel 8000 @ 2.4512, gas 4000 @ 2.0900; received net 7950 diesel, 4000 gas.
    Bill: diesel 8000 @ 2.4612 (billed the ordered, not the received, and 1 cent more), gas 3990 @ 2.0930.
    Tolerances (defaults): quantity 0.5 %, price 0.0050 per unit.
    - diesel: qty var 8000 - 7950 = +50 > 7950 x 0.5 % = 39.75 → out; price var +0.0100 > 0.0050 → out;
      money: 50 x 2.4512 = 122.56, 0.01 x 8000 = 80.00.
    - gas: qty var 3990 - 4000 = -10, |-10| ≤ 20.000 → ok; price var +0.0030 ≤ 0.0050 → ok;
      money: -10 x 2.09 = -20.90, 0.003 x 3990 = 11.97."""
    with in_tenant(tenant_a):
        md = master_data()
    po = received_po(api_a, md)
    lines = [
        {"product_id": md["diesel"].pk, "quantity": "8000", "unit_price": "2.4612"},
        {"product_id": md["gas"].pk, "quantity": "3990", "unit_price": "2.0930"},
    ]
    bill = api_a.post(BILLS, bill_body(md, po, lines=lines)).json()["data"]
    assert bill["match_status"] == "out_of_tolerance"
    diesel, gas = bill["match"]["lines"]
    assert diesel["received_quantity"] == "7950.000" and diesel["available_quantity"] == "7950.000"
    assert Decimal(diesel["quantity_variance"]) == Decimal("50")
    assert diesel["quantity_variance_percent"] == "0.63" and diesel["quantity_tolerance"] == "39.750"
    assert (
        Decimal(diesel["price_variance"]) == Decimal("0.0100") and diesel["price_variance_percent"] == "0.41"
    )
    assert diesel["quantity_variance_amount"] == "122.56" and diesel["price_variance_amount"] == "80.00"
    assert (diesel["quantity_ok"], diesel["price_ok"], diesel["within_tolerance"]) == (False, False, False)
    assert (
        diesel["reason"]
        == "quantity over the received quantity by 50.000; unit price over the ordered cost by 0.0100"
    )
    assert Decimal(gas["quantity_variance"]) == Decimal("-10") and gas["quantity_tolerance"] == "20.000"
    assert gas["quantity_variance_amount"] == "-20.90" and gas["price_variance_amount"] == "11.97"
    assert gas["within_tolerance"] is True
    assert bill["match"]["out_of_tolerance"] == [1]

    # Approval is refused with the reasons; nothing changes.
    res = api_a.post(f"{BILLS}/{bill['id']}/approve", {})
    assert res.status_code == 409
    assert res.json()["detail"] == (
        "Bill INV-55012 is out of tolerance against its purchase order (line 1: quantity over the "
        "received quantity by 50.000; unit price over the ordered cost by 0.0100). Approving it needs the "
        "permission to override the three-way match."
    )
    assert api_a.get(f"{BILLS}/{bill['id']}").json()["data"]["status"] == "draft"

    # Wider tolerances (1 % quantity, 0.02 per unit) bring it in.
    res = api_a.put(
        f"{BILLS}/match-settings", {"quantity_tolerance_percent": "1", "price_tolerance_per_unit": "0.02"}
    )
    assert res.status_code == 200 and res.json()["data"]["quantity_tolerance_percent"] == "1.000"
    match = api_a.get(f"{BILLS}/{bill['id']}/match").json()["data"]
    assert match["status"] == "matched" and match["lines"][0]["quantity_tolerance"] == "79.500"


def test_override_needs_the_permission(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    po = received_po(api_a, md, diesel_net="7000")
    bill = api_a.post(BILLS, bill_body(md, po)).json()["data"]
    assert bill["match_status"] == "out_of_tolerance"
    accounting = Api(token_for(tenant_a, role="Accounting", email="acct-bill@a.test"))
    res = accounting.post(f"{BILLS}/{bill['id']}/approve", {"override": True, "reason": "Short lift agreed"})
    assert res.status_code == 403
    assert res.json()["detail"] == "You do not have permission to override match bills."
    assert api_a.get(f"{BILLS}/{bill['id']}").json()["data"]["status"] == "draft"
    res = api_a.post(f"{BILLS}/{bill['id']}/approve", {"override": True, "reason": "Short lift agreed"})
    assert res.status_code == 200, res.json()
    data = res.json()["data"]
    assert data["status"] == "approved" and data["match_overridden"] is True
    assert data["timeline"][-1]["details"]["override"] is True
    assert data["timeline"][-1]["details"]["reason"] == "Short lift agreed"
    assert api_a.get(f"{POS}/{po['id']}").json()["data"]["status"] == "billed"


def test_approve_pay_and_po_billed_then_void_unbills(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    po = received_po(api_a, md)
    bill = api_a.post(BILLS, bill_body(md, po)).json()["data"]
    res = api_a.post(f"{BILLS}/{bill['id']}/approve", {})
    assert res.status_code == 200 and res.json()["message"] == "Bill INV-55012 approved successfully"
    po_now = api_a.get(f"{POS}/{po['id']}").json()["data"]
    assert po_now["status"] == "billed" and po_now["bills"][0]["bill_number"] == "INV-55012"
    assert po_now["lines"][0]["billed_quantity"] == "7950.000"
    # An approved bill no longer changes.
    res = api_a.put(f"{BILLS}/{bill['id']}", {"notes": "x"})
    assert res.status_code == 409 and "changes only in draft" in res.json()["detail"]
    res = api_a.post(f"{BILLS}/{bill['id']}/void", {"reason": "Duplicate"})
    assert res.status_code == 200 and res.json()["data"]["status"] == "void"
    assert api_a.get(f"{POS}/{po['id']}").json()["data"]["status"] == "received"
    second = api_a.post(BILLS, bill_body(md, po)).json()["data"]
    api_a.post(f"{BILLS}/{second['id']}/approve", {})
    res = api_a.post(f"{BILLS}/{second['id']}/pay", {})
    assert res.status_code == 200 and res.json()["data"]["status"] == "paid"
    res = api_a.post(f"{BILLS}/{second['id']}/void", {})
    assert res.status_code == 409 and "allowed now: none" in res.json()["detail"]
    # After the order is billed, closing it ends the workflow.
    assert api_a.post(f"{POS}/{po['id']}/close", {}).json()["data"]["status"] == "closed"


def test_second_bill_on_same_lines_sees_what_was_billed(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    po = received_po(api_a, md)
    api_a.post(BILLS, bill_body(md, po))
    again = api_a.post(BILLS, bill_body(md, po, bill_number="INV-55013")).json()["data"]
    diesel = again["match"]["lines"][0]
    assert diesel["billed_elsewhere"] == "7950.000" and diesel["available_quantity"] == "0.000"
    assert again["match_status"] == "out_of_tolerance"
    assert diesel["reason"] == "quantity over the received quantity not yet billed by 7950.000"


def test_bill_without_po_and_list(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    bill = api_a.post(BILLS, bill_body(md, due_date=str(DAY + dt.timedelta(days=40)))).json()["data"]
    assert bill["match_status"] == "no_po" and bill["due_date"] == "2026-12-12"
    page = api_a.get(f"{BILLS}?supplier_id={md['supplier'].pk}&status=draft").json()["data"]
    assert [r["id"] for r in page["items"]] == [bill["id"]] and page["size"] == 25
    assert api_a.get(f"{BILLS}?search=55012").json()["data"]["total"] == 1
    res = api_a.put(
        f"{BILLS}/{bill['id']}",
        {"lines": [{"description": "Freight surcharge", "quantity": "1", "unit_price": "50"}]},
    )
    assert res.status_code == 200 and res.json()["data"]["subtotal"] == "50.00"
    assert res.json()["data"]["total"] == "2114.80"  # 50 + 1939.80 + 125
    assert api_a.post(f"{BILLS}/{bill['id']}/approve", {}).status_code == 200


def test_bill_bad_input(api_a, tenant_a, in_tenant):
    from tenants.parties.models import Supplier

    with in_tenant(tenant_a):
        md = master_data()
        other = Supplier.objects.create(name="Marathon Fuels", code="MAR-C")
    po = received_po(api_a, md)
    res = api_a.post(BILLS, bill_body(md, po, supplier_id=other.pk))
    assert (
        res.status_code == 422
        and res.json()["detail"] == f"purchase_order_id: {po['number']} is another supplier's purchase order."
    )
    res = api_a.post(BILLS, bill_body(md, due_date=str(DAY)))
    assert (
        res.status_code == 422 and res.json()["detail"] == "due_date: the due date is before the bill date."
    )
    res = api_a.post(BILLS, bill_body(md, lines=[{"quantity": "1", "unit_price": "1"}]))
    assert (
        res.status_code == 422 and res.json()["detail"] == "lines: a line needs a product or a description."
    )
    assert api_a.get(f"{BILLS}?supplier_id={md['supplier'].pk}").json()["data"]["total"] == 0


def test_supplier_terms_and_delete(api_a, tenant_a, in_tenant):
    from tenants.pricing.models import PaymentTerm

    with in_tenant(tenant_a):
        md = master_data()
        net45 = PaymentTerm.objects.create(name="Net 45 P", net_days=45)
    res = api_a.put(f"{BILLS}/supplier-terms/{md['supplier'].pk}", {"payment_term_id": net45.pk})
    assert res.status_code == 200 and res.json()["data"]["net_days"] == 45
    assert (
        api_a.get(f"{BILLS}/supplier-terms/{md['supplier'].pk}").json()["data"]["payment_term_name"]
        == "Net 45 P"
    )
    bill = api_a.post(BILLS, bill_body(md)).json()["data"]
    assert bill["due_date"] == "2026-12-18"
    res = api_a.delete(f"{BILLS}/{bill['id']}")
    assert res.status_code == 200 and api_a.get(f"{BILLS}/{bill['id']}").status_code == 404
    assert api_a.get(f"{BILLS}/match-settings").json()["data"]["price_tolerance_per_unit"] == "0.0050"


def test_create_bill_service_for_other_apps(tenant_a, in_tenant):
    """The parser and the inbox call `services.create_bill` with plain data."""
    from tenants.purchasing import services

    with in_tenant(tenant_a):
        md = master_data()
        bill = services.create_bill(
            {
                "supplier_id": md["supplier"].pk,
                "bill_number": "P-1",
                "bill_date": DAY,
                "lines": [
                    {"product_id": md["diesel"].pk, "quantity": Decimal("100"), "unit_price": Decimal("2.5")}
                ],
            },
            by=None,
            source="parser",
            source_file="uploads/x.pdf",
        )
        assert bill.total == Decimal("250.00") and bill.source == "parser" and bill.status == "draft"


def test_unapprove_goes_back_to_draft_and_unbills(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = master_data()
    po = received_po(api_a, md)
    bill = api_a.post(BILLS, bill_body(md, po)).json()["data"]
    api_a.post(f"{BILLS}/{bill['id']}/approve", {})
    res = api_a.post(f"{BILLS}/{bill['id']}/unapprove", {})
    assert res.status_code == 200 and res.json()["message"] == "Bill INV-55012 is back to draft"
    assert res.json()["data"]["status"] == "draft" and res.json()["data"]["approved_at"] is None
    assert api_a.get(f"{POS}/{po['id']}").json()["data"]["status"] == "received"


def test_job_logs_per_bill(api_a, tenant_a, in_tenant):
    from tenants.jobs.models import JobLog

    with in_tenant(tenant_a):
        md = master_data()
    bill = api_a.post(BILLS, bill_body(md)).json()["data"]
    other = api_a.post(BILLS, bill_body(md, bill_number="INV-2")).json()["data"]
    with in_tenant(tenant_a):
        JobLog.objects.create(
            message_id="m-bill-1", actor="parse_document", kind="bill_parse", bill_id=bill["id"]
        )
        JobLog.objects.create(
            message_id="m-bill-2", actor="send", kind="email", document_type="bill", document_id=bill["id"]
        )
        JobLog.objects.create(
            message_id="m-bill-3", actor="parse_document", kind="bill_parse", bill_id=other["id"]
        )
    res = api_a.get(f"/api/job-log/get-logs?bill_id={bill['id']}")
    assert res.status_code == 200 and res.json()["status_code"] == 200
    logs = res.json()["data"]["logs"]
    assert sorted((j["kind"], j["bill_id"], j["document_id"]) for j in logs) == [
        ("bill_parse", bill["id"], None),
        ("email", None, bill["id"]),
    ]
