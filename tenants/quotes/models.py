"""Price quotes: a request emailed to suppliers, their replies as quotes, and the lines accepted
into buying prices (docs/inbox.md)."""

from __future__ import annotations

from decimal import Decimal

from core.models import Timestamped
from django.core.validators import MinValueValidator
from django.db import models


class QuoteRequest(Timestamped):
    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    number = models.CharField(max_length=30, unique=True)
    # The day the prices are asked for: an accepted line's buying price starts then.
    quote_date = models.DateField()
    quantity = models.DecimalField(
        max_digits=14, decimal_places=3, validators=[MinValueValidator(Decimal("0"))]
    )
    notes = models.TextField(blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    products = models.ManyToManyField("catalog.Product", related_name="+")
    terminals = models.ManyToManyField("parties.Terminal", related_name="+")
    created_by_name = models.CharField(max_length=200, blank=True, default="")
    # The Reply-To of its emails (the connected mailbox, else the company's email; "" for none).
    reply_to = models.CharField(max_length=254, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["-created_at", "-id"], name="quoterequest_created")]

    def __str__(self) -> str:
        return self.number


class QuoteRecipient(models.Model):
    """One supplier asked by a request, and the email that asked it (its Message-ID matches replies)."""

    request = models.ForeignKey(QuoteRequest, on_delete=models.CASCADE, related_name="recipients")
    supplier = models.ForeignKey("parties.Supplier", on_delete=models.PROTECT, related_name="+")
    email = models.CharField(max_length=254)
    sent_email = models.ForeignKey("mail.SentEmail", on_delete=models.SET_NULL, null=True, related_name="+")
    message_id = models.CharField(max_length=255, db_index=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["request", "supplier"], name="quoterecipient_unique_supplier")
        ]
        indexes = [models.Index(fields=["email"], name="quoterecipient_email")]

    def __str__(self) -> str:
        return f"{self.request_id} → {self.email}"


class Quote(Timestamped):
    """A supplier's answer to a request (made when an inbox reply is verified)."""

    request = models.ForeignKey(QuoteRequest, on_delete=models.CASCADE, related_name="quotes")
    supplier = models.ForeignKey("parties.Supplier", on_delete=models.PROTECT, related_name="+")
    # The inbox message it came from (the inbox app refers to quotes, not the other way round).
    source_message_id = models.BigIntegerField(null=True, blank=True, unique=True)
    received_at = models.DateTimeField()
    notes = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["request_id", "supplier_id", "-received_at", "-id"]
        indexes = [models.Index(fields=["request", "supplier"], name="quote_request_supplier")]

    def __str__(self) -> str:
        return f"Quote {self.pk} ({self.supplier_id})"


class QuoteLine(models.Model):
    quote = models.ForeignKey(Quote, on_delete=models.CASCADE, related_name="lines")
    product = models.ForeignKey("catalog.Product", on_delete=models.PROTECT, related_name="+")
    terminal = models.ForeignKey("parties.Terminal", on_delete=models.PROTECT, related_name="+")
    price = models.DecimalField(max_digits=14, decimal_places=4, validators=[MinValueValidator(Decimal("0"))])
    effective_from = models.DateField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    buying_price = models.ForeignKey(
        "pricing.BuyingPrice", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["terminal_id", "product_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["quote", "terminal", "product"], name="quoteline_unique_cell")
        ]

    def __str__(self) -> str:
        return f"{self.product_id}@{self.terminal_id}: {self.price}"
