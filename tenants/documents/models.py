"""Printable document templates (the designer's JSON), one default per document type."""

from core.scoping import declare_not_found
from django.db import models
from django.db.models import Q

from tenants.documents.contract import DOCUMENT_LABELS


class DocumentTemplate(models.Model):
    class Type(models.TextChoices):
        INVOICE = "invoice", DOCUMENT_LABELS["invoice"]
        DELIVERY_TICKET = "delivery_ticket", DOCUMENT_LABELS["delivery_ticket"]
        SALES_ORDER = "sales_order", DOCUMENT_LABELS["sales_order"]

    name = models.CharField(max_length=120)
    type = models.CharField(max_length=20, choices=Type.choices)
    # [component, …] and the canvas, exactly as the designer edits them (schemas.py validates).
    components = models.JSONField(default=list, blank=True)
    canvas_settings = models.JSONField(default=dict, blank=True)
    is_default = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["type", "name", "id"]
        indexes = [models.Index(fields=["type", "name"], name="doctemplate_type_name")]
        constraints = [
            models.UniqueConstraint(
                fields=["type"],
                condition=Q(is_default=True),
                name="doctemplate_one_default_per_type",
                violation_error_message="Another template is already the default of this type.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.type})"


declare_not_found(DocumentTemplate, "Template not found")  # core.scoping.get_or_404's sentence
