"""What every QuickBooks write shares: the QboLink of a local row and its state, mirrored on the row."""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Callable
from typing import Any

from core.errors import ApiError
from django.utils import timezone

from tenants.quickbooks import client as qbo
from tenants.quickbooks.connection import NeedsReconnect
from tenants.quickbooks.models import QboConnection, QboLink

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


def _api_error(prefix: str, exc: qbo.QboError) -> ApiError:
    if isinstance(exc, NeedsReconnect):
        return ApiError(409, f"{prefix}: {exc.message}")
    status = 502 if exc.status in (0, 429) or exc.status >= 500 or exc.auth_failed else 422
    return ApiError(status, f"{prefix}: {exc.describe()}")
