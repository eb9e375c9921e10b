"""An emailed supplier invoice (APPENDed to a real IMAP mailbox) becomes a bill through the bill
parser: classified as a bill with its reason, parsed for the verify screen, verified into a draft
bill on the open purchase order that fits."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tenants.billparse.tests.conftest import make_directory
from tenants.billparse.tests.invoicegen import make_invoice
from tenants.billparse.tests.test_create_bill import open_po
from tenants.inbox.tests.conftest import MAILBOX_USER
from tenants.inbox.tests.mails import email
from tenants.inbox.tests.test_inbox_imap import AGENT, poll, set_mailbox


@pytest.fixture
def directory(tenant_a: Any, in_tenant: Any) -> dict[str, dict[str, int]]:
    with in_tenant(tenant_a):
        return make_directory()


def review_from(proposal: dict[str, Any]) -> dict[str, Any]:
    """What the verify screen sends when the user accepts every field as the parser read it."""
    result = proposal["result"]
    f = result["fields"]
    return {
        "supplier_id": f["supplier"]["value"],
        "bill_number": f["bill_number"]["value"],
        "bill_date": f["bill_date"]["value"],
        "due_date": f["due_date"]["value"],
        "terminal_id": f["terminal"]["value"],
        "bol_numbers": f["bol_numbers"]["value"] or [],
        "total": f["total"]["value"],
        "lines": [
            {
                "product_id": ln["product"]["value"],
                "description": ln["description"]["value"] or "",
                "gross": ln["gross"]["value"],
                "net": ln["net"]["value"],
                "unit_price": ln["unit_price"]["value"],
                "amount": ln["amount"]["value"],
            }
            for ln in result["lines"]
        ],
        "taxes": [
            {"name": t["description"]["value"], "amount": t["amount"]["value"]} for t in result["taxes"]
        ],
    }


def test_an_emailed_invoice_is_verified_into_a_bill_on_its_purchase_order(
    api_a, tenant_a, in_tenant, directory, dovecot, jobs, django_capture_on_commit_callbacks
):
    data, truth = make_invoice("C", 3101)
    po_id = open_po(in_tenant, tenant_a, directory, truth, terminal=truth.terminal)
    from tenants.parties.models import Supplier

    with in_tenant(tenant_a):
        Supplier.objects.filter(pk=directory["suppliers"][truth.supplier]).update(email="ar@supplier-c.test")
    file_name = f"{truth.bill_number}.pdf"
    dovecot.append(
        MAILBOX_USER,
        email(
            sender="Accounts Receivable <ar@supplier-c.test>",
            subject=f"Invoice {truth.bill_number}",
            body="Our invoice is attached. Thank you for your business.",
            attachments=[(file_name, data, "application/pdf")],
            message_id=f"<{truth.bill_number}@supplier-c.test>",
        ),
    )
    set_mailbox(api_a, dovecot)
    poll(api_a, django_capture_on_commit_callbacks, jobs)
    item = next(
        m for m in api_a.get(AGENT).json()["data"]["items"] if m["subject"] == f"Invoice {truth.bill_number}"
    )
    assert item["classification"] == "bill"
    assert item["classification_reason"] == (
        f"PDF attachment '{file_name}' from supplier {truth.supplier}, and the subject says 'Invoice'."
    )
    detail = api_a.get(f"{AGENT}/{item['id']}").json()["data"]
    assert detail["proposal_error"] == ""
    proposal = detail["bill_proposal"]
    assert proposal["draft"]["supplier_id"] == directory["suppliers"][truth.supplier]
    assert proposal["result"]["fields"]["bill_number"]["value"] == truth.bill_number

    res = api_a.put(f"{AGENT}/{item['id']}/verify", {"verified_as": "bill", "bill": review_from(proposal)})
    assert res.status_code == 200, res.json()
    record = res.json()["data"]["created_record"]
    assert res.json()["message"] == f"Email verified: Bill {truth.bill_number} on its purchase order created"
    assert record["path"] == f"/purchase-order/bills/{record['id']}"
    bill = api_a.get(f"/api/bill/{record['id']}").json()["data"]
    assert bill["bill_number"] == truth.bill_number and Decimal(bill["total"]) == truth.total
    assert bill["purchase_order"]["id"] == po_id
    again = api_a.put(f"{AGENT}/{item['id']}/verify", {"verified_as": "bill", "bill": review_from(proposal)})
    assert again.status_code == 409 and again.json()["detail"] == "This email was already verified."
    with in_tenant(tenant_a):
        from tenants.purchasing.models import Bill

        assert Bill.objects.filter(bill_number=truth.bill_number).count() == 1


def test_verifying_as_a_bill_without_a_parsed_invoice_is_refused(
    api_a, dovecot, jobs, django_capture_on_commit_callbacks, in_tenant, tenant_a
):
    dovecot.append(MAILBOX_USER, email(sender="someone@else.test", subject="hello", body="no invoice"))
    set_mailbox(api_a, dovecot)
    poll(api_a, django_capture_on_commit_callbacks, jobs)
    item = next(m for m in api_a.get(AGENT).json()["data"]["items"] if m["subject"] == "hello")
    res = api_a.put(
        f"{AGENT}/{item['id']}/verify",
        {"verified_as": "bill", "bill": {"supplier_id": 1, "bill_number": "X1", "bill_date": "2026-11-01"}},
    )
    assert res.status_code == 409
    assert res.json()["detail"] == (
        "This email has no invoice PDF the bill parser could read: enter the bill by hand."
    )
    assert api_a.get(f"{AGENT}/{item['id']}").json()["data"]["verified"] is False


def test_an_invoice_classified_other_is_read_as_a_bill_and_verified(
    api_a, tenant_a, in_tenant, directory, dovecot, jobs, django_capture_on_commit_callbacks
):
    # From an address no supplier has, with a subject that does not say invoice: "other".
    data, truth = make_invoice("C", 3102)
    file_name = f"{truth.bill_number}.pdf"
    dovecot.append(
        MAILBOX_USER,
        email(
            sender="office.manager@supplier-c.test",
            subject="paperwork for last week",
            body="See attached.",
            attachments=[(file_name, data, "application/pdf")],
        ),
    )
    set_mailbox(api_a, dovecot)
    poll(api_a, django_capture_on_commit_callbacks, jobs)
    item = next(
        m for m in api_a.get(AGENT).json()["data"]["items"] if m["subject"] == "paperwork for last week"
    )
    assert item["classification"] == "other"
    assert api_a.get(f"{AGENT}/{item['id']}").json()["data"]["bill_proposal"] is None
    res = api_a.put(f"{AGENT}/{item['id']}/read-as", {"kind": "bill"})
    assert res.status_code == 200, res.json()
    assert res.json()["message"] == "Email read as a bill: check it and verify"
    proposal = res.json()["data"]["bill_proposal"]
    assert proposal["result"]["fields"]["bill_number"]["value"] == truth.bill_number
    verified = api_a.put(
        f"{AGENT}/{item['id']}/verify", {"verified_as": "bill", "bill": review_from(proposal)}
    )
    assert verified.status_code == 200, verified.json()
    record = verified.json()["data"]["created_record"]
    bill = api_a.get(f"/api/bill/{record['id']}").json()["data"]
    assert bill["bill_number"] == truth.bill_number and Decimal(bill["total"]) == truth.total
