"""The job log as an office uses it: every background job has one entry (kind, document, who, when,
outcome, reason); the list filters by kind, outcome and date; failed idempotent jobs can be retried;
the stuck-job reaper fails silent jobs with a reason the user sees."""

import datetime as dt

import dramatiq
import pytest
from django.db import connection, connections
from django.utils import timezone

from conftest import Api, token_for

CUSTOMERS = "/api/customer/customers"


def _drain() -> None:
    broker = dramatiq.get_broker()
    for queue in broker.queues.values():
        while not queue.empty():
            queue.get_nowait()


@pytest.fixture(autouse=True)
def _empty_queues(jobs):  # `jobs` registers every actor on the stub broker
    _drain()
    yield
    _drain()


def upload(api: Api, rows: int, *, bad_row: int | None = None) -> dict:
    lines = ["name,account_number"]
    for i in range(rows):
        name = "" if i == bad_row else f"Job Log Customer {i:04d}"  # a name is required
        lines.append(f"{name},JL{i:05d}")
    from django.core.files.uploadedfile import SimpleUploadedFile

    file = SimpleUploadedFile("customers.csv", ("\n".join(lines) + "\n").encode(), content_type="text/csv")
    res = api.client.post(f"{CUSTOMERS}/import", {"file": file}, **api._headers())
    assert res.status_code == 202, res.json()
    return res.json()["data"]


def confirm(api: Api, import_id: int) -> dict:
    res = api.post(f"{CUSTOMERS}/import/{import_id}/confirm")
    assert res.status_code == 202, res.json()
    return res.json()["data"]


def logs(api: Api, **params) -> dict:
    res = api.get("/api/job-log/", params)
    assert res.status_code == 200, res.json()
    assert res.json()["status_code"] == 200
    return res.json()["data"]


def customers_named(api: Api, term: str) -> int:
    return api.get(CUSTOMERS, {"search": term, "size": 1}).json()["data"]["total"]


