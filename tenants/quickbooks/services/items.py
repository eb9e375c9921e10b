"""The item map: FuelDesk's products and fees matched to QBO items (suggested by name), their push, and the
tax codes."""

from __future__ import annotations

import uuid
from typing import Any

from core.errors import ApiError

from tenants.quickbooks import client as qbo
from tenants.quickbooks import selectors
from tenants.quickbooks.connection import NeedsReconnect, api, get_connection
from tenants.quickbooks.models import QboConnection
from tenants.quickbooks.services.links import (
    Kind,
    Progress,
    Sync,
    _api_error,
    _failed,
    _link,
    _mirror,
    _noop,
    _synced,
    _touch_connection,
    _update_with_retry,
)


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
