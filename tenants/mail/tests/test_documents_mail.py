"""A document's email, the generic part: who receives it (the contact book), the drafts, the
outbox's job-log entries and the scheduler's stale re-queue. Delivered to a real SMTP server."""

from __future__ import annotations

import pytest

from tenants.mail.tests.test_rules import a_pdf


def a_customer(name="Lone Star Construction LLC", email="billing@lonestar.test"):
    from tenants.parties.models import Customer

    return Customer.objects.create(name=name, account_number=f"C-{name[:6]}", email=email)


def a_contact(customer, name, email, services=(), ship_to=None):
    from tenants.parties.models import ContactService, CustomerContact

    contact = CustomerContact.objects.create(customer=customer, name=name, email=email, ship_to=ship_to)
    for code in services:
        service, _ = ContactService.objects.get_or_create(code=code, defaults={"name": code.title()})
        contact.services.add(service)
    return contact


def test_recipients_are_the_subscribed_contacts_else_the_billing_email(tenant_a, in_tenant):
    from tenants.mail.selectors import document_recipients

    with in_tenant(tenant_a):
        customer = a_customer()
        assert document_recipients(customer.pk, "invoices") == [("billing@lonestar.test", customer.name)]
        a_contact(customer, "Zoe Payables", "ap@lonestar.test", ["invoices"])
        a_contact(customer, "Al Owner", "al@lonestar.test", ["invoices", "statements"])
        a_contact(customer, "Dee Dispatch", "dispatch@lonestar.test", ["delivery_tickets"])
        a_contact(customer, "No Mail", "", ["invoices"])
        assert document_recipients(customer.pk, "invoices") == [
            ("al@lonestar.test", "Al Owner"),
            ("ap@lonestar.test", "Zoe Payables"),
        ]
        assert document_recipients(customer.pk, "delivery_tickets") == [
            ("dispatch@lonestar.test", "Dee Dispatch")
        ]
        nobody = a_customer("Nobody Inc", email="")
        assert document_recipients(nobody.pk, "invoices") == []


def test_drafts_one_per_recipient_then_sent_with_the_job_log_entries(
    tenant_a, in_tenant, jobs, smtp, django_capture_on_commit_callbacks
):
    from tenants.jobs.models import JobLog
    from tenants.mail import services
    from tenants.mail.models import SentEmail

    with in_tenant(tenant_a):
        doc = services.DocumentEmail(
            category="invoice",
            parent_id=77,
            recipients=[("al@lonestar.test", "Al Owner"), ("ap@lonestar.test", "")],
            subject="Invoice INV-000077",
            body="Please find attached.",
            attachments=[services.Attachment("invoice-77-2026-03-02.pdf", data=a_pdf())],
        )
        drafts = services.prepare_drafts(doc)
        assert [(d["recipient_email"], d["recipient_name"]) for d in drafts] == [
            ("al@lonestar.test", "Al Owner"),
            ("ap@lonestar.test", "ap"),
        ]
        assert drafts[0]["attachments"] == drafts[1]["attachments"]
        assert drafts[0]["attachments"][0]["file_name"] == "invoice-77-2026-03-02.pdf"
        assert SentEmail.objects.count() == 0  # drafts are not emails yet
        with django_capture_on_commit_callbacks(execute=True):
            rows = services.send_document_email(doc, idempotency_key="inv-77-once")
        assert len(rows) == 2
    assert jobs() == 2
    assert sorted(m["To"] for m in smtp.messages) == [
        "Al Owner <al@lonestar.test>",
        "ap <ap@lonestar.test>",
    ]
    with in_tenant(tenant_a):
        entries = list(JobLog.objects.filter(kind="email").order_by("id"))
        assert [(e.document_type, e.document_id, e.status) for e in entries] == [
            ("invoice", 77, "succeeded"),
            ("invoice", 77, "succeeded"),
        ]
        # The same key again: the same rows, nothing sent twice.
        with django_capture_on_commit_callbacks(execute=True):
            again = services.send_document_email(doc, idempotency_key="inv-77-once")
        assert {r.pk for r in again} == {r.pk for r in rows}
    jobs()
    assert len(smtp.messages) == 2


def test_no_recipient_is_a_clear_422(tenant_a, in_tenant):
    from core.errors import ApiError

    from tenants.mail import services

    with in_tenant(tenant_a):
        doc = services.DocumentEmail("invoice", 1, [], "s", "b", [])
        with pytest.raises(ApiError) as err:
            services.prepare_drafts(doc)
        assert err.value.status_code == 422 and "contact book" in str(err.value)


def test_mark_emailed_counts_and_remembers_who(tenant_a, in_tenant):
    from tenants.mail import selectors, services

    with in_tenant(tenant_a):
        assert selectors.emailed_document("invoice", 5) is None
        first = services.mark_emailed(document_type="invoice", document_id=5)
        again = services.mark_emailed(document_type="invoice", document_id=5)
        assert first.pk == again.pk and again.times == 2 and again.marked_at >= first.marked_at


def test_the_scheduler_requeues_stale_emails_every_five_minutes(
    tenant_a, in_tenant, jobs, smtp, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from core.jobs import PERIODIC
    from django.utils import timezone

    from tenants.mail import services
    from tenants.mail.models import SentEmail
    from tenants.mail.tasks import mail_requeue_stale

    assert PERIODIC["mail_requeue_stale"] == 300
    with in_tenant(tenant_a):
        (row,) = services.queue_email(recipients="late@x.test", subject="Stuck")  # never enqueued
        SentEmail.objects.filter(pk=row.pk).update(updated_at=timezone.now() - timedelta(minutes=6))
    jobs()
    mail_requeue_stale.fn()
    jobs()
    assert [m["To"] for m in smtp.messages] == ["late <late@x.test>"]
    with in_tenant(tenant_a):
        assert SentEmail.objects.get(pk=row.pk).status == "sent"
