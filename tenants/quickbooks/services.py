"""Writes of the QuickBooks integration: customers both ways, the item map, the invoice push and
payments back. Each QBO record FuelDesk made or matched has a QboLink (its Id, SyncToken, the
requestid of a create in flight, and the last sync's state and error); customers, products and
invoices also show the id and state on their own row (``external_id``, ``sync_state``,
``last_sync_error``). docs/quickbooks.md explains the rules."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import json
import logging
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from core import ratelimit
from core.errors import ApiError
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import connection, transaction
from django.utils import timezone

from tenants.quickbooks import client as qbo
from tenants.quickbooks import selectors
from tenants.quickbooks.connection import NeedsReconnect, api, get_connection
from tenants.quickbooks.models import QboConnection, QboLink, QboPaymentLookup

log = logging.getLogger(__name__)
Kind = QboLink.Kind
Sync = QboLink.SyncState
SERVICE = "QuickBooks Online"
Progress = Callable[[], None]


def _noop() -> None:
    pass


def _now() -> dt.datetime:
    return timezone.now()


def _link(kind: str, local_id: int) -> QboLink:
    link, _ = QboLink.objects.get_or_create(kind=kind, local_id=local_id)
    return link


def _mirror(kind: str, local_id: int, link: QboLink) -> None:
    """Show the link's state on the local row (customers, products and invoices have the columns)."""
    from tenants.catalog.models import Product
    from tenants.invoicing.models import Invoice
    from tenants.parties.models import Customer

    model: Any = {Kind.CUSTOMER: Customer, Kind.PRODUCT: Product, Kind.INVOICE: Invoice}.get(kind)  # type: ignore[call-overload]
    if model is None:
        return
    state = link.sync_state if link.sync_state != Sync.CONFLICT else Sync.FAILED
    model.objects.filter(pk=local_id).update(
        external_id=link.qbo_id, sync_state=state, last_sync_error=link.last_sync_error[:5000]
    )


def _synced(link: QboLink, record: dict[str, Any]) -> None:
    link.qbo_id = str(record["Id"])
    link.sync_token = str(record.get("SyncToken", ""))
    link.qbo_name = str(record.get("DisplayName") or record.get("Name") or record.get("DocNumber") or "")[
        :200
    ]
    link.request_id = ""
    link.sync_state = Sync.SYNCED
    link.last_sync_error = ""
    link.synced_at = _now()
    link.save()
    _mirror(link.kind, link.local_id, link)


def _failed(link: QboLink, message: str, state: str = Sync.FAILED) -> None:
    link.sync_state = state
    link.last_sync_error = message[:5000]
    link.save(update_fields=["sync_state", "last_sync_error", "updated_at"])
    _mirror(link.kind, link.local_id, link)


def _touch_connection(error: str = "") -> None:
    QboConnection.objects.filter(singleton=True).update(last_sync_at=_now(), updated_at=_now())


# --------------------------------------------------------------------------- customers


def _customer_payload(customer: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "DisplayName": customer.name[:500],
        "CompanyName": customer.name[:100],
        "Active": customer.status != "inactive",
    }
    if customer.email:
        data["PrimaryEmailAddr"] = {"Address": customer.email}
    if customer.phone:
        data["PrimaryPhone"] = {"FreeFormNumber": customer.phone[:30]}
    address = {
        "Line1": customer.address_one,
        "Line2": customer.address_two,
        "City": customer.city.name if customer.city_id else "",
        "CountrySubDivisionCode": customer.state.code if customer.state_id else "",
        "PostalCode": customer.zip_code,
    }
    if any(address.values()):
        data["BillAddr"] = {k: v for k, v in address.items() if v}
    return data


def _names(client: qbo.QboClient, entity: str) -> dict[str, dict[str, Any]]:
    """Every record of ``entity``, inactive ones included, by case-folded DisplayName."""
    rows = client.query_all(entity, "Active IN (true, false)")
    return {str(r.get("DisplayName", "")).strip().casefold(): r for r in rows}


