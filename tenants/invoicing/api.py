"""Invoices (`/api/invoice`), their lines (`/api/invoice-line-item`), payments, the customer
statement and the AR aging report. Thin: parse, call one service or selector, answer the envelope."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from core.csv_io import CSV_RESPONSE, csv_text_response
from core.documents import action_route, codes, require_move
from core.envelope import Answer, Envelope, Message, Page, ok
from core.jobs import Document, send_job
from core.listing import ListParams, ListSpec, apply_list, paginate
from core.permissions import perm, register_resource
from core.scoping import get_or_404, not_found
from django.db import connection
from django.http import HttpRequest, HttpResponse
from ninja import Query, Router

from tenants.invoicing import selectors, services, workflow
from tenants.invoicing.models import Invoice
from tenants.invoicing.schemas import (
    AgingOut,
    AgingQuery,
    InvoiceCreateOut,
    InvoiceDayIn,
    InvoiceJobOut,
    InvoiceLineOut,
    InvoiceLineQuery,
    InvoiceListExtra,
    InvoiceOut,
    InvoiceRow,
    InvoiceUpdateIn,
    PaymentAllocateIn,
    PaymentIn,
    PaymentListExtra,
    PaymentOut,
    StatementOut,
    StatementQuery,
)
from tenants.sales.models import SalesOrder

router = Router(tags=["invoice"])
line_router = Router(tags=["invoice-line-item"])

# The workflow's moves name their permissions (workflow.MACHINE); the routes take path and auth from it.
register_resource("invoice", "Invoices", codes(workflow.MACHINE))
register_resource("payment", "Payments", ("view", "add", "change", "delete"))

DEFAULT_SIZE = 25
LIST_SPEC = ListSpec(
    search=("number", "po_number", "customer__name", "sales_order__number"),
    sort={
        "invoice_no": "number",
        "customer.customer_name": "customer__name",
        "customer_name": "customer__name",
        "invoice_date": "invoice_date",
        "due_date": "due_date",
        "status": "status",
        "total": "total",
        "balance": "balance",
        "created_at": "created_at",
        "id": "id",
    },
    filters={
        "invoice_no": ("number", "str"),
        "status": ("status", "str"),
        "customer_name": ("customer__name", "str"),
        "invoice_date": ("invoice_date", "date"),
        "due_date": ("due_date", "date"),
        "total": ("total", "decimal"),
        "balance": ("balance", "decimal"),
    },
    default_sort="-invoice_date",
)
if TYPE_CHECKING:  # statically, the class query_schema makes: ListParams and the list's own filters

    class InvoiceListQuery(ListParams, InvoiceListExtra): ...

else:
    InvoiceListQuery = LIST_SPEC.query_schema("InvoiceListQuery", extra=InvoiceListExtra)
PAYMENT_SPEC = ListSpec(
    search=("number", "reference", "customer__name"),
    sort={
        "payment_date": "payment_date",
        "number": "number",
        "amount": "amount",
        "unapplied": "unapplied",
        "customer_name": "customer__name",
    },
    default_sort="-payment_date",
)
PaymentListQuery = PAYMENT_SPEC.query_schema("PaymentListQuery", extra=PaymentListExtra)
LINE_SPEC = ListSpec(sort={"position": "position", "id": "id"}, default_sort="position")
InvoiceLineListQuery = LINE_SPEC.query_schema("InvoiceLineListQuery", extra=InvoiceLineQuery)


def _user(request: HttpRequest) -> Any:
    return request.auth


def _invoice(invoice_id: int) -> Invoice:
    return get_or_404(selectors.invoice_detail(), invoice_id)


def _payload(invoice_id: int) -> dict[str, Any]:
    return selectors.invoice_payload(_invoice(invoice_id))


def _summary_sentence(summary: services.Summary) -> str:
    return f"{summary.updated} updated, {summary.created} created, {summary.removed} removed"


# --- invoices -----------------------------------------------------------------------------------
@router.post(
    "/create",
    response=Envelope[InvoiceCreateOut],
    auth=perm("invoice.add"),
    operation_id="invoice_create",
    summary="Create or update the invoice of a delivered sales order",
    description="Builds the invoice from the order's delivered quantities at the prices fixed at "
    "verification, with its fees and taxes; run again on a draft invoice, brings it up to date. "
    "`summary` counts the invoice lines created, updated and removed. An issued invoice is not "
    "rebuilt (409: void it first).",
)
def create_invoice(request: HttpRequest, sales_order_id: int) -> Answer:
    if sales_order_id < 1:
        raise not_found(SalesOrder)
    inv, summary, created = services.create_or_update_invoice(
        sales_order_id=sales_order_id, by=_user(request)
    )
    data = {**_payload(inv.pk), "summary": summary.as_dict(), "is_new": created}
    verb = "created" if created else "updated"
    return ok(data, f"Invoice {inv.number} {verb}: {_summary_sentence(summary)}")


@router.get(
    "",
    response=Envelope[Page[InvoiceRow]],
    auth=perm("invoice.view"),
    operation_id="invoice_list",
    summary="List invoices",
    description="Filters: status (also `overdue`, `open`), invoice_date_start/end, customer_id, search "
    "(number, PO, customer, order). Sort keys include `invoice_no` and `customer.customer_name`; "
    "`sort_direction` asc/desc.",
)
def list_invoices(request: HttpRequest, params: Query[InvoiceListQuery]) -> Answer:
    if params.sort_direction and not params.order:
        params.order = params.sort_direction
    qs = apply_list(selectors.filter_invoices(selectors.invoices(), params), params, LIST_SPEC)
    return ok(
        paginate(qs, params, DEFAULT_SIZE, serialize=selectors.invoice_row), "Invoices retrieved successfully"
    )


@router.get(
    "/{int:id}",
    response=Envelope[InvoiceOut],
    auth=perm("invoice.view"),
    operation_id="invoice_get",
    summary="Get an invoice with its lines, fees, taxes, payments and status history",
)
def get_invoice(request: HttpRequest, id: int) -> Answer:
    return ok(_payload(id), "Invoice retrieved successfully")


@router.put(
    "/{int:id}",
    response=Envelope[InvoiceOut],
    auth=perm("invoice.change"),
    operation_id="invoice_update",
    summary="Update an invoice's notes and PO number",
)
def update_invoice(request: HttpRequest, id: int, payload: InvoiceUpdateIn) -> Answer:
    services.update_invoice(invoice=_invoice(id), data=payload.dict(exclude_unset=True))
    return ok(_payload(id), "Invoice updated successfully")


@router.post(
    **action_route(workflow.MACHINE, "issue"),
    response=Envelope[InvoiceOut],
    operation_id="invoice_issue",
    summary="Issue a draft invoice",
)
def issue_invoice(request: HttpRequest, id: int) -> Answer:
    inv = workflow.issue(_invoice(id), by=_user(request))
    return ok(_payload(inv.pk), f"Invoice {inv.number} issued")


@router.post(
    **action_route(workflow.MACHINE, "void"),
    response=Envelope[InvoiceOut],
    operation_id="invoice_void",
    summary="Void an invoice (with a reason)",
    description="A draft or issued invoice without payments. Its number stays used; the order can be "
    "invoiced again.",
)
def void_invoice(request: HttpRequest, id: int, reason: str = "") -> Answer:
    inv = workflow.void(_invoice(id), reason=reason[:500], by=_user(request))
    return ok(_payload(inv.pk), f"Invoice {inv.number} voided")


@router.post(
    "/sales-orders/{int:id}/invoice-status",
    response=Envelope[InvoiceOut],
    auth=perm("invoice.change"),
    operation_id="invoice_status_by_order",
    summary="Set the status of a sales order's invoice",
    description="`status`: issued, or void (with `reason`). Paid and partially paid follow payments.",
)
def invoice_status(request: HttpRequest, id: int, status: str, reason: str = "") -> Answer:
    user = _user(request)
    action = workflow.MACHINE.status_action(status.strip().lower())
    if action is not None:
        require_move(user, workflow.MACHINE, action)
    inv = services.invoice_order_status(sales_order_id=id, status=status, by=user, reason=reason[:500])
    return ok(_payload(inv.pk), f"Invoice {inv.number} is now {inv.get_status_display().lower()}")


@router.post(
    "/invoice-day",
    response={202: Envelope[InvoiceJobOut]},
    auth=perm("invoice.add"),
    operation_id="invoice_day",
    summary="Invoice every order delivered on a day (in the background)",
    description="Queues one job (kind `invoice_day`, in the job log with its progress and outcome). "
    "Idempotent: run again, it skips issued invoices and brings drafts up to date.",
)
def invoice_day(request: HttpRequest, payload: InvoiceDayIn) -> Answer:
    from tenants.invoicing.tasks import invoice_delivered_day

    orders = selectors.delivered_orders_of(payload.day)
    message = send_job(
        invoice_delivered_day,
        day=payload.day.isoformat(),
        schema=connection.schema_name,
        document=Document(
            "invoice_day",
            int(payload.day.strftime("%Y%m%d")),
            f"Deliveries of {payload.day.isoformat()}",
            "/invoice",
        ),
    )
    job_id = selectors.job_id_of(getattr(message, "message_id", ""))
    data = {"job_id": job_id, "day": payload.day, "orders": orders}
    return ok(data, f"Invoicing {orders} delivered orders of {payload.day.isoformat()}", status=202)


# --- payments -----------------------------------------------------------------------------------
def _allocs(items: Any) -> list[services.AllocationRequest] | None:
    if items is None:
        return None
    return [services.AllocationRequest(a.invoice_id, a.amount) for a in items]


def _payment(payment_id: int) -> dict[str, Any]:
    return selectors.payment_payload(get_or_404(selectors.payment_detail(), payment_id))


@router.get(
    "/payments",
    response=Envelope[Page[PaymentOut]],
    auth=perm("payment.view"),
    operation_id="invoice_payment_list",
    summary="List customer payments",
)
def list_payments(request: HttpRequest, params: Query[PaymentListQuery]) -> Answer:  # type: ignore[valid-type]
    qs = apply_list(selectors.filter_payments(selectors.payments(), params), params, PAYMENT_SPEC)
    qs = qs.prefetch_related("allocations__invoice")
    return ok(
        paginate(qs, params, DEFAULT_SIZE, serialize=selectors.payment_payload),
        "Payments retrieved successfully",
    )


@router.post(
    "/payments",
    response={201: Envelope[PaymentOut]},
    auth=perm("payment.add"),
    operation_id="invoice_payment_create",
    summary="Record a customer payment and apply it to invoices",
    description="`allocations` left out: the oldest due invoices first; what is left is the customer's "
    "credit (apply it later with `/payments/{id}/allocate`).",
)
def create_payment(request: HttpRequest, payload: PaymentIn) -> Answer:
    p = services.record_payment(
        customer_id=payload.customer_id,
        payment_date=payload.payment_date,
        amount=payload.amount,
        payment_method_id=payload.payment_method_id,
        reference=payload.reference,
        notes=payload.notes,
        allocations=_allocs(payload.allocations),
        by=_user(request),
    )
    data = _payment(p.pk)
    credit = f"; {p.unapplied:,.2f} kept as credit" if p.unapplied > 0 else ""
    return ok(data, f"Payment {p.number} of {p.amount:,.2f} recorded{credit}", status=201)


@router.get(
    "/payments/{int:id}",
    response=Envelope[PaymentOut],
    auth=perm("payment.view"),
    operation_id="invoice_payment_get",
    summary="Get a payment with its allocations",
)
def get_payment(request: HttpRequest, id: int) -> Answer:
    return ok(_payment(id), "Payment retrieved successfully")


@router.post(
    "/payments/{int:id}/allocate",
    response=Envelope[PaymentOut],
    auth=perm("payment.change"),
    operation_id="invoice_payment_allocate",
    summary="Apply a payment's unapplied amount (the customer's credit) to invoices",
)
def allocate_payment(request: HttpRequest, id: int, payload: PaymentAllocateIn) -> Answer:
    p = services.allocate_payment(payment_id=id, allocations=_allocs(payload.allocations), by=_user(request))
    return ok(_payment(p.pk), f"Payment {p.number} applied")


@router.delete(
    "/payments/{int:id}",
    response=Message,
    auth=perm("payment.delete"),
    operation_id="invoice_payment_delete",
    summary="Delete a payment recorded by mistake (its allocations are taken back)",
)
def delete_payment(request: HttpRequest, id: int) -> Answer:
    services.delete_payment(payment_id=id, by=_user(request))
    return ok(None, "Payment deleted successfully")


# --- statement and aging ------------------------------------------------------------------------
@router.get(
    "/customers/{int:id}/statement",
    response=Envelope[StatementOut],
    auth=perm("payment.view"),
    operation_id="invoice_customer_statement",
    summary="A customer's statement: invoices and payments of a period with a running balance",
)
def customer_statement(request: HttpRequest, id: int, query: Query[StatementQuery]) -> Answer:
    end = query.end or selectors.today()
    start = query.start or (end - dt.timedelta(days=90) if end > dt.date.min + dt.timedelta(days=90) else end)
    return ok(selectors.statement(id, start, end), "Statement retrieved successfully")


@router.get(
    "/aging",
    response=Envelope[AgingOut],
    auth=perm("payment.view"),
    operation_id="invoice_aging",
    summary="Accounts receivable aging per customer (current, 1–30, 31–60, 61–90, over 90 days)",
)
def aging(request: HttpRequest, query: Query[AgingQuery]) -> Answer:
    ids = [query.customer_id] if query.customer_id else None
    return ok(selectors.aging(query.as_of, ids), "Aging report retrieved successfully")


@router.get(
    "/aging/export",
    auth=perm("payment.view"),
    operation_id="invoice_aging_export",
    summary="The AR aging report as CSV",
    openapi_extra={"responses": CSV_RESPONSE},
)
def aging_export(request: HttpRequest, query: Query[AgingQuery]) -> HttpResponse:
    ids = [query.customer_id] if query.customer_id else None
    report = selectors.aging(query.as_of, ids)
    keys = [b["key"] for b in report["buckets"]]
    head = ["Customer", *[b["label"] for b in report["buckets"]], "Total", "Credit", "Net"]
    lines = [head]
    for r in [*report["rows"], {**report["totals"], "customer_name": "Total"}]:
        lines.append(
            [
                r["customer_name"],
                *[f"{r[k]:.2f}" for k in keys],
                f"{r['total']:.2f}",
                f"{r['credit']:.2f}",
                f"{r['net']:.2f}",
            ]
        )
    return csv_text_response(lines, f"ar-aging-{report['as_of'].isoformat()}.csv")


# --- invoice lines ------------------------------------------------------------------------------
@line_router.get(
    "",
    response=Envelope[Page[InvoiceLineOut]],
    auth=perm("invoice.view"),
    operation_id="invoice_line_item_list",
    summary="List invoice line items (of one invoice with `invoice_id`)",
)
def list_lines(request: HttpRequest, params: Query[InvoiceLineListQuery]) -> Answer:  # type: ignore[valid-type]
    qs = apply_list(selectors.filter_invoice_lines(selectors.invoice_lines(), params), params, LINE_SPEC)
    return ok(
        paginate(qs, params, 100, serialize=selectors.line_payload),
        "Invoice line items retrieved successfully",
    )


@line_router.get(
    "/{int:id}",
    response=Envelope[InvoiceLineOut],
    auth=perm("invoice.view"),
    operation_id="invoice_line_item_get",
    summary="Get an invoice line item",
)
def get_line(request: HttpRequest, id: int) -> Answer:
    line = get_or_404(selectors.invoice_lines(), id)
    return ok(selectors.line_payload(line), "Invoice line item retrieved successfully")


routes = [("/invoice", router), ("/invoice-line-item", line_router)]
