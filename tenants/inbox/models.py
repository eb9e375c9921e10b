"""The inbox agent: the tenant's mailbox settings and the messages imported from it (docs/inbox.md)."""

from __future__ import annotations

from core.models import Timestamped
from django.db import models


class Mailbox(Timestamped):
    """The tenant's one IMAP mailbox (a singleton row: `singleton` is always 1)."""

    class Security(models.TextChoices):
        SSL = "ssl"  # implicit TLS (IMAPS, usually port 993)
        STARTTLS = "starttls"
        NONE = "none"  # plain IMAP: only for a server on a trusted network (or loopback)

    singleton = models.PositiveSmallIntegerField(default=1, unique=True, editable=False)
    host = models.CharField(max_length=255)
    port = models.PositiveIntegerField(default=993)
    security = models.CharField(max_length=10, choices=Security.choices, default=Security.SSL)
    username = models.CharField(max_length=255)
    # Fernet token (key derived from SECRET_KEY): never returned by the API.
    password_encrypted = models.TextField(blank=True, default="")
    folder = models.CharField(max_length=200, default="INBOX")
    enabled = models.BooleanField(default=False)
    poll_every_seconds = models.PositiveIntegerField(default=120)
    # Where the import stands: UIDs above last_uid of this UIDVALIDITY are new.
    uidvalidity = models.BigIntegerField(null=True, blank=True)
    last_uid = models.BigIntegerField(default=0)
    last_polled_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    next_poll_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    last_error_at = models.DateTimeField(null=True, blank=True)
    consecutive_failures = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.username}@{self.host}:{self.port}"


class InboxMessage(Timestamped):
    class Classification(models.TextChoices):
        BILL = "bill"
        PRICE_QUOTE_REPLY = "price_quote_reply"
        OTHER = "other"

    message_id = models.CharField(max_length=500, unique=True)
    uidvalidity = models.BigIntegerField()
    uid = models.BigIntegerField()
    sender_email = models.CharField(max_length=254, blank=True, default="")
    sender_name = models.CharField(max_length=200, blank=True, default="")
    recipients = models.TextField(blank=True, default="")
    subject = models.CharField(max_length=998, blank=True, default="")
    body = models.TextField(blank=True, default="")
    in_reply_to = models.CharField(max_length=998, blank=True, default="")
    references = models.TextField(blank=True, default="")
    received_timestamp = models.DateTimeField()
    # [{file_key, file_name, content_type, size}] under the tenant's storage prefix.
    attachments = models.JSONField(default=list, blank=True)
    classification = models.CharField(max_length=20, choices=Classification.choices)
    classification_reason = models.TextField(blank=True, default="")
    # Sentences saying what could not be read: a broken MIME structure, an empty or damaged attachment.
    read_problems = models.JSONField(default=list, blank=True)
    supplier = models.ForeignKey(
        "parties.Supplier", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    quote_request = models.ForeignKey(
        "quotes.QuoteRequest", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # What the worker read out of it for the verify screen: a bill's fields (the bill parser on the
    # PDF) or a quote's lines; `proposal_error` says why there is none.
    proposal = models.JSONField(null=True, blank=True)
    proposal_error = models.TextField(blank=True, default="")
    verified = models.BooleanField(default=False)
    verified_at = models.DateTimeField(null=True, blank=True)
    verified_by_name = models.CharField(max_length=200, blank=True, default="")
    verified_as = models.CharField(max_length=20, blank=True, default="")
    # What verifying made: {"type": "bill"|"quote", "id", "label", "path"}.
    created_record = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-received_timestamp", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["uidvalidity", "uid"], name="inboxmessage_unique_uid"),
        ]
        indexes = [
            models.Index(fields=["verified", "-received_timestamp", "-id"], name="inboxmsg_open_received"),
            models.Index(fields=["-received_timestamp", "-id"], name="inboxmsg_received"),
        ]

    def __str__(self) -> str:
        return self.subject or self.message_id
