"""A real Dramatiq worker SIGKILLed in the middle of a 2,000-row CSV import (issue 7, reliability).

Against a Redis started for this test (never the machine's shared one) and a real worker process
(``dramatiq fueldesk.tasks``) on the test database: the worker is killed while it writes the rows;
nothing of its transaction is kept (all or nothing); its unacknowledged message goes back to the
queue within a minute (Dramatiq's heartbeat + the maintenance our broker runs every few seconds);
a new worker runs it again from the first row and the import ends "completed" with every row once.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, connections

from conftest import PASSWORD, Api, TenantHandle, token_for
from tests.reliability.redis_server import RedisServer
from tests.workers import Worker, worker_env

ROOT = Path(__file__).resolve().parents[2]
ROWS = 2000
CUSTOMERS = "/api/customer/customers"


@contextmanager
def committed() -> Iterator[None]:
    """The ORM on a connection of its own, in autocommit: the test's transaction (pytest-django wraps
    each test in one) is left alone, and what is written here is seen by the worker process."""
    original = connections["default"]
    fresh = connections.create_connection("default")
    connections["default"] = fresh
    try:
        yield
    finally:
        fresh.close()
        connections["default"] = original


@pytest.fixture
def crash_tenant(db: None) -> Iterator[TenantHandle]:
    """A company whose rows are committed (the worker is another process), dropped afterwards."""
    from tenancy.services import ensure_template, provision_tenant

    with committed():
        ensure_template()
        tenant, _ = provision_tenant(
            company_name="Crash Test Fuels",
            admin_email="admin@crash.test",
            admin_name="Crash Admin",
            admin_password=PASSWORD,
            use_pool=False,
        )
        connection.set_schema_to_public()
        try:
            yield TenantHandle(tenant=tenant, admin_email="admin@crash.test")
        finally:
            connection.set_schema_to_public()
            tenant.delete(force_drop=True)


def crash_worker(redis_url: str) -> Worker:
    """A worker on the test's own Redis (both queues: the import runs on "default")."""
    env = worker_env(
        REDIS_URL=redis_url,
        DRAMATIQ_BROKER_URL=redis_url,
        MEDIA_ROOT=str(settings.MEDIA_ROOT),
        CACHE_KEY_PREFIX=str(settings.CACHES["default"]["KEY_PREFIX"]),
        FUELDESK_ENV="test",
        PYTHONUNBUFFERED="1",
    )
    return Worker(env, threads=2, stderr=subprocess.DEVNULL)


def wait_for(check: Any, timeout: float, what: str, every: float = 0.2) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check():
            return time.monotonic() - started
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


def test_a_worker_killed_mid_import_is_requeued_within_a_minute_and_every_row_lands_once(
    crash_tenant: TenantHandle, tmp_path: Path
) -> None:
    import dramatiq
    import fueldesk.tasks  # noqa: F401  (actors on the test's stub broker)
    from core.jobs import build_broker
    from django.core.files.uploadedfile import SimpleUploadedFile

    from conftest import run_queued_jobs
    from tenants.imports.models import DataImport
    from tenants.jobs.models import JobLog
    from tenants.parties.models import Customer

    # Messages earlier tests on this worker left on the stub broker are not this test's to run.
    for queue in dramatiq.get_broker().queues.values():
        while not queue.empty():
            queue.get_nowait()

    with RedisServer(tmp_path) as redis_server:
        api = Api(token_for(crash_tenant))
        lines = ["name,account_number", *(f"Crash Customer {i:05d},CR{i:06d}" for i in range(ROWS))]
        upload = SimpleUploadedFile("crash.csv", ("\n".join(lines) + "\n").encode(), content_type="text/csv")
        res = api.client.post(f"{CUSTOMERS}/import", {"file": upload}, **api._headers())
        assert res.status_code == 202, res.json()
        import_id = res.json()["data"]["import_id"]
        assert run_queued_jobs() == 1  # the check, in-process: the file is valid
        assert api.post(f"{CUSTOMERS}/import/{import_id}/confirm").status_code == 202

        # The confirmed import's message goes to the test's own Redis, where a real worker takes it.
        stub = dramatiq.get_broker()
        queued = [
            dramatiq.Message.decode(stub.queues[q].get_nowait())
            for q in list(stub.queues)
            if not stub.queues[q].empty()
        ]
        assert len(queued) == 1 and queued[0].actor_name == "run_data_import"
        broker = build_broker(url=redis_server.url)
        broker.declare_queue("default")
        broker.enqueue(queued[0])

        def in_tenant(fn: Any) -> Any:
            connection.set_tenant(crash_tenant.tenant)
            try:
                return fn()
            finally:
                connection.set_schema_to_public()

        def imported() -> Any:
            return in_tenant(lambda: DataImport.objects.get(pk=import_id))

        def customers() -> int:
            return int(in_tenant(lambda: Customer.objects.filter(name__startswith="Crash Customer").count()))

        first = crash_worker(redis_server.url)
        second = crash_worker(redis_server.url)
        try:
            first.start()
            wait_for(lambda: imported().processed >= 500, 240, "the worker to write 500 rows")
            first.kill()
            killed_at = time.monotonic()
            # All or nothing: the killed run's transaction is gone with its connection.
            wait_for(lambda: customers() == 0, 30, "the killed run's rows to be rolled back")
            assert imported().status == "importing"
            acks = [
                k for k in redis_server.client().keys("dramatiq:__acks__.*") if redis_server.client().scard(k)
            ]
            assert acks, "the killed worker's message should wait, unacknowledged, in its ack set"

            second.start()

            def entry() -> Any:
                return in_tenant(lambda: JobLog.objects.filter(document_id=import_id).latest("id"))

            wait_for(lambda: entry().attempts >= 2, 120, "the message to be delivered again")
            requeue_delay = time.monotonic() - killed_at
            print(
                f"\n[reliability] message of the SIGKILLed worker delivered again after {requeue_delay:.1f}s"
            )
            assert requeue_delay < 60, f"requeued after {requeue_delay:.0f}s (limit 60s)"

            wait_for(lambda: imported().status == "completed", 240, "the import to complete")
            done = imported()
            assert done.created_rows == ROWS and done.error_rows == 0
            assert customers() == ROWS
            accounts = in_tenant(
                lambda: (
                    Customer.objects.filter(name__startswith="Crash Customer")
                    .values("account_number")
                    .distinct()
                    .count()
                )
            )
            assert accounts == ROWS  # every row exactly once
            log_entry = entry()
            assert log_entry.status == "succeeded" and log_entry.attempts == 2
            client = redis_server.client()
            wait_for(lambda: client.hlen("dramatiq:default.msgs") == 0, 10, "the message to be acknowledged")
            assert client.llen("dramatiq:default") == 0
        finally:
            first.stop()
            second.stop()
