import datetime as dt
from typing import Any, Literal

from ninja import Field, Schema

Outcome = Literal["queued", "running", "retrying", "succeeded", "failed"]


class JobLogOut(Schema):
    id: int
    kind: str = Field(description="What kind of job: csv_import, invoice_pdf, invoice_email, ...")
    actor: str
    message: str = Field(description="The job, in words (e.g. 'CSV import')")
    status: str = Field(description="The outcome so far: queued, running, retrying, succeeded or failed")
    attempts: int
    error: str = Field(description="Why it failed, as the user sees it")
    document_type: str
    document_id: int | None
    document_label: str
    document_path: str = Field(description="The SPA path that opens the document")
    invoice_id: int | None
    bill_id: int | None
    started_by_id: int | None
    started_by_name: str
    can_retry: bool = Field(description="Failed, safe to run again (idempotent) and not retried yet")
    retry_of_id: int | None
    logs: list[dict[str, Any]] = Field(description="Each attempt's status changes, oldest first")
    created: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    updated: dt.datetime

    @staticmethod
    def resolve_can_retry(obj: Any) -> bool:
        from tenants.jobs.models import can_retry

        return can_retry(obj.status, obj.retryable)


class JobLogFilters(Schema):
    kind: str | None = Field(None, max_length=60, description="A job kind (GET /api/job-log/kinds)")
    outcome: Outcome | None = Field(None, description="queued, running, retrying, succeeded or failed")
    date_from: dt.date | None = Field(None, description="Created on or after this day (UTC)")
    date_to: dt.date | None = Field(None, description="Created on or before this day (UTC)")
    document_type: str | None = Field(None, max_length=60)
    document_id: int | None = Field(None, ge=1)


class JobLogQuery(Schema):
    invoice_id: int | None = Field(None, ge=1)
    bill_id: int | None = Field(None, ge=1)


class JobLogsData(Schema):
    logs: list[JobLogOut]
    items: list[JobLogOut] = Field(description="The same entries as `logs` (the spec names both)")


class JobKindOut(Schema):
    kind: str
    label: str
    retryable: bool
