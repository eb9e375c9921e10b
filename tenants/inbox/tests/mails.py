"""Emails as a supplier's mail client would write them."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid


def email(
    *,
    sender: str,
    subject: str,
    body: str,
    to: str = "ap@alpha.test",
    in_reply_to: str | None = None,
    references: str | None = None,
    message_id: str | None = None,
    attachments: list[tuple[str, bytes, str]] = (),  # type: ignore[assignment]
    when: dt.datetime | None = None,
) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when or dt.datetime.now(dt.UTC))
    msg["Message-ID"] = message_id or make_msgid(domain="supplier.test")
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if references:
        msg["References"] = references
    msg.set_content(body)
    for name, data, ctype in attachments:
        maintype, subtype = ctype.split("/", 1)
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return msg.as_bytes()
