"""Purchase orders (`/api/purchase-order`), their receipts and workflow; bills (`/api/bill`) with the
three-way match, approval and its override; the match tolerances and suppliers' payment terms."""

from __future__ import annotations

from typing import Any

from core.documents import action_route, codes
from core.envelope import Answer, Envelope, Message, Page, ok
from core.listing import ListSpec, apply_list, paginate
from core.permissions import perm, register_resource
from core.scoping import get_or_404
from django.http import HttpRequest
from django.utils import timezone
from ninja import Query, Router

from tenants.purchasing import matching, selectors, services
from tenants.purchasing.models import PurchaseOrder, Receipt
from tenants.purchasing.schemas import (
    BillApproveIn,
    BillIn,
    BillMatchOut,
    BillOut,
    BillQuery,
    BillRow,
    BillUpdate,
    BillVoidIn,
    DefaultCostOut,
    DefaultCostQuery,
    MatchSettingsIn,
    MatchSettingsOut,
    POActionIn,
    PurchaseOrderIn,
    PurchaseOrderOut,
    PurchaseOrderQuery,
    PurchaseOrderRow,
    PurchaseOrderUpdate,
    ReceiptIn,
    SupplierTermIn,
    SupplierTermOut,
)
from tenants.purchasing.workflow import bill as bill_workflow
from tenants.purchasing.workflow import po as po_workflow

router = Router(tags=["purchase-order"])
bill_router = Router(tags=["bill"])

# Each workflow move names its permission (workflow/po.py, workflow/bill.py); the routes take their
# path and auth from it (core.documents.action_route).
PO_MACHINE, BILL_MACHINE = po_workflow.MACHINE, bill_workflow.MACHINE
register_resource("purchase_order", "Purchase orders", codes(PO_MACHINE))
register_resource("bill", "Bills", (*codes(BILL_MACHINE), "override_match"))

PO_DEFAULT_SIZE = 10
BILL_DEFAULT_SIZE = 25
PO_LIST_SPEC = ListSpec(
    search=("number", "reference", "supplier__name", "terminal__name"),
    sort={
        "order_date": "order_date",
        "number": "number",
        "status": "status",
        "total": "total",
        "supplier_name": "supplier__name",
        "terminal_name": "terminal__name",
        "created_at": "created_at",
        "id": "id",
    },
    filters={
        "number": ("number", "str"),
        "status": ("status", "str"),
        "supplier_name": ("supplier__name", "str"),
        "terminal_name": ("terminal__name", "str"),
        "order_date": ("order_date", "date"),
        "total": ("total", "decimal"),
    },
    default_sort="-order_date",
)
BILL_LIST_SPEC = ListSpec(
    search=("bill_number", "supplier__name", "purchase_order__number"),
    sort={
        "bill_date": "bill_date",
        "due_date": "due_date",
        "bill_number": "bill_number",
        "status": "status",
        "total": "total",
        "supplier_name": "supplier__name",
        "created_at": "created_at",
        "id": "id",
    },
    filters={
        "bill_number": ("bill_number", "str"),
        "status": ("status", "str"),
        "match_status": ("match_status", "str"),
        "supplier_name": ("supplier__name", "str"),
        "bill_date": ("bill_date", "date"),
        "due_date": ("due_date", "date"),
        "total": ("total", "decimal"),
    },
    default_sort="-bill_date",
)
# sort_by and filter_field as enums of the specs' names (core.listing.ListSpec.query_schema).
PurchaseOrderListQuery = PO_LIST_SPEC.query_schema("PurchaseOrderListQuery", extra=PurchaseOrderQuery)
BillListQuery = BILL_LIST_SPEC.query_schema("BillListQuery", extra=BillQuery)


def _user(request: HttpRequest) -> Any:
    return request.auth


# --- purchase orders -------------------------------------------------------------------------------
@router.get(
    "",
    response=Envelope[Page[PurchaseOrderRow]],
    auth=perm("purchase_order.view"),
    summary="List purchase orders",
    description="Page size 10. Filters: status (one or several, comma-separated), supplier, terminal, "
    "order date range; search over number, reference, supplier and terminal names.",
)
def list_purchase_orders(request: HttpRequest, params: Query[PurchaseOrderListQuery]) -> Answer:  # type: ignore[valid-type]
    qs = apply_list(
        selectors.filter_purchase_orders(selectors.purchase_orders(), params), params, PO_LIST_SPEC
    )
    return ok(paginate(qs, params, PO_DEFAULT_SIZE), "Purchase orders retrieved successfully")


