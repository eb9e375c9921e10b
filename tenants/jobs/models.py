"""The job log: one entry per background job of this tenant (core/jobs.py writes it through
tenants.jobs.services), with its kind, the document it concerns, who started it, when, each attempt
and its outcome."""

from django.db import models


class JobLog(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        RETRYING = "retrying"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    UNFINISHED = (Status.QUEUED, Status.RUNNING, Status.RETRYING)

    message_id = models.CharField(max_length=64, unique=True)
    actor = models.CharField(max_length=120)
    kind = models.CharField(max_length=60, default="", db_index=True)  # e.g. csv_import, invoice_pdf
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    message = models.CharField(max_length=500, blank=True, default="")  # what the job is, for people
    error = models.TextField(blank=True, default="")  # the reason of a failure, as the user sees it
    # The document it concerns: type, id, a label and the SPA path that opens it.
    document_type = models.CharField(max_length=60, blank=True, default="")
    document_id = models.BigIntegerField(null=True, blank=True)
    document_label = models.CharField(max_length=200, blank=True, default="")
    document_path = models.CharField(max_length=300, blank=True, default="")
    # Jobs about an invoice or a bill are found by it (`GET /api/job-log/get-logs`).
    invoice_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    bill_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    # Who started it (a snapshot: the entry outlives the user).
    started_by_id = models.BigIntegerField(null=True, blank=True)
    started_by_name = models.CharField(max_length=200, blank=True, default="")
    # "retry": safe for idempotent jobs; the arguments are kept only for those.
    retryable = models.BooleanField(default=False)
    payload = models.JSONField(default=dict, blank=True)
    retry_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="retries"
    )
    # Where the message waits in Redis (the reaper tells a lost message from a waiting one).
    queue_name = models.CharField(max_length=120, blank=True, default="")
    broker_message_id = models.CharField(max_length=64, blank=True, default="")
    logs = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["document_type", "document_id"], name="joblog_document"),
            # The reaper's question (unfinished and silent); plain, as the template cloning expects.
            models.Index(fields=["status", "updated"], name="joblog_status_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.kind or self.actor} {self.status}"


def can_retry(status: str, retryable: bool) -> bool:
    """A job the user may run again: it failed and is safe to repeat. JobLogOut and the job-log list's
    rows both answer this."""
    return bool(status == "failed" and retryable)
