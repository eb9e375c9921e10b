"""Writes of invoicing: build (or bring up to date) the invoice of a delivered sales order, move it
through its workflow, and record customer payments and their allocations to invoices.

Building an invoice prices the order's *delivered* quantities with the pricing engine
(`tenants.pricing.services.price_document`), each line at the unit price fixed when the order was
verified (`LineItem.unit_price`, passed as the override), with the order's fees and the taxes in
force on the order's planned date. The number comes from the tenant's `invoice` counter in the
invoice's own transaction (no gap, no duplicate).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from core.errors import ApiError
from core.scoping import get_or_404, not_found
from core.workflow import record_event
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from tenants.invoicing import workflow
from tenants.invoicing.models import (
    OPEN_STATUSES,
    ZERO,
    Invoice,
    InvoiceLine,
    Payment,
    PaymentAllocation,
)
from tenants.pricing.money import money
from tenants.sequences.services import next_number

INVOICEABLE_ORDER_STATUSES = ("delivered", "completed")
NUMBER_KIND, NUMBER_PREFIX = "invoice", "INV-"
PAYMENT_KIND, PAYMENT_PREFIX = "payment", "PAY-"


@dataclass(frozen=True)
class Summary:
    created: int = 0
    updated: int = 0
    removed: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"created": self.created, "updated": self.updated, "removed": self.removed}


# --- building the invoice of an order -----------------------------------------------------------
def _payment_term(customer: Any) -> Any:
    from tenants.pricing.models import PaymentTerm

    if customer.payment_term_id:
        return customer.payment_term
    return PaymentTerm.objects.filter(is_default=True).order_by("id").first()


def due_date_for(invoice_date: dt.date, term: Any) -> dt.date:
    """The invoice date plus the term's net days (no term: due on receipt)."""
    return invoice_date + dt.timedelta(days=int(term.net_days) if term is not None else 0)


def _dec(value: Any) -> str:
    return str(value) if value is not None else ""


def _tax_json(t: Any) -> dict[str, Any]:
    return {
        "tax_id": t.tax_id,
        "name": t.name,
        "code": t.code,
        "kind": t.kind,
        "rate": str(t.rate),
        "rate_id": t.rate_id,
        "taxable_base": str(t.taxable_base),
        "amount": str(t.amount),
    }


def price_order(order: Any) -> tuple[Any, list[Any], list[Any]]:
    """The engine's answer for the order's delivered lines (at their fixed prices) and its fees;
    with the order lines and fees it was asked about."""
    from tenants.pricing.services import FeeRequest, LineRequest, PricingError, as_http_error, price_document

    lines = [
        ln
        for ln in order.line_items.select_related("product").order_by("position", "id")
        if ln.delivered_quantity is not None and ln.delivered_quantity > 0
    ]
    fees = list(order.fees.select_related("fee").order_by("position", "id"))
    if not lines:
        raise ApiError(409, f"Sales order {order.number} has no delivered quantities to invoice.")
    try:
        doc = price_document(
            customer_id=order.customer_id,
            ship_to_id=order.ship_to_id,
            lines=[
                LineRequest.of(f"line:{ln.pk}", ln.product_id, ln.delivered_quantity, fixed=ln.unit_price)
                for ln in lines
            ],
            pricing_date=order.planned_date,
            fees=[FeeRequest(f"fee:{f.pk}", f.fee_id, f.quantity) for f in fees],
        )
    except PricingError as exc:
        raise as_http_error(exc, prefix="Failed to create/update invoice: ") from exc
    return doc, lines, fees


def _desired_lines(doc: Any, lines: list[Any], fees: list[Any], order: Any) -> dict[str, dict[str, Any]]:
    by_key = {f"line:{ln.pk}": ln for ln in lines}
    fee_by_key = {f"fee:{f.pk}": f for f in fees}
    out: dict[str, dict[str, Any]] = {}
    position = 0
    for pl in doc.lines:
        position += 1
        ln = by_key[pl.key]
        out[pl.key] = {
            "kind": InvoiceLine.Kind.PRODUCT,
            "position": position,
            "sales_line_id": ln.pk,
            "product_id": ln.product_id,
            "fee_id": None,
            "description": ln.product.name,
            "unit": ln.product.sold_as,
            "quantity": pl.quantity,
            "unit_price": pl.unit_price,
            "amount": pl.amount,
            "tax_amount": pl.tax_amount,
            "taxes": [_tax_json(t) for t in pl.taxes],
            "price_breakdown": pl.breakdown,
            "po_number": ln.po_number or order.po_number,
        }
    for fa in doc.fees:
        position += 1
        fee = fee_by_key[fa.key]
        out[fa.key] = {
            "kind": InvoiceLine.Kind.FEE,
            "position": position,
            "sales_line_id": None,
            "product_id": None,
            "fee_id": fa.fee_id,
            "description": fee.name or fa.name,
            "unit": fa.fee_type,
            "quantity": fa.quantity,
            "unit_price": fa.rate,
            "amount": fa.subtotal,
            "tax_amount": ZERO,
            "taxes": [],
            "price_breakdown": {"fee_type": fa.fee_type, "rate": str(fa.rate)},
            "po_number": "",
        }
    return out