def sync_customers(*, customer_ids: list[int] | None, progress: Progress = _noop) -> dict[str, int]:
    """Push customers to QBO: a linked one is updated (sparse: only the fields FuelDesk owns); an
    unlinked one is matched by DisplayName first (inactive QBO customers included: a match is linked,
    and made active again when the FuelDesk customer is active), and created only when none matches."""
    from tenants.parties.models import Customer

    client = api()
    qs = Customer.objects.select_related("city", "state").order_by("id")
    if customer_ids is not None:
        qs = qs.filter(pk__in=customer_ids)
    existing = _names(client, "Customer")
    counts = {"created": 0, "matched": 0, "updated": 0, "failed": 0, "unchanged": 0}
    for n, customer in enumerate(qs.iterator(chunk_size=200)):
        if n % 20 == 0:
            progress()
        outcome = _sync_customer(client, customer, existing)
        counts[outcome] += 1
    _touch_connection()
    return counts


def _sync_customer(client: qbo.QboClient, customer: Any, existing: dict[str, dict[str, Any]]) -> str:
    link = _link(Kind.CUSTOMER, customer.pk)
    data = _customer_payload(customer)
    try:
        if link.qbo_id:
            if link.sync_state == Sync.SYNCED and link.synced_at and customer.updated_at <= link.synced_at:
                return "unchanged"
            record = _update_with_retry(client, "Customer", link, data)
            _synced(link, record)
            return "updated"
        match = existing.get(customer.name.strip().casefold())
        if match is None:
            if not link.request_id:
                link.request_id = uuid.uuid4().hex
                link.save(update_fields=["request_id", "updated_at"])
            try:
                record = client.create("Customer", data, requestid=link.request_id)
            except qbo.QboError as exc:
                if exc.code != "6240":
                    raise
                # The name is taken: by a customer made meanwhile (link it) or a vendor/employee.
                found = client.find("Customer", "DisplayName", customer.name.strip(), inactive=True)
                if not found:
                    _failed(
                        link,
                        f"{exc.describe()}. The name '{customer.name}' is used by a QuickBooks vendor or "
                        "employee: rename one of them.",
                    )
                    return "failed"
                match = found[0]
            else:
                existing[customer.name.strip().casefold()] = record
                _synced(link, record)
                return "created"
        if QboLink.objects.filter(kind=Kind.CUSTOMER, qbo_id=str(match["Id"])).exclude(pk=link.pk).exists():
            _failed(
                link, f"The QuickBooks customer '{match.get('DisplayName')}' is linked to another customer."
            )
            return "failed"
        link.qbo_id, link.sync_token = str(match["Id"]), str(match.get("SyncToken", ""))
        if match.get("Active") is False and data["Active"]:
            record = _update_with_retry(client, "Customer", link, {"Active": True})
        else:
            record = match
        _synced(link, record)
        return "matched"
    except NeedsReconnect:
        raise
    except qbo.QboError as exc:
        if exc.retryable:
            raise
        _failed(link, exc.describe())
        return "failed"


def _update_with_retry(
    client: qbo.QboClient, entity: str, link: QboLink, data: dict[str, Any]
) -> dict[str, Any]:
    """A sparse update with the link's SyncToken; a stale token (5010: someone edited it in QBO)
    re-reads the record and tries once more with the fresh token."""
    try:
        return client.sparse_update(entity, link.qbo_id, link.sync_token, data, requestid=uuid.uuid4().hex)
    except qbo.QboError as exc:
        if exc.code != "5010":
            raise
    fresh = client.read(entity, link.qbo_id)
    link.sync_token = str(fresh.get("SyncToken", ""))
    return client.sparse_update(entity, link.qbo_id, link.sync_token, data, requestid=uuid.uuid4().hex)


