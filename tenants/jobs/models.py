"""The job log: one row per background job of this tenant, with each attempt's outcome."""

from django.db import models


class JobLog(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        RETRYING = "retrying"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    message_id = models.CharField(max_length=64, unique=True)
    actor = models.CharField(max_length=120)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    message = models.CharField(max_length=500, blank=True, default="")
    error = models.TextField(blank=True, default="")
    # Jobs about an invoice or a bill are found by it (`GET /api/job-log/get-logs`).
    invoice_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    bill_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    logs = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.actor} {self.status}"
