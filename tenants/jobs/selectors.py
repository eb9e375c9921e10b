"""Reads of the job log."""

from __future__ import annotations

import datetime as dt
from typing import Any

from core.dates import day_start, until_end_of
from core.errors import ApiError
from core.jobs import KINDS
from django.db.models import Q, QuerySet
from django.utils import timezone

from tenants.jobs.models import JobLog, can_retry


def job_logs() -> QuerySet[JobLog]:
    return JobLog.objects.all()


def filter_job_logs(qs: QuerySet[JobLog], params: Any) -> QuerySet[JobLog]:
    if params.kind:
        qs = qs.filter(kind=params.kind)
    if params.outcome:
        qs = qs.filter(status=params.outcome)
    if params.date_from and params.date_to and params.date_from > params.date_to:
        raise ApiError(422, "date_from must not be after date_to.")
    if params.date_from:
        qs = qs.filter(created__gte=day_start(params.date_from))
    if params.date_to:
        qs = qs.filter(created__lt=until_end_of(params.date_to, field="date_to"))
    if params.document_type:
        qs = qs.filter(document_type=params.document_type)
    if params.document_id:
        qs = qs.filter(document_id=params.document_id)
    return qs


def logs_for_document(invoice_id: int | None, bill_id: int | None) -> list[JobLog]:
    qs = JobLog.objects.all()
    if invoice_id:
        qs = qs.filter(invoice_id=invoice_id)
    if bill_id:
        # A job names its bill by a `bill_id` argument, or as the document it concerns (a bill).
        qs = qs.filter(Q(bill_id=bill_id) | Q(document_type="bill", document_id=bill_id))
    return list(qs[:100])


def job_kinds() -> list[dict[str, Any]]:
    """Every kind of job this deployment runs that writes the job log (the screen's kind filter)."""
    kinds = {k.kind: k for k in KINDS.values() if k.logged}
    return [
        {"kind": k.kind, "label": k.label, "retryable": k.retryable}
        for k in sorted(kinds.values(), key=lambda k: k.label.lower())
    ]


def now() -> dt.datetime:
    return timezone.now()


def fill_job_log_rows(items: list[dict[str, Any]]) -> None:
    """The job-log list's `can_retry` on its plain rows (core.crud `fill_rows`); JobLogOut's resolver
    says the same of a model instance."""
    for item in items:
        item["can_retry"] = can_retry(item["status"], item["retryable"])
