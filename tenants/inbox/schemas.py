from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from ninja import Schema
from pydantic import Field

from tenants.billparse.schemas import BillParseReviewIn
from tenants.geo.schemas import StrippedIn

MAX_ID = 2**63 - 1
Security = Literal["ssl", "starttls", "none"]


class MailboxIn(StrippedIn):
    host: str = Field(..., min_length=1, max_length=255, pattern=r"^[A-Za-z0-9.\-:\[\]]+$")
    port: int = Field(993, ge=1, le=65535)
    security: Security = "ssl"
    username: str = Field(..., min_length=1, max_length=255)
    password: str | None = Field(
        None, max_length=1000, description="Blank keeps the stored password; never returned"
    )
    folder: str = Field("INBOX", min_length=1, max_length=200)
    poll_every_seconds: int = Field(120, ge=60, le=86400)


class MailboxTestIn(Schema):
    """Test these settings (or, left out, the stored ones); a blank password uses the stored one."""

    settings: MailboxIn | None = None


class MailboxOut(Schema):
    configured: bool
    host: str
    port: int
    security: str
    username: str
    has_password: bool
    folder: str
    enabled: bool
    poll_every_seconds: int
    last_polled_at: dt.datetime | None
    last_success_at: dt.datetime | None
    next_poll_at: dt.datetime | None
    last_error: str
    last_error_at: dt.datetime | None
    consecutive_failures: int


class MailboxTestOut(Schema):
    ok: bool
    message: str
    messages: int | None


class InboxAttachmentOut(Schema):
    file_name: str
    content_type: str
    size: int
    problem: str = Field(
        "", description="Why it could not be read (empty, damaged, not a PDF); blank when fine"
    )


class InboxMessageListOut(Schema):
    id: int
    received_timestamp: dt.datetime
    sender_email: str
    sender_name: str
    subject: str
    classification: str
    classification_reason: str
    verified: bool
    attachment_count: int
    read_problems: list[str] = Field(
        ..., description="What could not be read: a broken MIME structure, an empty or damaged attachment"
    )
    supplier_id: int | None
    quote_request_id: int | None


class InboxProposedLineOut(Schema):
    product_id: int
    product_name: str
    terminal_id: int
    terminal_name: str
    price: str
    source: str


class InboxQuoteProposalOut(Schema):
    """The prices read out of a quote reply (body first, then its CSV/XLSX sheets)."""

    kind: Literal["price_quote_reply"]
    quote_request_id: int
    quote_request_number: str
    supplier_id: int
    supplier_name: str
    sources: list[str]
    lines: list[InboxProposedLineOut]
    unmatched: list[str]


class InboxMessageOut(InboxMessageListOut):
    message_id: str
    recipients: str
    body: str
    in_reply_to: str
    references: str
    attachments: list[InboxAttachmentOut]
    quote_proposal: InboxQuoteProposalOut | None
    bill_proposal: dict[str, Any] | None = Field(
        None, description="The bill parser's reading of the attached invoice (fields with confidences)"
    )
    proposal_error: str
    verified_at: dt.datetime | None
    verified_by_name: str
    verified_as: str
    created_record: dict[str, Any] | None


class InboxListQuery(Schema):
    sort_by: Literal["received_timestamp", "id", "subject", "sender_email"] = "received_timestamp"
    order: Literal["asc", "desc"] = "desc"
    include_verified: bool = False
    classification: Literal["bill", "price_quote_reply", "other"] | None = None
    page: int = Field(1, ge=1, le=1_000_000)
    size: int = Field(50, ge=1, le=100)


class VerifyQuoteLineIn(Schema):
    product_id: int = Field(..., ge=1, le=MAX_ID)
    terminal_id: int = Field(..., ge=1, le=MAX_ID)
    price: Decimal = Field(..., ge=0, max_digits=14, decimal_places=4)


class VerifyQuoteIn(Schema):
    quote_request_id: int = Field(..., ge=1, le=MAX_ID)
    supplier_id: int = Field(..., ge=1, le=MAX_ID)
    lines: list[VerifyQuoteLineIn] = Field(..., min_length=1, max_length=500)


class ReadAsIn(Schema):
    """Read an email as another kind than it was classified: its PDF through the bill parser, or
    its prices against the quote request (and supplier) the user names."""

    kind: Literal["bill", "price_quote_reply"]
    quote_request_id: int | None = Field(None, ge=1, le=MAX_ID, description="For a quote reply")
    supplier_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="For a quote reply; left out: the supplier with the sender's email"
    )


class VerifyIn(Schema):
    """The data as the user checked it: `quote` for a quote reply, `bill` (the bill parser's reviewed
    draft of the attached invoice) for an invoice, nothing for `other` (dismissed)."""

    verified_as: Literal["bill", "price_quote_reply", "other"]
    quote: VerifyQuoteIn | None = None
    bill: BillParseReviewIn | None = None
