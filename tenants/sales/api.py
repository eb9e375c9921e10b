"""Sales orders (`/api/sales-order`), their line items, notes, the order board and the dispatch center."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.documents import action_route, codes, require_move
from core.envelope import Answer, Envelope, Message, Page, ok
from core.errors import ApiError
from core.listing import TEXT_OPERATORS, ListSpec, apply_list, is_narrowed, paginate
from core.permissions import perm, register_resource
from core.renderers import prerendered
from core.scoping import get_or_404, get_or_none, not_found, scoped
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Query, Router

from tenants.pricing.schemas import TaxSummaryMissing, TaxSummaryOut
from tenants.sales import dayview, dispatch, pricing, selectors, services, workflow
from tenants.sales.models import LineItem, Note, OrderFee, SalesOrder
from tenants.sales.schemas import (
    AssignIn,
    BoardOut,
    BoardQuery,
    DeliverIn,
    DeliverProductsIn,
    DispatchDayOut,
    DispatchQuery,
    FeeCalculationOut,
    FeeCalculationQuery,
    NoteIn,
    NoteOut,
    NoteQuery,
    NoteUpdate,
    ReorderIn,
    SalesOrderIn,
    SalesOrderOut,
    SalesOrderQuery,
    SalesOrderRow,
    SalesOrderUpdate,
    SpecificPriceQuery,
    StopOut,
    UnitPriceOut,
)

router = Router(tags=["sales-order"])
line_item_router = Router(tags=["line-item"])
note_router = Router(tags=["note"])
dispatch_router = Router(tags=["dispatch"])

# Workflow actions have their own permission codes (a driver may deliver, not verify): each move of
# workflow.MACHINE names its own, and the routes below take path and auth from it.
MACHINE = workflow.MACHINE
register_resource("sales_order", "Sales orders", codes(MACHINE))
register_resource("credit", "Credit control", ("override",))
register_resource("dispatch", "Dispatch center", ("view", "change"))

MISSING_ID = "Sales order ID is required for update"
# Operations that name a row in their query or body answer 404 when it is not there.
NOT_FOUND_DOC = {
    "responses": {
        404: {
            "description": "Not found",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorDetail"}}},
        }
    }
}
DEFAULT_SIZE = 50
ARCHIVE_SIZE = 10
# The search (number, PO number, customer name) is selectors.search_orders (customers looked up first).
LIST_SPEC = ListSpec(
    # The order's own columns sort by the aliases of selectors.ORDER_SORT_ALIASES (see list_orders).
    sort={
        "planned_date": "sort_planned_date",
        "number": "sort_number",
        "status": "sort_status",
        "total": "sort_total",
        "customer": "customer__name",
        "customer_name": "customer__name",
        "po_number": "sort_po_number",
        "created_at": "sort_created_at",
        "updated_at": "sort_updated_at",
        "id": "id",
    },
    filters={
        "number": ("number", "str"),
        "po_number": ("po_number", "str"),
        "status": ("status", "str"),
        "customer_name": ("customer__name", "str"),
        "ship_to_name": ("ship_to__name", "str"),
        "driver_name": ("driver__name", "str"),
        "planned_date": ("planned_date", "date"),
        "total": ("total", "decimal"),
        "subtotal": ("subtotal", "decimal"),
        "created_at": ("created_at", "datetime"),
        "customer_id": ("customer_id", "int"),
    },
    default_sort="-sort_planned_date",
)
# sort_by and filter_field as enums of LIST_SPEC's names (core.listing.ListSpec.query_schema).
if TYPE_CHECKING:  # statically, the class query_schema makes: ListParams and the list's own filters

    class SalesOrderListQuery(SalesOrderQuery): ...

else:
    SalesOrderListQuery = LIST_SPEC.query_schema("SalesOrderListQuery", extra=SalesOrderQuery)


def _fresh(order: SalesOrder, message: str) -> Any:
    return ok(get_or_404(selectors.order_detail(), order.pk), message)


# --- list, create, read, update --------------------------------------------------------------------
@router.get(
    "/sales-orders",
    response=Envelope[Page[SalesOrderRow]],
    auth=perm("sales_order.view"),
    summary="List sales orders",
    description="Page size 50 (10 for `status=archive`). Without `status`, archived orders are left out.",
)
def list_orders(request: HttpRequest, params: Query[SalesOrderListQuery]) -> Answer | HttpResponse:
    # Through the request's row scope (core.scoping): a driver's own stops only.
    orders = scoped(SalesOrder.objects.all())
    qs = selectors.search_orders(selectors.filter_orders(orders, params), params.search)
    narrowed = params
    op = params.filter_operator
    if params.filter_field == "customer_name" and op in TEXT_OPERATORS and params.filter_value is not None:
        # By the matching customers' ids (their trigram index), not a join over every order.
        qs = selectors.by_customer_name(qs, TEXT_OPERATORS[op], params.filter_value)
        narrowed = params.model_copy(
            update={"filter_field": None, "filter_operator": None, "filter_value": None}
        )
    # A list narrowed by text (the search box, a text filter) sorts by index-free keys, so Postgres
    # reads the matches from their own indexes instead of walking the planned-date index through a
    # million orders (core.listing.Unindexed).
    by_text = is_narrowed(params)
    qs = apply_list(selectors.order_sort_keys(qs, unindexed=by_text), narrowed, LIST_SPEC)
    size = ARCHIVE_SIZE if params.status == "archive" else DEFAULT_SIZE
    # The page's ids and the total first, then only those rows with what they show: the joins are
    # made for 50 rows, not for every match the total counts. `.values()` rows in the row schema's
    # shape (selectors.ROW_PLAN), rendered without validation.
    page = paginate(qs.values("id"), params, size)
    page["items"] = selectors.rows_by_id([key["id"] for key in page["items"]])
    return prerendered(ok(page, "Sales orders retrieved successfully"))


@router.post(
    "/sales-orders",
    response={201: Envelope[SalesOrderOut]},
    auth=perm("sales_order.add"),
    summary="Create a sales order (draft)",
)
def create_order(request: HttpRequest, payload: SalesOrderIn) -> Answer:
    order = services.create_order(payload.dict(), by=request.auth)
    return ok(get_or_404(selectors.order_detail(), order.pk), "Sales order created successfully", status=201)


@router.get(
    "/sales-orders/board",
    response=Envelope[BoardOut],
    auth=perm("sales_order.view"),
    summary="The order board: orders by status",
)
def board(request: HttpRequest, params: Query[BoardQuery]) -> Answer:
    return ok(selectors_board(params), "Board retrieved successfully")


def selectors_board(params: BoardQuery) -> dict[str, Any]:
    from tenants.sales.board import board_view

    return board_view(params)


@router.get(
    "/sales-orders/{int:id}",
    response=Envelope[SalesOrderOut],
    auth=perm("sales_order.view"),
    summary="Get a sales order with its lines, fees, notes and timeline",
)
def get_order(request: HttpRequest, id: int) -> Answer:
    return ok(get_or_404(selectors.order_detail(), id), "Sales order retrieved successfully")


@router.put(
    "/sales-orders/{int:id}",
    response=Envelope[SalesOrderOut],
    auth=perm("sales_order.change"),
    summary="Update a sales order",
    description="Only what is sent changes; `line_items` and `fees`, when sent, are the full lists. Lines, "
    "fees and the customer change in draft only; the planned window while draft or verified.",
)
def update_order(request: HttpRequest, id: int, payload: SalesOrderUpdate) -> Answer:
    data = payload.dict(exclude_unset=True)
    if data.get("id") not in (None, id):
        raise ApiError(422, "id: the body names another sales order than the path.")
    order = services.update_order(get_or_404(selectors.order_detail(), id), data)
    return _fresh(order, "Sales order updated successfully")


@router.put(
    "/sales-orders",
    response=Envelope[SalesOrderOut],
    auth=perm("sales_order.change"),
    summary="Update the sales order named by `id` in the body",
)
def update_order_by_body(request: HttpRequest, payload: SalesOrderUpdate) -> Answer:
    data = payload.dict(exclude_unset=True)
    if not data.get("id"):
        raise ApiError(422, MISSING_ID)
    order = services.update_order(get_or_404(selectors.order_detail(), data["id"]), data)
    return _fresh(order, "Sales order updated successfully")


@router.put("/sales-orders/update", auth=perm("sales_order.change"), include_in_schema=False)
def update_order_by_update_path(request: HttpRequest, payload: SalesOrderUpdate) -> Answer:
    return update_order_by_body(request, payload)


@router.put("/sales-orders/{raw}", auth=perm("sales_order.change"), include_in_schema=False)
def update_order_without_id(request: HttpRequest, raw: str) -> Answer:
    raise ApiError(422, MISSING_ID)


@router.get("/sales-orders/{raw}", auth=perm("sales_order.view"), include_in_schema=False)
def get_order_not_an_id(request: HttpRequest, raw: str) -> Answer:
    raise not_found(SalesOrder)


# --- workflow --------------------------------------------------------------------------------------
@router.put(
    "/sales-orders/{int:id}/status",
    response=Envelope[SalesOrderOut],
    auth=perm("sales_order.view"),
    summary="Move a sales order to a status",
    description="`status`: verified, delivered, completed, archive (spec), also draft (back from verified) "
    "and cancelled. A move the workflow does not allow is a 409 naming the current status and the moves "
    "allowed now. Verifying checks credit; `override_credit=true` (permission `credit.override`) verifies "
    "anyway and records the override.",
)
def set_status(
    request: HttpRequest, id: int, status: str, override_credit: bool = False, reason: str = ""
) -> Answer:
    order = get_or_404(selectors.order_detail(), id)
    status = status.strip().lower()
    action = MACHINE.status_action(status, order.status)
    # A status without a call is refused (422) by the workflow, after the permission check of verify.
    require_move(request.auth, MACHINE, action or "verify")  # type: ignore[attr-defined]
    if action == "verify":
        order = workflow.verify(
            order,
            by=request.auth,
            override_credit=override_credit,
            reason=reason[:500],
        )
    else:
        order = workflow.set_status(order, status, by=request.auth)
    label = SalesOrder.Status(order.status).label.lower()
    return _fresh(order, f"Sales order {order.number} is now {label}")


@router.post(
    **action_route(MACHINE, "assign", prefix="/sales-orders"),
    response=Envelope[SalesOrderOut],
    summary="Assign a driver and company assets (truck, trailer)",
    description="From verified (or again while assigned). Refused (409) when the truck's load of the day "
    "would not fit its compartments.",
)
def assign(request: HttpRequest, id: int, payload: AssignIn) -> Answer:
    order = workflow.assign(get_or_404(selectors.order_detail(), id), **payload.dict(), by=request.auth)
    return _fresh(order, "Driver and assets assigned to sales order successfully")


@router.post(
    **action_route(MACHINE, "unassign", prefix="/sales-orders"),
    response=Envelope[SalesOrderOut],
    summary="Take an assigned order off its truck (back to verified)",
)
def unassign(request: HttpRequest, id: int) -> Answer:
    order = workflow.unassign(get_or_404(selectors.order_detail(), id), by=request.auth)
    return _fresh(order, "Sales order unassigned")


@router.put(
    **action_route(MACHINE, "start_delivery", prefix="/sales-orders"),
    response=Envelope[SalesOrderOut],
    summary="Start the delivery",
)
def start_delivery(request: HttpRequest, id: int, start_date_time: str | None = None) -> Answer:
    start = services.parse_start(start_date_time)
    order = workflow.start_delivery(get_or_404(selectors.order_detail(), id), start=start, by=request.auth)
    return _fresh(order, "Delivery started successfully")


@router.post(
    **action_route(MACHINE, "deliver_products", prefix="/sales-orders"),
    response=Envelope[SalesOrderOut],
    summary="Record delivered quantities (may be called again until the delivery ends)",
)
def deliver_products(request: HttpRequest, id: int, payload: DeliverProductsIn) -> Answer:
    quantities = [(ln.line_item_id, ln.delivered_quantity) for ln in payload.line_items]
    order = workflow.deliver_products(get_or_404(selectors.order_detail(), id), quantities, by=request.auth)
    return _fresh(order, "Delivered products recorded successfully")


@router.post(
    **action_route(MACHINE, "deliver", prefix="/sales-orders"),
    response=Envelope[SalesOrderOut],
    summary="End the delivery",
    description="Every line needs a delivered quantity (from deliver-products or this body); send 0 for a "
    "product that was not delivered.",
)
def deliver(request: HttpRequest, id: int, payload: DeliverIn | None = None) -> Answer:
    body = payload or DeliverIn()
    quantities = [(ln.line_item_id, ln.delivered_quantity) for ln in body.line_items]
    order = workflow.deliver(
        get_or_404(selectors.order_detail(), id),
        quantities,
        delivered_at=body.delivered_at,
        by=request.auth,
    )
    return _fresh(order, "Sales order delivered successfully")


# --- line items, fees ------------------------------------------------------------------------------
@line_item_router.delete(
    "/{int:id}",
    response=Message,
    auth=perm("sales_order.change"),
    summary="Remove a line from a draft sales order",
)
def delete_line_item(request: HttpRequest, id: int) -> Answer:
    line = get_or_404(LineItem, id)
    services.delete_line(line)
    return ok(None, "Line item deleted successfully")


# --- notes -----------------------------------------------------------------------------------------
@note_router.get(
    "", response=Envelope[list[NoteOut]], auth=perm("sales_order.view"), summary="Notes of a sales order"
)
def list_notes(request: HttpRequest, params: Query[NoteQuery]) -> Answer:
    return ok(list(selectors.notes(params.sales_order_id)), "Notes retrieved successfully")


@note_router.post(
    "",
    response={201: Envelope[NoteOut]},
    auth=perm("sales_order.view"),
    summary="Add a note to a sales order",
)
def add_note(request: HttpRequest, payload: NoteIn) -> Answer:
    order = get_or_none(SalesOrder.objects.all(), payload.sales_order_id)
    if order is None:
        raise ApiError(422, f"sales_order_id: no sales order with id {payload.sales_order_id}.")
    note = services.add_note(order, payload.body, by=request.auth)
    return ok(selectors.notes(order.pk).get(pk=note.pk), "Note added successfully", status=201)


def _note(id: int) -> Note:
    return get_or_404(Note.objects.select_related("created_by"), id)


@note_router.put(
    "/{int:id}", response=Envelope[NoteOut], auth=perm("sales_order.view"), summary="Edit a note"
)
def update_note(request: HttpRequest, id: int, payload: NoteUpdate) -> Answer:
    note = services.update_note(_note(id), payload.body, by=request.auth)
    return ok(note, "Note updated successfully")


@note_router.delete("/{int:id}", response=Message, auth=perm("sales_order.view"), summary="Delete a note")
def delete_note(request: HttpRequest, id: int) -> Answer:
    services.delete_note(_note(id), by=request.auth)
    return ok(None, "Note deleted successfully")


# --- dispatch center -------------------------------------------------------------------------------
@dispatch_router.get(
    "/day",
    response=Envelope[DispatchDayOut],
    auth=perm("dispatch.view"),
    summary="A day of the dispatch center: trucks, their stops and loads, drivers, unassigned orders",
)
def dispatch_day(request: HttpRequest, params: Query[DispatchQuery]) -> Answer | HttpResponse:
    day = params.date or timezone.localdate()
    # Plain rows in the schema's shape, rendered as they are (no output validation: 400 orders).
    return prerendered(
        ok(
            dayview.day_view(day, region_id=params.region_id, yard_id=params.yard_id),
            "Dispatch day retrieved successfully",
        )
    )


@dispatch_router.put(
    "/stops",
    response=Envelope[list[StopOut]],
    auth=perm("dispatch.change"),
    summary="Reorder a truck's stops of a day",
)
def reorder_stops(request: HttpRequest, payload: ReorderIn) -> Answer:
    stops = dispatch.reorder_stops(payload.truck_id, payload.date, payload.order_ids)
    ids = [o.pk for o in stops]
    by_id = {o.pk: o for o in selectors.orders().filter(pk__in=ids).prefetch_related(dispatch._LINES)}
    return ok([by_id[i] for i in ids], "Stops reordered successfully")


# --- fees on an order ------------------------------------------------------------------------------
@router.delete(
    "/sales-orders/fee/{int:id}",
    response=Message,
    auth=perm("sales_order.change"),
    summary="Remove a fee from a draft sales order",
)
def delete_order_fee(request: HttpRequest, id: int) -> Answer:
    fee = get_or_404(OrderFee, id)
    services.delete_fee(fee)
    return ok(None, "Fee deleted successfully")


# --- pricing views of an order (under the pricing app's prefixes: /fee, /tax, /customer-price) ------
fee_router = Router(tags=["fee"])
tax_router = Router(tags=["tax"])
customer_price_router = Router(tags=["customer-price"])


@fee_router.get(
    "/calculate",
    response=Envelope[FeeCalculationOut],
    auth=perm("sales_order.view"),
    summary="A fee applied to a sales order (rate, quantity, subtotal)",
    openapi_extra=NOT_FOUND_DOC,
)
def calculate_fee(request: HttpRequest, params: Query[FeeCalculationQuery]) -> Answer:
    order = get_or_404(selectors.order_detail(), params.sales_order_id)
    return ok(pricing.fee_on_order(order, params.fee_id, params.quantity), "Fee calculated successfully")


@tax_router.get(
    "/sales-orders/taxes/{int:id}",
    response={200: Envelope[TaxSummaryOut], 404: TaxSummaryMissing},
    auth=perm("sales_order.view"),
    summary="Tax summary of a sales order",
    description="{total_tax_amount, taxable_items}. An unknown id: 404 whose body also carries the empty "
    "default (total_tax_amount 0, taxable_items []).",
)
def sales_order_taxes(request: HttpRequest, id: int) -> Answer:
    order = selectors.get_order(id)
    if order is None:
        raise not_found(SalesOrder, total_tax_amount="0.00", taxable_items=[])
    return ok(pricing.tax_summary_of(order), "Taxes of the sales order retrieved successfully")


@tax_router.get("/sales-orders/taxes/{raw}", auth=perm("sales_order.view"), include_in_schema=False)
def sales_order_taxes_not_an_id(request: HttpRequest, raw: str) -> Answer:
    raise not_found(SalesOrder, total_tax_amount="0.00", taxable_items=[])


@customer_price_router.get(
    "/specific",
    response=Envelope[UnitPriceOut],
    auth=perm("sales_order.view"),
    summary="The unit price of a product on a sales order (its line's, else what the engine gives)",
    openapi_extra=NOT_FOUND_DOC,
)
def specific_price(request: HttpRequest, params: Query[SpecificPriceQuery]) -> Answer:
    order = get_or_404(selectors.order_detail(), params.sales_order_id)
    return ok(pricing.unit_price_on_order(order, params.product_id), "Unit price retrieved successfully")


def sales_order_prices(sales_order_id: int) -> Any:
    """`GET /api/customer-price?sales_order_id=` (the pricing app's route delegates here). Answered as
    a finished response: the route's declared schema is the customer pricing index's."""
    from django.core.serializers.json import DjangoJSONEncoder
    from django.http import JsonResponse

    body = ok(
        pricing.simple_prices(get_or_404(selectors.order_detail(), sales_order_id)),
        "Sales order prices retrieved successfully",
    )
    return JsonResponse(body, encoder=DjangoJSONEncoder)


routes = [
    ("/sales-order", router),
    ("/line-item", line_item_router),
    ("/note", note_router),
    ("/dispatch", dispatch_router),
    ("/fee", fee_router),
    ("/tax", tax_router),
    ("/customer-price", customer_price_router),
]
