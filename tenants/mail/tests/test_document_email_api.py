"""Emailing invoices and delivery tickets through the API (spec §7), delivered to a real SMTP
server on loopback (aiosmtpd): drafts per subscribed contact, the attachment names of spec §5,
cc/bcc parsing of edited drafts, one email per recipient, the PDF checks and mark-sent."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tenants.mail.tests.test_documents_mail import a_contact
from tenants.mail.tests.test_rules import a_pdf


@pytest.fixture
def world(api_a: Any, tenant_a: Any, in_tenant: Any) -> dict[str, Any]:
    from tenants.invoicing.tests.helpers import delivered_order, master_data
    from tenants.pricing.models import PaymentTerm

    with in_tenant(tenant_a):
        term = PaymentTerm.objects.create(name="Net 30", net_days=30)
        md = master_data(payment_term=term, name="Lone Star Construction, LLC", email="billing@lonestar.test")
        order = delivered_order(md, lines=(("diesel", "1000", "3.1275", "987.3"),), po_number="PO-77")
        customer = md["customer"]
        a_contact(customer, "Zoe Payables", "ap@lonestar.test", ["invoices"])
        a_contact(customer, "Al Owner", "al@lonestar.test", ["invoices", "delivery_tickets"])
        a_contact(customer, "Dee Dispatch", "dispatch@lonestar.test", ["delivery_tickets"])
    res = api_a.post(f"/api/invoice/create?sales_order_id={order.pk}")
    assert res.status_code == 200, res.json()
    invoice = api_a.get(f"/api/invoice/{res.json()['data']['id']}").json()["data"]
    return {"order": order, "invoice": invoice, "customer": customer}


PDF = a_pdf()


def post_pdf(api: Any, path: str, data: bytes | None = PDF, name: str = "invoice.pdf") -> Any:
    body = {}
    if data is not None:
        f = io.BytesIO(data)
        f.name = name
        body["invoice_pdf"] = f
    return api.client.post(path, body, HTTP_AUTHORIZATION=f"Bearer {api.token}")


def test_the_invoice_pdf_must_be_a_real_pdf(api_a, world):
    inv = world["invoice"]["id"]
    for path in (f"/api/invoice/{inv}/email", f"/api/invoice/{inv}/send-email"):
        res = post_pdf(api_a, path, None)
        assert res.status_code == 422 and res.json()["detail"] == "PDF file is required for invoice email"
        for bad in (b"", b"hello, not a pdf", b"%PDF-1.4 truncated"):
            res = post_pdf(api_a, path, bad)
            assert res.status_code == 422 and res.json()["detail"] == "Invalid PDF file provided", bad
    assert api_a.get("/api/email/").json()["data"]["total"] == 0
    assert post_pdf(api_a, "/api/invoice/999999/email").status_code == 404


def test_prepare_drafts_one_per_subscribed_contact_then_send_the_edited_drafts(
    api_a, world, jobs, smtp, django_capture_on_commit_callbacks
):
    inv = world["invoice"]
    res = post_pdf(api_a, f"/api/invoice/{inv['id']}/email?include_delivery_ticket=false")
    assert res.status_code == 200, res.json()
    drafts = res.json()["data"]
    assert res.json()["message"] == "2 draft emails prepared"
    assert [(d["recipient_email"], d["recipient_name"]) for d in drafts] == [
        ("al@lonestar.test", "Al Owner"),
        ("ap@lonestar.test", "Zoe Payables"),
    ]
    day = inv["invoice_date"]
    assert [a["file_name"] for a in drafts[0]["attachments"]] == [f"invoice-{inv['id']}-{day}.pdf"]
    assert drafts[0]["category"] == "invoice" and drafts[0]["parent_id"] == inv["id"]
    assert inv["invoice_no"] in drafts[0]["subject"]
    assert api_a.get("/api/email/").json()["data"]["total"] == 0  # drafts only
    # The user edits the first draft (cc, bcc, subject) and drops the second.
    edited = {
        **drafts[0],
        "subject": "Your invoice",
        "cc": ["Boss <boss@alpha.test>", {"email": "sales@alpha.test"}],
        "bcc": ["archive@alpha.test"],
        "attachments": [
            {"file_key": a["file_key"], "file_name": a["file_name"]} for a in drafts[0]["attachments"]
        ],
    }
    with django_capture_on_commit_callbacks(execute=True):
        res = api_a.post("/api/email/", [edited])
    assert res.status_code == 201, res.json()
    row = res.json()["data"][0]
    assert row["cc"] == [
        {"email": "boss@alpha.test", "name": "Boss"},
        {"email": "sales@alpha.test", "name": "sales"},
    ]
    assert jobs() == 1
    (msg,) = smtp.messages
    assert msg["To"] == "Al Owner <al@lonestar.test>" and msg["Subject"] == "Your invoice"
    assert smtp.envelopes[0][1] == [
        "al@lonestar.test",
        "boss@alpha.test",
        "sales@alpha.test",
        "archive@alpha.test",
    ]
    assert [p.get_filename() for p in msg.walk() if p.get_filename()] == [f"invoice-{inv['id']}-{day}.pdf"]


def test_send_one_email_per_recipient_with_the_customer_named_attachment_then_mark_sent(
    api_a, world, jobs, smtp, django_capture_on_commit_callbacks
):
    inv = world["invoice"]
    with django_capture_on_commit_callbacks(execute=True):
        res = post_pdf(api_a, f"/api/invoice/{inv['id']}/send-email?idempotency_key=dialog-1")
    assert res.status_code == 200, res.json()
    assert res.json()["message"] == "2 emails queued for sending"
    assert jobs() == 2
    assert sorted(m["To"] for m in smtp.messages) == [
        "Al Owner <al@lonestar.test>",
        "Zoe Payables <ap@lonestar.test>",
    ]
    expected = f"Lone-Star-Construction-LLC-{inv['invoice_no']}-{inv['invoice_date']}.pdf"
    for msg in smtp.messages:
        parts = [p for p in msg.walk() if p.get_filename()]
        assert [p.get_filename() for p in parts] == [expected]
        assert parts[0].get_payload(decode=True) == PDF
    # A double click (same key) sends nothing more.
    with django_capture_on_commit_callbacks(execute=True):
        post_pdf(api_a, f"/api/invoice/{inv['id']}/send-email?idempotency_key=dialog-1")
    jobs()
    assert len(smtp.messages) == 2
    res = api_a.put(f"/api/invoice/{inv['id']}/email-sent")
    assert res.status_code == 200, res.json()
    data = res.json()["data"]
    assert data["document_type"] == "invoice" and data["times"] == 1
    assert data["emails"]["sent"] == 2 and data["emails"]["failed"] == 0
    assert api_a.get(f"/api/invoice/{inv['id']}").json()["data"]["email_sent_at"]
    # The history of the invoice, and the job log of its sends.
    history = api_a.get("/api/email/", {"category": "invoice", "parent_id": inv["id"]}).json()["data"]
    assert history["total"] == 2 and {e["status"] for e in history["items"]} == {"sent"}
    logs = api_a.get("/api/job-log/get-logs", {"invoice_id": inv["id"]}).json()
    items = logs["data"].get("logs") or logs["data"].get("items")
    assert len(items) == 2


def test_billing_email_when_nobody_subscribed(api_a, world, tenant_a, in_tenant):
    from tenants.parties.models import CustomerContact

    with in_tenant(tenant_a):
        CustomerContact.objects.filter(customer=world["customer"]).delete()
    drafts = post_pdf(api_a, f"/api/invoice/{world['invoice']['id']}/email").json()["data"]
    assert [(d["recipient_email"], d["recipient_name"]) for d in drafts] == [
        ("billing@lonestar.test", "Lone Star Construction, LLC")
    ]


needs_delivery = pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("tenants.delivery") is None,
    reason="tenants.delivery not installed",
)


def test_invoice_with_its_delivery_ticket(api_a, world, jobs, smtp, django_capture_on_commit_callbacks):
    inv = world["invoice"]
    with django_capture_on_commit_callbacks(execute=True):
        res = post_pdf(api_a, f"/api/invoice/{inv['id']}/send-email?include_delivery_ticket=true")
    assert res.status_code == 200, res.json()
    rows = res.json()["data"]
    assert {r["category"] for r in rows} == {"invoice_with_delivery_ticket"}
    jobs()
    names = [p.get_filename() for p in smtp.messages[0].walk() if p.get_filename()]
    assert names[0].startswith("Lone-Star-Construction-LLC-INV") and len(names) == 2
    assert names[1].startswith("Lone-Star-Construction-LLC-DT")
    ticket_pdf = next(p for p in smtp.messages[0].walk() if p.get_filename() == names[1])
    assert ticket_pdf.get_payload(decode=True).startswith(b"%PDF-")


def test_delivery_ticket_trio(api_a, world, jobs, smtp, django_capture_on_commit_callbacks):
    order = world["order"].pk
    res = api_a.post(f"/api/delivery-ticket/email?sales_order_id={order}&split_by_po=false")
    assert res.status_code == 200, res.json()
    drafts = res.json()["data"]
    assert [d["recipient_email"] for d in drafts] == ["al@lonestar.test", "dispatch@lonestar.test"]
    assert drafts[0]["category"] == "delivery_ticket" and drafts[0]["parent_id"] == order
    assert drafts[0]["attachments"][0]["file_name"].startswith("Lone-Star-Construction-LLC-DT")
    with django_capture_on_commit_callbacks(execute=True):
        res = api_a.post(f"/api/delivery-ticket/send-email?sales_order_id={order}&split_by_po=false")
    assert res.status_code == 200, res.json()
    assert jobs() == 2 and len(smtp.messages) == 2
    res = api_a.put(f"/api/delivery-ticket/email-sent?sales_order_id={order}")
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["emails"]["sent"] == 2
    tickets = api_a.get("/api/delivery-ticket", {"sales_order_id": order}).json()["data"]["items"]
    assert tickets and all(t["emailed_at"] for t in tickets)
    assert api_a.post("/api/delivery-ticket/email?sales_order_id=999999").status_code == 404


def test_the_designer_previews_and_prints_the_real_invoice_and_ticket(api_a, world):
    inv = world["invoice"]
    (first, *_) = api_a.get("/api/template/sources/invoice").json()["data"]
    assert first == {"id": inv["id"], "label": f"{inv['invoice_no']} · Lone Star Construction, LLC"}
    html = api_a.get(f"/api/template/print/invoice/{inv['id']}").json()["data"]["html"]
    assert inv["invoice_no"] in html and "Lone Star Construction, LLC" in html
    order = world["order"].pk
    assert api_a.get(f"/api/delivery-ticket/generate?sales_order_id={order}").status_code == 200
    (ticket, *_) = api_a.get("/api/template/sources/delivery_ticket").json()["data"]
    assert ticket["label"].startswith("DT-")
    res = api_a.get(f"/api/template/print/delivery_ticket/{ticket['id']}", HTTP_ACCEPT="application/pdf")
    assert res.status_code == 200 and res.content.startswith(b"%PDF-")
    shipped = next(
        t
        for t in api_a.get("/api/template", {"type": "delivery_ticket"}).json()["data"]["items"]
        if t["isDefault"]
    )
    res = api_a.post(f"/api/template/{shipped['id']}/preview?source_id={ticket['id']}")
    assert res.status_code == 200 and ticket["label"].split(" ")[0] in res.json()["data"]["html"]
