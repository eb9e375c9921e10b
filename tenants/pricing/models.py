"""Models of the pricing domain: payment terms and methods (pricing rules, fees and taxes come later)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from core.models import Timestamped, unique_ci
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

MAX_TERM_DAYS = 365


class PaymentTerm(Timestamped):
    """When an invoice is due, and the early-payment discount: '2/10 Net 30' is 2 % off if paid within
    10 days, otherwise the full amount within 30. Net 0 means due on receipt (COD)."""

    name = models.CharField(max_length=80)
    net_days = models.PositiveSmallIntegerField(default=30, validators=[MaxValueValidator(MAX_TERM_DAYS)])
    discount_percent = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
    )
    discount_days = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(MAX_TERM_DAYS)])
    # The term new customers get; at most one term is the default.
    is_default = models.BooleanField(default=False)

    class Meta:
        ordering = ["net_days", "name"]
        constraints = [
            unique_ci(
                "name",
                name="payment_term_unique_name",
                message="A payment term with this name already exists.",
            ),
            models.UniqueConstraint(
                fields=["is_default"],
                condition=Q(is_default=True),
                name="payment_term_single_default",
                violation_error_code="unique",
                violation_error_message="Another payment term is already the default.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        if self.discount_percent and self.discount_percent > 0:
            if not self.discount_days:
                raise ValidationError(
                    {
                        "discount_days": "An early-payment discount needs the number of days it "
                        "applies for (at least 1)."
                    }
                )
            if self.discount_days > self.net_days:
                raise ValidationError(
                    {
                        "discount_days": f"The discount period ({self.discount_days} days) cannot "
                        f"be longer than the net period ({self.net_days} days)."
                    }
                )
        elif self.discount_days:
            raise ValidationError({"discount_days": "Discount days are set but the discount percent is 0."})

    @property
    def summary(self) -> str:
        """A short human label, e.g. '2% 10, Net 30' or 'Due on receipt'."""
        net = f"Net {self.net_days}" if self.net_days else "Due on receipt"
        if self.discount_percent and self.discount_percent > 0:
            pct = f"{self.discount_percent.normalize():f}"
            return f"{pct}% {self.discount_days}, {net}"
        return net

    def due_date(self, invoice_date: dt.date) -> dt.date:
        return invoice_date + dt.timedelta(days=self.net_days)

    def discount_date(self, invoice_date: dt.date) -> dt.date | None:
        if not self.discount_percent or self.discount_percent <= 0:
            return None
        return invoice_date + dt.timedelta(days=self.discount_days)


class PaymentMethod(Timestamped):
    """How a customer pays (ACH, check, card …); `code` is what accounting exports use."""

    name = models.CharField(max_length=80)
    code = models.CharField(max_length=20)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_ci(
                "name",
                name="payment_method_unique_name",
                message="A payment method with this name already exists.",
            ),
            unique_ci(
                "code",
                name="payment_method_unique_code",
                message="A payment method with this code already exists.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        self.code = (self.code or "").strip().upper()