def import_customers(*, progress: Progress = _noop) -> dict[str, int]:
    """Pull QBO's active customers into FuelDesk: each is linked to the FuelDesk customer of the same
    name, or created; one already linked is left alone. Never a duplicate."""
    from tenants.parties.models import Customer
    from tenants.parties.services import create_customer

    client = api()
    rows = client.query_all("Customer")
    linked = set(
        QboLink.objects.filter(kind=Kind.CUSTOMER).exclude(qbo_id="").values_list("qbo_id", flat=True)
    )
    counts = {"created": 0, "matched": 0, "skipped": 0, "failed": 0}
    for n, row in enumerate(rows):
        if n % 20 == 0:
            progress()
        qbo_id = str(row["Id"])
        if qbo_id in linked:
            counts["skipped"] += 1
            continue
        name = str(row.get("DisplayName") or "").strip()[:200]
        if not name:
            counts["skipped"] += 1
            continue
        with transaction.atomic():
            local = Customer.objects.filter(name__iexact=name).order_by("id").first()
            if local is not None:
                if QboLink.objects.filter(kind=Kind.CUSTOMER, local_id=local.pk).exclude(qbo_id="").exists():
                    counts["skipped"] += 1
                    continue
                counts["matched"] += 1
            else:
                email = str((row.get("PrimaryEmailAddr") or {}).get("Address") or "").strip()[:254]
                try:
                    validate_email(email)
                except ValidationError:
                    email = ""  # QBO does not check addresses; FuelDesk does
                phone = str((row.get("PrimaryPhone") or {}).get("FreeFormNumber") or "")[:40]
                try:
                    local = create_customer({"name": name, "email": email, "phone": phone})
                except ApiError as exc:
                    log.warning("QBO customer %s not imported: %s", qbo_id, exc)
                    counts["failed"] += 1
                    continue
                counts["created"] += 1
            link = _link(Kind.CUSTOMER, local.pk)
            _synced(link, row)
            linked.add(qbo_id)
    _touch_connection()
    return counts


def ensure_customer(client: qbo.QboClient, customer: Any) -> QboLink:
    link = selectors.link(Kind.CUSTOMER, customer.pk)
    if link is None or not link.qbo_id:
        _sync_customer(client, customer, _names(client, "Customer"))
        link = selectors.link(Kind.CUSTOMER, customer.pk)
    if link is None or not link.qbo_id:
        raise ApiError(
            409,
            f"Failed to post to {SERVICE}: the customer {customer.name} could not be synced"
            + (f" ({link.last_sync_error})" if link and link.last_sync_error else "")
            + ".",
        )
    return link


# --------------------------------------------------------------------------- items


def qbo_tax_codes() -> list[dict[str, Any]]:
    """The connected company's QBO tax codes (what non-US invoice lines name)."""
    try:
        rows = api().query_all("TaxCode", "Active IN (true, false)")
    except qbo.QboError as exc:
        raise _api_error("Failed to read the tax codes of QuickBooks Online", exc) from exc
    return [
        {"id": str(r["Id"]), "name": str(r.get("Name", "")), "active": bool(r.get("Active", True))}
        for r in sorted(rows, key=lambda r: str(r.get("Name", "")).casefold())
    ]


def set_tax_codes(*, sales_tax_code: str, exempt_tax_code: str) -> QboConnection:
    """Keep the two tax codes non-US invoice lines post with; each must be an active QBO tax code."""
    known = {c["id"]: c for c in qbo_tax_codes() if c["active"]}
    for label, code in (("sales_tax_code", sales_tax_code), ("exempt_tax_code", exempt_tax_code)):
        if code not in known:
            raise ApiError(422, f"{label}: {code!r} is not an active tax code of the QuickBooks company.")
    conn = get_connection()
    conn.sales_tax_code, conn.exempt_tax_code = sales_tax_code, exempt_tax_code
    conn.save(update_fields=["sales_tax_code", "exempt_tax_code", "updated_at"])
    return conn


