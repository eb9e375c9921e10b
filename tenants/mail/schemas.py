from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from ninja import Schema
from pydantic import Field

Category = Literal["invoice", "invoice_with_delivery_ticket", "delivery_ticket", "general"]


class EmailAddressOut(Schema):
    email: str
    name: str


class AttachmentRef(Schema):
    file_key: str = Field(
        ..., min_length=1, max_length=500, description="The key of a file this company uploaded"
    )
    file_name: str | None = Field(None, max_length=200, description="The name the receiver sees")


class AttachmentOut(Schema):
    file_key: str
    file_name: str
    content_type: str
    size: int


class EmailIn(Schema):
    """One email of the send payload (spec §3): the recipients joined by commas."""

    category: Category = "general"
    parent_id: int | None = Field(None, ge=1, le=2**62)
    sender_email: str | None = Field(None, max_length=254, description="Defaults to the company's address")
    sender_name: str | None = Field(None, max_length=200)
    recipient_email: str = Field(..., min_length=3, max_length=5000, description="Comma-separated addresses")
    recipient_name: str | None = Field(None, max_length=200)
    subject: str = Field(..., min_length=1, max_length=500)
    body: str = Field("", max_length=100_000)
    attachments: list[AttachmentRef] = Field(default_factory=list, max_length=10)
    reply_to: str | None = Field(None, max_length=254)
    cc: list[Any] = Field(
        default_factory=list,
        max_length=50,
        description="Objects {email, name}, addresses or 'Name <address>'",
    )
    bcc: list[Any] = Field(default_factory=list, max_length=50)
    one_per_recipient: bool = Field(True, description="One email per recipient, or one email to all")
    idempotency_key: str | None = Field(
        None, min_length=1, max_length=150, description="The same key never sends a second email"
    )


class EmailOut(Schema):
    id: int
    sent_at: dt.datetime | None
    created_at: dt.datetime
    category: str
    parent_id: int | None
    sender_email: str
    sender_name: str
    recipient_email: str
    recipient_name: str
    subject: str
    body: str
    attachments: list[AttachmentOut]
    reply_to: str
    cc: list[EmailAddressOut]
    bcc: list[EmailAddressOut]
    status: str
    error: str
    attempts: int
    idempotency_key: str
    message_id: str


class EmailListQuery(Schema):
    page: int = Field(1, ge=1, le=1_000_000)
    size: int = Field(50, ge=1, le=500)
    sort_by: Literal["sent_at", "created_at", "subject", "recipient_email", "status", "id"] = "sent_at"
    order: Literal["asc", "desc"] = "desc"
    category: Category | None = None
    parent_id: int | None = Field(None, ge=1, le=2**62)
    status: Literal["queued", "sending", "sent", "failed", "held"] | None = None


class MailDraftOut(Schema):
    """A prepared email (spec §4: prepare, then send): the send payload of `POST /api/email/`, so
    the dialog edits the drafts and posts them back."""

    category: Category
    parent_id: int | None
    sender_email: str
    sender_name: str
    recipient_email: str
    recipient_name: str
    subject: str
    body: str
    attachments: list[AttachmentOut]
    reply_to: str
    cc: list[EmailAddressOut]
    bcc: list[EmailAddressOut]


class MailInvoiceEmailQuery(Schema):
    include_delivery_ticket: bool = Field(
        False, description="Attach the delivery tickets of the invoice's sales order too"
    )
    idempotency_key: str | None = Field(
        None, min_length=1, max_length=150, description="The same key never sends a second time"
    )


class MailTicketEmailQuery(Schema):
    sales_order_id: int = Field(..., ge=1, le=2**62)
    split_by_po: bool = Field(False, description="One ticket per PO number among the order's lines")
    idempotency_key: str | None = Field(None, min_length=1, max_length=150)


class MailTicketMarkQuery(Schema):
    sales_order_id: int = Field(..., ge=1, le=2**62)


class MailEmailedOut(Schema):
    """A document marked as emailed, and what its emails really did."""

    document_type: str
    document_id: int
    marked_at: dt.datetime
    times: int
    emails: dict[str, int] = Field(
        description="The document's emails by status: queued, sending, sent, failed, held"
    )
