"""The outbox through the API, delivered to a real SMTP server on loopback."""

from __future__ import annotations

import io

import pytest
from django.test import override_settings

from tenants.mail.tests.test_rules import a_pdf
from tests.smtp import smtp_delivery, smtp_settings


def upload_pdf(api, name="invoice.pdf"):
    f = io.BytesIO(a_pdf())
    f.name = name
    res = api.client.post(
        "/api/storage/upload-file",
        {"file": f, "purpose": "attachment"},
        HTTP_AUTHORIZATION=f"Bearer {api.token}",
    )
    assert res.status_code == 201, res.json()
    return res.json()["data"]


def send(api, emails, capture):
    with capture(execute=True):
        res = api.post("/api/email/", emails)
    return res


def test_one_email_per_recipient_with_cc_bcc_and_the_attachment(
    api_a, jobs, smtp, django_capture_on_commit_callbacks
):
    pdf = upload_pdf(api_a)
    res = send(
        api_a,
        [
            {
                "category": "invoice",
                "parent_id": 42,
                "recipient_email": " ap@lonestar.test , ,ops@lonestar.test ",
                "subject": "Invoice INV-001042",
                "body": "Please find the invoice attached.",
                "cc": [
                    {"email": "sales@alpha.test", "name": "Sales"},
                    "Boss <boss@alpha.test>",
                    "audit@alpha.test",
                ],
                "bcc": ["archive@alpha.test"],
                "reply_to": "billing@alpha.test",
                "attachments": [
                    {"file_key": pdf["file_key"], "file_name": "Lone-Star-INV-001042-2026-03-02.pdf"}
                ],
            }
        ],
        django_capture_on_commit_callbacks,
    )
    assert res.status_code == 201, res.json()
    rows = res.json()["data"]
    assert res.json()["message"] == "2 emails queued for sending"
    assert [r["recipient_email"] for r in rows] == ["ap@lonestar.test", "ops@lonestar.test"]
    assert [r["recipient_name"] for r in rows] == ["ap", "ops"]
    assert rows[0]["cc"] == [
        {"email": "sales@alpha.test", "name": "Sales"},
        {"email": "boss@alpha.test", "name": "Boss"},
        {"email": "audit@alpha.test", "name": "audit"},
    ]
    assert all(r["status"] == "queued" for r in rows)
    assert jobs() == 2
    assert len(smtp.messages) == 2
    by_to = {m["To"]: m for m in smtp.messages}
    msg = by_to["ap <ap@lonestar.test>"]
    assert msg["Subject"] == "Invoice INV-001042"
    assert "Sales <sales@alpha.test>" in msg["Cc"] and "Boss <boss@alpha.test>" in msg["Cc"]
    assert "Bcc" not in msg  # bcc is on the envelope only
    assert msg["Reply-To"] == "billing@alpha.test"
    assert msg["Message-ID"] == rows[0]["message_id"]
    rcpts = dict((tuple(r) and (r[0], r[1])) for r in [(e[1][0], e[1]) for e in smtp.envelopes])
    assert set(rcpts["ap@lonestar.test"]) == {
        "ap@lonestar.test",
        "sales@alpha.test",
        "boss@alpha.test",
        "audit@alpha.test",
        "archive@alpha.test",
    }
    parts = [p for p in msg.walk() if p.get_filename()]
    assert [p.get_filename() for p in parts] == ["Lone-Star-INV-001042-2026-03-02.pdf"]
    assert parts[0].get_payload(decode=True).startswith(b"%PDF-")
    got = api_a.get(f"/api/email/{rows[0]['id']}").json()["data"]
    assert got["status"] == "sent" and got["sent_at"] and got["attempts"] == 1
    # The attachment downloads as an attachment, never inline.
    dl = api_a.get(f"/api/email/{rows[0]['id']}/attachments/0")
    assert dl.status_code == 200 and dl["Content-Disposition"].startswith("attachment;")
    assert dl.content.startswith(b"%PDF-")
    assert api_a.get(f"/api/email/{rows[0]['id']}/attachments/1").status_code == 404


def test_one_email_for_all_recipients(api_a, jobs, smtp, django_capture_on_commit_callbacks):
    res = send(
        api_a,
        [{"recipient_email": "a@x.test, b@x.test", "subject": "Hello", "one_per_recipient": False}],
        django_capture_on_commit_callbacks,
    )
    rows = res.json()["data"]
    assert len(rows) == 1 and rows[0]["recipient_email"] == "a@x.test, b@x.test"
    jobs()
    assert len(smtp.messages) == 1
    assert smtp.envelopes[0][1] == ["a@x.test", "b@x.test"]


def test_the_same_idempotency_key_sends_once(api_a, jobs, smtp, django_capture_on_commit_callbacks):
    body = [{"recipient_email": "a@x.test", "subject": "Once", "idempotency_key": "invoice-42-send-1"}]
    first = send(api_a, body, django_capture_on_commit_callbacks).json()["data"]
    again = send(api_a, body, django_capture_on_commit_callbacks).json()["data"]
    assert [r["id"] for r in first] == [r["id"] for r in again]
    jobs()
    assert len(smtp.messages) == 1


