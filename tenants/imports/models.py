"""The state of CSV imports, one row per uploaded file, shared by every importable list."""

from __future__ import annotations

from core.csv_io import ImportStatus
from core.models import Timestamped
from django.db import models


class DataImport(Timestamped):
    """One uploaded CSV file for one importable list: checked (preview) first, written on confirm.

    `resource` names the list (the CRUD helper's permission resource). The table keeps the name it
    had when the model lived in the catalog app (moved without touching the database).
    """

    Status = ImportStatus

    resource = models.CharField(max_length=60)
    file_key = models.CharField(max_length=500)
    file_name = models.CharField(max_length=200)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.VALIDATING)
    in_worker = models.BooleanField(default=False)
    total_rows = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    valid_rows = models.PositiveIntegerField(default=0)
    error_rows = models.PositiveIntegerField(default=0)
    created_rows = models.PositiveIntegerField(default=0)
    columns = models.JSONField(default=list, blank=True)
    ignored_columns = models.JSONField(default=list, blank=True)
    errors = models.JSONField(default=list, blank=True)  # [{row, field, message}], capped
    sample = models.JSONField(default=list, blank=True)  # the first valid rows as they will be written
    message = models.CharField(max_length=500, blank=True, default="")
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "catalog_dataimport"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["resource", "-created_at"], name="data_import_resource")]

    def __str__(self) -> str:
        return f"{self.resource} import {self.pk} ({self.status})"
