"""The real invoices and delivery tickets the designer previews a template with (registered with
`tenants.documents.services.register_data_source` in `MailConfig.ready`: this app already wires the
invoice and delivery domains to the documents for emailing them)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from tenants.delivery import selectors as delivery_selectors
from tenants.documents.services import DataSource, register_data_source
from tenants.invoicing import selectors as invoicing_selectors
from tenants.invoicing.models import Invoice


def _invoice(source_id: int) -> dict[str, Any] | None:
    if invoicing_selectors.get_invoice(source_id) is None:
        return None
    return invoicing_selectors.invoice_document_data(source_id)


def _recent_invoices(search: str, limit: int) -> list[tuple[int, str]]:
    qs = Invoice.objects.select_related("customer").order_by("-id")
    if search:
        qs = qs.filter(Q(number__icontains=search) | Q(customer__name__icontains=search))
    return [(inv.pk, f"{inv.number} · {inv.customer.name}") for inv in qs[:limit]]


def _ticket(source_id: int) -> dict[str, Any] | None:
    if not delivery_selectors.tickets().filter(pk=source_id).exists():
        return None
    data: dict[str, Any] = delivery_selectors.ticket_document_data(delivery_selectors.get_ticket(source_id))
    return data


def _recent_tickets(search: str, limit: int) -> list[tuple[int, str]]:
    qs = delivery_selectors.tickets().select_related("sales_order__customer").order_by("-id")
    if search:
        qs = qs.filter(Q(number__icontains=search) | Q(sales_order__customer__name__icontains=search))
    return [(t.pk, f"{t.number} · {t.sales_order.customer.name}") for t in qs[:limit]]


def register() -> None:
    register_data_source("invoice", DataSource(load=_invoice, recent=_recent_invoices))
    register_data_source("delivery_ticket", DataSource(load=_ticket, recent=_recent_tickets))
