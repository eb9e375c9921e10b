"""Writes of the QuickBooks integration: customers both ways, the item map, the invoice push and
payments back. Each QBO record FuelDesk made or matched has a QboLink (its Id, SyncToken, the
requestid of a create in flight, and the last sync's state and error); customers, products and
invoices also show the id and state on their own row (``external_id``, ``sync_state``,
``last_sync_error``). docs/quickbooks.md explains the rules.

One module a concern (links: the state every write shares; customers; items; invoices; payments;
webhooks); the app's API and actors import them from here."""

from tenants.quickbooks.services.customers import ensure_customer, import_customers, sync_customers
from tenants.quickbooks.services.invoices import invoice_payload, push_invoice
from tenants.quickbooks.services.items import (
    item_map,
    map_item,
    qbo_items,
    qbo_tax_codes,
    set_tax_codes,
    sync_items,
)
from tenants.quickbooks.services.links import SERVICE
from tenants.quickbooks.services.payments import (
    note_payment_lookups,
    record_qbo_payment,
    run_payment_lookups,
    sync_payments,
)
from tenants.quickbooks.services.webhooks import signature_ok, webhook_events

__all__ = [
    "SERVICE",
    "ensure_customer",
    "import_customers",
    "invoice_payload",
    "item_map",
    "map_item",
    "note_payment_lookups",
    "push_invoice",
    "qbo_items",
    "qbo_tax_codes",
    "record_qbo_payment",
    "run_payment_lookups",
    "set_tax_codes",
    "signature_ok",
    "sync_customers",
    "sync_items",
    "sync_payments",
    "webhook_events",
]
