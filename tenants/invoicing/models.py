"""Invoices and receivables: the invoice of a delivered sales order (its lines and fees, the taxes
and totals fixed when it was built), the timeline of its workflow moves, and the customer payments
applied to invoices (allocations). Money is Decimal, 2 dp; unit prices 4 dp; quantities 3 dp.

An invoice's `amount_paid` and `balance` are stored (kept in step by the payment services under the
invoice's row lock) so lists, the aging report and credit control read them without summing.
"""

from __future__ import annotations

from decimal import Decimal

from core.documents import DocumentHeader, document_number, document_status
from core.models import Timestamped, WorkflowEvent
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models.functions import Upper

from tenants.parties.models import SyncState

ZERO = Decimal("0")


class Invoice(DocumentHeader):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        ISSUED = "issued", "Issued"
        PARTIALLY_PAID = "partially_paid", "Partially paid"
        PAID = "paid", "Paid"
        VOID = "void", "Void"

    number = document_number("INV-000123")
    status = document_status(Status)
    sales_order = models.ForeignKey("sales.SalesOrder", on_delete=models.PROTECT, related_name="invoices")
    customer = models.ForeignKey("parties.Customer", on_delete=models.PROTECT, related_name="invoices")
    ship_to = models.ForeignKey(
        "parties.ShipTo", on_delete=models.PROTECT, related_name="invoices", null=True, blank=True
    )
    invoice_date = models.DateField()
    due_date = models.DateField()
    payment_term = models.ForeignKey(
        "pricing.PaymentTerm", on_delete=models.SET_NULL, related_name="invoices", null=True, blank=True
    )
    payment_term_name = models.CharField(max_length=80, blank=True, default="")
    po_number = models.CharField(max_length=60, blank=True, default="")
    notes = models.TextField(blank=True, default="")
    fee_total = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    amount_paid = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    balance = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    # The taxes of the invoice, aggregated per tax as the engine computed them (JSON, decimals as text).
    taxes = models.JSONField(default=list, blank=True)
    pricing_notes = models.JSONField(default=list, blank=True)
    issued_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=500, blank=True, default="")
    email_sent_at = models.DateTimeField(null=True, blank=True)
    # The accounting integration's link: the id in the accounting system and the last sync's state.
    external_id = models.CharField(max_length=100, blank=True, default="")
    sync_state = models.CharField(max_length=20, choices=SyncState.choices, default=SyncState.NOT_SYNCED)
    last_sync_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-invoice_date", "-id"]
        constraints = [
            # One live invoice per order: a void one may be followed by a new one.
            models.UniqueConstraint(
                fields=["sales_order"],
                condition=~models.Q(status="void"),
                name="invoice_one_live_per_order",
                violation_error_message="This sales order already has an invoice.",
            ),
        ]
        indexes = [
            models.Index(fields=["invoice_date", "id"], name="inv_date"),
            models.Index(fields=["status", "invoice_date", "id"], name="inv_status_date"),
            models.Index(fields=["customer", "invoice_date", "id"], name="inv_customer_date"),
            models.Index(fields=["customer", "status", "due_date"], name="inv_customer_status_due"),
            models.Index(fields=["due_date", "id"], name="inv_due_date"),
            models.Index(fields=["number", "id"], name="inv_number"),
            models.Index(fields=["total", "id"], name="inv_total"),
            models.Index(fields=["balance", "id"], name="inv_balance"),
            GinIndex(OpClass(Upper("number"), name="gin_trgm_ops"), name="inv_number_trgm"),
            GinIndex(OpClass(Upper("po_number"), name="gin_trgm_ops"), name="inv_po_number_trgm"),
        ]

    def __str__(self) -> str:
        return self.number


_I = Invoice.Status
# Invoices that are receivables (money the customer owes until paid).
OPEN_STATUSES = (_I.ISSUED.value, _I.PARTIALLY_PAID.value)
# Invoices that carry the order's value (not void, not a draft): their order no longer counts as open.
BILLED_STATUSES = (_I.ISSUED.value, _I.PARTIALLY_PAID.value, _I.PAID.value)


