"""Products and their categories, and the state of CSV imports (shared by every importable list)."""

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

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_ci("code", name="product_unique_code", message="A product with this code already exists."),
            models.CheckConstraint(
                condition=models.Q(unit_price__gte=0) | models.Q(unit_price__isnull=True),
                name="product_unit_price_not_negative",
            ),
        ]
        indexes = [models.Index(fields=["name", "id"], name="product_name")]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class DataImport(Timestamped):
    """One uploaded CSV file for one importable list: checked (preview) first, written on confirm.

    It lives here, the most basic master-data app, for every importable list (customers, ship-tos,
    products, terminals); `resource` names the list (the CRUD helper's permission resource).
    """

    class Status(models.TextChoices):
        VALIDATING = "validating"  # being checked by the worker
        READY = "ready"  # checked, every row valid: can be confirmed
        INVALID = "invalid"  # checked, some rows have errors: fix the file and upload it again
        IMPORTING = "importing"  # confirmed, being written
        COMPLETED = "completed"  # every row written
        FAILED = "failed"  # confirmed but nothing written (a row failed at write time, or an error)

    resource = models.CharField(max_length=60)
    file_key = models.CharField(max_length=500)
    file_name = models.CharField(max_length=200)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.VALIDATING)
    in_worker = models.BooleanField(default=False)
    total_rows = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    valid_rows = models.PositiveIntegerField(default=0)
    error_rows = models.PositiveIntegerField(default=0)
    created_rows = models.PositiveIntegerField(default=0)
    columns = models.JSONField(default=list, blank=True)
    ignored_columns = models.JSONField(default=list, blank=True)
    errors = models.JSONField(default=list, blank=True)  # [{row, field, message}], capped
    sample = models.JSONField(default=list, blank=True)  # the first valid rows as they will be written
    message = models.CharField(max_length=500, blank=True, default="")
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["resource", "-created_at"], name="data_import_resource")]

    def __str__(self) -> str:
        return f"{self.resource} import {self.pk} ({self.status})"