def _same(line: InvoiceLine, values: dict[str, Any]) -> bool:
    for field, value in values.items():
        current = getattr(line, field)
        if isinstance(current, Decimal) and value is not None:
            if current != Decimal(value):
                return False
        elif current != value:
            return False
    return True


def _sync_lines(invoice: Invoice, desired: dict[str, dict[str, Any]]) -> Summary:
    existing = {ln.source_key: ln for ln in invoice.lines.all()}
    created = updated = 0
    for key, values in desired.items():
        line = existing.pop(key, None)
        if line is None:
            InvoiceLine.objects.create(invoice=invoice, source_key=key, **values)
            created += 1
        elif not _same(line, values):
            for field, value in values.items():
                setattr(line, field, value)
            line.save()
            updated += 1
    removed = len(existing)
    if existing:
        InvoiceLine.objects.filter(pk__in=[ln.pk for ln in existing.values()]).delete()
    return Summary(created, updated, removed)


def create_or_update_invoice(*, sales_order_id: int, by: Any = None) -> tuple[Invoice, Summary, bool]:
    """Build the invoice of a delivered order, or bring its draft invoice up to date with the order.
    Answers the invoice, the line counts (created, updated, removed) and whether it is new.

    An issued (or paid) invoice is not rebuilt: void it first (its number stays used)."""
    from tenants.sales.models import SalesOrder

    with transaction.atomic():
        # The order's row lock: two builds of one order wait for each other (one invoice per order).
        order = (
            SalesOrder.objects.select_for_update(of=("self",))
            .select_related("customer", "customer__payment_term")
            .filter(pk=sales_order_id)
            .first()
        )
        if order is None:
            raise not_found(SalesOrder)
        if order.status not in INVOICEABLE_ORDER_STATUSES:
            raise ApiError(
                409,
                f"Sales order {order.number} is {order.get_status_display().lower()}: only delivered "
                "orders can be invoiced.",
            )
        invoice = (
            Invoice.objects.select_for_update()
            .filter(sales_order=order)
            .exclude(status=Invoice.Status.VOID)
            .first()
        )
        if invoice is not None and invoice.status != Invoice.Status.DRAFT:
            raise ApiError(
                409,
                f"Invoice {invoice.number} of sales order {order.number} is "
                f"{invoice.get_status_display().lower()}: void it to invoice the order again.",
            )
        doc, lines, fees = price_order(order)
        desired = _desired_lines(doc, lines, fees, order)
        term = _payment_term(order.customer)
        totals = {
            "subtotal": doc.subtotal,
            "fee_total": doc.fee_total,
            "tax_total": doc.tax_total,
            "total": doc.total,
            "taxes": [_tax_json(t) for t in doc.taxes],
            "pricing_notes": list(doc.notes),
        }
        created = invoice is None
        if invoice is None:
            today = timezone.localdate()
            invoice = Invoice(
                sales_order=order,
                customer_id=order.customer_id,
                ship_to_id=order.ship_to_id,
                invoice_date=today,
                created_by=by if getattr(by, "pk", None) else None,
            )
        invoice.payment_term = term
        invoice.payment_term_name = term.name if term is not None else "Due on receipt"
        invoice.due_date = due_date_for(invoice.invoice_date, term)
        invoice.po_number = order.po_number
        for field, value in totals.items():
            setattr(invoice, field, value)
        invoice.amount_paid = ZERO
        invoice.balance = doc.total
        if created:
            # Numbered last, just before the insert: the counter's lock is held only until commit.
            invoice.number = next_number(NUMBER_KIND, prefix=NUMBER_PREFIX)
        invoice.save()
        summary = _sync_lines(invoice, desired)
        if created:
            record_event(
                workflow.InvoiceEvent,
                invoice,
                action="create",
                from_status="",
                to_status=invoice.status,
                by=by,
                details={"sales_order": order.number, **summary.as_dict()},
            )
    return invoice, summary, created


