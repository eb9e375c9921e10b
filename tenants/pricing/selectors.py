"""Reads of the pricing domain."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tenants.pricing.models import PaymentMethod, PaymentTerm


def filter_payment_terms(qs: QuerySet[PaymentTerm], params: Any) -> QuerySet[PaymentTerm]:
    return qs.filter(is_default=params.is_default) if params.is_default is not None else qs


def filter_payment_methods(qs: QuerySet[PaymentMethod], params: Any) -> QuerySet[PaymentMethod]:
    return qs.filter(is_active=params.is_active) if params.is_active is not None else qs