def qbo_items() -> list[dict[str, Any]]:
    try:
        rows = api().query_all("Item", "Active IN (true, false)")
    except qbo.QboError as exc:
        raise _api_error("Failed to read the items of QuickBooks Online", exc) from exc
    return [
        {
            "id": str(r["Id"]),
            "name": str(r.get("Name", "")),
            "type": str(r.get("Type", "")),
            "active": bool(r.get("Active", True)),
        }
        for r in sorted(rows, key=lambda r: str(r.get("Name", "")).casefold())
    ]


def _locals(kind: str) -> Any:
    from tenants.catalog.models import Product
    from tenants.pricing.models import Fee

    if kind == Kind.PRODUCT:
        return Product.objects.order_by("name", "id")
    if kind == Kind.FEE:
        return Fee.objects.order_by("name", "id")
    return selectors.excise_taxes().order_by("name", "id")


def _suggest(name: str, items: list[dict[str, Any]]) -> dict[str, str] | None:
    key = name.strip().casefold()
    active = [i for i in items if i["active"]]
    for test in (lambda i: i["name"].casefold() == key, lambda i: key and key in i["name"].casefold()):
        for item in active:
            if test(item):
                return {"id": item["id"], "name": item["name"]}
    return None


def item_map() -> list[dict[str, Any]]:
    """Every product, fee and excise tax with its mapping. Before QuickBooks is connected (or while it
    needs reconnecting) the rows are still listed, without QuickBooks' items or suggestions: the page
    counts what is to map and says to connect, instead of failing."""
    connected = get_connection().state == QboConnection.State.CONNECTED
    items = qbo_items() if connected else []
    by_id = {i["id"]: i for i in items}
    rows = []
    for kind in (Kind.PRODUCT, Kind.FEE, Kind.TAX):
        objects = list(_locals(kind))
        found = selectors.links(kind, [o.pk for o in objects])
        for obj in objects:
            link = found.get(obj.pk)
            mapped = by_id.get(link.qbo_id) if link and link.qbo_id else None
            rows.append(
                {
                    "kind": str(kind),
                    "local_id": obj.pk,
                    "local_name": obj.name,
                    "qbo_item_id": link.qbo_id if link and link.qbo_id else None,
                    "qbo_item_name": (mapped["name"] if mapped else link.qbo_name)
                    if link and link.qbo_id
                    else None,
                    "suggestion": None if link and link.qbo_id else _suggest(obj.name, items),
                    "sync_state": link.sync_state if link else Sync.NOT_SYNCED,
                    "last_sync_error": link.last_sync_error if link else "",
                }
            )
    return rows


def _local(kind: str, local_id: int) -> Any:
    obj = _locals(kind).filter(pk=local_id).first()
    if obj is None:
        raise ApiError(404, f"{kind.capitalize()} {local_id} not found")
    return obj


def map_item(*, kind: str, local_id: int, qbo_item_id: str | None) -> dict[str, Any]:
    obj = _local(kind, local_id)
    link = _link(kind, obj.pk)
    if not qbo_item_id:
        link.qbo_id = link.qbo_name = link.sync_token = ""
        link.sync_state, link.last_sync_error = Sync.NOT_SYNCED, ""
        link.save()
        _mirror(kind, obj.pk, link)
        return {"kind": kind, "local_id": obj.pk, "qbo_item_id": None}
    try:
        record = api().read("Item", qbo_item_id.strip())
    except qbo.QboError as exc:
        if exc.code in ("610", "4000") or exc.status == 404:
            raise ApiError(422, f"qbo_item_id: QuickBooks has no item {qbo_item_id}.") from exc
        raise _api_error("Failed to read the item from QuickBooks Online", exc) from exc
    _synced(link, record)
    return {"kind": kind, "local_id": obj.pk, "qbo_item_id": link.qbo_id}


def _income_account(client: qbo.QboClient) -> str:
    found = client.query("SELECT * FROM Account WHERE AccountType = 'Income' MAXRESULTS 1").get("Account")
    if not found:
        raise qbo.QboError(status=400, code="", message="QuickBooks has no income account for new items")
    return str(found[0]["Id"])


