"""Reads of the QuickBooks integration: the connection as the screen shows it, the sync lists."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from tenants.quickbooks.models import QboConnection, QboLink

Kind = QboLink.Kind
SYNCED = QboLink.SyncState.SYNCED


def connection_row() -> QboConnection:
    from tenants.quickbooks.connection import get_connection

    return get_connection()


def excise_taxes() -> Any:
    """Taxes that post as item lines (per gallon or per document); percent taxes are sales tax."""
    from tenants.pricing.models import Tax

    return Tax.objects.filter(kind__in=[Tax.Kind.PER_UNIT, Tax.Kind.FIXED])


def _synced_ids(kind: str) -> Any:
    return QboLink.objects.filter(kind=kind, sync_state=SYNCED).exclude(qbo_id="").values("local_id")


def pending() -> dict[str, int]:
    from tenants.catalog.models import Product
    from tenants.invoicing.models import BILLED_STATUSES, Invoice
    from tenants.parties.models import Customer
    from tenants.pricing.models import Fee

    customers = Customer.objects.exclude(pk__in=_synced_ids(Kind.CUSTOMER)).count()
    mapped = QboLink.objects.exclude(qbo_id="")
    items = (
        Product.objects.exclude(pk__in=mapped.filter(kind=Kind.PRODUCT).values("local_id")).count()
        + Fee.objects.exclude(pk__in=mapped.filter(kind=Kind.FEE).values("local_id")).count()
        + excise_taxes().exclude(pk__in=mapped.filter(kind=Kind.TAX).values("local_id")).count()
    )
    invoices = (
        Invoice.objects.filter(status__in=BILLED_STATUSES)
        .filter(~Q(pk__in=_synced_ids(Kind.INVOICE)))
        .count()
    )
    return {"customers": customers, "items": items, "invoices": invoices}


def connection_out(conn: QboConnection | None = None) -> dict[str, Any]:
    conn = conn or connection_row()
    return {
        "state": conn.state,
        "realm_id": conn.realm_id,
        "company_name": conn.company_name,
        "connected_at": conn.connected_at,
        "last_sync_at": conn.last_sync_at,
        "last_error": conn.last_error,
        "pending": pending(),
        "tax_mode": "us" if company_country() == "US" else "codes",
        "sales_tax_code": conn.sales_tax_code,
        "exempt_tax_code": conn.exempt_tax_code,
    }


def company_country() -> str:
    """The country whose sales-tax rules the invoice lines follow: the company profile's state's
    country, else the connected QBO company's, else the US."""
    from tenants.company.models import CompanySettings

    company = CompanySettings.objects.select_related("state").first()
    if company is not None and company.state is not None and company.state.country:
        return str(company.state.country).upper()
    return (connection_row().country or "US").upper()


def link(kind: str, local_id: int) -> QboLink | None:
    return QboLink.objects.filter(kind=kind, local_id=local_id).first()


def links(kind: str, local_ids: list[int]) -> dict[int, QboLink]:
    return {lk.local_id: lk for lk in QboLink.objects.filter(kind=kind, local_id__in=local_ids)}


def customer_rows(*, page: int, size: int, search: str) -> tuple[list[dict[str, Any]], int]:
    from tenants.parties.models import Customer

    qs = Customer.objects.order_by("name", "id")
    if search.strip():
        qs = qs.filter(name__icontains=search.strip())
    total = qs.count()
    values = qs.values("id", "name", "external_id", "sync_state", "last_sync_error")
    customers: list[dict[str, Any]] = [dict(row) for row in values[(page - 1) * size : page * size]]
    found = links(Kind.CUSTOMER, [c["id"] for c in customers])
    for c in customers:
        lk = found.get(c["id"])
        if lk is not None:
            c["external_id"] = lk.qbo_id or c["external_id"]
            c["sync_state"] = lk.sync_state
            c["last_sync_error"] = lk.last_sync_error
    return customers, total


# --------------------------------------------------------------------------- onboarding (one or two reads)


def _connection_state() -> Any:
    return QboConnection.objects.filter(singleton=True).values("state", "company_name").first()


def onboarding_connected() -> Any:
    from tenants.onboarding.registry import StepState

    row = _connection_state()
    if row is None or row["state"] == QboConnection.State.DISCONNECTED:
        return StepState.todo()
    if row["state"] == QboConnection.State.RECONNECT:
        return StepState.attention("Reconnect: the authorization was revoked or expired")
    return StepState.done(row["company_name"])


def onboarding_items() -> Any:
    from tenants.catalog.models import Product
    from tenants.onboarding.registry import StepState
    from tenants.pricing.models import Fee

    row = _connection_state()
    if row is None or row["state"] != QboConnection.State.CONNECTED:
        return StepState.todo("Connect QuickBooks Online first", link="/quickbook-online")
    mapped = QboLink.objects.exclude(qbo_id="")
    left = (
        Product.objects.exclude(pk__in=mapped.filter(kind=Kind.PRODUCT).values("local_id"))
        .values_list("id")
        .union(
            Fee.objects.exclude(pk__in=mapped.filter(kind=Kind.FEE).values("local_id")).values_list("id"),
            excise_taxes().exclude(pk__in=mapped.filter(kind=Kind.TAX).values("local_id")).values_list("id"),
            all=True,
        )
        .count()
    )
    if left:
        return StepState.todo(f"{left} item{'s' if left != 1 else ''} still to map")
    return StepState.done()
