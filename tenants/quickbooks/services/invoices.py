"""The invoice push: an issued invoice becomes a QBO invoice (its customer first), created once per request
id."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from core import ratelimit
from core.errors import ApiError
from django.db import connection

from tenants.quickbooks import client as qbo
from tenants.quickbooks import selectors
from tenants.quickbooks.connection import NeedsReconnect, api, get_connection
from tenants.quickbooks.models import QboLink
from tenants.quickbooks.services.customers import ensure_customer
from tenants.quickbooks.services.links import (
    SERVICE,
    Kind,
    Sync,
    _api_error,
    _failed,
    _link,
    _synced,
    _touch_connection,
    _update_with_retry,
)


def _money(value: Any) -> float:
    return float(Decimal(str(value or "0")).quantize(Decimal("0.01")))


def invoice_payload(invoice: Any, customer_link: QboLink) -> dict[str, Any]:
    """The fields of the QBO invoice FuelDesk owns (a sparse update sends only these)."""
    us = selectors.company_country() == "US"
    conn = get_connection()
    if not us and not (conn.sales_tax_code and conn.exempt_tax_code):
        raise ApiError(
            409,
            f"Failed to post to {SERVICE}: choose the tax codes of invoice lines on the QuickBooks Online "
            "page first (your company is outside the US, where each line names a tax code).",
        )
    missing: list[str] = []
    lines: list[dict[str, Any]] = []
    percent_total = Decimal("0")
    product_links = selectors.links(
        Kind.PRODUCT, [ln.product_id for ln in invoice.lines.all() if ln.product_id]
    )
    fee_links = selectors.links(Kind.FEE, [ln.fee_id for ln in invoice.lines.all() if ln.fee_id])
    tax_ids = [int(t["tax_id"]) for ln in invoice.lines.all() for t in (ln.taxes or []) if t.get("tax_id")]
    tax_links = selectors.links(Kind.TAX, tax_ids)

    def tax_code(taxed: bool) -> dict[str, str] | None:
        if us:
            return {"value": "TAX" if taxed else "NON"}
        code = conn.sales_tax_code if taxed else conn.exempt_tax_code
        return {"value": code} if code else None

    def item_line(
        item_link: QboLink | None, label: str, description: str, amount: Any, **detail: Any
    ) -> None:
        if item_link is None or not item_link.qbo_id:
            missing.append(label)
            return
        body: dict[str, Any] = {"ItemRef": {"value": item_link.qbo_id}, **detail}
        lines.append(
            {
                "DetailType": "SalesItemLineDetail",
                "Amount": _money(amount),
                "Description": description[:4000],
                "SalesItemLineDetail": {k: v for k, v in body.items() if v is not None},
            }
        )

    for ln in invoice.lines.all().order_by("position", "id"):
        taxes = ln.taxes or []
        taxed = any(t.get("kind") == "percent" and Decimal(str(t.get("amount") or 0)) > 0 for t in taxes)
        percent_total += sum(
            (Decimal(str(t.get("amount") or 0)) for t in taxes if t.get("kind") == "percent"), Decimal("0")
        )
        if ln.kind == "fee":
            link = fee_links.get(ln.fee_id) if ln.fee_id else None
            label = f"fee {ln.description or ln.fee_id}"
        else:
            link = product_links.get(ln.product_id) if ln.product_id else None
            label = f"product {ln.product.name if ln.product_id else ln.description}"
        item_line(
            link,
            label,
            ln.description,
            ln.amount,
            Qty=float(ln.quantity),
            UnitPrice=float(ln.unit_price),
            TaxCodeRef=tax_code(taxed),
        )
        # Taxes per gallon (and per document) post as item lines of their own.
        for t in taxes:
            if t.get("kind") in ("per_unit", "fixed") and Decimal(str(t.get("amount") or 0)) != 0:
                tax_link = tax_links.get(int(t["tax_id"])) if t.get("tax_id") else None
                item_line(
                    tax_link,
                    f"tax {t.get('name') or t.get('code')}",
                    f"{t.get('name', '')} ({ln.description})",
                    t.get("amount"),
                    TaxCodeRef=tax_code(False),
                )
    if missing:
        unique = ", ".join(dict.fromkeys(missing))
        raise ApiError(409, f"Failed to post to {SERVICE}: map these to QuickBooks items first: {unique}.")
    data: dict[str, Any] = {
        "DocNumber": invoice.number[:21],
        "TxnDate": invoice.invoice_date.isoformat(),
        "DueDate": invoice.due_date.isoformat(),
        "CustomerRef": {"value": customer_link.qbo_id},
        "Line": lines,
    }
    if us:
        data["TxnTaxDetail"] = {"TotalTax": _money(percent_total)}
    return data


def push_invoice(*, invoice_id: int) -> QboLink:
    """Create the invoice in QBO exactly once, or update it (sparse). The create's requestid is
    stored before the call and reused on every retry; a push after a failed one looks the invoice
    up by DocNumber before creating. A stale SyncToken (someone edited it in QBO) re-reads and
    retries once; a second conflict is shown."""
    from tenants.invoicing.models import BILLED_STATUSES, Invoice

    invoice = (
        Invoice.objects.select_related("customer__city", "customer__state").filter(pk=invoice_id).first()
    )
    if invoice is None:
        raise ApiError(404, "Invoice not found")
    if invoice.status not in BILLED_STATUSES:
        raise ApiError(
            409,
            f"Failed to post to {SERVICE}: invoice {invoice.number} is {invoice.status}; "
            "only issued invoices are posted.",
        )
    lock_key = f"{connection.schema_name}:{invoice.pk}"
    if not ratelimit.take_slot("qbo-push", lock_key, 120):
        raise ApiError(409, f"Failed to post to {SERVICE}: invoice {invoice.number} is being posted already.")
    try:
        return _push(invoice)
    finally:
        ratelimit.release_slot("qbo-push", lock_key)


def _push(invoice: Any) -> QboLink:
    prefix = f"Failed to post to {SERVICE}"
    try:
        client = api()
    except NeedsReconnect as exc:
        raise _api_error(prefix, exc) from exc
    link = _link(Kind.INVOICE, invoice.pk)
    try:
        customer_link = ensure_customer(client, invoice.customer)
        data = invoice_payload(invoice, customer_link)
        if not link.qbo_id and link.request_id:
            # An earlier push may have been committed by QBO without our hearing of it.
            found = client.find("Invoice", "DocNumber", data["DocNumber"])
            if found:
                link.qbo_id, link.sync_token = str(found[0]["Id"]), str(found[0].get("SyncToken", ""))
                link.save(update_fields=["qbo_id", "sync_token", "updated_at"])
        if link.qbo_id:
            try:
                record = _update_with_retry(client, "Invoice", link, data)
            except qbo.QboError as exc:
                if exc.code == "5010":
                    message = (
                        f"{prefix}: the invoice was changed in QuickBooks while it was being posted "
                        f"({exc.describe()}). Post it again."
                    )
                    _failed(link, message, Sync.CONFLICT)
                    raise ApiError(409, message) from exc
                raise
        else:
            if not link.request_id:
                link.request_id = uuid.uuid4().hex
                link.sync_state = Sync.PENDING
                link.save(update_fields=["request_id", "sync_state", "updated_at"])
            record = client.create("Invoice", data, requestid=link.request_id)
        _synced(link, record)
        _touch_connection()
        return link
    except ApiError as exc:
        if link.sync_state != Sync.CONFLICT:
            _failed(link, str(exc))
        raise
    except qbo.QboError as exc:
        error = _api_error(prefix, exc)
        _failed(link, exc.describe())
        raise error from exc
