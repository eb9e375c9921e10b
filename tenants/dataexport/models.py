"""'Export all our data': one row per zip a company admin asked for, built by the worker."""

from core.models import Timestamped
from django.db import models


class DataExport(Timestamped):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        READY = "ready"
        FAILED = "failed"

    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    # Progress: parts written (a list's CSV, a document's PDF, a file) of the parts found.
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    step = models.CharField(max_length=200, blank=True, default="")  # what it is writing, for people
    file_key = models.CharField(max_length=500, blank=True, default="")
    size = models.BigIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"data export {self.pk} ({self.status})"