@router.post(
    "",
    response={201: Envelope[PurchaseOrderOut]},
    auth=perm("purchase_order.add"),
    summary="Create a purchase order (draft)",
    description="A line without `unit_cost` gets the supplier's buying price in force on the order date.",
)
def create_purchase_order(request: HttpRequest, payload: PurchaseOrderIn) -> Answer:
    po = services.create_purchase_order(payload.dict(), by=_user(request))
    return ok(
        get_or_404(selectors.purchase_order_detail(), po.pk),
        f"Purchase order {po.number} created successfully",
        status=201,
    )


@router.get(
    "/default-cost",
    response=Envelope[DefaultCostOut],
    auth=perm("purchase_order.view"),
    summary="The default unit cost of a product on a purchase order (the buying price in force)",
)
def default_cost(request: HttpRequest, params: Query[DefaultCostQuery]) -> Answer:
    cost, bp_id = services.default_unit_cost(
        supplier_id=params.supplier_id,
        terminal_id=params.terminal_id,
        product_id=params.product_id,
        on=params.order_date or timezone.localdate(),
    )
    detail = (
        "" if cost is not None else "No buying price in force for this supplier and product on that date."
    )
    data = {"product_id": params.product_id, "unit_cost": cost, "buying_price_id": bp_id, "detail": detail}
    return ok(data, "Default unit cost retrieved successfully")


@router.get(
    "/{int:id}",
    response=Envelope[PurchaseOrderOut],
    auth=perm("purchase_order.view"),
    summary="Get a purchase order with its lines, receipts, bills and timeline",
)
def get_purchase_order(request: HttpRequest, id: int) -> Answer:
    return ok(get_or_404(selectors.purchase_order_detail(), id), "Purchase order retrieved successfully")


@router.put(
    "/{int:id}",
    response=Envelope[PurchaseOrderOut],
    auth=perm("purchase_order.change"),
    summary="Update a purchase order",
    description="Only what is sent changes; `lines`, when sent, is the full list. Supplier, terminal, "
    "date and lines change in draft only.",
)
def update_purchase_order(request: HttpRequest, id: int, payload: PurchaseOrderUpdate) -> Answer:
    po = services.update_purchase_order(
        get_or_404(selectors.purchase_order_detail(), id), payload.dict(exclude_unset=True)
    )
    return ok(get_or_404(selectors.purchase_order_detail(), po.pk), "Purchase order updated successfully")


@router.delete(
    "/{int:id}",
    response=Message,
    auth=perm("purchase_order.delete"),
    summary="Delete a draft or cancelled purchase order",
)
def delete_purchase_order(request: HttpRequest, id: int) -> Answer:
    services.delete_purchase_order(get_or_404(selectors.purchase_order_detail(), id))
    return ok(None, "Purchase order deleted successfully")


def _po_action(action: str) -> None:
    label = PO_MACHINE.get(action).label

    def handler(request: HttpRequest, id: int, payload: POActionIn | None = None) -> Answer:
        po = get_or_404(selectors.purchase_order_detail(), id)
        if action == "cancel":
            po = po_workflow.cancel(po, by=_user(request), reason=(payload.reason if payload else ""))
        else:
            po = po_workflow.ACTIONS[action](po, by=_user(request))
        status = PurchaseOrder.Status(po.status).label.lower()
        return ok(
            get_or_404(selectors.purchase_order_detail(), po.pk),
            f"Purchase order {po.number} is now {status}",
        )

    handler.__name__ = f"{action}_purchase_order"
    router.post(
        **action_route(PO_MACHINE, action),
        response=Envelope[PurchaseOrderOut],
        summary=f"{label} (purchase order workflow)",
        description="A move the workflow does not allow is a 409 naming the current status and the moves "
        "allowed now.",
    )(handler)


for _action in po_workflow.ACTIONS:
    _po_action(_action)


