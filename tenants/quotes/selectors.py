"""Reads of price quotes: requests, reply matching, the comparison grid."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from core.scoping import not_found
from django.conf import settings
from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone

from tenants.catalog.models import Product
from tenants.parties.models import Supplier, SupplierProductAlias, Terminal
from tenants.pricing.services import buying_price_in_force
from tenants.quotes import parsing
from tenants.quotes.models import Quote, QuoteLine, QuoteRecipient, QuoteRequest
from tenants.quotes.parsing import Named

REQUEST_NUMBER = re.compile(r"\bQR-\d{4,}\b", re.I)
# A reply matched by its sender alone must come within this many days of the request.
SENDER_MATCH_DAYS = 30


@dataclass(frozen=True)
class Mailbox:
    """The connected mailbox as the inbox app describes it: the address it receives at ("" when
    its user name is not an address) and whether the inbox agent polls it."""

    address: str
    polling: bool


@dataclass(frozen=True)
class ReplyDestination:
    """Where suppliers' replies to a quote request go (its Reply-To) and what the screen says."""

    address: str  # the Reply-To; "" when there is none (replies go to the From address)
    read_by_inbox: bool  # the inbox agent will read and match them
    note: str


# The inbox app registers how to read its mailbox (quotes never import the inbox).
_mailbox_reader: Callable[[], Mailbox | None] | None = None


def register_mailbox_reader(reader: Callable[[], Mailbox | None]) -> None:
    global _mailbox_reader
    _mailbox_reader = reader


def reply_destination(company_email: str = "") -> ReplyDestination:
    """The connected mailbox when there is one (its replies are read and matched by the inbox agent);
    else the company's email (read by people, entered by hand); else nothing, with a warning."""
    box = _mailbox_reader() if _mailbox_reader is not None else None
    if box is not None and box.address:
        if box.polling:
            return ReplyDestination(
                box.address,
                True,
                f"Replies go to {box.address}, the mailbox the inbox agent reads: they are matched "
                "to this request in Email › Inbox.",
            )
        return ReplyDestination(
            box.address,
            False,
            f"Replies go to {box.address}, but inbox polling is off: start it in Email › Inbox, or "
            "the replies wait there unread.",
        )
    why = (
        "The connected mailbox's user name is not an email address"
        if box is not None
        else "No mailbox is connected to the inbox agent"
    )
    company_email = (company_email or "").strip()
    if company_email:
        return ReplyDestination(
            company_email,
            False,
            f"{why}: replies go to {company_email} (the company's email) and must be entered by "
            "hand. Connect a mailbox in Email › Inbox.",
        )
    sender = settings.DEFAULT_FROM_EMAIL
    return ReplyDestination(
        "",
        False,
        f"{why} and the company has no email: replies go to {sender}, which nobody reads. "
        "Connect a mailbox in Email › Inbox.",
    )


def requests() -> QuerySet[QuoteRequest]:
    return QuoteRequest.objects.annotate(
        recipient_count=Count("recipients", distinct=True), quote_count=Count("quotes", distinct=True)
    ).order_by("-created_at", "-id")


def get_request(request_id: int) -> QuoteRequest:
    found = (
        QuoteRequest.objects.prefetch_related(
            "products",
            "terminals",
            Prefetch("recipients", queryset=QuoteRecipient.objects.select_related("supplier", "sent_email")),
            Prefetch(
                "quotes",
                queryset=Quote.objects.select_related("supplier").prefetch_related(
                    Prefetch("lines", queryset=QuoteLine.objects.select_related("product", "terminal"))
                ),
            ),
        )
        .filter(pk=request_id)
        .first()
    )
    if found is None:
        raise not_found(QuoteRequest)
    return found


def _message_ids(*headers: str) -> set[str]:
    return {m.strip() for h in headers for m in re.findall(r"<[^<>\s]+>", h or "")}


def match_reply(
    *, in_reply_to: str, references: str, sender_email: str, subject: str
) -> tuple[QuoteRecipient, str] | None:
    """The request (and recipient) a received email answers, and why: its reply headers name the
    request's email; else its subject names the request and the sender was asked; else the sender
    was asked by an open request of the last SENDER_MATCH_DAYS days (the newest)."""
    ids = _message_ids(in_reply_to, references)
    recipients = QuoteRecipient.objects.select_related("request", "supplier")
    if ids:
        hit = recipients.filter(message_id__in=ids).order_by("-request__created_at", "-id").first()
        if hit is not None:
            header = "In-Reply-To" if hit.message_id in _message_ids(in_reply_to) else "References"
            return hit, (
                f"Replies to quote request {hit.request.number} sent to {hit.supplier.name} "
                f"({header} header)."
            )
    sender = (sender_email or "").strip().lower()
    if not sender:
        return None
    named = {n.upper() for n in REQUEST_NUMBER.findall(subject or "")}
    if named:
        hit = recipients.filter(request__number__in=named, email__iexact=sender).first()
        if hit is not None:
            return hit, (
                f"The subject names quote request {hit.request.number} and {sender} was asked in it."
            )
    since = timezone.now() - dt.timedelta(days=SENDER_MATCH_DAYS)
    hit = (
        recipients.filter(
            email__iexact=sender, request__status=QuoteRequest.Status.OPEN, request__created_at__gte=since
        )
        .order_by("-request__created_at", "-id")
        .first()
    )
    if hit is not None:
        return hit, (
            f"No reply header matched; the sender {sender} was asked in quote request "
            f"{hit.request.number} (the newest open one)."
        )
    return None


