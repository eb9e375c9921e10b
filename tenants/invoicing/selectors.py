"""Reads of invoicing: the invoice list and its payload, the data of the invoice document, payments,
the customer statement and the AR aging report."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from core.errors import ApiError
from core.scoping import get_or_404
from core.workflow import timeline
from django.db.models import Prefetch, Q, QuerySet, Sum
from django.utils import timezone

from tenants.invoicing import workflow
from tenants.invoicing.models import (
    BILLED_STATUSES,
    OPEN_STATUSES,
    ZERO,
    Invoice,
    InvoiceLine,
    Payment,
    PaymentAllocation,
)

STATUS_FILTERS = {s.value for s in Invoice.Status} | {"overdue", "open"}


def today() -> dt.date:
    return timezone.localdate()


# --- the list -----------------------------------------------------------------------------------
def invoices() -> QuerySet[Invoice]:
    return Invoice.objects.select_related("customer", "sales_order")


def filter_invoices(qs: QuerySet[Invoice], params: Any) -> QuerySet[Invoice]:
    if params.status:
        wanted = [s.strip().lower() for s in params.status.split(",") if s.strip()]
        unknown = [s for s in wanted if s not in STATUS_FILTERS]
        if unknown:
            allowed = ", ".join(sorted(STATUS_FILTERS))
            raise ApiError(422, f"Unknown invoice status '{unknown[0]}'. Allowed: {allowed}.")
        q = Q()
        for s in wanted:
            if s == "overdue":
                q |= Q(status__in=OPEN_STATUSES, due_date__lt=today())
            elif s == "open":
                q |= Q(status__in=OPEN_STATUSES)
            else:
                q |= Q(status=s)
        qs = qs.filter(q)
    if (
        params.invoice_date_start
        and params.invoice_date_end
        and params.invoice_date_start > params.invoice_date_end
    ):
        raise ApiError(422, "invoice_date_start must not be after invoice_date_end.")
    if params.invoice_date_start:
        qs = qs.filter(invoice_date__gte=params.invoice_date_start)
    if params.invoice_date_end:
        qs = qs.filter(invoice_date__lte=params.invoice_date_end)
    if params.customer_id:
        qs = qs.filter(customer_id=params.customer_id)
    if params.sales_order_id:
        qs = qs.filter(sales_order_id=params.sales_order_id)
    return qs


def is_overdue(inv: Invoice, on: dt.date | None = None) -> bool:
    return inv.status in OPEN_STATUSES and inv.due_date < (on or today())


def days_overdue(inv: Invoice, on: dt.date | None = None) -> int:
    return max(((on or today()) - inv.due_date).days, 0) if inv.status in OPEN_STATUSES else 0


def invoice_row(inv: Invoice) -> dict[str, Any]:
    on = today()
    return {
        "id": inv.pk,
        "invoice_no": inv.number,
        "status": inv.status,
        "status_label": inv.get_status_display(),
        "is_overdue": is_overdue(inv, on),
        "days_overdue": days_overdue(inv, on),
        "customer": {"id": inv.customer_id, "customer_name": inv.customer.name},
        "sales_order_id": inv.sales_order_id,
        "sales_order_number": inv.sales_order.number,
        "invoice_date": inv.invoice_date,
        "due_date": inv.due_date,
        "po_number": inv.po_number,
        "subtotal": inv.subtotal,
        "fee_total": inv.fee_total,
        "tax_total": inv.tax_total,
        "total": inv.total,
        "amount_paid": inv.amount_paid,
        "balance": inv.balance,
        "email_sent_at": inv.email_sent_at,
        "sync_state": inv.sync_state,
        "created_at": inv.created_at,
    }


# --- one invoice --------------------------------------------------------------------------------
def get_invoice(invoice_id: int) -> Invoice | None:
    return invoice_detail().filter(pk=invoice_id).first()


def invoice_detail() -> QuerySet[Invoice]:
    """Invoices with what their payload shows (lines, timeline, payments)."""
    return Invoice.objects.select_related(
        "customer",
        "customer__state",
        "customer__city",
        "ship_to",
        "ship_to__state",
        "ship_to__city",
        "sales_order",
        "payment_term",
    ).prefetch_related(
        Prefetch("lines", queryset=InvoiceLine.objects.select_related("product").order_by("position", "id")),
        "events",
        Prefetch(
            "allocations",
            queryset=PaymentAllocation.objects.select_related("payment", "payment__payment_method").order_by(
                "payment__payment_date", "id"
            ),
        ),
    )


def line_payload(ln: InvoiceLine) -> dict[str, Any]:
    return {
        "id": ln.pk,
        "invoice_id": ln.invoice_id,
        "kind": ln.kind,
        "position": ln.position,
        "sales_line_id": ln.sales_line_id,
        "product_id": ln.product_id,
        "product_code": ln.product.code if ln.product_id and ln.product else "",
        "fee_id": ln.fee_id,
        "description": ln.description,
        "unit": ln.unit,
        "quantity": ln.quantity,
        "unit_price": ln.unit_price,
        "amount": ln.amount,
        "tax_amount": ln.tax_amount,
        "taxes": ln.taxes,
        "po_number": ln.po_number,
        "price_breakdown": ln.price_breakdown,
    }


def _address(obj: Any) -> list[str]:
    if obj is None:
        return []
    city_line = ", ".join(
        p
        for p in (
            obj.city.name if obj.city_id else "",
            " ".join(p for p in (obj.state.code if obj.state_id else "", obj.zip_code) if p),
        )
        if p
    )
    return [line for line in (obj.address_one, obj.address_two, city_line) if line]


def invoice_payload(inv: Invoice) -> dict[str, Any]:
    lines = list(inv.lines.all())
    allocations = list(inv.allocations.all())
    return {
        **invoice_row(inv),
        "customer": {
            "id": inv.customer_id,
            "customer_name": inv.customer.name,
            "account_number": inv.customer.account_number,
            "email": inv.customer.email,
            "phone": inv.customer.phone,
            "address": _address(inv.customer),
        },
        "ship_to": (
            {"id": inv.ship_to_id, "name": inv.ship_to.name, "address": _address(inv.ship_to)}
            if inv.ship_to_id and inv.ship_to
            else None
        ),
        "payment_term_id": inv.payment_term_id,
        "payment_term_name": inv.payment_term_name,
        "notes": inv.notes,
        "taxes": inv.taxes,
        "pricing_notes": inv.pricing_notes,
        "line_items": [line_payload(ln) for ln in lines if ln.kind == InvoiceLine.Kind.PRODUCT],
        "fees": [line_payload(ln) for ln in lines if ln.kind == InvoiceLine.Kind.FEE],
        "payments": [
            {
                "allocation_id": a.pk,
                "payment_id": a.payment_id,
                "payment_number": a.payment.number,
                "payment_date": a.payment.payment_date,
                "payment_method": a.payment.payment_method.name if a.payment.payment_method else "",
                "reference": a.payment.reference,
                "amount": a.amount,
            }
            for a in allocations
        ],
        "events": timeline(inv),
        "allowed_actions": workflow.allowed_actions(inv.status),
        "issued_at": inv.issued_at,
        "voided_at": inv.voided_at,
        "void_reason": inv.void_reason,
        "external_id": inv.external_id,
        "last_sync_error": inv.last_sync_error,
        "updated_at": inv.updated_at,
    }


# --- the printable document ---------------------------------------------------------------------
def _rate_label(t: dict[str, Any]) -> str:
    rate = Decimal(str(t.get("rate") or "0"))
    kind = t.get("kind", "")
    if kind == "percent":
        return f"{rate.normalize():f}%"
    if kind == "per_unit":
        return f"${rate:.4f}/unit"
    return "flat"


def invoice_document_data(invoice: Invoice | int) -> dict[str, Any]:
    """Everything the invoice document needs, in the renderer's contract
    (`tenants.documents.contract.DocumentData`: `render_document('invoice', data)`), plus a few keys
    for the email step: `invoice_id`, `customer_id`, `billing_email`, `company.logo_key`, `balance`,
    `is_overdue`. Decimals stay Decimal; dates stay dates."""
    from tenants.company.selectors import company_profile
    from tenants.documents.selectors import company_block

    inv = get_or_404(invoice_detail(), invoice if isinstance(invoice, int) else invoice.pk)
    company = company_block().model_dump()
    profile = company_profile()
    company["logo_key"] = profile.logo_key if profile is not None else ""
    lines = list(inv.lines.all())
    products = [ln for ln in lines if ln.kind == InvoiceLine.Kind.PRODUCT]
    fees = [ln for ln in lines if ln.kind == InvoiceLine.Kind.FEE]
    customer = inv.customer
    return {
        "type": "invoice",
        "invoice_id": inv.pk,
        "customer_id": inv.customer_id,
        "sales_order_id": inv.sales_order_id,
        "billing_email": customer.email,
        "company": company,
        "customer": {
            "name": customer.name,
            "account_number": customer.account_number,
            "address": _address(customer),
            "phone": customer.phone,
            "email": customer.email,
        },
        "ship_to": (
            {"name": inv.ship_to.name, "address": _address(inv.ship_to)}
            if inv.ship_to_id and inv.ship_to
            else {"name": "", "address": []}
        ),
        "document": {
            "number": inv.number,
            "title": "Invoice",
            "date": inv.invoice_date,
            "due_date": inv.due_date,
            "order_number": inv.sales_order.number,
            "po_number": inv.po_number,
            "payment_terms": inv.payment_term_name,
            "status": inv.get_status_display(),
            "notes": inv.notes,
            "delivered_at": inv.sales_order.delivered_at,
        },
        "lines": [
            {
                "line_no": i,
                "product_code": ln.product.code if ln.product else "",
                "product_name": ln.description,
                "description": ln.description,
                "unit": ln.unit,
                "quantity_delivered": ln.quantity,
                "quantity_billed": ln.quantity,
                "unit_price": ln.unit_price,
                "amount": ln.amount,
            }
            for i, ln in enumerate(products, start=1)
        ],
        "fees": [
            {"name": ln.description, "quantity": ln.quantity, "rate": ln.unit_price, "amount": ln.amount}
            for ln in fees
        ],
        "taxes": [
            {
                "name": t.get("name", ""),
                "rate": Decimal(str(t.get("rate") or "0")),
                "rate_label": _rate_label(t),
                "taxable_amount": Decimal(str(t.get("taxable_base") or "0")),
                "amount": Decimal(str(t.get("amount") or "0")),
            }
            for t in inv.taxes
        ],
        "totals": {
            "subtotal": inv.subtotal,
            "fees": inv.fee_total,
            "tax": inv.tax_total,
            "total": inv.total,
            "amount_paid": inv.amount_paid,
            "balance_due": inv.balance,
        },
        "balance": inv.balance,
        "is_overdue": is_overdue(inv),
    }


# --- the tax summary (`GET /api/tax/invoices/taxes/{id}`) ----------------------------------------
def priced_document(invoice_id: int) -> Any:
    """The invoice as the pricing engine's `PricedDocument`, rebuilt from what the invoice stored
    (so the summary is the invoice's, not today's taxes)."""
    from tenants.pricing.services import PricedDocument, PricedLine, TaxAmount

    inv = Invoice.objects.filter(pk=invoice_id).prefetch_related("lines").first()
    if inv is None:
        return None

    def tax(t: dict[str, Any]) -> Any:
        return TaxAmount(
            int(t["tax_id"]),
            t.get("name", ""),
            t.get("code", ""),
            t.get("kind", ""),
            Decimal(str(t.get("rate") or "0")),
            t.get("rate_id"),
            Decimal(str(t.get("taxable_base") or "0")),
            Decimal(str(t.get("amount") or "0")),
        )

    lines = [
        PricedLine(
            str(ln.pk),
            ln.product_id or 0,
            ln.quantity,
            ln.unit_price,
            ln.amount,
            tuple(tax(t) for t in ln.taxes),
            ln.price_breakdown,
        )
        for ln in inv.lines.all()
        if ln.kind == InvoiceLine.Kind.PRODUCT
    ]
    taxes = tuple(tax(t) for t in inv.taxes)
    return PricedDocument(
        lines=tuple(lines),
        fees=(),
        taxes=taxes,
        subtotal=inv.subtotal,
        fee_total=inv.fee_total,
        tax_total=inv.tax_total,
        total=inv.total,
        pricing_date=inv.invoice_date,
        document_taxes=tuple(t for t in taxes if t.kind == "fixed"),
    )


# --- invoice lines ------------------------------------------------------------------------------
def invoice_lines() -> QuerySet[InvoiceLine]:
    return InvoiceLine.objects.select_related("product")


def filter_invoice_lines(qs: QuerySet[InvoiceLine], params: Any) -> QuerySet[InvoiceLine]:
    if params.invoice_id:
        qs = qs.filter(invoice_id=params.invoice_id)
    if params.kind:
        qs = qs.filter(kind=params.kind)
    return qs


# --- payments -----------------------------------------------------------------------------------
def payments() -> QuerySet[Payment]:
    return Payment.objects.select_related("customer", "payment_method")


def filter_payments(qs: QuerySet[Payment], params: Any) -> QuerySet[Payment]:
    if params.customer_id:
        qs = qs.filter(customer_id=params.customer_id)
    if params.date_start and params.date_end and params.date_start > params.date_end:
        raise ApiError(422, "date_start must not be after date_end.")
    if params.date_start:
        qs = qs.filter(payment_date__gte=params.date_start)
    if params.date_end:
        qs = qs.filter(payment_date__lte=params.date_end)
    if params.with_credit:
        qs = qs.filter(unapplied__gt=0)
    return qs


def get_payment(payment_id: int) -> Payment | None:
    return payment_detail().filter(pk=payment_id).first()


def payment_detail() -> QuerySet[Payment]:
    """Payments with their allocations (a payment's payload)."""
    return payments().prefetch_related(
        Prefetch("allocations", queryset=PaymentAllocation.objects.select_related("invoice").order_by("id"))
    )


def payment_payload(p: Payment, *, with_allocations: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": p.pk,
        "number": p.number,
        "customer": {"id": p.customer_id, "customer_name": p.customer.name},
        "payment_date": p.payment_date,
        "amount": p.amount,
        "payment_method_id": p.payment_method_id,
        "payment_method": p.payment_method.name if p.payment_method_id and p.payment_method else "",
        "reference": p.reference,
        "notes": p.notes,
        "allocated": p.allocated,
        "unapplied": p.unapplied,
        "created_at": p.created_at,
        "allocations": [],
    }
    if with_allocations:
        out["allocations"] = [
            {
                "id": a.pk,
                "invoice_id": a.invoice_id,
                "invoice_no": a.invoice.number,
                "amount": a.amount,
            }
            for a in p.allocations.all()
        ]
    return out


def customer_credit(customer_id: int) -> Decimal:
    return (
        Payment.objects.filter(customer_id=customer_id, unapplied__gt=0).aggregate(t=Sum("unapplied"))["t"]
        or ZERO
    )


# --- the customer statement ---------------------------------------------------------------------
def statement(customer_id: int, start: dt.date, end: dt.date) -> dict[str, Any]:
    """Invoices (charges) and payments (credits) of a period with a running balance, from the
    balance brought forward; then the invoices still open and the credit on account."""
    from tenants.parties.models import Customer

    customer = get_or_404(Customer.objects.select_related("state", "city"), customer_id)
    if start > end:
        raise ApiError(422, "start must not be after end.")
    billed = Invoice.objects.filter(customer_id=customer_id, status__in=BILLED_STATUSES)
    pays = Payment.objects.filter(customer_id=customer_id)
    charged_before = billed.filter(invoice_date__lt=start).aggregate(t=Sum("total"))["t"] or ZERO
    paid_before = pays.filter(payment_date__lt=start).aggregate(t=Sum("amount"))["t"] or ZERO
    opening = charged_before - paid_before
    entries: list[dict[str, Any]] = []
    for inv in billed.filter(invoice_date__gte=start, invoice_date__lte=end).order_by("invoice_date", "id"):
        entries.append(
            {
                "date": inv.invoice_date,
                "kind": "invoice",
                "id": inv.pk,
                "reference": inv.number,
                "description": f"Invoice {inv.number} (due {inv.due_date.isoformat()})",
                "charge": inv.total,
                "credit": ZERO,
            }
        )
    for p in pays.filter(payment_date__gte=start, payment_date__lte=end).select_related("payment_method"):
        method = p.payment_method.name if p.payment_method_id and p.payment_method else "Payment"
        entries.append(
            {
                "date": p.payment_date,
                "kind": "payment",
                "id": p.pk,
                "reference": p.number,
                "description": f"{method}{' ' + p.reference if p.reference else ''}",
                "charge": ZERO,
                "credit": p.amount,
            }
        )
    entries.sort(key=lambda e: (e["date"], 0 if e["kind"] == "invoice" else 1, e["id"]))
    running = opening
    for e in entries:
        running += e["charge"] - e["credit"]
        e["balance"] = running
    open_invoices: list[dict[str, Any]] = [
        {
            "id": inv.pk,
            "invoice_no": inv.number,
            "invoice_date": inv.invoice_date,
            "due_date": inv.due_date,
            "total": inv.total,
            "balance": inv.balance,
            "days_overdue": days_overdue(inv),
        }
        for inv in Invoice.objects.filter(customer_id=customer_id, status__in=OPEN_STATUSES).order_by(
            "due_date", "id"
        )
    ]
    return {
        "customer": {
            "id": customer.pk,
            "customer_name": customer.name,
            "account_number": customer.account_number,
            "address": _address(customer),
            "email": customer.email,
        },
        "start": start,
        "end": end,
        "opening_balance": opening,
        "entries": entries,
        "closing_balance": running,
        "total_charges": sum((e["charge"] for e in entries), ZERO),
        "total_credits": sum((e["credit"] for e in entries), ZERO),
        "open_invoices": open_invoices,
        "open_balance": sum((i["balance"] for i in open_invoices), ZERO),
        "credit": customer_credit(customer_id),
    }


# --- AR aging -----------------------------------------------------------------------------------
BUCKETS = ("current", "days_1_30", "days_31_60", "days_61_90", "over_90")
BUCKET_LABELS = {
    "current": "Current",
    "days_1_30": "1–30 days",
    "days_31_60": "31–60 days",
    "days_61_90": "61–90 days",
    "over_90": "Over 90 days",
}


def bucket_of(days_past_due: int) -> str:
    if days_past_due <= 0:
        return "current"
    if days_past_due <= 30:
        return "days_1_30"
    if days_past_due <= 60:
        return "days_31_60"
    if days_past_due <= 90:
        return "days_61_90"
    return "over_90"


def aging(as_of: dt.date | None = None, customer_ids: Iterable[int] | None = None) -> dict[str, Any]:
    """What each customer owes on `as_of`, by how long it is past due: each billed invoice dated on
    or before the day, less the payments applied to it that are dated on or before the day; the
    credit column is what the customer's payments up to that day left unapplied (today's
    allocations). Rows by customer name; totals of every column."""
    on = as_of or today()
    paid_by = Sum("allocations__amount", filter=Q(allocations__payment__payment_date__lte=on))
    qs = (
        Invoice.objects.filter(status__in=BILLED_STATUSES, invoice_date__lte=on)
        .annotate(paid_then=paid_by)
        .values("id", "customer_id", "customer__name", "due_date", "total", "paid_then")
    )
    if customer_ids is not None:
        qs = qs.filter(customer_id__in=list(customer_ids))
    rows: dict[int, dict[str, Any]] = {}

    def row(cid: int, name: str) -> dict[str, Any]:
        if cid not in rows:
            rows[cid] = {
                "customer_id": cid,
                "customer_name": name,
                **{b: ZERO for b in BUCKETS},
                "total": ZERO,
                "credit": ZERO,
                "invoices": 0,
            }
        return rows[cid]

    for inv in qs:
        owed = inv["total"] - (inv["paid_then"] or ZERO)
        if owed <= ZERO:
            continue
        r = row(inv["customer_id"], inv["customer__name"])
        r[bucket_of((on - inv["due_date"]).days)] += owed
        r["total"] += owed
        r["invoices"] += 1
    credits = Payment.objects.filter(payment_date__lte=on, unapplied__gt=0)
    if customer_ids is not None:
        credits = credits.filter(customer_id__in=list(customer_ids))
    for c in credits.values("customer_id", "customer__name").annotate(t=Sum("unapplied")):
        row(c["customer_id"], c["customer__name"])["credit"] = c["t"]
    items = sorted(rows.values(), key=lambda r: (r["customer_name"].lower(), r["customer_id"]))
    for r in items:
        r["net"] = r["total"] - r["credit"]
    totals = {k: sum((r[k] for r in items), ZERO) for k in (*BUCKETS, "total", "credit", "net")}
    return {
        "as_of": on,
        "buckets": [{"key": b, "label": BUCKET_LABELS[b]} for b in BUCKETS],
        "rows": items,
        "totals": totals,
    }


def delivered_orders(day: dt.date) -> QuerySet[Any]:
    """The orders delivered on `day` (by their delivery time; their planned day when none was kept)."""
    from tenants.sales.models import SalesOrder

    return SalesOrder.objects.filter(status__in=("delivered", "completed")).filter(
        Q(delivered_at__date=day) | Q(delivered_at__isnull=True, planned_date=day)
    )


def delivered_orders_of(day: dt.date) -> int:
    return delivered_orders(day).count()


def job_id_of(message_id: str) -> int | None:
    from tenants.jobs.selectors import job_logs

    if not message_id:
        return None
    return job_logs().filter(message_id=message_id).values_list("pk", flat=True).first()