@router.post(
    **action_route(PO_MACHINE, "receive"),
    response={201: Envelope[PurchaseOrderOut]},
    summary="Receive: record a receipt (bill of lading, gross/net quantities per line)",
    description="From ordered (or again while received: several lifts). The order becomes received.",
)
def add_receipt(request: HttpRequest, id: int, payload: ReceiptIn) -> Answer:
    po, receipt = po_workflow.receive(
        get_or_404(selectors.purchase_order_detail(), id),
        bol_number=payload.bol_number,
        received_on=payload.received_on,
        notes=payload.notes,
        lines=[(ln.line_id, ln.gross_quantity, ln.net_quantity) for ln in payload.lines],
        by=_user(request),
    )
    return ok(
        get_or_404(selectors.purchase_order_detail(), po.pk),
        f"Receipt {receipt.bol_number} recorded successfully",
        status=201,
    )


@router.delete(
    "/{int:id}/receipts/{int:receipt_id}",
    response=Envelope[PurchaseOrderOut],
    auth=perm(PO_MACHINE.code("receive")),
    summary="Remove a receipt (while the order is received, before it is billed)",
)
def delete_receipt(request: HttpRequest, id: int, receipt_id: int) -> Answer:
    po = get_or_404(selectors.purchase_order_detail(), id)
    receipt = get_or_404(Receipt.objects.filter(purchase_order=po), receipt_id)
    po_workflow.remove_receipt(po, receipt, by=_user(request))
    return ok(get_or_404(selectors.purchase_order_detail(), po.pk), "Receipt removed successfully")


# --- bills -----------------------------------------------------------------------------------------
@bill_router.get(
    "",
    response=Envelope[Page[BillRow]],
    auth=perm("bill.view"),
    summary="List bills",
    description="Page size 25. Filters: status, supplier, purchase order, match status, bill date range, due "
    "by; search over bill number, supplier name and purchase order number.",
)
def list_bills(request: HttpRequest, params: Query[BillListQuery]) -> Answer:  # type: ignore[valid-type]
    qs = apply_list(selectors.filter_bills(selectors.bills(), params), params, BILL_LIST_SPEC)
    return ok(paginate(qs, params, BILL_DEFAULT_SIZE), "Bills retrieved successfully")


@bill_router.post(
    "",
    response={201: Envelope[BillOut]},
    auth=perm("bill.add"),
    summary="Enter a bill (draft)",
    description="Due date: bill date + the supplier's payment term when left out. Lines on a bill with a "
    "purchase order are matched to the order's line of the same product when not named.",
)
def create_bill(request: HttpRequest, payload: BillIn) -> Answer:
    bill = services.create_bill(payload.dict(), by=_user(request))
    return ok(
        get_or_404(selectors.bill_detail(), bill.pk),
        f"Bill {bill.bill_number} created successfully",
        status=201,
    )


@bill_router.get(
    "/match-settings",
    response=Envelope[MatchSettingsOut],
    auth=perm("bill.view"),
    summary="The company's three-way match tolerances",
)
def get_match_settings(request: HttpRequest) -> Answer:
    return ok(matching.tolerances(), "Match tolerances retrieved successfully")


@bill_router.put(
    "/match-settings",
    response=Envelope[MatchSettingsOut],
    auth=perm("bill.override_match"),
    summary="Set the company's three-way match tolerances (who may override the match may set them)",
)
def save_match_settings(request: HttpRequest, payload: MatchSettingsIn) -> Answer:
    services.save_match_settings(payload.dict())
    return ok(matching.tolerances(), "Match tolerances saved successfully")


@bill_router.get(
    "/supplier-terms/{int:supplier_id}",
    response=Envelope[SupplierTermOut],
    auth=perm("bill.view"),
    summary="The payment term a supplier bills on (its own, else the company's default)",
)
def get_supplier_term(request: HttpRequest, supplier_id: int) -> Answer:
    from tenants.parties.models import Supplier

    supplier = get_or_404(Supplier.objects.only("name"), supplier_id)
    term = services.supplier_payment_term(supplier_id)
    data = {
        "supplier_id": supplier_id,
        "supplier_name": supplier.name,
        "payment_term_id": term.pk if term else None,
        "payment_term_name": term.name if term else "Net 30 (no term set)",
        "net_days": term.net_days if term else services.DEFAULT_NET_DAYS,
    }
    return ok(data, "Supplier payment term retrieved successfully")