def sync_items(*, items: list[tuple[str, int]], progress: Progress = _noop) -> dict[str, int]:
    """Map each selected product, fee or excise tax: to the QBO item of the same name when there is
    one (inactive ones included), else to a new QBO item (Service; NonInventory for products)."""
    client = api()
    every = client.query_all("Item", "Active IN (true, false)")
    by_name = {str(i.get("Name", "")).strip().casefold(): i for i in every}
    account = ""
    counts = {"created": 0, "matched": 0, "skipped": 0, "failed": 0}
    for n, (kind, local_id) in enumerate(items):
        if n % 20 == 0:
            progress()
        obj = _locals(kind).filter(pk=local_id).first()
        if obj is None:
            counts["skipped"] += 1
            continue
        link = _link(kind, obj.pk)
        if link.qbo_id:
            counts["skipped"] += 1
            continue
        name = obj.name.strip()[:100]
        match = by_name.get(name.casefold())
        try:
            if match is not None:
                if match.get("Active") is False:
                    link.qbo_id, link.sync_token = str(match["Id"]), str(match.get("SyncToken", ""))
                    match = _update_with_retry(client, "Item", link, {"Active": True, "Name": match["Name"]})
                _synced(link, match)
                counts["matched"] += 1
                continue
            account = account or _income_account(client)
            if not link.request_id:
                link.request_id = uuid.uuid4().hex
                link.save(update_fields=["request_id", "updated_at"])
            data = {
                "Name": name,
                "Type": "NonInventory" if kind == Kind.PRODUCT else "Service",
                "IncomeAccountRef": {"value": account},
                "Description": str(getattr(obj, "description", "") or name)[:4000],
            }
            record = client.create("Item", data, requestid=link.request_id)
            by_name[name.casefold()] = record
            _synced(link, record)
            counts["created"] += 1
        except NeedsReconnect:
            raise
        except qbo.QboError as exc:
            if exc.retryable:
                raise
            _failed(link, exc.describe())
            counts["failed"] += 1
    _touch_connection()
    return counts


# --------------------------------------------------------------------------- invoices


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


def _api_error(prefix: str, exc: qbo.QboError) -> ApiError:
    if isinstance(exc, NeedsReconnect):
        return ApiError(409, f"{prefix}: {exc.message}")
    status = 502 if exc.status in (0, 429) or exc.status >= 500 or exc.auth_failed else 422
    return ApiError(status, f"{prefix}: {exc.describe()}")


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


# --------------------------------------------------------------------------- payments back


def _iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def sync_payments(*, payment_ids: list[str] | None = None, progress: Progress = _noop) -> dict[str, int]:
    """Payments recorded in QBO against invoices FuelDesk pushed become FuelDesk payments that settle
    them, once each (keyed by the QBO payment Id). ``payment_ids`` None: change data capture since
    the last run; else those payments (a webhook named them)."""
    client = api()
    started = _now()
    if payment_ids is None:
        conn = get_connection()
        since = conn.cdc_since or (started - dt.timedelta(days=29))
        # A minute of overlap: a payment saved while the last run read is read again (and skipped).
        found = client.cdc(["Payment"], _iso(since - dt.timedelta(minutes=1))).get("Payment", [])
    else:
        found = []
        for pid in payment_ids:
            try:
                found.append(client.read("Payment", pid))
            except qbo.QboError as exc:
                if exc.code != "610":
                    raise
    counts = {"recorded": 0, "skipped": 0}
    for n, payment in enumerate(found):
        if n % 20 == 0:
            progress()
        counts["recorded" if record_qbo_payment(payment) else "skipped"] += 1
    updates: dict[str, Any] = {"last_sync_at": _now(), "updated_at": _now()}
    if payment_ids is None:
        updates["cdc_since"] = started
    QboConnection.objects.filter(singleton=True).update(**updates)
    return counts


