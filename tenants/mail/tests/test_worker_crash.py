"""A real Dramatiq worker sends 200 outbox emails to a real SMTP server; it is killed (SIGKILL) in
the middle of an SMTP conversation, restarted, and every email arrives exactly once.

The worker is killed by the SMTP server itself while it receives a message's data, before it
answers: the deterministic form of "a worker dies mid-send". (The residual window between the
server's 250 and the worker's commit is explained in docs/email.md.)"""

from __future__ import annotations

import collections
import signal
import time
import uuid
from datetime import timedelta
from email.message import Message as Email

import pytest
from django.conf import settings
from django.db import connection

from tests.smtp import FakeSmtp
from tests.workers import Worker, worker_env

TOTAL = 200
KILL_AT = 60


@pytest.fixture
def db(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """Committed database access (the worker is another process): pytest-django's `db` would wrap
    the test in a transaction the worker cannot see. Named `db` so the test database is set up."""
    with django_db_blocker.unblock():
        yield


def test_sigkill_mid_send_then_restart_delivers_each_email_once(
    two_tenants, db, django_db_blocker, monkeypatch
):
    from dramatiq import Message
    from dramatiq.brokers.redis import RedisBroker

    from tenants.mail import receivers, services
    from tenants.mail.models import SentEmail

    tenant = two_tenants[0].tenant
    namespace = f"fdtest-{uuid.uuid4().hex[:10]}"
    broker = RedisBroker(url=settings.DRAMATIQ_BROKER_URL, namespace=namespace)

    def to_redis(schema: str, jobs: list[dict[str, int]]) -> None:
        for job in jobs:
            broker.enqueue(
                Message(
                    queue_name="email",
                    actor_name="send_email",
                    args=(),
                    kwargs=job,
                    options={"tenant_schema": schema},
                )
            )

    monkeypatch.setattr(receivers, "enqueue", to_redis)
    killed: dict[str, int] = {}
    worker: Worker | None = None

    def kill_the_sender(message: Email) -> str | None:
        """Called under the server's lock: the KILL_AT+1st message kills the worker sending it."""
        if not killed and len(server.messages) == KILL_AT and worker is not None:
            killed["at"] = len(server.messages)
            worker.kill(10)
            return "421 4.3.2 gone"  # nobody hears it: the sender is dead
        return None

    server = FakeSmtp(before_data=kill_the_sender).start()
    env = worker_env(DRAMATIQ_NAMESPACE=namespace, **server.env())
    ids: list[int] = []
    with django_db_blocker.unblock():
        connection.set_tenant(tenant)
        try:
            batch = uuid.uuid4().hex[:8]
            rows = services.queue_email(
                recipients=[f"customer{i}@crash.test" for i in range(TOTAL)],
                subject=f"Crash test {batch}",
                body="Exactly once, please.",
                category="invoice",
                parent_id=1,
            )
            ids = [r.pk for r in rows]
            expected = {r.message_id for r in rows}
            worker = Worker(env, queues=["email"]).start()
            deadline = time.monotonic() + 120
            while not killed and time.monotonic() < deadline:
                worker.check_running()
                time.sleep(0.05)
            assert killed.get("at") == KILL_AT, "the worker was not killed mid-send"
            # killed_at is set just before the signal: wait for the kernel to reap the process.
            assert worker.wait(timeout=30) == -signal.SIGKILL
            states = collections.Counter(
                SentEmail.objects.filter(pk__in=ids).values_list("status", flat=True)
            )
            assert states["sent"] == KILL_AT and states["sent"] < TOTAL
            # Restart; the outbox offers what nobody is sending to the new worker (the dead worker's
            # prefetched messages sit in its unacknowledged set until the broker gives them back).
            worker = Worker(env, queues=["email"]).start()
            time.sleep(1.0)
            # No count is asserted here: the new worker is already sending the messages still in
            # the queue, and the sweep skips the rows it holds. What counts is checked below.
            services.requeue_stale(older_than=timedelta(0))
            deadline = time.monotonic() + 180
            last_sweep = time.monotonic()
            while time.monotonic() < deadline:
                if SentEmail.objects.filter(pk__in=ids, status="sent").count() == TOTAL:
                    break
                if time.monotonic() - last_sweep > 5:  # as the scheduler's periodic sweep would
                    services.requeue_stale(older_than=timedelta(seconds=5))
                    last_sweep = time.monotonic()
                worker.check_running("the restarted worker")
                time.sleep(0.2)
            time.sleep(0.5)  # let any duplicate (there must be none) reach the server
            counts = collections.Counter(server.message_ids)
            assert SentEmail.objects.filter(pk__in=ids, status="sent").count() == TOTAL
            assert set(counts) == expected
            assert max(counts.values()) == 1, [m for m, n in counts.items() if n > 1][:5]
            assert len(server.message_ids) == TOTAL
        finally:
            if worker is not None:
                worker.stop(grace=0)
            server.stop()
            SentEmail.objects.filter(pk__in=ids).delete()
            from tenants.jobs.models import JobLog

            JobLog.objects.filter(actor="send_email").delete()
            connection.set_schema_to_public()
            for key in broker.client.keys(f"{namespace}*"):
                broker.client.delete(key)