@bill_router.put(
    "/supplier-terms/{int:supplier_id}",
    response=Envelope[SupplierTermOut],
    auth=perm("bill.change"),
    summary="Set the payment term a supplier bills on",
)
def set_supplier_term(request: HttpRequest, supplier_id: int, payload: SupplierTermIn) -> Answer:
    services.set_supplier_term(supplier_id=supplier_id, payment_term_id=payload.payment_term_id)
    return get_supplier_term(request, supplier_id)


@bill_router.get(
    "/{int:id}",
    response=Envelope[BillOut],
    auth=perm("bill.view"),
    summary="Get a bill with its lines, charges, three-way match and timeline",
)
def get_bill(request: HttpRequest, id: int) -> Answer:
    return ok(get_or_404(selectors.bill_detail(), id), "Bill retrieved successfully")


@bill_router.get(
    "/{int:id}/match",
    response=Envelope[BillMatchOut],
    auth=perm("bill.view"),
    summary="The three-way match of a bill (per line: quantity and price variances, tolerances)",
)
def bill_match(request: HttpRequest, id: int) -> Answer:
    return ok(
        matching.match_bill(get_or_404(selectors.bill_detail(), id)), "Bill match retrieved successfully"
    )


@bill_router.put(
    "/{int:id}",
    response=Envelope[BillOut],
    auth=perm("bill.change"),
    summary="Update a draft bill",
    description="Only what is sent changes; `lines` and `charges`, when sent, are the full lists.",
)
def update_bill(request: HttpRequest, id: int, payload: BillUpdate) -> Answer:
    bill = services.update_bill(get_or_404(selectors.bill_detail(), id), payload.dict(exclude_unset=True))
    return ok(get_or_404(selectors.bill_detail(), bill.pk), "Bill updated successfully")


@bill_router.delete("/{int:id}", response=Message, auth=perm("bill.delete"), summary="Delete a draft bill")
def delete_bill(request: HttpRequest, id: int) -> Answer:
    services.delete_bill(get_or_404(selectors.bill_detail(), id))
    return ok(None, "Bill deleted successfully")


@bill_router.post(
    **action_route(BILL_MACHINE, "approve"),
    response=Envelope[BillOut],
    summary="Approve a bill",
    description="A bill out of tolerance is refused (409 naming the lines) unless `override` is true and the "
    "user holds `bill.override_match` (403 otherwise).",
)
def approve_bill(request: HttpRequest, id: int, payload: BillApproveIn | None = None) -> Answer:
    body = payload or BillApproveIn(override=False, reason="")
    bill = bill_workflow.approve(
        get_or_404(selectors.bill_detail(), id), by=_user(request), override=body.override, reason=body.reason
    )
    return ok(get_or_404(selectors.bill_detail(), bill.pk), f"Bill {bill.bill_number} approved successfully")


@bill_router.post(
    **action_route(BILL_MACHINE, "unapprove"),
    response=Envelope[BillOut],
    summary="Take an approved bill back to draft",
)
def unapprove_bill(request: HttpRequest, id: int) -> Answer:
    bill = bill_workflow.unapprove(get_or_404(selectors.bill_detail(), id), by=_user(request))
    return ok(get_or_404(selectors.bill_detail(), bill.pk), f"Bill {bill.bill_number} is back to draft")


@bill_router.post(
    **action_route(BILL_MACHINE, "pay"), response=Envelope[BillOut], summary="Mark an approved bill paid"
)
def pay_bill(request: HttpRequest, id: int) -> Answer:
    bill = bill_workflow.pay(get_or_404(selectors.bill_detail(), id), by=_user(request))
    return ok(get_or_404(selectors.bill_detail(), bill.pk), f"Bill {bill.bill_number} marked paid")


@bill_router.post(**action_route(BILL_MACHINE, "void"), response=Envelope[BillOut], summary="Void a bill")
def void_bill(request: HttpRequest, id: int, payload: BillVoidIn | None = None) -> Answer:
    reason = payload.reason if payload else ""
    bill = bill_workflow.void(get_or_404(selectors.bill_detail(), id), by=_user(request), reason=reason)
    return ok(get_or_404(selectors.bill_detail(), bill.pk), f"Bill {bill.bill_number} voided")


routes = [("/purchase-order", router), ("/bill", bill_router)]
