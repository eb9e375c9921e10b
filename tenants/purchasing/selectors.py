"""Reads of purchasing. Lists join what they show in one query; a detail prefetches its parts."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import DecimalField, OuterRef, Prefetch, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from tenants.purchasing.models import (
    Bill,
    BillCharge,
    BillEvent,
    BillLine,
    PurchaseOrder,
    PurchaseOrderEvent,
    PurchaseOrderLine,
    Receipt,
    ReceiptLine,
)

_QTY = DecimalField(max_digits=14, decimal_places=3)


def _sum_of(qs: QuerySet[Any], group: str, field: str) -> Any:
    total = qs.values(group).annotate(s=Sum(field)).values("s")
    return Coalesce(Subquery(total, output_field=_QTY), Value(Decimal("0.000")), output_field=_QTY)


def po_lines() -> QuerySet[PurchaseOrderLine]:
    received = ReceiptLine.objects.filter(line=OuterRef("pk"))
    billed = BillLine.objects.filter(purchase_order_line=OuterRef("pk")).exclude(
        bill__status=Bill.Status.VOID
    )
    return (
        PurchaseOrderLine.objects.select_related("product")
        .annotate(
            received_gross=_sum_of(received, "line", "gross_quantity"),
            received_net=_sum_of(received, "line", "net_quantity"),
            billed_quantity=_sum_of(billed, "purchase_order_line", "quantity"),
        )
        .order_by("position", "id")
    )


def purchase_orders() -> QuerySet[PurchaseOrder]:
    return PurchaseOrder.objects.select_related("supplier", "terminal").defer(
        "notes", "supplier__notes", "terminal__notes"
    )


def purchase_order_detail() -> QuerySet[PurchaseOrder]:
    return PurchaseOrder.objects.select_related("supplier", "terminal").prefetch_related(
        Prefetch("lines", queryset=po_lines()),
        Prefetch(
            "receipts", queryset=Receipt.objects.prefetch_related("lines").order_by("received_on", "id")
        ),
        Prefetch("bills", queryset=Bill.objects.order_by("bill_date", "id")),
        Prefetch("events", queryset=PurchaseOrderEvent.objects.order_by("at", "id")),
    )


def get_purchase_order(po_id: int) -> PurchaseOrder | None:
    return purchase_order_detail().filter(pk=po_id).first()


def _statuses(raw: str | None) -> list[str]:
    return [s.strip() for s in (raw or "").split(",") if s.strip()]


def filter_purchase_orders(qs: QuerySet[PurchaseOrder], params: Any) -> QuerySet[PurchaseOrder]:
    statuses = _statuses(params.status)
    if statuses:
        qs = qs.filter(status__in=statuses)
    if params.supplier_id:
        qs = qs.filter(supplier_id=params.supplier_id)
    if params.terminal_id:
        qs = qs.filter(terminal_id=params.terminal_id)
    if params.order_date_start:
        qs = qs.filter(order_date__gte=params.order_date_start)
    if params.order_date_end:
        qs = qs.filter(order_date__lte=params.order_date_end)
    return qs


def bills() -> QuerySet[Bill]:
    return Bill.objects.select_related("supplier", "purchase_order").defer(
        "notes", "supplier__notes", "purchase_order__notes"
    )


def bill_detail() -> QuerySet[Bill]:
    return Bill.objects.select_related(
        "supplier", "purchase_order", "payment_term", "terminal"
    ).prefetch_related(
        Prefetch("lines", queryset=BillLine.objects.select_related("product").order_by("position", "id")),
        Prefetch("charges", queryset=BillCharge.objects.order_by("position", "id")),
        Prefetch("events", queryset=BillEvent.objects.order_by("at", "id")),
    )


def get_bill(bill_id: int) -> Bill | None:
    return bill_detail().filter(pk=bill_id).first()


def filter_bills(qs: QuerySet[Bill], params: Any) -> QuerySet[Bill]:
    statuses = _statuses(params.status)
    if statuses:
        qs = qs.filter(status__in=statuses)
    if params.supplier_id:
        qs = qs.filter(supplier_id=params.supplier_id)
    if params.purchase_order_id:
        qs = qs.filter(purchase_order_id=params.purchase_order_id)
    if params.match_status:
        qs = qs.filter(match_status=params.match_status)
    if params.bill_date_start:
        qs = qs.filter(bill_date__gte=params.bill_date_start)
    if params.bill_date_end:
        qs = qs.filter(bill_date__lte=params.bill_date_end)
    if params.due_date_end:
        qs = qs.filter(due_date__lte=params.due_date_end)
    return qs


def open_purchase_order_for(
    *, supplier_id: int, product_ids: set[int] | None = None, bol_numbers: set[str] | None = None
) -> PurchaseOrder | None:
    """The supplier's open purchase order a bill most likely belongs to (for the bill parser and the
    inbox): one with a receipt of one of the bill's BOL numbers, else the most recent ordered or
    received order carrying all the bill's products; None when nothing fits."""
    open_qs = PurchaseOrder.objects.filter(
        supplier_id=supplier_id,
        status__in=(PurchaseOrder.Status.ORDERED, PurchaseOrder.Status.RECEIVED, PurchaseOrder.Status.BILLED),
    ).order_by("-order_date", "-id")
    wanted_bols = {b.strip().upper() for b in (bol_numbers or set()) if b and b.strip()}
    if wanted_bols:
        for po in open_qs.prefetch_related("receipts"):
            if any(r.bol_number.strip().upper() in wanted_bols for r in po.receipts.all()):
                return po
    if product_ids:
        for po in open_qs.exclude(status=PurchaseOrder.Status.BILLED).prefetch_related("lines"):
            if set(product_ids) <= {ln.product_id for ln in po.lines.all()}:
                return po
    return None
