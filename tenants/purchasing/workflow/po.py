"""The purchase order's workflow: its transition table and one service function per action.

    draft → ordered → received → billed → closed
    draft / ordered → cancelled

`place` sends the order (every line needs a unit cost); `receive` records a receipt (bill of lading,
gross/net per line) and may run again while received (several lifts); `bill` and `unbill` are moved by
the bill workflow (a bill on the order approved; the last such bill voided or unapproved); `close`
ends it; `reopen` takes an ordered order back to draft. Every move is a `PurchaseOrderEvent`.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from core.errors import ApiError
from core.permissions import acting_user
from core.scoping import not_found
from core.workflow import Machine, event_recorder, move, transition
from django.utils import timezone

from tenants.purchasing import services
from tenants.purchasing.models import PurchaseOrder, PurchaseOrderEvent, Receipt

S = PurchaseOrder.Status
DRAFT, ORDERED, RECEIVED, BILLED, CLOSED, CANCELLED = (s.value for s in S)


_record = event_recorder(PurchaseOrderEvent)


# The moves a user makes name their permission (`purchase_order.<permission>`); the others follow
# receipts (`unreceive`: removing the last one) and bills (`bill`, `unbill`).
MACHINE = Machine(
    name="purchase order",
    resource="purchase_order",
    statuses=[s.value for s in S],
    moves=[
        move("place", [DRAFT], ORDERED, "Place order", "Error placing purchase order", permission="change"),
        move(
            "reopen", [ORDERED], DRAFT, "Back to draft", "Error reopening purchase order", permission="change"
        ),
        move(
            "receive",
            [ORDERED, RECEIVED],
            RECEIVED,
            "Receive",
            "Error receiving purchase order",
            permission="receive",
            path="receipts",
        ),
        move("unreceive", [RECEIVED], ORDERED, "Remove receipt", "Error removing receipt"),
        move("bill", [RECEIVED, BILLED], BILLED, "Billed", "Error billing purchase order"),
        move("unbill", [BILLED], RECEIVED, "Back to received", "Error unbilling purchase order"),
        move(
            "close", [BILLED, RECEIVED], CLOSED, "Close", "Error closing purchase order", permission="change"
        ),
        move(
            "cancel",
            [DRAFT, ORDERED],
            CANCELLED,
            "Cancel",
            "Error cancelling purchase order",
            permission="change",
        ),
    ],
    record=_record,
)


def allowed_actions(status: str) -> list[dict[str, str]]:
    return MACHINE.user_actions(status)


def _by(by: Any) -> Any:
    return by if by is not None else acting_user()


def place(po: PurchaseOrder, *, by: Any = None) -> PurchaseOrder:
    def check(current: PurchaseOrder) -> dict[str, Any]:
        lines = list(current.lines.select_related("product"))
        if not lines:
            raise ApiError(422, f"Error placing purchase order: {current.number} has no lines.")
        uncosted = sorted({ln.product.name for ln in lines if ln.unit_cost is None})
        if uncosted:
            raise ApiError(
                422,
                f"Error placing purchase order: no unit cost for {', '.join(uncosted)} "
                "(no buying price in force on the order date: type the cost).",
            )
        return {"total": str(current.total)}

    def apply(current: PurchaseOrder) -> None:
        current.ordered_at = timezone.now()

    return transition(po, "place", machine=MACHINE, by=_by(by), check=check, apply=apply)


def reopen(po: PurchaseOrder, *, by: Any = None) -> PurchaseOrder:
    def apply(current: PurchaseOrder) -> None:
        current.ordered_at = None

    return transition(po, "reopen", machine=MACHINE, by=_by(by), apply=apply)


def receive(
    po: PurchaseOrder,
    *,
    bol_number: str,
    received_on: dt.date | None,
    lines: list[tuple[int, Decimal, Decimal]],
    notes: str = "",
    by: Any = None,
) -> tuple[PurchaseOrder, Receipt]:
    user = _by(by)
    made: list[Receipt] = []

    def check(current: PurchaseOrder) -> dict[str, Any]:
        receipt = services.record_receipt(
            current,
            bol_number=bol_number,
            received_on=received_on or timezone.localdate(),
            lines=lines,
            notes=notes,
            by=user,
        )
        made.append(receipt)
        return {"receipt_id": receipt.pk, "bol_number": receipt.bol_number}

    po = transition(po, "receive", machine=MACHINE, by=user, check=check)
    return po, made[0]


def remove_receipt(po: PurchaseOrder, receipt: Receipt, *, by: Any = None) -> PurchaseOrder:
    """Delete a receipt typed by mistake (while the order is received, before it is billed); without
    receipts left the order is back to ordered."""
    from core.workflow import locked
    from django.db import transaction

    with transaction.atomic():
        current = locked(po)
        if current.status != RECEIVED:
            raise ApiError(
                409,
                f"Purchase order {current.number} is {S(current.status).label.lower()}: "
                "receipts can be removed only while it is received (not billed).",
            )
        if receipt.purchase_order_id != current.pk:
            raise not_found(Receipt)
        details = {"receipt_id": receipt.pk, "bol_number": receipt.bol_number}
        receipt.delete()
        if current.receipts.exists():
            _record(
                current, MACHINE.get("receive"), RECEIVED, RECEIVED, _by(by), {**details, "removed": True}
            )
            return current
        return transition(current, "unreceive", machine=MACHINE, by=_by(by), details=details)


def mark_billed(po_id: int, *, bill_number: str, by: Any = None) -> None:
    """A bill on the order was approved (called by the bill workflow, in its transaction)."""
    po = PurchaseOrder.objects.get(pk=po_id)
    if po.status in MACHINE.get("bill").sources:
        transition(po, "bill", machine=MACHINE, by=_by(by), details={"bill_number": bill_number})


def mark_unbilled(po_id: int, *, bill_number: str, by: Any = None) -> None:
    """A bill on the order was voided or unapproved: back to received when no approved bill is left."""
    from tenants.purchasing.models import Bill

    po = PurchaseOrder.objects.get(pk=po_id)
    live = po.bills.filter(status__in=(Bill.Status.APPROVED, Bill.Status.PAID)).exists()
    if po.status == BILLED and not live:
        transition(po, "unbill", machine=MACHINE, by=_by(by), details={"bill_number": bill_number})


def close(po: PurchaseOrder, *, by: Any = None) -> PurchaseOrder:
    return transition(po, "close", machine=MACHINE, by=_by(by))


def cancel(po: PurchaseOrder, *, by: Any = None, reason: str = "") -> PurchaseOrder:
    def check(current: PurchaseOrder) -> dict[str, Any]:
        if current.bills.exclude(status="void").exists():
            raise ApiError(
                409, f"Error cancelling purchase order: {current.number} has bills (void them first)."
            )
        return {"reason": reason} if reason else {}

    return transition(po, "cancel", machine=MACHINE, by=_by(by), check=check)


# The moves a user asks for by their own route (`POST /purchase-order/{id}/<action>`, body: a reason).
ACTIONS = {"place": place, "reopen": reopen, "close": close, "cancel": cancel}
