"""`/api/quickbook` and `/api/intuit`: the QuickBooks Online connection (OAuth), customer and item
sync, the item map, the invoice push, payments back (CDC job and the public webhook).
docs/quickbooks.md describes the flows."""

from __future__ import annotations

from typing import Any

from core.envelope import Answer, Envelope, Message, Page, ok, page_of
from core.errors import ApiError
from core.permissions import perm, register_resource
from django.http import HttpRequest
from django_tenants.utils import schema_context
from ninja import Query, Router

from tenants.quickbooks import connection, selectors, services, tasks
from tenants.quickbooks.schemas import (
    CallbackIn,
    ConnectionOut,
    ConnectOut,
    CustomerSyncIn,
    ItemMapIn,
    ItemMapRowOut,
    JobOut,
    ListQuery,
    QboItemOut,
    SyncItemsIn,
    SyncRowOut,
    TaxCodeOut,
    TaxSettingsIn,
)

router = Router(tags=["quickbooks"])
intuit_router = Router(tags=["quickbooks"])
register_resource("quickbooks", "QuickBooks Online", ("view", "change"))


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorDetail"}}},
    }


# Calls that reach QBO: not connected (409), QBO refused the data (422), QBO failed or unreachable (502).
QBO_CALL = {
    "responses": {
        "409": _error("Not connected to QuickBooks Online (or a conflict with what QuickBooks holds)"),
        "422": _error("QuickBooks Online refused the data"),
        "502": _error("QuickBooks Online failed or could not be reached"),
    }
}
WEBHOOK = {
    "responses": {
        "400": _error("The body is not a QuickBooks webhook payload"),
        "401": _error("The intuit-signature header does not match the body"),
    }
}
VIEW = perm("quickbooks.view")
CHANGE = perm("quickbooks.change")


@router.get("/connection", response=Envelope[ConnectionOut], auth=VIEW, operation_id="quickbooks_connection")
def get_connection(request: HttpRequest) -> Answer:
    return ok(selectors.connection_out(), "QuickBooks connection retrieved")


@router.post(
    "/connect",
    response=Envelope[ConnectOut],
    auth=CHANGE,
    operation_id="quickbooks_connect",
    openapi_extra=QBO_CALL,
)
def connect(request: HttpRequest) -> Answer:
    """The Intuit authorization URL to send the browser to (it comes back to /quickbook/login)."""
    return ok({"authorization_url": connection.start_connect()}, "Continue to QuickBooks Online")


@router.post(
    "/callback",
    response=Envelope[ConnectionOut],
    auth=CHANGE,
    operation_id="quickbooks_callback",
    openapi_extra=QBO_CALL,
)
def callback(request: HttpRequest, payload: CallbackIn) -> Answer:
    """The query parameters Intuit redirected with (code, state, realmId), posted by the SPA."""
    conn = connection.complete_connect(code=payload.code, state=payload.state, realm_id=payload.realmId)
    return ok(selectors.connection_out(conn), "Connected to QuickBooks Online")


@router.post(
    "/disconnect",
    response=Envelope[ConnectionOut],
    auth=CHANGE,
    operation_id="quickbooks_disconnect",
    openapi_extra=QBO_CALL,
)
def disconnect(request: HttpRequest) -> Answer:
    conn = connection.disconnect()
    return ok(selectors.connection_out(conn), "Disconnected from QuickBooks Online")


@intuit_router.get(
    "/customers", response=Envelope[Page[SyncRowOut]], auth=VIEW, operation_id="quickbooks_customers"
)
def customers(request: HttpRequest, query: Query[ListQuery]) -> Answer:
    """Customers with their QuickBooks id, sync state and last error."""
    rows, total = selectors.customer_rows(page=query.page, size=query.size, search=query.search)
    return ok(page_of(rows, total=total, page=query.page, size=query.size), "Customers retrieved")


@intuit_router.post(
    "/customers/sync", response=Envelope[JobOut], auth=CHANGE, operation_id="quickbooks_customers_sync"
)
def sync_customers(request: HttpRequest, payload: CustomerSyncIn) -> Answer:
    connection.require_connected()
    return ok(
        tasks.queue(tasks.sync_customers_job, customer_ids=payload.customer_ids), "Customer sync started"
    )


@intuit_router.post(
    "/customers/import", response=Envelope[JobOut], auth=CHANGE, operation_id="quickbooks_customers_import"
)
def import_customers(request: HttpRequest) -> Answer:
    connection.require_connected()
    return ok(tasks.queue(tasks.import_customers_job), "Customer import started")


