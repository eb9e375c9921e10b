"""The spec's email rules (section 5), reusable by every domain that sends documents:
recipient parsing, one email per recipient or one for all, the attachment name, the PDF check."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from email.utils import getaddresses, parseaddr
from typing import Any

from core.errors import ApiError
from core.uploads import require_pdf
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

PDF_REQUIRED = "PDF file is required for invoice email"
PDF_INVALID = "Invalid PDF file provided"


@dataclass(frozen=True)
class Address:
    email: str
    name: str

    def formatted(self) -> str:
        from email.utils import formataddr

        return formataddr((self.name, self.email)) if self.name else self.email


def default_name(email: str) -> str:
    """The name of an address nobody named: the part before the @."""
    return email.split("@", 1)[0]


def _valid(email: str) -> str:
    email = email.strip()
    try:
        validate_email(email)
    except ValidationError as exc:
        raise ApiError(422, f"'{email}' is not a valid email address.") from exc
    return email


def parse_recipients(value: str | Iterable[str] | None) -> list[str]:
    """Comma-separated addresses (or a list of them): trimmed, empties dropped, each checked."""
    if value is None:
        return []
    parts = (
        value.split(",") if isinstance(value, str) else [p for item in value for p in str(item).split(",")]
    )
    seen: dict[str, str] = {}
    for part in parts:
        part = part.strip()
        if part:
            email = _valid(parseaddr(part)[1] or part)
            seen.setdefault(email.lower(), email)
    return list(seen.values())


def parse_address(entry: Any) -> Address | None:
    """A cc/bcc entry: an object with an email (and maybe a name), a plain address, or
    'Name <address>'. The name defaults to the part before the @. Blank entries give None."""
    if isinstance(entry, dict):
        email = str(entry.get("email") or entry.get("address") or "").strip()
        name = str(entry.get("name") or "").strip()
    elif isinstance(entry, str):
        raw = entry.strip()
        if not raw:
            return None
        name, email = parseaddr(raw)
        if not email or ("<" in raw and not raw.rstrip().endswith(">")):
            raise ApiError(422, f"'{raw}' is not a valid email address.")
        name = name.strip()
    else:
        raise ApiError(422, "A cc or bcc entry must be an address or an object with an email.")
    if not email:
        return None
    email = _valid(email)
    return Address(email=email, name=name or default_name(email))


def parse_address_list(entries: Any) -> list[Address]:
    if entries is None:
        return []
    if isinstance(entries, str):
        # "Doe, Jane" <jane@x.test>, bob@x.test: commas inside quotes or <> do not split.
        entries = [{"email": email, "name": name} for name, email in getaddresses([entries]) if email or name]
    if not isinstance(entries, list):
        raise ApiError(422, "cc and bcc must be lists of addresses.")
    out: dict[str, Address] = {}
    for entry in entries:
        address = parse_address(entry)
        if address is not None:
            out.setdefault(address.email.lower(), address)
    return list(out.values())


def split_recipients(recipients: list[str], one_per_recipient: bool) -> list[list[str]]:
    """One email per recipient, or a single email to all of them."""
    if not recipients:
        return []
    return [[r] for r in recipients] if one_per_recipient else [recipients]


def recipient_name(email: str, drafts: dict[str, str] | None = None) -> str:
    """The name from the prepared drafts (by address), else the part before the @."""
    if drafts:
        for addr, name in drafts.items():
            if addr.strip().lower() == email.lower() and name.strip():
                return name.strip()
    return default_name(email)


def attachment_name(customer_name: str, invoice_no: str, day: dt.date) -> str:
    """Spec §5: the customer's name reduced to letters, digits, spaces and hyphens, spaces turned
    into hyphens, then the invoice number and the date: `Acme-Fuel-INV-0042-2026-03-02.pdf`.
    Accented letters keep their base letter (é → e) so the name stays plain ASCII."""
    import unicodedata

    ascii_name = unicodedata.normalize("NFKD", customer_name).encode("ascii", "ignore").decode()
    kept = re.sub(r"[^A-Za-z0-9 -]", "", ascii_name).strip()
    base = re.sub(r" +", "-", kept)
    parts = [p for p in (base, str(invoice_no).strip(), day.isoformat()) if p]
    return "-".join(parts) + ".pdf"


def preparation_attachment_name(invoice_id: int, day: dt.date) -> str:
    """The name used while preparing drafts: `invoice-{id}-{date}.pdf`."""
    return f"invoice-{invoice_id}-{day.isoformat()}.pdf"


def check_pdf(data: bytes | None, *, required: bool = True) -> bytes:
    """A PDF is a non-empty file that is really a PDF (it parses, it has a page)."""
    if data is None:
        if required:
            raise ApiError(422, PDF_REQUIRED)
        raise ApiError(422, PDF_INVALID)
    return require_pdf(data, message=PDF_INVALID)
