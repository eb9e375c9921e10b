"""Writes of the driver portal: a batch of queued phone actions, each applied at most once.

Every action runs in its own transaction under the order's row lock:

1. its `client_action_id` already has a row → that stored outcome is answered (`replayed`), nothing
   changes (a phone that lost the answer sends the batch again);
2. the order is checked against what the driver saw (conflict rules below); a conflict is stored,
   written as a note on the order for the office, and answered — never applied;
3. otherwise the move is made (start: the sales workflow; a delivery: tenants.delivery's
   `record_delivery`, which fills the ticket with net volume and ends the delivery)
   and the outcome stored with the same id (unique), in the same transaction.

Conflict rules (docs/driver.md): the order was deleted, cancelled, unassigned or given to another
driver; it is already delivered (by the office or another phone); or the office changed it (lines,
quantities, tank, address, truck, driver or day: `selectors.order_version`) after the driver loaded
it. Bad input (a line not on the order, a file not uploaded by this company) is `rejected`.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from core.errors import ApiError
from core.storage import StoredFile, save_upload, sniff
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from ninja.files import UploadedFile
from pydantic import ValidationError

from tenants.delivery import services as delivery_services
from tenants.driver.models import DriverAction
from tenants.driver.schemas import DriverActionIn, DriverRecordPayload
from tenants.driver.selectors import DONE_STATUSES, order_version
from tenants.fleet.models import Driver
from tenants.sales import services as sales_services
from tenants.sales.models import Note, SalesOrder

log = logging.getLogger(__name__)
S = SalesOrder.Status
APPLIED, CONFLICT, REJECTED = (
    DriverAction.Outcome.APPLIED,
    DriverAction.Outcome.CONFLICT,
    DriverAction.Outcome.REJECTED,
)


class _Conflict(Exception):
    pass


class _Rejected(Exception):
    pass


PROOF_KINDS = ("signature", "photo")


PROOF_TYPES = ("image/png", "image/jpeg")


def save_proof(upload: UploadedFile, *, kind: str) -> StoredFile:
    """A signature or photo of a delivery, stored as the delivery tickets' upload purpose of that
    name (`signature`, `photo`) under the tenant's prefix. The phone sends PNG or JPEG only: the
    content is sniffed (never the name or the declared type) before anything is stored."""
    if kind not in PROOF_KINDS:
        raise ApiError(422, "kind: must be signature or photo.")
    head = upload.read(settings.FILE_UPLOAD_MAX_BYTES + 1)
    upload.seek(0)
    if sniff(head, upload.name or "") not in PROOF_TYPES:
        raise ApiError(415, f"The {kind} must be a PNG or JPEG image.")
    return save_upload(upload, kind)


def apply_actions(actions: list[DriverActionIn], *, driver: Driver, by: Any) -> list[dict[str, Any]]:
    """Apply the batch in the order sent (the phone's queue order); one result per action."""
    return [_apply_one(action, driver=driver, by=by) for action in actions]


def _result(row: DriverAction, *, replayed: bool) -> dict[str, Any]:
    order = row.sales_order
    return {
        "client_action_id": row.client_action_id,
        "kind": row.kind,
        "order_id": row.order_ref,
        "outcome": row.outcome,
        "reason": row.reason,
        "replayed": replayed,
        "order_status": order.status if order else None,
        "order_number": order.number if order else None,
        "received_at": row.received_at,
    }


def _apply_one(action: DriverActionIn, *, driver: Driver, by: Any) -> dict[str, Any]:
    try:
        with transaction.atomic():
            return _apply_locked(action, driver=driver, by=by)
    except IntegrityError:
        # Another request stored this id between our check and our insert: answer what it stored.
        row = DriverAction.objects.select_related("sales_order").get(client_action_id=action.client_action_id)
        return _result(row, replayed=True)


def _apply_locked(action: DriverActionIn, *, driver: Driver, by: Any) -> dict[str, Any]:
    def stored() -> DriverAction | None:
        return (
            DriverAction.objects.select_related("sales_order")
            .filter(client_action_id=action.client_action_id)
            .first()
        )

    row = stored()
    if row is None:
        order = SalesOrder.objects.select_for_update().filter(pk=action.order_id).first()
        row = stored()  # a concurrent request with the same id may have finished while we waited
        if row is None:
            return _result(_decide(action, order, driver=driver, by=by), replayed=False)
    if row.user_id != getattr(by, "pk", None):
        raise ApiError(409, f"client_action_id {action.client_action_id} was sent by another user.")
    return _result(row, replayed=True)


def _decide(action: DriverActionIn, order: SalesOrder | None, *, driver: Driver, by: Any) -> DriverAction:
    row = DriverAction(
        client_action_id=action.client_action_id,
        kind=action.kind,
        order_ref=action.order_id,
        sales_order=order,
        driver=driver,
        user=by,
        seen_version=action.order_version,
        payload=action.payload,
        taken_at=action.taken_at,
    )
    try:
        with transaction.atomic():  # a refused move rolls back its half-done writes, not the record
            _check(action, order, driver)
            assert order is not None
            row.result = _perform(action, order, by=by)
            order.refresh_from_db()
        row.outcome = APPLIED
    except _Conflict as exc:
        row.outcome, row.reason = CONFLICT, str(exc)
    except _Rejected as exc:
        row.outcome, row.reason = REJECTED, str(exc)
    except ApiError as exc:
        # The workflow refused (a 409: the order moved on) or the input was wrong (4xx).
        row.outcome = CONFLICT if exc.status_code == 409 else REJECTED
        row.reason = str(exc)
    row.save()
    if row.outcome == CONFLICT and order is not None:
        _tell_office(row, order, driver, by)
    return row


def _check(action: DriverActionIn, order: SalesOrder | None, driver: Driver) -> None:
    if order is None:
        raise _Conflict("The order no longer exists (the office deleted it).")
    if order.status == S.CANCELLED or (order.status == S.ARCHIVE and order.delivered_at is None):
        raise _Conflict(f"The office cancelled order {order.number}.")
    if order.driver_id != driver.pk:
        if order.status in DONE_STATUSES:
            raise _Conflict(f"Order {order.number} is already delivered (by someone else).")
        raise _Conflict(
            f"Order {order.number} is no longer assigned to you"
            + (
                " (the office gave it to another driver)."
                if order.driver_id
                else " (the office unassigned it)."
            )
        )
    if order.status in DONE_STATUSES:
        raise _Conflict(f"Order {order.number} is already delivered ({_when(order.delivered_at)}).")
    if order.status not in (S.ASSIGNED, S.IN_DELIVERY):
        raise _Conflict(
            f"Order {order.number} is {order.status.replace('_', ' ')}: it cannot be delivered now."
        )
    if action.order_version and action.order_version != order_version(order):
        raise _Conflict(
            f"The office changed order {order.number} after you loaded it (lines, tank, address, truck or "
            "day): reload today's orders and enter the delivery again."
        )
    if not action.order_version and action.kind == DriverAction.Kind.RECORD_DELIVERY:
        raise _Rejected("order_version: send the version of the order you delivered against.")


def _when(at: dt.datetime | None) -> str:
    return timezone.localtime(at).strftime("%Y-%m-%d %H:%M") if at else "time unknown"


def _perform(action: DriverActionIn, order: SalesOrder, *, by: Any) -> dict[str, Any]:
    from tenants.sales import workflow

    taken = action.taken_at or timezone.now()
    if action.kind == DriverAction.Kind.START_DELIVERY:
        if order.status == S.IN_DELIVERY:
            return {"note": "already started"}
        workflow.start_delivery(order, start=taken, by=by)
        return {"started_at": taken.isoformat()}
    try:
        data = DriverRecordPayload.model_validate(action.payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise _Rejected(f"payload.{where}: {first.get('msg', 'invalid')}") from exc
    delivered_at = data.delivered_at or taken
    tickets = delivery_services.record_delivery(
        order=order,
        lines=[
            {
                "line_item_id": ln.line_item_id,
                "delivered_quantity": ln.delivered_quantity,
                "gross_volume": ln.gross_volume,
                "meter_start": ln.meter_start,
                "meter_end": ln.meter_end,
                "temperature_f": ln.temperature_f,
                "level_before_percent": ln.level_before_percent,
                "tank_id": ln.tank,
            }
            for ln in data.lines
        ],
        signer_name=data.signer_name,
        signature_key=data.signature_key,
        photo_keys=data.photo_keys,
        latitude=data.latitude,
        longitude=data.longitude,
        delivered_at=delivered_at,
        by=by,
    )
    return {
        "delivered_at": delivered_at.isoformat(),
        "tickets": [{"id": t.pk, "number": t.number} for t in tickets],
    }


def _tell_office(row: DriverAction, order: SalesOrder, driver: Driver, by: Any) -> None:
    kind = DriverAction.Kind(row.kind).label.lower()
    taken = _when(row.taken_at) if row.taken_at else "offline"
    body = (
        f"Driver app conflict — {driver.name}'s {kind} (taken {taken}) was NOT applied: {row.reason} "
        f"The driver's entry is kept in the driver actions (client action {row.client_action_id})."
    )
    sales_services.add_note(order, body, by=by, origin=Note.Origin.SYSTEM)
