"""The dashboard's rollup: what sold, per product and day, kept in step with the sales orders.

`ProductDay` is the table the product summary reads (one row per product and planned day, so a
30-day summary reads a few hundred rows whatever the number of orders). `LineContribution` is what
each counted order line has added to it, so a change of a line or of its order applies exactly the
difference (see rollup.py and docs/dashboard.md)."""

from __future__ import annotations

from decimal import Decimal

from django.db import models

ZERO = Decimal("0")


class ProductDay(models.Model):
    day = models.DateField()
    product = models.ForeignKey("catalog.Product", on_delete=models.CASCADE, related_name="+")
    ordered_quantity = models.DecimalField(max_digits=18, decimal_places=3, default=ZERO)
    delivered_quantity = models.DecimalField(max_digits=18, decimal_places=3, default=ZERO)
    revenue = models.DecimalField(max_digits=18, decimal_places=2, default=ZERO)
    # Cost of the lines whose cost is known, and the revenue of those lines: margin = costed_revenue - cost.
    cost = models.DecimalField(max_digits=18, decimal_places=2, default=ZERO)
    costed_revenue = models.DecimalField(max_digits=18, decimal_places=2, default=ZERO)
    lines = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "product"], name="dash_product_day_unique")]

    def __str__(self) -> str:
        return f"{self.day} {self.product_id}"


class LineContribution(models.Model):
    """What one line of a counted order adds to `ProductDay` (no foreign keys: it outlives nothing,
    the receivers remove it with its line)."""

    line_item_id = models.BigIntegerField(primary_key=True)
    sales_order_id = models.BigIntegerField()
    day = models.DateField()
    product_id = models.BigIntegerField()
    ordered_quantity = models.DecimalField(max_digits=14, decimal_places=3)
    delivered_quantity = models.DecimalField(max_digits=14, decimal_places=3)
    revenue = models.DecimalField(max_digits=14, decimal_places=2)
    cost = models.DecimalField(max_digits=14, decimal_places=2, null=True)

    class Meta:
        indexes = [models.Index(fields=["sales_order_id"], name="dash_contrib_order")]

    def __str__(self) -> str:
        return f"line {self.line_item_id}"