def invoice_order_status(*, sales_order_id: int, status: str, by: Any = None, reason: str = "") -> Invoice:
    """`POST /api/invoice/sales-orders/{id}/invoice-status?status=`: move the order's invoice."""
    invoice = (
        Invoice.objects.filter(sales_order_id=sales_order_id).exclude(status=Invoice.Status.VOID).first()
    )
    if invoice is None:
        raise ApiError(404, "Invoice not found for this sales order")
    return workflow.set_status(invoice, status.strip().lower(), by=by, reason=reason)


def invoice_day(*, day: dt.date, by: Any = None, progress: Any = None) -> dict[str, Any]:
    """Invoice every order delivered on `day` (by its delivery time, or its planned day when it has
    none). Idempotent: an order with an issued invoice is skipped, a draft is brought up to date, so
    a redelivered or restarted job ends with the same invoices. Each order in its own transaction."""
    from tenants.invoicing.selectors import delivered_orders

    orders = list(delivered_orders(day).order_by("id").values_list("pk", "number"))
    result: dict[str, Any] = {"day": day.isoformat(), "orders": len(orders), "created": 0, "updated": 0}
    result.update({"skipped": 0, "failed": 0, "errors": []})
    for pk, number in orders:
        if progress is not None:
            progress()
        if Invoice.objects.filter(sales_order_id=pk).exclude(status__in=("draft", "void")).exists():
            result["skipped"] += 1
            continue
        try:
            _, _summary, created = create_or_update_invoice(sales_order_id=pk, by=by)
        except ApiError as exc:
            result["failed"] += 1
            result["errors"].append(f"{number}: {exc}")
            continue
        result["created" if created else "updated"] += 1
    return result


# --- payments -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class AllocationRequest:
    invoice_id: int
    amount: Decimal


def _apply(
    payment: Payment, allocations: Sequence[AllocationRequest] | None, *, by: Any
) -> list[PaymentAllocation]:
    """Apply the payment's unapplied amount to invoices of its customer (its row is locked by the
    caller). `allocations` None: oldest due first until the money runs out."""
    available = payment.unapplied
    if allocations is None:
        open_invoices = list(
            Invoice.objects.select_for_update()
            .filter(customer_id=payment.customer_id, status__in=OPEN_STATUSES, balance__gt=0)
            .order_by("due_date", "id")
        )
        plan: list[tuple[Invoice, Decimal]] = []
        for inv in open_invoices:
            if available <= ZERO:
                break
            part = min(inv.balance, available)
            plan.append((inv, part))
            available -= part
    else:
        ids = [a.invoice_id for a in allocations]
        if len(set(ids)) != len(ids):
            raise ApiError(422, "An invoice appears twice in the allocations.")
        found = {inv.pk: inv for inv in Invoice.objects.select_for_update().filter(pk__in=ids).order_by("id")}
        plan = []
        for a in allocations:
            target = found.get(a.invoice_id)
            if target is None:
                raise ApiError(422, f"allocations: invoice {a.invoice_id} not found.")
            inv = target
            if inv.customer_id != payment.customer_id:
                raise ApiError(422, f"Invoice {inv.number} belongs to another customer.")
            if inv.status not in OPEN_STATUSES:
                raise ApiError(
                    409,
                    f"Invoice {inv.number} is {inv.get_status_display().lower()}: only issued or "
                    "partially paid invoices take payments.",
                )
            amount = money(a.amount)
            if amount <= ZERO:
                raise ApiError(422, "An allocation must be more than 0.00.")
            if amount > inv.balance:
                raise ApiError(
                    409,
                    f"{amount:,.2f} is more than the balance of invoice {inv.number} ({inv.balance:,.2f}).",
                )
            plan.append((inv, amount))
        wanted = sum((amount for _, amount in plan), ZERO)
        if wanted > available:
            raise ApiError(
                409,
                f"The allocations ({wanted:,.2f}) exceed the payment's unapplied amount ({available:,.2f}).",
            )
    made = []
    for inv, amount in plan:
        alloc = PaymentAllocation.objects.filter(payment=payment, invoice=inv).first()
        if alloc is None:
            alloc = PaymentAllocation.objects.create(payment=payment, invoice=inv, amount=amount)
        else:
            alloc.amount += amount
            alloc.save(update_fields=["amount"])
        made.append(alloc)
        paid = inv.amount_paid + amount
        workflow.settle(inv, paid=paid, by=by, details={"payment": payment.number, "amount": str(amount)})
    _refresh_payment(payment)
    return made


