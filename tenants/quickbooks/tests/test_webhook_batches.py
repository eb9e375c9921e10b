"""One signed webhook naming 20,000 payments (issue 23, section 3): it was one job of ~10 minutes of
sequential reads, started again from the first payment after every worker kill. Now the webhook keeps
each payment as a lookup row and the job works through them in bounded batches, each payment's state
committed with its recording: a killed worker's message, delivered again, resumes at the payment it
was reading, and no payment is recorded twice. Against the fake QuickBooks Online."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import dramatiq

from conftest import Api
from infra.fakes.qbo import FakeQbo, legacy_payload
from tenants.quickbooks.tests.conftest import connect
from tenants.quickbooks.tests.test_sync import _pay, _webhook, issued_invoice, map_everything, qbo_invoices


class WorkerKilled(BaseException):
    """Stands for a SIGKILL in the middle of a lookup: nothing after it runs in that worker."""


def _take_one() -> dramatiq.Message[Any]:
    broker = dramatiq.get_broker()
    queued = [name for name, queue in broker.queues.items() if not queue.empty()]
    assert queued, "no message is queued"
    return dramatiq.Message.decode(broker.queues[queued[0]].get_nowait())


def _process(message: dramatiq.Message[Any], *, killed: bool = False) -> None:
    """As the worker: the middleware around the actor; a killed worker runs nothing after the kill
    (no acknowledgement, no job-log update) and its message is delivered again."""
    from django.db import connection
    from dramatiq.broker import MessageProxy

    broker = dramatiq.get_broker()
    proxy = MessageProxy(message)
    broker.emit_before("process_message", proxy)
    actor = broker.get_actor(proxy.actor_name)
    try:
        actor.fn(*proxy.args, **proxy.kwargs)
    except WorkerKilled:
        assert killed, "the worker was killed unexpectedly"
        connection.set_schema_to_public()
        return
    assert not killed, "the kill did not happen"
    broker.emit_after("process_message", proxy)


def test_a_webhook_of_20000_payments_runs_in_bounded_batches_that_resume_after_a_kill_exactly_once(
    api_a: Api, anon: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any, monkeypatch: Any
) -> None:
    from tenants.invoicing.models import Payment
    from tenants.quickbooks.client import QboClient
    from tenants.quickbooks.models import QboPaymentLookup
    from tenants.quickbooks.services import payments as services  # the batch sizes live with the lookups

    realm = connect(api_a, fake_qbo, realm_id="3333000000000003")["realm_id"]
    invoice = issued_invoice(api_a, in_tenant, tenant_a)
    map_everything(api_a, jobs)
    assert api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push").status_code == 200
    [qbo_invoice] = qbo_invoices(fake_qbo, realm)
    first = _pay(fake_qbo, realm, qbo_invoice, "100.00")
    second = _pay(fake_qbo, realm, qbo_invoice, "200.00")
    ids = [f"9{n:07d}" for n in range(20_000)]  # payments of another app: QBO answers "not found"
    ids[10], ids[150] = str(first["Id"]), str(second["Id"])

    # Small batches keep the test short; the bound is what is checked (production: 100 x 10).
    monkeypatch.setattr(services, "LOOKUP_BATCH", 50)
    monkeypatch.setattr(services, "BATCHES_PER_JOB", 2)
    reads: list[str] = []
    kill_at: set[str] = set()
    real_read = QboClient.read

    def read(self: QboClient, entity: str, qbo_id: str) -> dict[str, Any]:
        reads.append(qbo_id)
        payment = real_read(self, entity, qbo_id)
        if qbo_id in kill_at:  # read, not yet recorded: the worst moment for a kill
            raise WorkerKilled()
        return payment

    monkeypatch.setattr(QboClient, "read", read)

    jobs()  # (drops what earlier steps left queued)
    r = _webhook(anon, legacy_payload(realm, [("Payment", i, "Create") for i in ids]))
    assert r.status_code == 200, r.content
    assert r.json()["message"] == "Webhook accepted (1 company to update)"
    with in_tenant(tenant_a):
        assert QboPaymentLookup.objects.filter(state="pending").count() == 20_000

    def done() -> int:
        with in_tenant(tenant_a):
            return int(QboPaymentLookup.objects.exclude(state="pending").count())

    # One message: two batches of 50, committed, and the next message queued.
    message = _take_one()
    _process(message)
    assert reads == ids[:100] and done() == 100
    with in_tenant(tenant_a):
        assert QboPaymentLookup.objects.get(qbo_id=ids[10]).state == "recorded"
        assert QboPaymentLookup.objects.get(qbo_id=ids[11]).state == "missing"

    # The next message: the worker is killed while it holds the second payment, read but not recorded.
    successor = _take_one()
    assert successor.actor_name == "lookup_payments_job"
    kill_at.add(ids[150])
    reads.clear()
    _process(successor, killed=True)
    assert reads == ids[100:151]
    assert done() == 150  # every payment before the kill stays done; the one in hand is pending
    with in_tenant(tenant_a):
        assert QboPaymentLookup.objects.get(qbo_id=ids[150]).state == "pending"
        assert Payment.objects.count() == 1

    # Delivered again (Dramatiq requeues a dead worker's message): it resumes at that payment.
    kill_at.clear()
    reads.clear()
    _process(successor)
    assert reads == ids[150:250] and done() == 250
    # And delivered once more (a duplicate): it goes on from there, recording nothing twice.
    reads.clear()
    _process(successor)
    assert reads == ids[250:350] and done() == 350
    with in_tenant(tenant_a):
        references = sorted(Payment.objects.values_list("reference", flat=True))
        assert references == sorted(f"QBO payment {p['Id']}" for p in (first, second))
        invoice.refresh_from_db()
        assert invoice.amount_paid == Decimal("300.00")
        assert QboPaymentLookup.objects.filter(state="pending").count() == 20_000 - 350


def test_the_webhook_payments_are_all_looked_up_by_the_chain_of_jobs(
    api_a: Api, anon: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any, monkeypatch: Any
) -> None:
    from tenants.invoicing.models import Payment
    from tenants.quickbooks.models import QboPaymentLookup
    from tenants.quickbooks.services import payments as services  # the batch sizes live with the lookups

    realm = connect(api_a, fake_qbo, realm_id="4444000000000004")["realm_id"]
    invoice = issued_invoice(api_a, in_tenant, tenant_a)
    map_everything(api_a, jobs)
    assert api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push").status_code == 200
    [qbo_invoice] = qbo_invoices(fake_qbo, realm)
    paid = _pay(fake_qbo, realm, qbo_invoice, "50.00")
    monkeypatch.setattr(services, "LOOKUP_BATCH", 7)
    monkeypatch.setattr(services, "BATCHES_PER_JOB", 1)
    ids = [f"8{n:07d}" for n in range(30)] + [str(paid["Id"])]
    r = _webhook(anon, legacy_payload(realm, [("Payment", i, "Create") for i in ids]))
    assert r.status_code == 200
    assert jobs() == 5  # 31 payments, 7 a message
    with in_tenant(tenant_a):
        states = dict(QboPaymentLookup.objects.values_list("qbo_id", "state"))
        assert states[str(paid["Id"])] == "recorded"
        assert sorted(set(states.values())) == ["missing", "recorded"]
        assert Payment.objects.get().reference == f"QBO payment {paid['Id']}"
