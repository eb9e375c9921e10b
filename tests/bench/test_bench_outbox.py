"""1,000 emails through the outbox: a real Dramatiq worker (1 process, 4 threads) delivers them to
an aiosmtpd server on loopback. Records the throughput and checks that none is duplicated."""

import collections
import subprocess
import time
import uuid

from django.conf import settings
from django.db import connection

from tests.smtp import FakeSmtp
from tests.workers import Worker, worker_env

TOTAL = 1000


def test_outbox_throughput(committed, record, monkeypatch):
    from dramatiq import Message
    from dramatiq.brokers.redis import RedisBroker
    from tenancy.services import provision_tenant

    from tenants.mail import services
    from tenants.mail.models import SentEmail

    tenant, _ = provision_tenant(
        company_name=f"Outbox bench {uuid.uuid4().hex[:6]}",
        admin_email=f"bench-{uuid.uuid4().hex[:6]}@outbox.bench",
        admin_name="Bench",
        admin_password="Bench-pass-2026",
        use_pool=False,
    )
    namespace = f"fdbench-{uuid.uuid4().hex[:8]}"
    broker = RedisBroker(url=settings.DRAMATIQ_BROKER_URL, namespace=namespace)
    monkeypatch.setattr(
        services,
        "enqueue",
        lambda schema, jobs: [
            broker.enqueue(
                Message(
                    queue_name="email",
                    actor_name="send_email",
                    args=(),
                    kwargs=j,
                    options={"tenant_schema": schema},
                )
            )
            for j in jobs
        ],
    )
    smtp = FakeSmtp().start()
    connection.set_tenant(tenant)
    env = worker_env(DRAMATIQ_NAMESPACE=namespace, **smtp.env())
    worker = None
    try:
        t0 = time.perf_counter()
        rows = services.queue_email(
            recipients=[f"c{i}@outbox.bench" for i in range(TOTAL)],
            subject="Bench",
            body="x" * 2000,
            category="invoice",
            parent_id=1,
        )
        queued_s = time.perf_counter() - t0
        worker = Worker(env, threads=4, queues=["email"], stderr=subprocess.DEVNULL).start()
        while not smtp.messages:
            time.sleep(0.05)
        t1 = time.perf_counter()
        ids = [r.pk for r in rows]
        while (
            SentEmail.objects.filter(pk__in=ids, status="sent").count() < TOTAL
            and time.perf_counter() - t1 < 600
        ):
            time.sleep(0.2)
        seconds = time.perf_counter() - t1
        counts = collections.Counter(smtp.message_ids)
        result = {
            "emails": TOTAL,
            "queue_seconds": round(queued_s, 2),
            "send_seconds": round(seconds, 1),
            "emails_per_second": round(TOTAL / seconds, 1),
            "received": len(smtp.messages),
            "duplicates": sum(n - 1 for n in counts.values() if n > 1),
            "worker": "1 process × 4 threads",
        }
        record["outbox"] = result
        print(f"\noutbox: {result}")
        assert result["received"] == TOTAL and result["duplicates"] == 0
    finally:
        if worker is not None:
            worker.stop(grace=0)
        smtp.stop()
        connection.set_schema_to_public()
        for key in broker.client.keys(f"{namespace}*"):
            broker.client.delete(key)
