"""Model building blocks shared by the tenant apps."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class Timestamped(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class WorkflowEvent(models.Model):
    """One move of a document's workflow (its timeline): which action, from and to which status, who,
    when, and the move's details. Each workflow's event model subclasses it with the foreign key to
    its document and its own index; `core.workflow.event_recorder` writes the rows. The user is named
    through the USER_MODEL setting, so the kit imports no app."""

    action = models.CharField(max_length=40)
    from_status = models.CharField(max_length=20)
    to_status = models.CharField(max_length=20)
    by = models.ForeignKey(
        settings.USER_MODEL, on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    by_name = models.CharField(max_length=200, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)
    details = models.JSONField(default=dict, blank=True)

    document_field = ""  # the subclass's foreign key to its document, e.g. "invoice"

    class Meta:
        abstract = True
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{getattr(self, self.document_field + '_id', '?')}: {self.from_status} → {self.to_status}"


def actor_name(by: Any) -> str:
    """What a timeline shows for who did it: the user's name, else their email ("" for the system)."""
    return (getattr(by, "name", "") or getattr(by, "email", "")) if by else ""


def unique_ci(
    field: str, *together: str, name: str, message: str, when_set: bool = False
) -> models.UniqueConstraint:
    """Unique ignoring case (optionally together with other fields), with the sentence users see.
    `when_set`: blank values do not count (optional codes)."""
    return models.UniqueConstraint(
        Lower(field),
        *together,
        name=name,
        condition=~models.Q(**{field: ""}) if when_set else None,
        violation_error_code="unique",
        violation_error_message=message,
    )
