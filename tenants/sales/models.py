"""Sales orders: the order, its product lines, fees, notes, and the timeline of its workflow moves.

Money is Decimal: per-unit prices 4 dp, money 2 dp; quantities 3 dp (gallons metered to a tenth,
drums and cases whole). The order's totals are stored (kept in step by the services) so lists,
credit control and the dispatch view read them without recomputing.
"""

from __future__ import annotations

from decimal import Decimal

from core.documents import DocumentHeader, document_number, document_status
from core.models import Timestamped, WorkflowEvent
from core.scoping import declare_not_found, declare_owner
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models.functions import Upper

ZERO = Decimal("0")


class SalesOrder(DocumentHeader):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        VERIFIED = "verified", "Verified"
        ASSIGNED = "assigned", "Assigned"
        IN_DELIVERY = "in_delivery", "In delivery"
        DELIVERED = "delivered", "Delivered"
        COMPLETED = "completed", "Completed"
        ARCHIVE = "archive", "Archived"
        CANCELLED = "cancelled", "Cancelled"

    number = document_number("SO-000123")
    status = document_status(Status)
    customer = models.ForeignKey("parties.Customer", on_delete=models.PROTECT, related_name="sales_orders")
    ship_to = models.ForeignKey(
        "parties.ShipTo", on_delete=models.PROTECT, related_name="sales_orders", null=True, blank=True
    )
    po_number = models.CharField(max_length=60, blank=True, default="")
    # The planned delivery window: a day and an optional time range.
    planned_date = models.DateField()
    planned_time_from = models.TimeField(null=True, blank=True)
    planned_time_to = models.TimeField(null=True, blank=True)
    # Assignment (dispatch): a driver and the company's units, and the stop's place in the truck's day.
    driver = models.ForeignKey(
        "fleet.Driver", on_delete=models.PROTECT, related_name="sales_orders", null=True, blank=True
    )
    truck = models.ForeignKey(
        "fleet.CompanyAsset", on_delete=models.PROTECT, related_name="truck_orders", null=True, blank=True
    )
    trailer = models.ForeignKey(
        "fleet.CompanyAsset", on_delete=models.PROTECT, related_name="trailer_orders", null=True, blank=True
    )
    stop_sequence = models.PositiveIntegerField(null=True, blank=True)
    delivery_started_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    instructions = models.TextField(blank=True, default="")
    fee_total = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)

    class Meta:
        ordering = ["-planned_date", "-id"]
        indexes = [
            # The list: one per offered sort, with id as the tiebreak; status-led ones for the status
            # filters (board columns, archive tab) and customer-led ones for a customer's orders.
            models.Index(fields=["planned_date", "id"], name="so_planned_date"),
            models.Index(fields=["status", "planned_date", "id"], name="so_status_planned"),
            # With the status in its leaf pages: a customer's (or a name search's customers') orders
            # outside the archive are counted and paged from this index alone (an index-only scan).
            models.Index(
                fields=["customer", "planned_date", "id"], include=["status"], name="so_customer_planned"
            ),
            models.Index(fields=["customer", "status", "planned_date"], name="so_customer_status_planned"),
            models.Index(fields=["created_at", "id"], name="so_created_at"),
            models.Index(fields=["total", "id"], name="so_total"),
            models.Index(fields=["truck", "planned_date"], name="so_truck_day"),
            models.Index(fields=["driver", "planned_date"], name="so_driver_day"),
            GinIndex(OpClass(Upper("number"), name="gin_trgm_ops"), name="so_number_trgm"),
            GinIndex(OpClass(Upper("po_number"), name="gin_trgm_ops"), name="so_po_number_trgm"),
        ]

    def __str__(self) -> str:
        return self.number


_S = SalesOrder.Status
# Orders that count against the customer's credit (committed, not invoiced yet).
OPEN_STATUSES = (_S.VERIFIED.value, _S.ASSIGNED.value, _S.IN_DELIVERY.value, _S.DELIVERED.value)
# Orders on the dispatch center, and those on a truck.
DISPATCH_STATUSES = (_S.VERIFIED.value, _S.ASSIGNED.value, _S.IN_DELIVERY.value)
ON_TRUCK_STATUSES = (_S.ASSIGNED.value, _S.IN_DELIVERY.value)