def test_a_csv_import_writes_one_entry_per_job_with_kind_document_who_and_outcome(
    api_a, jobs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        imp = upload(api_a, 320)
    queued = logs(api_a)["items"]
    assert len(queued) == 1
    entry = queued[0]
    assert entry["kind"] == "csv_import" and entry["message"] == "CSV import" and entry["status"] == "queued"
    assert entry["document_type"] == "data_import" and entry["document_id"] == imp["import_id"]
    assert entry["document_label"] == "Customers import: customers.csv"
    assert entry["document_path"] == "/customer"
    assert entry["started_by_name"] == "Alpha Fuels Admin" and entry["started_by_id"]
    assert jobs() == 1
    with django_capture_on_commit_callbacks(execute=True):
        confirm(api_a, imp["import_id"])
    assert jobs() == 1

    data = logs(api_a)
    assert data["total"] == 2 and data["size"] == 20 and data["page"] == 1
    newest, first = data["items"]
    assert [newest["status"], first["status"]] == ["succeeded", "succeeded"]
    assert newest["attempts"] == 1 and newest["finished_at"] and newest["started_at"]
    assert newest["error"] == "" and newest["can_retry"] is False
    assert [h["status"] for h in newest["logs"]] == ["queued", "running", "succeeded"]
    assert customers_named(api_a, "Job Log Customer") == 320


def test_the_list_filters_by_kind_outcome_and_date(api_a, jobs, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        bad = upload(api_a, 310, bad_row=5)
    jobs()
    refused = logs(api_a, outcome="failed")["items"]
    assert len(refused) == 1 and refused[0]["document_id"] == bad["import_id"]
    # The data refused the file: the reason is the import's, and a retry would change nothing.
    assert "1 of 310 rows have errors" in refused[0]["error"] and refused[0]["can_retry"] is False

    assert logs(api_a, kind="csv_import")["total"] == 1
    assert logs(api_a, kind="invoice_pdf")["total"] == 0
    assert logs(api_a, outcome="succeeded")["total"] == 0
    today = timezone.now().date()
    assert logs(api_a, date_from=today.isoformat(), date_to=today.isoformat())["total"] == 1
    assert logs(api_a, date_from=(today + dt.timedelta(days=1)).isoformat())["total"] == 0
    assert logs(api_a, date_to=(today - dt.timedelta(days=1)).isoformat())["total"] == 0
    res = api_a.get("/api/job-log/", {"date_from": "2026-02-02", "date_to": "2026-02-01"})
    assert res.status_code == 422 and res.json()["detail"] == "date_from must not be after date_to."
    assert api_a.get("/api/job-log/", {"outcome": "exploded"}).status_code == 422
    kinds = api_a.get("/api/job-log/kinds").json()["data"]
    assert {"kind": "csv_import", "label": "CSV import", "retryable": True} in kinds
    assert all(k["kind"] != "job_reaper" for k in kinds)  # housekeeping writes no entries

    retry = api_a.post(f"/api/job-log/{refused[0]['id']}/retry")
    assert retry.status_code == 409
    assert retry.json()["detail"].startswith("This job cannot be retried: running it again would not change")


def _age(entry_id: int, seconds: int) -> None:
    from tenants.jobs.models import JobLog

    JobLog.objects.filter(pk=entry_id).update(updated=timezone.now() - dt.timedelta(seconds=seconds))


def test_a_stuck_import_is_failed_with_a_reason_and_a_retry_imports_every_row_once(
    api_a, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks, settings
):
    """The worker died mid-import and its message is gone: the reaper fails the job after
    JOB_STUCK_AFTER_SECONDS, the user sees why, retries, and every row arrives exactly once."""
    from tenants.jobs.models import JobLog
    from tenants.jobs.services import reap_stuck_jobs

    settings.JOB_STUCK_AFTER_SECONDS = 120
    with django_capture_on_commit_callbacks(execute=True):
        imp = upload(api_a, 330)
    jobs()
    with django_capture_on_commit_callbacks(execute=True):
        confirm(api_a, imp["import_id"])
    _drain()  # the worker took the message and was killed; the message was lost with its Redis
    with in_tenant(tenant_a):
        entry = JobLog.objects.filter(document_id=imp["import_id"]).order_by("-id").first()
        JobLog.objects.filter(pk=entry.pk).update(status="running", attempts=1)
        _age(entry.pk, 60)
        assert reap_stuck_jobs() == []  # silent for a minute only: left alone
        _age(entry.pk, 121)
        assert reap_stuck_jobs() == [entry.pk]

    status = api_a.get(f"{CUSTOMERS}/import/{imp['import_id']}").json()["data"]
    assert status["status"] == "failed" and status["message"].startswith("No progress for 2 minutes")
    failed = logs(api_a, outcome="failed")["items"][0]
    assert failed["id"] == entry.pk and failed["can_retry"] is True
    assert failed["error"].startswith("No progress for 2 minutes: the worker running it stopped")
    assert customers_named(api_a, "Job Log Customer") == 0

    with django_capture_on_commit_callbacks(execute=True):
        res = api_a.post(f"/api/job-log/{entry.pk}/retry")
    assert res.status_code == 200 and res.json()["message"] == "The job was queued again.", res.json()
    fresh = logs(api_a)["items"][0]  # sent once the retry's transaction committed
    assert fresh["retry_of_id"] == entry.pk and fresh["status"] == "queued" and fresh["kind"] == "csv_import"
    assert api_a.get(f"{CUSTOMERS}/import/{imp['import_id']}").json()["data"]["status"] == "importing"
    again = api_a.post(f"/api/job-log/{entry.pk}/retry")
    assert again.status_code == 409  # retried once only
    assert jobs() == 1
    done = api_a.get(f"{CUSTOMERS}/import/{imp['import_id']}").json()["data"]
    assert done["status"] == "completed" and done["created_rows"] == 330
    assert customers_named(api_a, "Job Log Customer") == 330
    assert logs(api_a, outcome="succeeded")["items"][0]["retry_of_id"] == entry.pk


def test_the_reaper_leaves_an_import_alone_while_a_worker_holds_it(
    api_a, tenant_a, in_tenant, django_capture_on_commit_callbacks, settings
):
    from core.csv_io import job_lock_key

    from tenants.imports.models import DataImport
    from tenants.jobs.models import JobLog
    from tenants.jobs.services import reap_stuck_jobs

    settings.JOB_STUCK_AFTER_SECONDS = 60
    with django_capture_on_commit_callbacks(execute=True):
        imp = upload(api_a, 305)
    # Checked as the worker would, without running it here: a run holds the import's lock until its
    # transaction ends, and this test's transaction never ends before the other connection asks.
    _drain()
    with in_tenant(tenant_a):
        DataImport.objects.filter(pk=imp["import_id"]).update(status="ready")
    with django_capture_on_commit_callbacks(execute=True):
        confirm(api_a, imp["import_id"])
    with in_tenant(tenant_a):
        key = job_lock_key(imp["import_id"])
        entry = JobLog.objects.filter(document_id=imp["import_id"]).order_by("-id").first()
        JobLog.objects.filter(pk=entry.pk).update(status="running")
        _age(entry.pk, 3600)
        other = connections.create_connection("default")  # a worker, slow but alive, holds the lock
        try:
            with other.cursor() as cur:
                cur.execute("SET lock_timeout = '5s'")
                cur.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [key])
            assert reap_stuck_jobs() == []
        finally:
            other.close()  # the lock goes with the connection, as with a killed worker
        assert JobLog.objects.get(pk=entry.pk).status == "running"
        _age(entry.pk, 3600)
        assert reap_stuck_jobs() == [entry.pk]
    assert connection.schema_name == "public"


def test_a_queued_job_whose_message_was_lost_is_failed_and_a_waiting_one_is_not(
    api_a, tenant_a, in_tenant, django_capture_on_commit_callbacks, settings
):
    from tenants.jobs.models import JobLog
    from tenants.jobs.services import reap_stuck_jobs

    settings.JOB_STUCK_AFTER_SECONDS = 60
    with django_capture_on_commit_callbacks(execute=True):
        imp = upload(api_a, 301)
    with in_tenant(tenant_a):
        entry = JobLog.objects.get(document_id=imp["import_id"])
        _age(entry.pk, 600)
        assert reap_stuck_jobs(in_queue=lambda e: True) == []  # still waiting for a worker
        assert reap_stuck_jobs() == []  # cannot tell: left alone
        assert reap_stuck_jobs(in_queue=lambda e: False) == [entry.pk]
        assert JobLog.objects.get(pk=entry.pk).error.startswith("The job was lost before it ran")
    status = api_a.get(f"{CUSTOMERS}/import/{imp['import_id']}").json()["data"]
    assert status["status"] == "invalid" and status["message"].startswith("The job was lost")


def test_retry_needs_its_own_permission_and_get_logs_answers_logs_and_items(tenant_a, in_tenant, api_a):
    from tenants.jobs.models import JobLog

    with in_tenant(tenant_a):
        entry = JobLog.objects.create(
            message_id="m-1", actor="run_data_import", kind="csv_import", status="failed", retryable=True,
            invoice_id=77, payload={"args": [999999, "import"], "kwargs": {}},
        )  # fmt: skip
    sales = Api(token_for(tenant_a, "Sales"))
    assert sales.get("/api/job-log/").status_code == 403
    accounting = Api(token_for(tenant_a, "Accounting"))
    res = accounting.get("/api/job-log/get-logs", {"invoice_id": 77})
    body = res.json()
    assert res.status_code == 200 and body["status_code"] == 200
    assert [e["id"] for e in body["data"]["logs"]] == [e["id"] for e in body["data"]["items"]] == [entry.pk]
    assert accounting.get("/api/job-log/get-logs", {"bill_id": 77}).json()["data"]["logs"] == []
    # The import behind the entry is gone: the retry says so and changes nothing.
    res = api_a.post(f"/api/job-log/{entry.pk}/retry")
    assert res.status_code == 404 and res.json()["detail"] == "Import not found"
    with in_tenant(tenant_a):
        assert JobLog.objects.get(pk=entry.pk).retryable is True
    assert api_a.post("/api/job-log/99999999/retry").status_code == 404