def test_a_redelivered_message_does_not_send_twice(
    api_a, jobs, smtp, django_capture_on_commit_callbacks, in_tenant, tenant_a
):
    from tenants.mail import services

    rows = send(
        api_a, [{"recipient_email": "a@x.test", "subject": "Once"}], django_capture_on_commit_callbacks
    ).json()["data"]
    jobs()
    with in_tenant(tenant_a):
        assert services.deliver(rows[0]["id"]) == "sent"  # the redelivery finds it sent
    assert len(smtp.messages) == 1


def test_temporary_failures_are_retried_then_sent(
    api_a, django_capture_on_commit_callbacks, in_tenant, tenant_a
):
    from tenants.mail import services

    with smtp_delivery(fail_first=2) as recorder:
        rows = send(
            api_a, [{"recipient_email": "a@x.test", "subject": "Later"}], django_capture_on_commit_callbacks
        ).json()["data"]
        with in_tenant(tenant_a):
            for _ in range(2):
                with pytest.raises(services.TemporaryFailure, match="451"):
                    services.deliver(rows[0]["id"])
        mid = api_a.get(f"/api/email/{rows[0]['id']}").json()["data"]
        assert mid["status"] == "queued" and "451" in mid["error"] and mid["attempts"] == 2
        with in_tenant(tenant_a):
            assert services.deliver(rows[0]["id"]) == "sent"
        assert len(recorder.messages) == 1
    done = api_a.get(f"/api/email/{rows[0]['id']}").json()["data"]
    assert done["status"] == "sent" and done["attempts"] == 3 and done["error"] == ""


def test_a_permanent_failure_is_recorded(api_a, django_capture_on_commit_callbacks, in_tenant, tenant_a):
    from tenants.mail import services

    with override_settings(**smtp_settings(1)):  # nothing listens on port 1: connection refused
        rows = send(
            api_a, [{"recipient_email": "a@x.test", "subject": "Never"}], django_capture_on_commit_callbacks
        ).json()["data"]
        with in_tenant(tenant_a):
            for _ in range(services.MAX_ATTEMPTS - 1):
                with pytest.raises(services.TemporaryFailure):
                    services.deliver(rows[0]["id"])
            assert services.deliver(rows[0]["id"]) == "failed"
    got = api_a.get(f"/api/email/{rows[0]['id']}").json()["data"]
    assert got["status"] == "failed" and "ConnectionRefusedError" in got["error"]


def test_history_filters_and_sorts(api_a, django_capture_on_commit_callbacks):
    send(
        api_a,
        [
            {"recipient_email": "a@x.test", "subject": "Inv 1", "category": "invoice", "parent_id": 7},
            {
                "recipient_email": "b@x.test",
                "subject": "Inv+DT",
                "category": "invoice_with_delivery_ticket",
                "parent_id": 7,
            },
            {"recipient_email": "c@x.test", "subject": "Other", "category": "invoice", "parent_id": 8},
        ],
        django_capture_on_commit_callbacks,
    )
    page = api_a.get(
        "/api/email/", {"category": "invoice", "sort_by": "sent_at", "order": "desc", "page": 1}
    ).json()["data"]
    assert page["size"] == 50 and {e["subject"] for e in page["items"]} == {"Inv 1", "Other"}
    by_parent = api_a.get("/api/email/", {"parent_id": 7}).json()["data"]["items"]
    assert {e["subject"] for e in by_parent} == {"Inv 1", "Inv+DT"}
    asc = api_a.get("/api/email/", {"sort_by": "subject", "order": "asc"}).json()["data"]["items"]
    assert [e["subject"] for e in asc] == ["Inv 1", "Inv+DT", "Other"]
    assert api_a.get("/api/email/", {"sort_by": "password"}).status_code == 422


def test_bad_input_changes_nothing(api_a, api_b, django_capture_on_commit_callbacks, tenant_b):
    assert api_a.post("/api/email/", []).status_code == 422
    res = api_a.post("/api/email/", [{"recipient_email": "a@x.test, nope", "subject": "x"}])
    assert res.status_code == 422 and "'nope' is not a valid email address." in res.json()["detail"]
    res = api_a.post(
        "/api/email/", [{"recipient_email": "a@x.test", "subject": "x", "cc": ["Jane <jane@x.test"]}]
    )
    assert res.status_code == 422
    # Another company's file cannot be attached.
    other = upload_pdf(api_b)
    res = api_a.post(
        "/api/email/",
        [{"recipient_email": "a@x.test", "subject": "x", "attachments": [{"file_key": other["file_key"]}]}],
    )
    assert res.status_code == 422 and "uploaded by this company" in res.json()["detail"]
    assert api_a.get("/api/email/").json()["data"]["total"] == 0