class LineItem(Timestamped):
    """A product line of an order. Before verification its price follows the pricing engine; at
    verification `unit_price` and `price_breakdown` are fixed (`price_fixed`)."""

    sales_order = models.ForeignKey(SalesOrder, on_delete=models.CASCADE, related_name="line_items")
    position = models.PositiveIntegerField(default=0)
    product = models.ForeignKey("catalog.Product", on_delete=models.PROTECT, related_name="sales_lines")
    quantity = models.DecimalField(
        max_digits=14, decimal_places=3, validators=[MinValueValidator(Decimal("0.001"))]
    )
    unit_price = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    amount = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    tax_amount = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    price_breakdown = models.JSONField(default=dict, blank=True)
    price_error = models.CharField(max_length=300, blank=True, default="")
    price_fixed = models.BooleanField(default=False)
    # A price the user typed: the engine is asked with it (unit_price_override).
    unit_price_override = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    customer_asset = models.ForeignKey(
        "parties.CustomerAsset", on_delete=models.PROTECT, related_name="sales_lines", null=True, blank=True
    )
    po_number = models.CharField(max_length=60, blank=True, default="")
    delivered_quantity = models.DecimalField(max_digits=14, decimal_places=3, null=True, blank=True)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = "line item"
        indexes = [models.Index(fields=["product", "sales_order"], name="so_line_product")]

    def __str__(self) -> str:
        return f"{self.sales_order_id}: {self.product_id} x {self.quantity}"


class OrderFee(Timestamped):
    """A fee on an order (delivery, hazmat, small-load…), priced by the engine like the lines."""

    sales_order = models.ForeignKey(SalesOrder, on_delete=models.CASCADE, related_name="fees")
    position = models.PositiveIntegerField(default=0)
    fee = models.ForeignKey("pricing.Fee", on_delete=models.PROTECT, related_name="sales_order_fees")
    quantity = models.DecimalField(
        max_digits=14, decimal_places=3, null=True, blank=True, help_text="Empty: the fee's own quantity"
    )
    name = models.CharField(max_length=200, blank=True, default="")
    fee_type = models.CharField(max_length=20, blank=True, default="")
    rate = models.DecimalField(max_digits=14, decimal_places=4, default=ZERO)
    applied_quantity = models.DecimalField(max_digits=14, decimal_places=3, default=ZERO)
    subtotal = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = "sales order fee"
        indexes = [models.Index(fields=["sales_order", "position"], name="so_fee_order")]

    def __str__(self) -> str:
        return f"{self.sales_order_id}: fee {self.fee_id}"


class Note(Timestamped):
    class Origin(models.TextChoices):
        USER = "user", "Written by a user"
        # Written by the server (a driver's action it refused): only the office may change it.
        SYSTEM = "system", "Written by the system"

    sales_order = models.ForeignKey(SalesOrder, on_delete=models.CASCADE, related_name="notes")
    body = models.TextField()
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.USER)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["sales_order", "created_at"], name="so_note_order")]

    def __str__(self) -> str:
        return self.body[:40]


class StatusEvent(WorkflowEvent):
    """One move of an order's workflow: who, when, from, to (the order's timeline)."""

    sales_order = models.ForeignKey(SalesOrder, on_delete=models.CASCADE, related_name="events")

    document_field = "sales_order"

    class Meta(WorkflowEvent.Meta):
        verbose_name = "sales order event"
        indexes = [models.Index(fields=["sales_order", "at"], name="so_event_order")]


# How an order's rows belong to a user (core.scoping): its assigned driver's sign-in. A driver's
# grants are own-scoped (`sales_order.view:own`), so every route that loads these rows through the
# kit sees his stops only.
declare_owner(SalesOrder, "driver__user", resource="sales_order")
declare_owner(LineItem, "sales_order__driver__user", resource="sales_order")
declare_owner(OrderFee, "sales_order__driver__user", resource="sales_order")
declare_owner(Note, "sales_order__driver__user", resource="sales_order")
declare_owner(StatusEvent, "sales_order__driver__user", resource="sales_order")
# The 404 of a row whose sentence is not "<verbose name> not found" (core.scoping.get_or_404).
declare_not_found(OrderFee, "Fee not found")
