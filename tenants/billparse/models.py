"""The bill parser's rows: each uploaded supplier invoice PDF with what was read from it, and each
supplier's confirmed layout (the label words of its bills) that the parser recognises next time."""

from __future__ import annotations

from core.models import Timestamped
from core.scoping import declare_not_found
from django.db import models


class ParsedBill(Timestamped):
    """One uploaded invoice PDF: queued, parsed by the worker, reviewed, turned into a bill."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        PARSING = "parsing"
        PARSED = "parsed"
        FAILED = "failed"
        CREATED = "created"

    batch = models.CharField(max_length=32, help_text="The upload (several files) it came with")
    file_key = models.CharField(max_length=500, blank=True, default="")
    file_name = models.CharField(max_length=200)
    size = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    message = models.TextField(blank=True, default="", help_text="Why it could not be read, in words")
    pages = models.PositiveIntegerField(default=0)
    result = models.JSONField(
        default=dict, blank=True, help_text="What the parser read (fields, lines, taxes)"
    )
    review = models.JSONField(default=dict, blank=True, help_text="The draft as the user reviewed it")
    supplier = models.ForeignKey(
        "parties.Supplier", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    layout_matched = models.BooleanField(default=False)
    bill_id = models.BigIntegerField(null=True, blank=True, help_text="The bill created from it")
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["batch", "id"], name="parsedbill_batch")]

    def __str__(self) -> str:
        return self.file_name


class SupplierLayout(Timestamped):
    """A supplier's bill layout as confirmed by users: for each field, the label words before it."""

    supplier = models.OneToOneField("parties.Supplier", on_delete=models.CASCADE, related_name="bill_layout")
    labels = models.JSONField(default=dict, blank=True)
    confirmed_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Layout of supplier {self.supplier_id}"


# The 404 of a parse (core.scoping.get_or_404): the user uploaded a document, not a "parsed bill".
declare_not_found(ParsedBill, "Parsed document not found")
