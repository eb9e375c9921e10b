"""Products and their categories."""

from __future__ import annotations

from core.models import Timestamped, unique_ci
from django.db import models


class ProductCategory(Timestamped):
    name = models.CharField(max_length=100)
    description = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "product category"
        verbose_name_plural = "product categories"
        constraints = [
            unique_ci(
                "name",
                name="product_category_unique_name",
                message="A product category with this name already exists.",
            )
        ]

    def __str__(self) -> str:
        return self.name


class ProductSubCategory(Timestamped):
    name = models.CharField(max_length=100)
    category = models.ForeignKey(ProductCategory, on_delete=models.PROTECT, related_name="sub_categories")
    description = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "product sub-category"
        verbose_name_plural = "product sub-categories"
        constraints = [
            unique_ci(
                "name",
                "category",
                name="product_sub_category_unique_name",
                message="This category already has a sub-category with this name.",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SyncState(models.TextChoices):
    """Where a record stands with the accounting system."""

    NOT_SYNCED = "not_synced"
    PENDING = "pending"
    SYNCED = "synced"
    FAILED = "failed"


class VcfGroup(models.TextChoices):
    """The product group of API MPMS 11.1 (1980, table 6B) whose constants correct its volume to 60 °F
    (tenants/delivery/vcf.py). `none`: not temperature-corrected (goods, lubes billed gross)."""

    GASOLINE = "gasoline", "Gasolines"
    DISTILLATE = "distillate", "Fuel oils / diesel"
    JET = "jet", "Jet fuels / kerosene"
    TRANSITION = "transition", "Transition zone"
    NONE = "none", "No correction"


class Product(Timestamped):
    class SoldAs(models.TextChoices):
        GALLON = "gallon"
        LITRE = "litre"
        QUART = "quart"
        EACH = "each"
        CASE = "case"
        BOX = "box"
        PAIL = "pail"
        DRUM = "drum"
        TOTE = "tote"
        POUND = "pound"
        KILOGRAM = "kilogram"

    name = models.CharField(max_length=200)
    code = models.CharField(max_length=50, help_text="Our item code (SKU), unique")
    sold_as = models.CharField(max_length=20, choices=SoldAs.choices)
    category = models.ForeignKey(
        ProductCategory, on_delete=models.PROTECT, related_name="products", null=True, blank=True
    )
    sub_category = models.ForeignKey(
        ProductSubCategory, on_delete=models.PROTECT, related_name="products", null=True, blank=True
    )
    description = models.TextField(blank=True, default="")
    is_active = models.BooleanField(default=True)
    # Fuel is delivered in bulk by the gallon and metered; goods are picked and counted.
    is_fuel = models.BooleanField(default=False)
    # A list price; customer pricing and pricing rules (the pricing app) decide what is charged.
    unit_price = models.DecimalField(max_digits=12, decimal_places=4, null=True, blank=True)
    # Fuel only: API gravity at 60 °F and the table 6B group, for net (60 °F) gallons on delivery tickets.
    api_gravity = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    vcf_group = models.CharField(max_length=20, choices=VcfGroup.choices, default=VcfGroup.NONE)
    # The accounting integration's link: the item id there and the last sync's state.
    external_id = models.CharField(max_length=100, blank=True, default="")
    sync_state = models.CharField(max_length=20, choices=SyncState.choices, default=SyncState.NOT_SYNCED)
    last_sync_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_ci("code", name="product_unique_code", message="A product with this code already exists."),
            models.CheckConstraint(
                condition=models.Q(unit_price__gte=0) | models.Q(unit_price__isnull=True),
                name="product_unit_price_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(api_gravity__gte=0, api_gravity__lte=100)
                | models.Q(api_gravity__isnull=True),
                name="product_api_gravity_range",
            ),
        ]
        indexes = [models.Index(fields=["name", "id"], name="product_name")]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"
