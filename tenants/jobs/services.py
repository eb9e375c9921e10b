"""Writes of the job log: the recorder core/jobs.py calls, the stuck-job reaper and "retry"."""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import Any

import dramatiq
from core.errors import ApiError
from core.jobs import (
    DOCUMENT_OPTION,
    KINDS,
    RETRY_OF_OPTION,
    SCHEMA_OPTION,
    STARTED_BY_OPTION,
    Document,
    kind_of,
    last_progress,
    send_job,
)
from core.scoping import get_or_404
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django_tenants.utils import schema_context

from tenants.jobs.models import JobLog

log = logging.getLogger(__name__)
Status = JobLog.Status

DESCRIPTIONS = {
    "send_password_reset_email": "Password reset email",
}


def record_job(message: Any, status: str, *, reason: str = "", retryable: bool | None = None) -> None:
    """One entry per job (message id); each call adds the attempt's status to its history."""
    schema = message.options.get(SCHEMA_OPTION)
    if schema and getattr(connection, "schema_name", "public") != schema:
        with schema_context(schema):  # an on-commit send after the request left the tenant
            _record(message, status, reason, retryable)
            return
    _record(message, status, reason, retryable)


def _record(message: Any, status: str, reason: str, retryable: bool | None) -> JobLog:
    kind = kind_of(message.actor_name)
    kwargs = message.kwargs or {}
    document = message.options.get(DOCUMENT_OPTION) or {}
    started_by = message.options.get(STARTED_BY_OPTION) or {}
    entry, _ = JobLog.objects.get_or_create(
        message_id=message.message_id,
        defaults={
            "actor": message.actor_name,
            "kind": kind.kind,
            "message": DESCRIPTIONS.get(message.actor_name, kind.label),
            "invoice_id": kwargs.get("invoice_id") if isinstance(kwargs.get("invoice_id"), int) else None,
            "bill_id": kwargs.get("bill_id") if isinstance(kwargs.get("bill_id"), int) else None,
            "document_type": str(document.get("type", ""))[:60],
            "document_id": document.get("id") if isinstance(document.get("id"), int) else None,
            "document_label": str(document.get("label", ""))[:200],
            "document_path": str(document.get("path", ""))[:300],
            "started_by_id": started_by.get("id"),
            "started_by_name": str(started_by.get("name", ""))[:200],
            # Arguments are kept only where a retry may re-send them (never a password-reset token).
            "payload": {"args": list(message.args), "kwargs": kwargs} if kind.retryable else {},
            "queue_name": message.queue_name,
            "broker_message_id": str(message.options.get("redis_message_id", ""))[:64],
            "retry_of_id": message.options.get(RETRY_OF_OPTION),
        },
    )
    now = timezone.now()
    entry.status = status
    if status == Status.RUNNING:
        entry.attempts += 1
        entry.started_at = entry.started_at or now
        entry.finished_at = None
    if status in (Status.SUCCEEDED, Status.FAILED):
        entry.finished_at = now
    if status == Status.SUCCEEDED:
        entry.error = ""
        entry.retryable = False
    elif status == Status.FAILED:
        entry.error = (reason or "The job failed.")[:5000]
        entry.retryable = kind.retryable if retryable is None else retryable
    elif reason:
        entry.error = reason[:5000]
    history = {"at": now.isoformat(), "status": status}
    if reason:
        history["error"] = reason[:500]
    entry.logs = [*entry.logs, history][-50:]
    entry.save()
    return entry


# --------------------------------------------------------------------------- the stuck-job reaper


def stuck_reason(seconds: int) -> str:
    minutes = max(1, round(seconds / 60))
    return (
        f"No progress for {minutes} minute{'s' if minutes != 1 else ''}: the worker running it stopped "
        "(restarted or killed) or the job was lost. Nothing of it was kept. Retry it."
    )


def lost_reason() -> str:
    return "The job was lost before it ran (its queue was reset). Nothing of it was kept. Retry it."


