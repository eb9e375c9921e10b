"""The tenant-stamping middleware: messages carry their schema; tenant actors refuse to run without."""

import dramatiq
import pytest
from core.jobs import SCHEMA_OPTION, MissingTenant, tenant_actor
from django.db import connection

from conftest import run_queued_jobs

SEEN: list[str] = []


@tenant_actor(max_retries=0)
def remember_schema(tag: str) -> None:
    SEEN.append(f"{tag}:{connection.schema_name}")


@tenant_actor(max_retries=0)
def always_fails(invoice_id: int) -> None:
    raise RuntimeError("boom")


@pytest.fixture(autouse=True)
def _clear():
    SEEN.clear()
    broker = dramatiq.get_broker()
    for q in broker.queues.values():
        while not q.empty():
            q.get_nowait()


def test_messages_run_in_the_tenant_that_sent_them(tenant_a, tenant_b, in_tenant):
    with in_tenant(tenant_a):
        msg = remember_schema.send("a")
    with in_tenant(tenant_b):
        remember_schema.send("b")
    assert msg.options[SCHEMA_OPTION] == tenant_a.schema
    run_queued_jobs()
    assert [f"a:{tenant_a.schema}", f"b:{tenant_b.schema}"] == SEEN
    assert connection.schema_name == "public"


def test_a_tenant_actor_without_a_schema_fails_closed(db):
    remember_schema.send("nobody")
    with pytest.raises(MissingTenant):
        run_queued_jobs()
    assert SEEN == []


def test_a_message_for_a_deleted_company_is_dropped_not_retried(tenant_a, in_tenant, caplog):
    # A company deleted after its job was queued: the worker acknowledges the message with a
    # warning instead of raising and retrying for nothing.
    with in_tenant(tenant_a):
        sent = remember_schema.send("gone")
    queue = dramatiq.get_broker().queues[sent.queue_name]
    queue.get_nowait()
    gone = sent.copy(options={**sent.options, SCHEMA_OPTION: "t_deleted_company_000000"})
    queue.put(gone.encode())
    assert run_queued_jobs() == 0
    assert SEEN == []
    assert "no longer exists" in caplog.text
    assert all(q.empty() for q in dramatiq.get_broker().queues.values())


def test_failures_are_recorded_in_the_job_log(tenant_a, api_a, in_tenant):
    with in_tenant(tenant_a):
        always_fails.send(invoice_id=42)
    with pytest.raises(RuntimeError):
        run_queued_jobs()
    res = api_a.get("/api/job-log/get-logs", {"invoice_id": 42})
    assert res.status_code == 200
    logs = res.json()["data"]["logs"]
    assert len(logs) == 1 and logs[0]["status"] == "failed" and logs[0]["error"] == "boom"
    listing = api_a.get("/api/job-log/").json()["data"]
    assert listing["total"] == 1 and listing["size"] == 20
    assert api_a.get("/api/job-log/get-logs").status_code == 422


def test_the_job_log_exports_as_csv(tenant_a, api_a, in_tenant):
    import csv
    import io

    with in_tenant(tenant_a):
        always_fails.send(invoice_id=43)
    with pytest.raises(RuntimeError):
        run_queued_jobs()
    res = api_a.get(
        "/api/job-log/export",
        {"filter_field": "status", "filter_operator": "equals", "filter_value": "failed"},
    )
    assert res.status_code == 200 and res["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(res.streaming_content).decode("utf-8-sig"))))
    status = rows[0].index("status")
    assert [r[status] for r in rows[1:]] == ["failed"]