def supplier_by_email(email: str) -> Supplier | None:
    email = (email or "").strip()
    if not email:
        return None
    return Supplier.objects.filter(email__iexact=email).order_by("id").first()


def vocabulary(request: QuoteRequest, supplier_id: int) -> tuple[list[Named], list[Named]]:
    """The names a supplier may use for the request's products and terminals (names, codes, aliases)."""
    products = list(request.products.all())
    aliases: dict[int, list[str]] = {}
    for a in SupplierProductAlias.objects.filter(
        supplier_id=supplier_id, product_id__in=[p.pk for p in products]
    ):
        aliases.setdefault(a.product_id, []).extend(x for x in (a.alias_name, a.alias_code) if x)
    named_products = [Named(p.pk, (p.name, p.code, *aliases.get(p.pk, []))) for p in products]
    named_terminals = [Named(t.pk, (t.name, t.terminal_code)) for t in request.terminals.all()]
    return named_products, named_terminals


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value.quantize(Decimal("0.0001")))


def comparison(request_id: int, today: dt.date | None = None) -> dict[str, Any]:
    """The grid: one row per terminal and product, one cell per supplier (its newest quote's price),
    the lowest price of a row marked, each price's gap to the rack (the lowest buying price in force
    today at that terminal)."""
    request = get_request(request_id)
    today = today or timezone.localdate()
    suppliers: dict[int, Supplier] = {r.supplier_id: r.supplier for r in request.recipients.all()}
    latest: dict[tuple[int, int, int], QuoteLine] = {}
    products: dict[int, Product] = {p.pk: p for p in request.products.all()}
    terminals: dict[int, Terminal] = {t.pk: t for t in request.terminals.all()}
    # Quotes come newest first per supplier (Meta ordering): the first line of a cell wins.
    for quote in request.quotes.all():
        suppliers.setdefault(quote.supplier_id, quote.supplier)
        for line in quote.lines.all():
            products.setdefault(line.product_id, line.product)
            terminals.setdefault(line.terminal_id, line.terminal)
            latest.setdefault((line.terminal_id, line.product_id, quote.supplier_id), line)
    rows = []
    for terminal in sorted(terminals.values(), key=lambda t: (t.name, t.pk)):
        for product in sorted(products.values(), key=lambda p: (p.name, p.pk)):
            rack = buying_price_in_force(
                product_id=product.pk, terminal_id=terminal.pk, supplier_id=None, on=today, basis="lowest"
            )
            rack_price = Decimal(rack.price) if rack is not None else None
            cells = [latest.get((terminal.pk, product.pk, sid)) for sid in suppliers]
            prices = [c.price for c in cells if c is not None]
            lowest = min(prices) if prices else None
            rows.append(
                {
                    "terminal": {"id": terminal.pk, "name": terminal.name},
                    "product": {"id": product.pk, "name": product.name},
                    "rack_price": _money(rack_price),
                    "cells": [
                        {
                            "supplier_id": sid,
                            "quote_line_id": c.pk if c else None,
                            "price": _money(c.price) if c else None,
                            "is_lowest": c is not None and c.price == lowest,
                            "gap_to_rack": _money(c.price - rack_price)
                            if c is not None and rack_price is not None
                            else None,
                            "accepted": bool(c and c.accepted_at),
                            "effective_from": c.effective_from if c else None,
                        }
                        for sid, c in zip(suppliers, cells, strict=True)
                    ],
                }
            )
    return {
        "request_id": request.pk,
        "number": request.number,
        "rack_date": today,
        "suppliers": [{"id": s.pk, "name": s.name} for s in suppliers.values()],
        "rows": rows,
    }


def read_prices(
    request: QuoteRequest, supplier_id: int, body: str, sheets: list[tuple[str, bytes]]
) -> dict[str, Any]:
    """A supplier's prices for a request out of a reply's body and its CSV/XLSX sheets: the lines
    found (the body's first, a sheet adds the cells the body left out), the lines with a price that
    name no product or terminal of the request, and where they came from."""
    products, terminals = vocabulary(request, supplier_id)
    result = parsing.parse_text(body, products, terminals)
    sources = ["the email body"]
    for name, data in sheets:
        try:
            rows = parsing.xlsx_rows(data) if name.lower().endswith(".xlsx") else parsing.csv_rows(data)
        except ValueError as exc:
            result.unmatched.append(f"{name}: {exc}")
            continue
        sheet = parsing.parse_rows(rows, products, terminals)
        have = {(ln.product_id, ln.terminal_id): ln.price for ln in result.lines}
        for ln in sheet.lines:
            cell = (ln.product_id, ln.terminal_id)
            if cell not in have:
                result.lines.append(ln)
            elif have[cell] != ln.price:  # the sheet disagrees with the body: the user decides
                result.unmatched.append(f"{name}: {ln.source}")
        result.unmatched += sheet.unmatched
        sources.append(name)
    pnames = {p.id: p.names[0] for p in products}
    tnames = {t.id: t.names[0] for t in terminals}
    return {
        "sources": sources,
        "lines": [
            {
                "product_id": ln.product_id,
                "product_name": pnames.get(ln.product_id, ""),
                "terminal_id": ln.terminal_id,
                "terminal_name": tnames.get(ln.terminal_id, ""),
                "price": str(ln.price),
                "source": ln.source,
            }
            for ln in result.lines
        ],
        "unmatched": result.unmatched[:50],
    }
