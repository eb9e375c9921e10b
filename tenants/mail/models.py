"""The email outbox: an email is a row before it is a message (docs/email.md)."""

from core.scoping import declare_not_found
from django.db import models


class SentEmail(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        SENDING = "sending"
        SENT = "sent"
        FAILED = "failed"
        # Not sent, waiting for a person: the company's Google account must be reconnected.
        HELD = "held"

    class Category(models.TextChoices):
        INVOICE = "invoice"
        INVOICE_WITH_DELIVERY_TICKET = "invoice_with_delivery_ticket"
        DELIVERY_TICKET = "delivery_ticket"
        GENERAL = "general"

    category = models.CharField(max_length=40, choices=Category.choices, default=Category.GENERAL)
    # The document the email is about: an invoice id, or a sales order id for delivery tickets.
    parent_id = models.BigIntegerField(null=True, blank=True)
    sender_email = models.CharField(max_length=254)
    sender_name = models.CharField(max_length=200, blank=True, default="")
    # One address, or several joined by ", " when one email goes to every recipient.
    recipient_email = models.TextField()
    recipient_name = models.CharField(max_length=500, blank=True, default="")
    subject = models.CharField(max_length=500)
    body = models.TextField(blank=True, default="")
    # [{file_key, file_name, content_type, size}] under the tenant's storage prefix.
    attachments = models.JSONField(default=list, blank=True)
    reply_to = models.CharField(max_length=254, blank=True, default="")
    cc = models.JSONField(default=list, blank=True)  # [{email, name}]
    bcc = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True, default="")
    attempts = models.PositiveIntegerField(default=0)
    # Given by the client (or made up): the same key never makes a second email.
    idempotency_key = models.CharField(max_length=200, unique=True)
    # The stable Message-ID header of every delivery attempt (receivers can spot a duplicate).
    message_id = models.CharField(max_length=255, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["category", "-sent_at", "-id"], name="sentemail_category_sent"),
            models.Index(fields=["parent_id", "category"], name="sentemail_parent"),
            models.Index(fields=["status", "updated_at"], name="sentemail_status_updated"),
            models.Index(fields=["-sent_at", "-id"], name="sentemail_sent"),
        ]

    def __str__(self) -> str:
        return f"{self.subject} → {self.recipient_email} ({self.status})"


class EmailedDocument(models.Model):
    """ "Marked as emailed" on an invoice or on a sales order's delivery tickets (spec §4: prepare,
    send, then mark as sent): who marked it and when; the emails themselves are `SentEmail` rows."""

    class DocumentType(models.TextChoices):
        INVOICE = "invoice"
        DELIVERY_TICKET = "delivery_ticket"  # document_id is the sales order

    document_type = models.CharField(max_length=20, choices=DocumentType.choices)
    document_id = models.BigIntegerField()
    marked_at = models.DateTimeField()
    marked_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    times = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["document_type", "document_id"], name="emailed_document_unique")
        ]

    def __str__(self) -> str:
        return f"{self.document_type} {self.document_id} emailed {self.marked_at:%Y-%m-%d}"


declare_not_found(SentEmail, "Email not found")  # core.scoping.get_or_404's sentence
