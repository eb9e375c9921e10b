"""A real Dramatiq worker sends 200 outbox emails to a real SMTP server; it is killed (SIGKILL) in
the middle of an SMTP conversation, restarted, and every email arrives exactly once.

The worker is killed by the SMTP server itself while it receives a message's data, before it
answers: the deterministic form of "a worker dies mid-send". (The residual window between the
server's 250 and the worker's commit is explained in docs/email.md.)"""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings
from django.db import connection

from tenants.mail.tests.smtp import free_port

ROOT = Path(__file__).resolve().parents[3]
TOTAL = 200
KILL_AT = 60


class KillingServer:
    def __init__(self) -> None:
        self.message_ids: list[str] = []
        self.lock = threading.Lock()
        self.worker: subprocess.Popen | None = None
        self.killed_at: int | None = None

    async def handle_DATA(self, server, session, envelope) -> str:  # type: ignore[no-untyped-def]
        from email import message_from_bytes

        msg = message_from_bytes(envelope.content)
        with self.lock:
            if self.killed_at is None and len(self.message_ids) == KILL_AT and self.worker is not None:
                self.killed_at = len(self.message_ids)
                os.killpg(self.worker.pid, signal.SIGKILL)
                self.worker.wait(10)
                return "421 4.3.2 gone"  # nobody hears it: the sender is dead
            self.message_ids.append(str(msg["Message-ID"]))
        return "250 OK"


def database_url(db: dict) -> str:
    """The test database as a URL for the worker process (a socket directory as `?host=`)."""
    from urllib.parse import quote

    auth = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    host = db["HOST"] or "127.0.0.1"
    if host.startswith("/"):
        return f"postgres://{auth}@:{db['PORT'] or 5432}/{db['NAME']}?host={quote(host)}"
    return f"postgres://{auth}@{host}:{db['PORT'] or 5432}/{db['NAME']}"


def start_worker(env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dramatiq",
            "fueldesk.tasks",
            "--processes",
            "1",
            "--threads",
            "1",
            "--queues",
            "email",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def stop(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


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
    server = KillingServer()
    port = free_port()
    controller = Controller(server, hostname="127.0.0.1", port=port)
    controller.start()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fueldesk.settings",
        "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "DRAMATIQ_BROKER_URL": settings.DRAMATIQ_BROKER_URL,
        "DRAMATIQ_NAMESPACE": namespace,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "EMAIL_USE_TLS": "false",
        "SENTRY_DSN": "",
        "LOG_LEVEL": "WARNING",
    }
    worker = None
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
            worker = server.worker = start_worker(env)
            deadline = time.monotonic() + 120
            while server.killed_at is None and time.monotonic() < deadline:
                if worker.poll() is not None:
                    pytest.fail(f"the worker stopped by itself: {worker.stderr.read().decode()[-2000:]}")
                time.sleep(0.05)
            assert server.killed_at == KILL_AT, "the worker was not killed mid-send"
            # killed_at is set just before the signal: wait for the kernel to reap the process.
            assert worker.wait(timeout=30) == -signal.SIGKILL
            states = collections.Counter(
                SentEmail.objects.filter(pk__in=ids).values_list("status", flat=True)
            )
            assert states["sent"] == KILL_AT and states["sent"] < TOTAL
            # Restart; the outbox offers what nobody is sending to the new worker (the dead worker's
            # prefetched messages sit in its unacknowledged set until the broker gives them back).
            worker = start_worker(env)
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
                if worker.poll() is not None:
                    pytest.fail(f"the restarted worker stopped: {worker.stderr.read().decode()[-2000:]}")
                time.sleep(0.2)
            time.sleep(0.5)  # let any duplicate (there must be none) reach the server
            counts = collections.Counter(server.message_ids)
            assert SentEmail.objects.filter(pk__in=ids, status="sent").count() == TOTAL
            assert set(counts) == expected
            assert max(counts.values()) == 1, [m for m, n in counts.items() if n > 1][:5]
            assert len(server.message_ids) == TOTAL
        finally:
            stop(worker)
            controller.stop()
            SentEmail.objects.filter(pk__in=ids).delete()
            from tenants.jobs.models import JobLog

            JobLog.objects.filter(actor="send_email").delete()
            connection.set_schema_to_public()
            for key in broker.client.keys(f"{namespace}*"):
                broker.client.delete(key)