class InvoiceLine(Timestamped):
    """A line of an invoice: a product at its delivered quantity and fixed price, or a fee."""

    class Kind(models.TextChoices):
        PRODUCT = "product", "Product"
        FEE = "fee", "Fee"

    invoice = models.ForeignKey(Invoice, on_delete=models.CASCADE, related_name="lines")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PRODUCT)
    position = models.PositiveIntegerField(default=0)
    # Where it comes from (the order's line or fee): how a re-run finds the line to update.
    source_key = models.CharField(max_length=40)
    sales_line = models.ForeignKey(
        "sales.LineItem", on_delete=models.SET_NULL, related_name="invoice_lines", null=True, blank=True
    )
    product = models.ForeignKey(
        "catalog.Product", on_delete=models.PROTECT, related_name="invoice_lines", null=True, blank=True
    )
    fee = models.ForeignKey(
        "pricing.Fee", on_delete=models.PROTECT, related_name="invoice_lines", null=True, blank=True
    )
    description = models.CharField(max_length=300, blank=True, default="")
    unit = models.CharField(max_length=30, blank=True, default="")
    quantity = models.DecimalField(max_digits=14, decimal_places=3, default=ZERO)
    unit_price = models.DecimalField(max_digits=14, decimal_places=4, default=ZERO)
    amount = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    tax_amount = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    taxes = models.JSONField(default=list, blank=True)
    price_breakdown = models.JSONField(default=dict, blank=True)
    po_number = models.CharField(max_length=60, blank=True, default="")

    class Meta:
        ordering = ["position", "id"]
        verbose_name = "invoice line item"
        constraints = [
            models.UniqueConstraint(fields=["invoice", "source_key"], name="invoice_line_unique_source")
        ]
        indexes = [models.Index(fields=["invoice", "position"], name="inv_line_invoice")]

    def __str__(self) -> str:
        return f"{self.invoice_id}: {self.description}"


class InvoiceEvent(WorkflowEvent):
    """One move of an invoice's workflow: who, when, from, to (the invoice's status history)."""

    invoice = models.ForeignKey(Invoice, on_delete=models.CASCADE, related_name="events")

    document_field = "invoice"

    class Meta(WorkflowEvent.Meta):
        verbose_name = "invoice event"
        indexes = [models.Index(fields=["invoice", "at"], name="inv_event_invoice")]


class Payment(Timestamped):
    """Money received from a customer. What is not allocated to invoices is the customer's credit,
    applied to later invoices by allocating the remainder."""

    number = models.CharField(max_length=30, unique=True, help_text="PAY-000123, per company")
    customer = models.ForeignKey("parties.Customer", on_delete=models.PROTECT, related_name="payments")
    payment_date = models.DateField()
    amount = models.DecimalField(
        max_digits=14, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    payment_method = models.ForeignKey(
        "pricing.PaymentMethod", on_delete=models.PROTECT, related_name="payments", null=True, blank=True
    )
    reference = models.CharField(max_length=100, blank=True, default="")
    notes = models.TextField(blank=True, default="")
    allocated = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    unapplied = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["-payment_date", "-id"]
        indexes = [
            models.Index(fields=["payment_date", "id"], name="pay_date"),
            models.Index(fields=["customer", "payment_date", "id"], name="pay_customer_date"),
            models.Index(fields=["customer", "unapplied"], name="pay_customer_unapplied"),
        ]

    def __str__(self) -> str:
        return self.number


class PaymentAllocation(models.Model):
    """A part of a payment applied to one invoice."""

    payment = models.ForeignKey(Payment, on_delete=models.CASCADE, related_name="allocations")
    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="allocations")
    amount = models.DecimalField(
        max_digits=14, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["payment", "invoice"], name="payment_allocation_unique")
        ]
        indexes = [models.Index(fields=["invoice", "created_at"], name="pay_alloc_invoice")]

    def __str__(self) -> str:
        return f"{self.payment_id} → {self.invoice_id}: {self.amount}"
