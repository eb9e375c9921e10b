"""Reads of the inbox agent."""

from __future__ import annotations

import re
from typing import Any

from core.errors import ApiError
from django.db.models import QuerySet

from tenants.inbox.models import InboxMessage, Mailbox
from tenants.quotes import selectors as quote_selectors

_ADDRESS = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def mailbox() -> Mailbox | None:
    return Mailbox.objects.first()


def reply_mailbox() -> quote_selectors.Mailbox | None:
    """The connected mailbox for quote requests' Reply-To: its user name when that is an email
    address (IMAP logins of Gmail, Microsoft 365 and most hosts are), and whether it is polled."""
    box = Mailbox.objects.only("username", "enabled").first()
    if box is None:
        return None
    username = box.username.strip()
    return quote_selectors.Mailbox(
        address=username.lower() if _ADDRESS.match(username) else "", polling=box.enabled
    )


def mailbox_out(box: Mailbox | None) -> dict[str, Any]:
    if box is None:
        return {
            "configured": False,
            "host": "",
            "port": 993,
            "security": "ssl",
            "username": "",
            "has_password": False,
            "folder": "INBOX",
            "enabled": False,
            "poll_every_seconds": 120,
            "last_polled_at": None,
            "last_success_at": None,
            "next_poll_at": None,
            "last_error": "",
            "last_error_at": None,
            "consecutive_failures": 0,
        }
    return {
        "configured": True,
        "host": box.host,
        "port": box.port,
        "security": box.security,
        "username": box.username,
        "has_password": bool(box.password_encrypted),
        "folder": box.folder,
        "enabled": box.enabled,
        "poll_every_seconds": box.poll_every_seconds,
        "last_polled_at": box.last_polled_at,
        "last_success_at": box.last_success_at,
        "next_poll_at": box.next_poll_at,
        "last_error": box.last_error,
        "last_error_at": box.last_error_at,
        "consecutive_failures": box.consecutive_failures,
    }


LIST_FIELDS = (
    "id",
    "received_timestamp",
    "sender_email",
    "sender_name",
    "subject",
    "classification",
    "classification_reason",
    "verified",
    "attachments",
    "read_problems",
    "supplier_id",
    "quote_request_id",
)


def messages(
    *, sort_by: str, order: str, include_verified: bool, classification: str | None
) -> QuerySet[InboxMessage]:
    qs = InboxMessage.objects.all()
    if not include_verified:
        qs = qs.filter(verified=False)
    if classification:
        qs = qs.filter(classification=classification)
    prefix = "-" if order == "desc" else ""
    return qs.order_by(f"{prefix}{sort_by}", f"{prefix}id").only(*LIST_FIELDS)


def list_row(m: InboxMessage) -> dict[str, Any]:
    return {
        "id": m.pk,
        "received_timestamp": m.received_timestamp,
        "sender_email": m.sender_email,
        "sender_name": m.sender_name,
        "subject": m.subject,
        "classification": m.classification,
        "classification_reason": m.classification_reason,
        "verified": m.verified,
        "attachment_count": len(m.attachments or []),
        "read_problems": list(m.read_problems or []),
        "supplier_id": m.supplier_id,
        "quote_request_id": m.quote_request_id,
    }


def get_message(message_id: int) -> InboxMessage:
    found = InboxMessage.objects.filter(pk=message_id).first()
    if found is None:
        raise ApiError(404, "Email not found")
    return found


def message_out(m: InboxMessage) -> dict[str, Any]:
    return {
        **list_row(m),
        "message_id": m.message_id,
        "recipients": m.recipients,
        "body": m.body,
        "in_reply_to": m.in_reply_to,
        "references": m.references,
        "attachments": [
            {
                "file_name": a["file_name"],
                "content_type": a["content_type"],
                "size": a["size"],
                "problem": a.get("problem", ""),
            }
            for a in m.attachments or []
        ],
        "quote_proposal": m.proposal if (m.proposal or {}).get("kind") == "price_quote_reply" else None,
        "bill_proposal": m.proposal if (m.proposal or {}).get("kind") == "bill" else None,
        "proposal_error": m.proposal_error,
        "verified_at": m.verified_at,
        "verified_by_name": m.verified_by_name,
        "verified_as": m.verified_as,
        "created_record": m.created_record,
    }