# A webhook's payments are read LOOKUP_BATCH at a time, at most BATCHES_PER_JOB batches per job
# message; the job then queues its successor. Each payment's outcome commits with its recording.
LOOKUP_BATCH = 100
BATCHES_PER_JOB = 10
_LOOKUP_WRITE_CHUNK = 1000
Lookup = QboPaymentLookup.State


def note_payment_lookups(payment_ids: list[str]) -> int:
    """Keep the payment ids a webhook named as lookups to do (each id once, in the webhook's order);
    one named again after it was skipped or missing is looked up again. Answers how many wait."""
    ids = list(dict.fromkeys(str(i) for i in payment_ids if i))
    for start in range(0, len(ids), _LOOKUP_WRITE_CHUNK):
        chunk = ids[start : start + _LOOKUP_WRITE_CHUNK]
        QboPaymentLookup.objects.bulk_create(
            [QboPaymentLookup(qbo_id=i) for i in chunk], ignore_conflicts=True, batch_size=_LOOKUP_WRITE_CHUNK
        )
        QboPaymentLookup.objects.filter(qbo_id__in=chunk, state__in=[Lookup.SKIPPED, Lookup.MISSING]).update(
            state=Lookup.PENDING, updated_at=_now()
        )
    return QboPaymentLookup.objects.filter(state=Lookup.PENDING).count()


def run_payment_lookups(
    *, batches: int | None = None, progress: Progress = _noop
) -> tuple[dict[str, int], bool]:
    """Read and record the pending payments a webhook named, ``LOOKUP_BATCH`` at a time and at most
    ``batches`` batches (BATCHES_PER_JOB). Each payment is read under its row's lock (another worker
    skips it) and its state commits with the FuelDesk payment it made, so a worker killed half-way
    leaves every finished payment finished and the interrupted one pending: the next run resumes
    there, and records nothing twice. Answers the counts and whether payments are still pending."""
    client = api()
    counts = {"recorded": 0, "skipped": 0, "missing": 0}
    for _ in range(BATCHES_PER_JOB if batches is None else batches):
        ids = list(
            QboPaymentLookup.objects.filter(state=Lookup.PENDING)
            .order_by("id")
            .values_list("id", flat=True)[:LOOKUP_BATCH]
        )
        if not ids:
            break
        for pk in ids:
            with transaction.atomic():
                row = (
                    QboPaymentLookup.objects.select_for_update(skip_locked=True)
                    .filter(pk=pk, state=Lookup.PENDING)
                    .first()
                )
                if row is None:
                    continue  # another worker holds it, or finished it
                try:
                    payment: dict[str, Any] | None = client.read("Payment", row.qbo_id)
                except qbo.QboError as exc:
                    if exc.code != "610":
                        raise  # this payment stays pending; the job fails with QBO's reason
                    payment = None
                if payment is None:
                    row.state = Lookup.MISSING
                else:
                    row.state = Lookup.RECORDED if record_qbo_payment(payment) else Lookup.SKIPPED
                row.save(update_fields=["state", "updated_at"])
            counts[str(row.state)] += 1
        progress()
    QboConnection.objects.filter(singleton=True).update(last_sync_at=_now(), updated_at=_now())
    return counts, QboPaymentLookup.objects.filter(state=Lookup.PENDING).exists()