def reap_stuck_jobs(now: float | None = None, in_queue: Any = None) -> list[int]:
    """Fail the jobs of this tenant that made no progress for JOB_STUCK_AFTER_SECONDS.

    Running (or retrying) jobs: silent since their last progress report (core.jobs.report_progress)
    or their start. Queued jobs: older than that and no longer in their Redis queue (``in_queue``,
    a function of the entry, says; without it queued jobs are left alone). A job kind that can tell
    whether a silent run is still alive (``on_stuck``) is asked first and may keep it. Answers the
    ids of the entries it failed."""
    limit = settings.JOB_STUCK_AFTER_SECONDS
    now = now if now is not None else time.time()
    cutoff = timezone.now() - dt.timedelta(seconds=limit)
    failed = []
    candidates = JobLog.objects.filter(status__in=JobLog.UNFINISHED, updated__lt=cutoff).order_by("id")
    for entry in candidates[:500]:
        if entry.status == Status.QUEUED:
            if in_queue is None or in_queue(entry):
                continue
            reason = lost_reason()
        else:
            progress = last_progress(entry.message_id)
            if progress is not None and now - progress < limit:
                continue
            reason = stuck_reason(limit)
        kind = KINDS.get(entry.actor)
        payload = entry.payload or {}
        if kind is not None and kind.on_stuck is not None:
            try:
                gone = kind.on_stuck(list(payload.get("args", [])), dict(payload.get("kwargs", {})), reason)
            except Exception:
                log.exception("on_stuck of job %s failed", entry.pk)
                continue
            if not gone:
                entry.save(update_fields=["updated"])  # alive: look again after another period
                continue
        with transaction.atomic():
            locked = JobLog.objects.select_for_update().filter(pk=entry.pk, status=entry.status).first()
            if locked is None:
                continue  # it moved on meanwhile
            locked.status = Status.FAILED
            locked.error = reason
            locked.retryable = bool(kind and kind.retryable)
            locked.finished_at = timezone.now()
            locked.logs = [
                *locked.logs,
                {"at": timezone.now().isoformat(), "status": "failed", "error": reason},
            ]
            locked.save()
        failed.append(entry.pk)
        log.warning("job %s (%s) failed by the reaper: %s", entry.pk, entry.actor, reason)
    return failed


def has_unfinished_jobs() -> bool:
    return JobLog.objects.filter(status__in=JobLog.UNFINISHED).exists()


# --------------------------------------------------------------------------- retry


def retry_job(entry_id: int) -> JobLog:
    """Run a failed, retryable job again. Only kinds that are safe to run twice are retryable; a
    kind's ``retry`` hook first re-arms its document (or refuses with a 409). The job is sent once the
    transaction commits; its new entry links to this one (``retry_of``), which offers no retry again."""
    with transaction.atomic():
        entry = get_or_404(JobLog.objects.select_for_update(), entry_id)
        if entry.status != Status.FAILED:
            raise ApiError(409, f"Only a failed job can be retried; this one is {entry.status}.")
        kind = KINDS.get(entry.actor)
        if not entry.retryable or kind is None or not kind.retryable:
            raise ApiError(409, "This job cannot be retried: running it again would not change the outcome.")
        payload = entry.payload or {}
        args, kwargs = list(payload.get("args", [])), dict(payload.get("kwargs", {}))
        if kind.retry is not None:
            kind.retry(args, kwargs)
        entry.retryable = False
        entry.logs = [*entry.logs, {"at": timezone.now().isoformat(), "status": "retry requested"}]
        entry.save(update_fields=["retryable", "logs", "updated"])
        document = (
            Document(entry.document_type, entry.document_id, entry.document_label, entry.document_path)
            if entry.document_type and entry.document_id
            else None
        )
        actor = dramatiq.get_broker().get_actor(entry.actor)
        schema = connection.schema_name
        transaction.on_commit(
            lambda: send_job(actor, *args, document=document, schema=schema, retry_of=entry.pk, **kwargs)
        )
    return entry
