"""Purchasing: purchase orders (lines, receipts, timeline), supplier bills (lines, charges, timeline)
with their three-way match, and the company's match tolerances.

Money is Decimal: unit costs 4 dp, money 2 dp; quantities 3 dp (gallons). A purchase order's and a
bill's totals are stored (kept in step by the services) so lists read them without recomputing.
"""

from __future__ import annotations

from decimal import Decimal

from core.documents import DocumentHeader, document_number, document_status
from core.models import Timestamped, WorkflowEvent
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower, Upper

ZERO = Decimal("0")


class PurchaseOrder(DocumentHeader):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        ORDERED = "ordered", "Ordered"
        RECEIVED = "received", "Received"
        BILLED = "billed", "Billed"
        CLOSED = "closed", "Closed"
        CANCELLED = "cancelled", "Cancelled"

    number = document_number("PO-000123")
    status = document_status(Status)
    supplier = models.ForeignKey("parties.Supplier", on_delete=models.PROTECT, related_name="purchase_orders")
    terminal = models.ForeignKey(
        "parties.Terminal", on_delete=models.PROTECT, related_name="purchase_orders", null=True, blank=True
    )
    order_date = models.DateField()
    expected_date = models.DateField(null=True, blank=True)
    reference = models.CharField(max_length=60, blank=True, default="", help_text="Supplier's order ref")
    notes = models.TextField(blank=True, default="")
    ordered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-order_date", "-id"]
        indexes = [
            models.Index(fields=["order_date", "id"], name="po_order_date"),
            models.Index(fields=["status", "order_date", "id"], name="po_status_date"),
            models.Index(fields=["supplier", "order_date", "id"], name="po_supplier_date"),
            models.Index(fields=["terminal", "order_date", "id"], name="po_terminal_date"),
            models.Index(fields=["total", "id"], name="po_total"),
            models.Index(fields=["created_at", "id"], name="po_created_at"),
            GinIndex(OpClass(Upper("number"), name="gin_trgm_ops"), name="po_number_trgm"),
            GinIndex(OpClass(Upper("reference"), name="gin_trgm_ops"), name="po_reference_trgm"),
        ]

    def __str__(self) -> str:
        return self.number


