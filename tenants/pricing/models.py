"""Models of the pricing domain: payment terms and methods (pricing rules, fees and taxes come later)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
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
        return term_summary(self.net_days, self.discount_percent, self.discount_days)

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


# --- taxes ---------------------------------------------------------------------------------------
class Tax(Timestamped):
    """A tax the company collects: an excise per gallon, a percent sales tax, or a fixed amount per
    document. It applies to a line when the line's product (or its category) and the ship-to's state
    (and city) are in its scope; the rate in force on the pricing date is one of its `rates`."""

    class Kind(models.TextChoices):
        PERCENT = "percent"  # percent of the line amount (plus earlier taxable taxes)
        PER_UNIT = "per_unit"  # an amount per gallon / unit
        FIXED = "fixed"  # an amount once per document

    name = models.CharField(max_length=120)
    code = models.CharField(max_length=30)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PERCENT)
    description = models.CharField(max_length=300, blank=True, default="")
    applies_to_all_states = models.BooleanField(default=False)
    applies_to_all_cities = models.BooleanField(default=False)
    applies_to_all_products = models.BooleanField(default=False)
    applies_to_all_product_categories = models.BooleanField(default=False)
    states = models.ManyToManyField("geo.State", related_name="+", blank=True)
    cities = models.ManyToManyField("geo.City", related_name="+", blank=True)
    products = models.ManyToManyField("catalog.Product", related_name="+", blank=True)
    categories = models.ManyToManyField("catalog.ProductCategory", related_name="+", blank=True)
    # Tax on tax: a later percent tax includes this tax's amount in its base.
    is_taxable = models.BooleanField(default=False)
    # Order of computation: lower first (a taxable excise before the sales tax on top of it).
    sequence = models.PositiveSmallIntegerField(default=0)
    # A tax-exempt customer (valid certificate) does not pay exemptible taxes.
    exemptible = models.BooleanField(default=True)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["sequence", "name", "id"]
        verbose_name_plural = "taxes"
        constraints = [
            unique_ci("code", name="tax_unique_code", message="A tax with this code already exists."),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        self.code = (self.code or "").strip().upper()


class TaxRate(Timestamped):
    """The rate of a tax over a date range (percent for `percent` taxes, money otherwise)."""

    tax = models.ForeignKey(Tax, on_delete=models.CASCADE, related_name="rates")
    rate = models.DecimalField(max_digits=14, decimal_places=6, validators=[MinValueValidator(Decimal("0"))])
    effective_from = models.DateField()
    effective_to = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["tax_id", "-effective_from", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tax", "effective_from"],
                name="tax_rate_unique_start",
                violation_error_code="unique",
                violation_error_message="This tax already has a rate starting on that date.",
            ),
        ]

    def clean(self) -> None:
        if self.effective_to and self.effective_from and self.effective_to < self.effective_from:
            raise ValidationError({"effective_to": "The end date is before the start date."})


# --- fees ----------------------------------------------------------------------------------------
class Fee(Timestamped):
    """A charge added to a document: delivery, environmental, hazmat, small-load…

    flat: rate x quantity (quantity defaults to 1); per_unit: rate x the document's quantity (or the
    quantity given); percentage (fee_type or amount_type): rate percent of the document's subtotal."""

    class FeeType(models.TextChoices):
        FLAT = "flat"
        PER_UNIT = "per_unit"
        PERCENTAGE = "percentage"

    class AmountType(models.TextChoices):
        FIXED_AMOUNT = "fixed_amount"
        PERCENTAGE = "percentage"

    name = models.CharField(max_length=120)
    fee_code = models.CharField(max_length=30, blank=True, default="")
    erp_code = models.CharField(max_length=60, blank=True, default="")
    fee_type = models.CharField(max_length=12, choices=FeeType.choices, default=FeeType.FLAT)
    amount_type = models.CharField(max_length=14, choices=AmountType.choices, default=AmountType.FIXED_AMOUNT)
    rate = models.DecimalField(
        max_digits=14, decimal_places=4, default=Decimal("0"), validators=[MinValueValidator(Decimal("0"))]
    )
    quantity = models.DecimalField(
        max_digits=14, decimal_places=4, default=Decimal("1"), validators=[MinValueValidator(Decimal("0"))]
    )
    customer = models.ForeignKey(
        "parties.Customer", on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    description = models.CharField(max_length=300, blank=True, default="")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_ci(
                "fee_code",
                name="fee_unique_code",
                message="A fee with this code already exists.",
                when_set=True,
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_percentage(self) -> bool:
        return self.fee_type == self.FeeType.PERCENTAGE or self.amount_type == self.AmountType.PERCENTAGE

    @property
    def subtotal(self) -> Decimal:
        """The fee's own amount (rate x quantity); a percentage fee's amount depends on a document."""
        return fee_subtotal(self.fee_type, self.amount_type, self.rate, self.quantity)

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        self.fee_code = (self.fee_code or "").strip().upper()
        if self.is_percentage and self.rate > 100:
            raise ValidationError({"rate": "A percentage fee's rate is at most 100."})


# --- supplier buying prices (rack) ---------------------------------------------------------------
class BuyingPrice(Timestamped):
    """What a supplier charges us for a product lifted at a terminal (its "rack" price), from
    `effective_from` until `effective_to` (open when null: until the next price)."""

    # No single-column index on the three keys: the composite indexes below lead with each of them
    # (terminal: the unique one; product and supplier: their date indexes) and serve the same
    # lookups and cascades; three fewer indexes to maintain and for the planner to weigh.
    supplier = models.ForeignKey(
        "parties.Supplier", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    terminal = models.ForeignKey(
        "parties.Terminal", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    product = models.ForeignKey("catalog.Product", on_delete=models.PROTECT, related_name="+", db_index=False)
    price = models.DecimalField(max_digits=14, decimal_places=6, validators=[MinValueValidator(Decimal("0"))])
    effective_from = models.DateField()
    effective_to = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["-effective_from", "terminal_id", "product_id", "supplier_id"]
        constraints = [
            # Also the rack lookup's index (selectors._RACK_SQL): it carries what the lookup returns,
            # so the price in force is read from the index alone (no heap page per quote).
            models.UniqueConstraint(
                fields=["terminal", "product", "supplier", "effective_from"],
                include=["price", "effective_to", "id"],
                name="buying_price_unique_start",
                violation_error_code="unique",
                violation_error_message="This supplier already has a price for this product at this "
                "terminal starting on that date.",
            ),
            models.CheckConstraint(
                condition=Q(effective_to__isnull=True) | Q(effective_to__gte=models.F("effective_from")),
                name="buying_price_range_ordered",
            ),
        ]
        indexes = [
            # "lowest/average at a terminal on a date" reads (terminal, product) then walks suppliers;
            # the unique constraint's index (terminal, product, supplier, effective_from) serves both it
            # and "named supplier". This one serves the list's default sort and date filters.
            models.Index(fields=["effective_from", "id"], name="buying_price_from"),
            # The rack board: rows in force since yesterday (open, or ending on or after it).
            models.Index(fields=["effective_to"], name="buying_price_to"),
            models.Index(fields=["product", "effective_from"], name="buying_price_product_from"),
            models.Index(fields=["supplier", "effective_from"], name="buying_price_supplier_from"),
        ]

    def clean(self) -> None:
        if self.effective_to and self.effective_from and self.effective_to < self.effective_from:
            raise ValidationError({"effective_to": "The end date is before the start date."})


# --- pricing rules -------------------------------------------------------------------------------
class PricingRule(Timestamped):
    """How a customer's price is made when no contract price applies: a basis (rack at a terminal —
    a named supplier, the lowest or the average across suppliers —, our last cost, or a fixed
    price), plus a margin (per unit or percent), plus freight, at least a minimum, rounded.

    The scope fields left empty match anything; the most specific matching rule wins, then the
    highest priority. Two active rules with the same scope and priority over overlapping dates are
    refused when saved."""

    class Basis(models.TextChoices):
        RACK = "rack"
        LAST_COST = "last_cost"
        FIXED = "fixed"

    class RackMode(models.TextChoices):
        NAMED = "named"  # the named supplier's rack
        LOWEST = "lowest"  # the lowest rack of any supplier at the terminal
        AVERAGE = "average"  # the average of the suppliers' racks at the terminal

    class MarginType(models.TextChoices):
        PER_UNIT = "per_unit"
        PERCENT = "percent"

    name = models.CharField(max_length=120)
    priority = models.IntegerField(default=0)
    # Scope (null: any)
    customer = models.ForeignKey(
        "parties.Customer", on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    company_type = models.ForeignKey(
        "parties.CustomerCompanyType", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    ship_to = models.ForeignKey(
        "parties.ShipTo", on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    state = models.ForeignKey("geo.State", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    product = models.ForeignKey(
        "catalog.Product", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    category = models.ForeignKey(
        "catalog.ProductCategory", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    # Basis
    basis = models.CharField(max_length=10, choices=Basis.choices, default=Basis.RACK)
    rack_mode = models.CharField(max_length=10, choices=RackMode.choices, default=RackMode.LOWEST)
    terminal = models.ForeignKey(
        "parties.Terminal", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    supplier = models.ForeignKey(
        "parties.Supplier", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    fixed_price = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    # Mark-ups
    margin_type = models.CharField(max_length=10, choices=MarginType.choices, default=MarginType.PER_UNIT)
    margin = models.DecimalField(max_digits=14, decimal_places=4, default=Decimal("0"))
    freight_per_unit = models.DecimalField(max_digits=14, decimal_places=4, default=Decimal("0"))
    minimum_price = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    # Margin guard: a line whose margin over its cost falls under this is listed after a rack change.
    minimum_margin = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    rounding = models.DecimalField(
        max_digits=8,
        decimal_places=4,
        default=Decimal("0.0001"),
        validators=[MinValueValidator(Decimal("0.0001"))],
    )
    effective_from = models.DateField(null=True, blank=True)
    effective_to = models.DateField(null=True, blank=True)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["-priority", "name", "id"]

    def __str__(self) -> str:
        return self.name


# --- customer pricing ----------------------------------------------------------------------------
class CustomerPrice(Timestamped):
    """One product's price agreement with a customer. What it means follows the customer's
    `customer_pricing_type`: fixed (final = unit_price + margin), rack_plus (the rack at `terminal`,
    of `supplier` or the lowest, + margin), cost_plus (our last cost + margin)."""

    customer = models.ForeignKey("parties.Customer", on_delete=models.CASCADE, related_name="+")
    product = models.ForeignKey("catalog.Product", on_delete=models.PROTECT, related_name="+")
    unit_price = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    margin = models.DecimalField(max_digits=14, decimal_places=4, default=Decimal("0"))
    terminal = models.ForeignKey(
        "parties.Terminal", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    supplier = models.ForeignKey(
        "parties.Supplier", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    freight_per_unit = models.DecimalField(max_digits=14, decimal_places=4, default=Decimal("0"))

    class Meta:
        ordering = ["customer_id", "product_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["customer", "product"],
                name="customer_price_unique_product",
                violation_error_code="unique",
                violation_error_message="This customer already has a price for this product.",
            )
        ]


def term_summary(net_days: int, discount_percent: Decimal | None, discount_days: int) -> str:
    """A payment term's short label, e.g. '2% 10, Net 30' or 'Due on receipt' (the model's `summary`
    and the payment-term list's rows)."""
    net = f"Net {net_days}" if net_days else "Due on receipt"
    if discount_percent and discount_percent > 0:
        return f"{discount_percent.normalize():f}% {discount_days}, {net}"
    return net


# A pricing rule's scope as the chips its list shows: (label, relation, the related column shown).
RULE_SCOPE_CHIPS = (
    ("Ship-to", "ship_to", "name"),
    ("Customer", "customer", "name"),
    ("Company type", "company_type", "company_type"),
    ("State", "state", "code"),
    ("Product", "product", "name"),
    ("Category", "category", "name"),
)
# The `.values()` paths of the chips' names (the rule list's plain rows).
SCOPE_NAME_COLUMNS = tuple(f"{relation}__{column}" for _, relation, column in RULE_SCOPE_CHIPS)


def rule_scope_chips(shown: Callable[[str, str], str | None]) -> list[str]:
    """A pricing rule's scope chips, e.g. ['Customer: Acme', 'Product: Diesel'], or ['Everything'].
    `shown(relation, column)`: the related row's column, None when the rule has no such scope."""
    chips = []
    for label, relation, column in RULE_SCOPE_CHIPS:
        name = shown(relation, column)
        if name is not None:
            chips.append(f"{label}: {name}")
    return chips or ["Everything"]


def fee_subtotal(fee_type: str, amount_type: str, rate: Decimal, quantity: Decimal) -> Decimal:
    """A fee's own amount, rate x quantity to the cent; 0.00 for a percentage fee, whose amount depends
    on a document (the model's `subtotal` and the fee list's rows)."""
    from tenants.pricing.money import money

    if fee_type == Fee.FeeType.PERCENTAGE or amount_type == Fee.AmountType.PERCENTAGE:
        return Decimal("0.00")
    return money(rate * quantity)
