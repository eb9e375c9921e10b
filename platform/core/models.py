"""Model building blocks shared by the tenant apps."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower


class Timestamped(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


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