def record_qbo_payment(payment: dict[str, Any]) -> bool:
    """One QBO payment as a FuelDesk payment (True), or nothing (False: seen before, deleted, or
    about no invoice FuelDesk pushed). Serialized per company by the connection row's lock."""
    from tenants.invoicing.models import Invoice
    from tenants.invoicing.services import AllocationRequest, record_payment

    qbo_id = str(payment.get("Id") or "")
    if not qbo_id or payment.get("status") == "Deleted":
        return False
    with transaction.atomic():
        QboConnection.objects.select_for_update().filter(singleton=True).first()
        if QboLink.objects.filter(kind=Kind.PAYMENT, qbo_id=qbo_id).exists():
            return False
        wanted: dict[str, Decimal] = {}
        for line in payment.get("Line") or []:
            for txn in line.get("LinkedTxn") or []:
                if txn.get("TxnType") == "Invoice" and txn.get("TxnId"):
                    tid = str(txn["TxnId"])
                    wanted[tid] = wanted.get(tid, Decimal("0")) + Decimal(str(line.get("Amount") or 0))
        links = {
            lk.qbo_id: lk.local_id
            for lk in QboLink.objects.filter(kind=Kind.INVOICE, qbo_id__in=list(wanted))
        }
        invoices = Invoice.objects.in_bulk(list(links.values()))
        allocations: list[AllocationRequest] = []
        customer_id = None
        for tid, amount in wanted.items():
            invoice = invoices.get(links.get(tid, 0))
            if invoice is None or invoice.balance <= 0 or amount <= 0:
                continue
            if customer_id is not None and invoice.customer_id != customer_id:
                continue
            customer_id = invoice.customer_id
            allocations.append(AllocationRequest(invoice_id=invoice.pk, amount=min(amount, invoice.balance)))
        if customer_id is None or not allocations:
            return False
        total = sum((a.amount for a in allocations), Decimal("0"))
        try:
            paid_on = dt.date.fromisoformat(str(payment.get("TxnDate") or ""))
        except ValueError:
            paid_on = timezone.localdate()
        local = record_payment(
            customer_id=customer_id,
            payment_date=paid_on,
            amount=total,
            payment_method_id=None,
            reference=f"QBO payment {qbo_id}"[:100],
            notes=f"Recorded in {SERVICE}"
            + (f" (ref {payment['PaymentRefNum']})" if payment.get("PaymentRefNum") else ""),
            allocations=allocations,
        )
        QboLink.objects.create(
            kind=Kind.PAYMENT,
            local_id=local.pk,
            qbo_id=qbo_id,
            sync_token=str(payment.get("SyncToken", "")),
            sync_state=Sync.SYNCED,
            synced_at=_now(),
        )
    return True


# --------------------------------------------------------------------------- webhooks


def signature_ok(body: bytes, signature: str) -> bool:
    """Intuit signs the raw body: base64(HMAC-SHA256(verifier token, body)); compared in constant time."""
    token = settings.QBO_WEBHOOK_VERIFIER_TOKEN
    if not token or not signature:
        return False
    expected = base64.b64encode(hmac.new(token.encode(), body, hashlib.sha256).digest()).decode()
    return hmac.compare_digest(expected.encode(), signature.strip().encode())


def webhook_events(body: bytes) -> list[tuple[str, str, str]]:
    """(realmId, entity, id) of each change, from the legacy ``eventNotifications`` payload or the
    CloudEvents one (an array of events typed ``qbo.<entity>.<operation>.v1``)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "The webhook body is not JSON.") from exc
    events: list[tuple[str, str, str]] = []
    if isinstance(data, dict) and isinstance(data.get("eventNotifications"), list):
        for note in data["eventNotifications"]:
            if not isinstance(note, dict):
                continue
            realm = str(note.get("realmId") or "")
            change = note.get("dataChangeEvent")
            entities = change.get("entities") if isinstance(change, dict) else None
            for e in entities if isinstance(entities, list) else []:
                if isinstance(e, dict) and e.get("name") and e.get("id"):
                    events.append((realm, str(e["name"]), str(e["id"])))
        return events
    items = data if isinstance(data, list) else [data]
    for ev in items:
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            raise ApiError(
                400, "The webhook body is neither an eventNotifications nor a CloudEvents payload."
            )
        parts = ev["type"].split(".")
        if len(parts) >= 3 and parts[0] == "qbo" and ev.get("intuitentityid"):
            events.append(
                (str(ev.get("intuitaccountid") or ""), parts[1].capitalize(), str(ev["intuitentityid"]))
            )
    return events
