"""The outbox's exactly-once through Gmail: a real Dramatiq worker sends 80 emails through the fake
Gmail; the fake SIGKILLs the worker while it holds the 31st message's request (before answering),
a new worker is started, and every email arrives exactly once (docs/google.md). A company of its
own, so the committed Google connection does not reroute other tests' mail."""

from __future__ import annotations

import collections
import signal
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings
from django.db import connection

from infra.fakes.google import FakeGoogle
from tests.workers import Worker, worker_env

TOTAL = 80
KILL_AT = 30


@pytest.fixture
def db(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """Committed database access (the worker is another process)."""
    with django_db_blocker.unblock():
        yield


def grant(fake: FakeGoogle) -> dict[str, Any]:
    """Tokens from the fake's consent round trip, as the callback would receive them."""
    q = {
        "client_id": fake.client_id,
        "redirect_uri": "http://fueldesk.test/google-authentication",
        "response_type": "code",
        "scope": "openid email https://www.googleapis.com/auth/gmail.send",
        "access_type": "offline",
        "prompt": "consent",
        "state": "s",
        "nonce": "n",
    }
    location = httpx.URL(httpx.get(fake.discovery()["authorization_endpoint"], params=q).headers["location"])
    res = httpx.post(
        fake.discovery()["token_endpoint"],
        data={
            "grant_type": "authorization_code",
            "code": location.params["code"],
            "client_id": fake.client_id,
            "client_secret": fake.client_secret,
            "redirect_uri": q["redirect_uri"],
        },
    )
    tokens: dict[str, Any] = res.json()
    return tokens


def test_sigkill_mid_gmail_send_then_restart_delivers_each_email_once(
    db: Any, django_db_blocker: Any, monkeypatch: Any, tmp_path: Path
) -> None:
    from core import secretbox
    from django.utils import timezone
    from dramatiq import Message
    from dramatiq.brokers.redis import RedisBroker
    from tenancy.services import delete_tenant, provision_tenant

    from tenants.google.models import GoogleConnection
    from tenants.mail import receivers, services
    from tenants.mail.models import SentEmail

    namespace = f"fdtest-{uuid.uuid4().hex[:10]}"
    broker = RedisBroker(url=settings.DRAMATIQ_BROKER_URL, namespace=namespace)

    def to_redis(schema: str, jobs: list[dict[str, Any]]) -> None:
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
    fake = FakeGoogle(client_id="crash-client", client_secret="crash-secret").start()
    killed: dict[str, int] = {}
    worker: Worker | None = None
    lock = threading.Lock()

    def before_send(record: dict[str, Any]) -> bool:
        with lock:
            if not killed and len(fake.messages) == KILL_AT and worker is not None:
                killed["at"] = KILL_AT
                worker.kill(10)
                return False  # nobody hears an answer: the sender is dead
        return True

    fake.before_send = before_send
    env = worker_env(DRAMATIQ_NAMESPACE=namespace, SECRET_KEY=settings.SECRET_KEY, **fake.settings())
    tenant = None
    with django_db_blocker.unblock():
        try:
            tenant, _ = provision_tenant(
                company_name="Gmail Crash Co",
                admin_email=f"admin-{uuid.uuid4().hex[:6]}@gmailcrash.test",
                admin_name="Crash Admin",
                admin_password="Correct-Horse-42",
                use_pool=False,
            )
            connection.set_tenant(tenant)
            tokens = grant(fake)
            GoogleConnection.objects.create(
                email="office@fueldesk-demo.test",
                sub="1",
                scope=tokens["scope"],
                refresh_token=secretbox.encrypt(tokens["refresh_token"], purpose="google/tokens"),
                access_token=secretbox.encrypt(tokens["access_token"], purpose="google/tokens"),
                access_expires_at=timezone.now() + timedelta(minutes=50),
                connected_at=timezone.now(),
            )
            rows = services.queue_email(
                recipients=[f"customer{i}@crash.test" for i in range(TOTAL)],
                subject="Gmail crash test",
                body="Exactly once, please.",
            )
            ids = [r.pk for r in rows]
            expected = {r.message_id for r in rows}
            worker = Worker(env, queues=["email"]).start()
            deadline = time.monotonic() + 120
            while not killed and time.monotonic() < deadline:
                worker.check_running()
                time.sleep(0.05)
            assert killed.get("at") == KILL_AT, "the worker was not killed mid-send"
            assert worker.wait(timeout=30) == -signal.SIGKILL
            sent = SentEmail.objects.filter(pk__in=ids, status="sent").count()
            assert sent == KILL_AT
            worker = Worker(env, queues=["email"]).start()
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
            time.sleep(0.5)  # let any duplicate (there must be none) reach the fake
            counts = collections.Counter(m["message_id"] for m in fake.messages)
            assert SentEmail.objects.filter(pk__in=ids, status="sent").count() == TOTAL
            assert set(counts) == expected
            assert max(counts.values()) == 1, [m for m, n in counts.items() if n > 1][:5]
        finally:
            if worker is not None:
                worker.stop(grace=0)
            fake.stop()
            connection.set_schema_to_public()
            if tenant is not None:
                delete_tenant(tenant, tmp_path)
            for key in broker.client.keys(f"{namespace}*"):
                broker.client.delete(key)