@router.get(
    "/items",
    response=Envelope[list[QboItemOut]],
    auth=VIEW,
    operation_id="quickbooks_items",
    openapi_extra=QBO_CALL,
)
def items(request: HttpRequest) -> Answer:
    return ok(services.qbo_items(), "QuickBooks items retrieved")


@router.get(
    "/tax-codes",
    response=Envelope[list[TaxCodeOut]],
    auth=VIEW,
    operation_id="quickbooks_tax_codes",
    openapi_extra=QBO_CALL,
)
def tax_codes(request: HttpRequest) -> Answer:
    """The QBO company's tax codes: outside the US, invoice lines name one of them."""
    return ok(services.qbo_tax_codes(), "QuickBooks tax codes retrieved")


@router.put(
    "/tax-settings",
    response=Envelope[ConnectionOut],
    auth=CHANGE,
    operation_id="quickbooks_tax_settings",
    openapi_extra=QBO_CALL,
)
def set_tax_settings(request: HttpRequest, payload: TaxSettingsIn) -> Answer:
    """The tax codes taxed and untaxed invoice lines post with (companies outside the US)."""
    conn = services.set_tax_codes(
        sales_tax_code=payload.sales_tax_code, exempt_tax_code=payload.exempt_tax_code
    )
    return ok(selectors.connection_out(conn), "Tax codes saved")


@router.get(
    "/item-map",
    response=Envelope[list[ItemMapRowOut]],
    auth=VIEW,
    operation_id="quickbooks_item_map",
    openapi_extra=QBO_CALL,
)
def item_map(request: HttpRequest) -> Answer:
    return ok(services.item_map(), "Item map retrieved")


@router.put(
    "/item-map",
    response=Envelope[ItemMapRowOut],
    auth=CHANGE,
    operation_id="quickbooks_item_map_set",
    openapi_extra=QBO_CALL,
)
def set_item_map(request: HttpRequest, payload: ItemMapIn) -> Answer:
    services.map_item(kind=payload.kind, local_id=payload.local_id, qbo_item_id=payload.qbo_item_id)
    row = next(
        r for r in services.item_map() if r["kind"] == payload.kind and r["local_id"] == payload.local_id
    )
    return ok(row, "Item mapped" if payload.qbo_item_id else "Item unmapped")


@router.post(
    "/sync-selected-items", response=Envelope[JobOut], auth=CHANGE, operation_id="quickbooks_sync_items"
)
def sync_selected_items(request: HttpRequest, payload: SyncItemsIn) -> Answer:
    connection.require_connected()
    pairs = [[i.kind, i.local_id] for i in payload.items]
    return ok(tasks.queue(tasks.sync_items_job, items=pairs), "Item sync started")


@router.post(
    "/invoice/{int:invoice_id}/push",
    response=Message,
    auth=CHANGE,
    operation_id="quickbooks_invoice_push",
    openapi_extra=QBO_CALL,
)
def push_invoice(request: HttpRequest, invoice_id: int) -> Answer:
    services.push_invoice(invoice_id=invoice_id)
    return ok(None, "Posted to QuickBooks Online successfully")


@router.post(
    "/sync-payments", response=Envelope[JobOut], auth=CHANGE, operation_id="quickbooks_sync_payments"
)
def sync_payments(request: HttpRequest) -> Answer:
    connection.require_connected()
    return ok(tasks.queue(tasks.sync_payments_job), "Payment sync started")


@router.post(
    "/webhook", response=Message, auth=None, operation_id="quickbooks_webhook", openapi_extra=WEBHOOK
)
def webhook(request: HttpRequest) -> Answer:
    """Intuit's webhook (public): the `intuit-signature` HMAC of the raw body is checked first; the
    payments it names are read by a job of the company that connected the realm."""
    body = request.body
    if not services.signature_ok(body, request.headers.get("intuit-signature", "")):
        raise ApiError(401, "The webhook signature is not valid.")
    by_realm: dict[str, list[str]] = {}
    for realm_id, entity, entity_id in services.webhook_events(body):
        if entity.lower() == "payment" and realm_id:
            by_realm.setdefault(realm_id, []).append(entity_id)
    queued = 0
    for realm_id, ids in by_realm.items():
        tenant = connection.tenant_of_realm(realm_id)
        if tenant is None:
            continue  # not (or no longer) connected: nothing to do
        with schema_context(tenant.schema_name):
            # Kept as rows first (bounded batches resume after a worker restart), then one job.
            services.note_payment_lookups(ids)
            tasks.queue(tasks.lookup_payments_job)
        queued += 1
    return ok(None, f"Webhook accepted ({queued} compan{'y' if queued == 1 else 'ies'} to update)")


routes = [("/quickbook", router), ("/intuit", intuit_router)]
