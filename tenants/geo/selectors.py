"""Reads of the geography domain."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tenants.geo.models import Yard


def yards() -> QuerySet[Yard]:
    return Yard.objects.select_related("state", "city", "region")


def filter_yards(qs: QuerySet[Yard], params: Any) -> QuerySet[Yard]:
    if params.region_id:
        qs = qs.filter(region_id=params.region_id)
    if params.state_id:
        qs = qs.filter(state_id=params.state_id)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs
