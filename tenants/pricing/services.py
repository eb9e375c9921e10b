"""Writes of the pricing domain."""

from __future__ import annotations

from typing import Any

from core.crud import save_object

from tenants.pricing.models import PaymentTerm


def save_payment_term(term: PaymentTerm, data: dict[str, Any]) -> PaymentTerm:
    """Save a term; making it the default takes the flag from the previous default (one default)."""
    if data.get("is_default"):
        PaymentTerm.objects.filter(is_default=True).exclude(pk=term.pk).update(is_default=False)
    return save_object(term, data)  # type: ignore[return-value]


def create_payment_term(data: dict[str, Any]) -> PaymentTerm:
    return save_payment_term(PaymentTerm(), data)
