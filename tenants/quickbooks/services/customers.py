"""QuickBooks customers both ways: push FuelDesk's (sparse updates, matched by name), import QBO's."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from core.errors import ApiError
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from tenants.quickbooks import client as qbo
from tenants.quickbooks import selectors
from tenants.quickbooks.connection import NeedsReconnect, api
from tenants.quickbooks.models import QboLink
from tenants.quickbooks.services.links import (
    SERVICE,
    Kind,
    Progress,
    Sync,
    _failed,
    _link,
    _noop,
    _synced,
    _touch_connection,
    _update_with_retry,
)

log = logging.getLogger(__name__)


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