def _refresh_payment(payment: Payment) -> None:
    allocated = payment.allocations.aggregate(t=Sum("amount"))["t"] or ZERO
    payment.allocated = allocated
    payment.unapplied = payment.amount - allocated
    payment.save(update_fields=["allocated", "unapplied", "updated_at"])


def record_payment(
    *,
    customer_id: int,
    payment_date: dt.date,
    amount: Decimal,
    payment_method_id: int | None,
    reference: str = "",
    notes: str = "",
    allocations: Sequence[AllocationRequest] | None = None,
    by: Any = None,
) -> Payment:
    """Record money received and apply it: to the invoices named, or (None) oldest due first. What
    is left is the customer's credit, applied later with `allocate_payment`."""
    from tenants.parties.models import Customer
    from tenants.pricing.models import PaymentMethod

    amount = money(Decimal(amount))
    if amount <= ZERO:
        raise ApiError(422, "amount: a payment must be more than 0.00.")
    if not Customer.objects.filter(pk=customer_id).exists():
        raise ApiError(422, "customer_id: customer not found.")
    if payment_method_id is not None and not PaymentMethod.objects.filter(pk=payment_method_id).exists():
        raise ApiError(422, "payment_method_id: payment method not found.")
    with transaction.atomic():
        payment = Payment(
            customer_id=customer_id,
            payment_date=payment_date,
            amount=amount,
            payment_method_id=payment_method_id,
            reference=reference.strip(),
            notes=notes.strip(),
            allocated=ZERO,
            unapplied=amount,
            created_by=by if getattr(by, "pk", None) else None,
        )
        payment.number = next_number(PAYMENT_KIND, prefix=PAYMENT_PREFIX)
        payment.save()
        _apply(payment, allocations, by=by)
    return payment


def allocate_payment(
    *, payment_id: int, allocations: Sequence[AllocationRequest] | None, by: Any = None
) -> Payment:
    """Apply a payment's unapplied amount (the customer's credit) to invoices."""
    with transaction.atomic():
        payment = get_or_404(Payment.objects.select_for_update(), payment_id)
        if payment.unapplied <= ZERO:
            raise ApiError(409, f"Payment {payment.number} has nothing left to apply.")
        _apply(payment, allocations, by=by)
    return payment


def delete_payment(*, payment_id: int, by: Any = None) -> None:
    """Remove a payment recorded by mistake: its allocations are taken back from the invoices."""
    with transaction.atomic():
        payment = get_or_404(Payment.objects.select_for_update(), payment_id)
        for alloc in payment.allocations.order_by("invoice_id"):
            inv = Invoice.objects.select_for_update().get(pk=alloc.invoice_id)
            paid = inv.amount_paid - alloc.amount
            alloc.delete()
            workflow.settle(
                inv,
                paid=paid,
                by=by,
                details={"payment": payment.number, "removed": str(alloc.amount)},
            )
        payment.delete()


def receivables_of(customer_id: int) -> tuple[Decimal, set[int]]:
    """For sales credit control: the customer's open receivables (invoice balances less unapplied
    credit, not below zero) and the orders whose value is now billed (no longer open orders)."""
    from tenants.invoicing.models import BILLED_STATUSES

    open_balance = (
        Invoice.objects.filter(customer_id=customer_id, status__in=OPEN_STATUSES).aggregate(t=Sum("balance"))[
            "t"
        ]
        or ZERO
    )
    credit = (
        Payment.objects.filter(customer_id=customer_id, unapplied__gt=0).aggregate(t=Sum("unapplied"))["t"]
        or ZERO
    )
    billed = set(
        Invoice.objects.filter(customer_id=customer_id, status__in=BILLED_STATUSES).values_list(
            "sales_order_id", flat=True
        )
    )
    return max(open_balance - credit, ZERO), billed


def update_invoice(*, invoice: Invoice, data: dict[str, Any]) -> Invoice:
    """Notes and the PO number (printed on the document); the amounts come from the order."""
    if invoice.status == Invoice.Status.VOID:
        raise ApiError(409, f"Invoice {invoice.number} is void: it cannot be changed.")
    fields = []
    for field in ("notes", "po_number"):
        if data.get(field) is not None:
            setattr(invoice, field, str(data[field]).strip())
            fields.append(field)
    if fields:
        invoice.save(update_fields=[*fields, "updated_at"])
    return invoice