class PurchaseOrderLine(Timestamped):
    purchase_order = models.ForeignKey(PurchaseOrder, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveIntegerField(default=0)
    product = models.ForeignKey("catalog.Product", on_delete=models.PROTECT, related_name="purchase_lines")
    quantity = models.DecimalField(
        max_digits=14, decimal_places=3, validators=[MinValueValidator(Decimal("0.001"))]
    )
    unit_cost = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    # Where the unit cost came from: "buying_price" (the price in force on the order date), "manual".
    unit_cost_source = models.CharField(max_length=20, blank=True, default="")
    buying_price_id = models.BigIntegerField(null=True, blank=True)
    amount = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    tax_amount = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = "purchase order line"
        indexes = [models.Index(fields=["product", "purchase_order"], name="po_line_product")]

    def __str__(self) -> str:
        return f"{self.purchase_order_id}: {self.product_id} x {self.quantity}"


class Receipt(Timestamped):
    """A lift against a purchase order: its bill of lading, the date, the gallons per line."""

    purchase_order = models.ForeignKey(PurchaseOrder, on_delete=models.CASCADE, related_name="receipts")
    bol_number = models.CharField(max_length=60)
    received_on = models.DateField()
    notes = models.CharField(max_length=500, blank=True, default="")
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["received_on", "id"]
        indexes = [
            models.Index(fields=["purchase_order", "received_on"], name="po_receipt_order"),
            models.Index(Upper("bol_number"), name="po_receipt_bol"),
        ]

    def __str__(self) -> str:
        return self.bol_number


class ReceiptLine(models.Model):
    receipt = models.ForeignKey(Receipt, on_delete=models.CASCADE, related_name="lines")
    line = models.ForeignKey(PurchaseOrderLine, on_delete=models.CASCADE, related_name="receipt_lines")
    gross_quantity = models.DecimalField(
        max_digits=14, decimal_places=3, validators=[MinValueValidator(ZERO)]
    )
    net_quantity = models.DecimalField(max_digits=14, decimal_places=3, validators=[MinValueValidator(ZERO)])

    class Meta:
        ordering = ["id"]
        verbose_name = "receipt line"
        indexes = [models.Index(fields=["line"], name="po_receipt_line")]

    def __str__(self) -> str:
        return f"{self.receipt_id}: {self.line_id} {self.net_quantity}"


class PurchaseOrderEvent(WorkflowEvent):
    """One move of a purchase order's workflow: who, when, from, to."""

    purchase_order = models.ForeignKey(PurchaseOrder, on_delete=models.CASCADE, related_name="events")

    document_field = "purchase_order"

    class Meta(WorkflowEvent.Meta):
        verbose_name = "purchase order event"
        indexes = [models.Index(fields=["purchase_order", "at"], name="po_event_order")]


class Bill(DocumentHeader):
    """A supplier's invoice to us (accounts payable)."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        APPROVED = "approved", "Approved"
        PAID = "paid", "Paid"
        VOID = "void", "Void"

    class Match(models.TextChoices):
        NO_PO = "no_po", "No purchase order"
        MATCHED = "matched", "Matched"
        OUT_OF_TOLERANCE = "out_of_tolerance", "Out of tolerance"

    supplier = models.ForeignKey("parties.Supplier", on_delete=models.PROTECT, related_name="bills")
    bill_number = models.CharField(max_length=60)
    bill_date = models.DateField()
    due_date = models.DateField()
    payment_term = models.ForeignKey(
        "pricing.PaymentTerm", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    purchase_order = models.ForeignKey(
        PurchaseOrder, on_delete=models.PROTECT, related_name="bills", null=True, blank=True
    )
    terminal = models.ForeignKey(
        "parties.Terminal", on_delete=models.PROTECT, related_name="bills", null=True, blank=True
    )
    status = document_status(Status)
    match_status = models.CharField(max_length=20, choices=Match.choices, default=Match.NO_PO)
    match_overridden = models.BooleanField(default=False)
    freight = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    notes = models.TextField(blank=True, default="")
    # How the bill came in: typed, the bill parser, the inbox agent; and the uploaded file's key.
    source = models.CharField(max_length=20, default="manual")
    source_file = models.CharField(max_length=500, blank=True, default="")
    # The total printed on the supplier's document (parser, inbox), when the bill was read from one.
    # A bill whose lines + taxes disagree with it is created only with a stated reason (who, when).
    document_total = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    total_override_reason = models.TextField(blank=True, default="")
    total_override_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    total_override_at = models.DateTimeField(null=True, blank=True)
    approved_at = models.DateTimeField(null=True, blank=True)
    paid_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-bill_date", "-id"]
        constraints = [
            models.UniqueConstraint(
                Lower("bill_number"),
                "supplier",
                name="bill_unique_number_per_supplier",
                condition=~models.Q(status="void"),
                violation_error_code="unique",
                violation_error_message="This supplier already has a bill with this number.",
            )
        ]
        indexes = [
            models.Index(fields=["bill_date", "id"], name="bill_date"),
            models.Index(fields=["due_date", "id"], name="bill_due_date"),
            models.Index(fields=["status", "bill_date", "id"], name="bill_status_date"),
            models.Index(fields=["supplier", "bill_date", "id"], name="bill_supplier_date"),
            models.Index(fields=["purchase_order", "status"], name="bill_po_status"),
            models.Index(fields=["total", "id"], name="bill_total"),
            GinIndex(OpClass(Upper("bill_number"), name="gin_trgm_ops"), name="bill_number_trgm"),
        ]

    def __str__(self) -> str:
        return self.bill_number


class BillLine(Timestamped):
    bill = models.ForeignKey(Bill, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveIntegerField(default=0)
    product = models.ForeignKey(
        "catalog.Product", on_delete=models.PROTECT, related_name="bill_lines", null=True, blank=True
    )
    description = models.CharField(max_length=300, blank=True, default="")
    purchase_order_line = models.ForeignKey(
        PurchaseOrderLine, on_delete=models.SET_NULL, related_name="bill_lines", null=True, blank=True
    )
    bol_number = models.CharField(max_length=60, blank=True, default="")
    gross_quantity = models.DecimalField(max_digits=14, decimal_places=3, null=True, blank=True)
    quantity = models.DecimalField(
        max_digits=14, decimal_places=3, help_text="Billed quantity (net gallons for fuel)"
    )
    unit_price = models.DecimalField(max_digits=14, decimal_places=4)
    amount = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = "bill line"
        indexes = [models.Index(fields=["purchase_order_line", "bill"], name="bill_line_po_line")]

    def __str__(self) -> str:
        return f"{self.bill_id}: {self.description or self.product_id} x {self.quantity}"


class BillCharge(models.Model):
    """A tax or fee the supplier charges on the bill (as it states it: the bill is the source)."""

    class Kind(models.TextChoices):
        TAX = "tax", "Tax"
        FEE = "fee", "Fee"

    bill = models.ForeignKey(Bill, on_delete=models.CASCADE, related_name="charges")
    position = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.TAX)
    name = models.CharField(max_length=200)
    tax = models.ForeignKey("pricing.Tax", on_delete=models.SET_NULL, related_name="+", null=True, blank=True)
    amount = models.DecimalField(max_digits=14, decimal_places=2)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = "bill charge"
        indexes = [models.Index(fields=["bill", "position"], name="bill_charge_bill")]

    def __str__(self) -> str:
        return f"{self.bill_id}: {self.name} {self.amount}"


class BillEvent(WorkflowEvent):
    bill = models.ForeignKey(Bill, on_delete=models.CASCADE, related_name="events")

    document_field = "bill"

    class Meta(WorkflowEvent.Meta):
        verbose_name = "bill event"
        indexes = [models.Index(fields=["bill", "at"], name="bill_event_bill")]


class MatchSettings(models.Model):
    """The company's three-way match tolerances (one row, id 1; the defaults until someone saves).

    A bill line is out of tolerance when its billed quantity differs from the received (net)
    quantity not yet billed by more than `quantity_tolerance_percent` of it, or its unit price differs
    from the purchase order's unit cost by more than `price_tolerance_per_unit` (absolute, per unit)
    or `price_tolerance_percent` of the cost, whichever is larger."""

    quantity_tolerance_percent = models.DecimalField(
        max_digits=6,
        decimal_places=3,
        default=Decimal("0.500"),
        validators=[MinValueValidator(ZERO), MaxValueValidator(Decimal("100"))],
    )
    price_tolerance_per_unit = models.DecimalField(
        max_digits=10,
        decimal_places=4,
        default=Decimal("0.0050"),
        validators=[MinValueValidator(ZERO)],
    )
    price_tolerance_percent = models.DecimalField(
        max_digits=6,
        decimal_places=3,
        default=Decimal("0.000"),
        validators=[MinValueValidator(ZERO), MaxValueValidator(Decimal("100"))],
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "match settings"
        verbose_name_plural = "match settings"

    def __str__(self) -> str:
        return "Three-way match tolerances"


class SupplierTerm(models.Model):
    """The payment term a supplier bills us on (a bill's due date = bill date + its net days)."""

    supplier = models.OneToOneField(
        "parties.Supplier", on_delete=models.CASCADE, related_name="purchasing_term"
    )
    payment_term = models.ForeignKey("pricing.PaymentTerm", on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = "supplier payment term"

    def __str__(self) -> str:
        return f"{self.supplier_id}: {self.payment_term_id}"
