"""Per-tenant document counters: one row per kind of document (sales order, delivery ticket…)."""

from __future__ import annotations

from django.db import models


class DocumentCounter(models.Model):
    kind = models.CharField(max_length=40, unique=True, help_text="e.g. sales_order, invoice")
    last_number = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind"]

    def __str__(self) -> str:
        return f"{self.kind}: {self.last_number}"
