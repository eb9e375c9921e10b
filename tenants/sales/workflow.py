"""The sales order's workflow: its transition table and one service function per action.

    draft → verified → assigned → in_delivery → delivered → completed → archive
    draft / verified / assigned → cancelled → archive

plus `reopen` (verified → draft, to change lines and prices), `unassign` (assigned → verified), and
`assign` again while assigned (another truck or driver). `deliver_products` records delivered
quantities during the delivery without changing the status. Every move is recorded (who, when, from,
to) as a `StatusEvent`: the order's timeline. A move the table does not allow is a 409 naming the
current status and the moves allowed now, headed by the spec's sentence where it has one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from core.errors import ApiError
from core.permissions import acting_user
from core.workflow import Machine, event_recorder, move, transition
from django.utils import timezone

from tenants.sales import credit, dispatch, services
from tenants.sales.dispatch import ASSIGN_ERROR
from tenants.sales.models import LineItem, SalesOrder, StatusEvent

S = SalesOrder.Status
DRAFT, VERIFIED, ASSIGNED, IN_DELIVERY = (
    S.DRAFT.value,
    S.VERIFIED.value,
    S.ASSIGNED.value,
    S.IN_DELIVERY.value,
)
DELIVERED, COMPLETED, ARCHIVE, CANCELLED = (
    S.DELIVERED.value,
    S.COMPLETED.value,
    S.ARCHIVE.value,
    S.CANCELLED.value,
)

DELIVER_PRODUCTS_ERROR = "Error delivering products"
START_ERROR = "Error starting delivery"
ARCHIVE_ERROR = "Error archiving sales order"


# Each move names the `sales_order.<permission>` it needs (a driver may deliver, not verify); the API
# routes take their path and auth from here (core.documents.action_route).
MACHINE = Machine(
    name="sales order",
    resource="sales_order",
    statuses=[s.value for s in S],
    moves=[
        move("verify", [DRAFT], VERIFIED, "Verify", "Error verifying sales order", permission="verify"),
        move(
            "reopen", [VERIFIED], DRAFT, "Back to draft", "Error reopening sales order", permission="verify"
        ),
        move("assign", [VERIFIED, ASSIGNED], ASSIGNED, "Assign", ASSIGN_ERROR, permission="assign"),
        move(
            "unassign", [ASSIGNED], VERIFIED, "Unassign", "Error unassigning sales order", permission="assign"
        ),
        move(
            "start_delivery",
            [ASSIGNED],
            IN_DELIVERY,
            "Start delivery",
            START_ERROR,
            permission="start_delivery",
        ),
        move(
            "deliver_products",
            [IN_DELIVERY],
            IN_DELIVERY,
            "Record delivered products",
            DELIVER_PRODUCTS_ERROR,
            permission="deliver",
        ),
        move(
            "deliver",
            [IN_DELIVERY],
            DELIVERED,
            "Mark delivered",
            "Error delivering sales order",
            permission="deliver",
        ),
        move(
            "complete",
            [DELIVERED],
            COMPLETED,
            "Complete",
            "Error completing sales order",
            permission="complete",
        ),
        move("archive", [COMPLETED, CANCELLED], ARCHIVE, "Archive", ARCHIVE_ERROR, permission="archive"),
        move(
            "cancel",
            [DRAFT, VERIFIED, ASSIGNED],
            CANCELLED,
            "Cancel",
            "Error cancelling sales order",
            permission="cancel",
        ),
    ],
    record=event_recorder(StatusEvent),
    # `PUT …/status?status=` — the statuses it sets, and the moves each one means (tried in order).
    status_calls={
        VERIFIED: ("verify", "unassign"),
        DRAFT: ("reopen",),
        DELIVERED: ("deliver",),
        COMPLETED: ("complete",),
        ARCHIVE: ("archive",),
        CANCELLED: ("cancel",),
    },
)


def allowed_actions(status: str) -> list[dict[str, str]]:
    return MACHINE.allowed_actions(status)


def _by(by: Any) -> Any:
    return by if by is not None else acting_user()


# --- one function per action -----------------------------------------------------------------------
def verify(
    order: SalesOrder, *, by: Any = None, override_credit: bool = False, reason: str = ""
) -> SalesOrder:
    """Fix the prices and check the customer's credit. Needs at least one line, every line priced."""
    user = _by(by)

    def check(current: SalesOrder) -> dict[str, Any]:
        lines = list(current.line_items.all())
        if not lines:
            raise ApiError(422, "Error verifying sales order: add at least one product line first.")
        services.reprice(current)  # the engine's current prices, then fixed below
        unpriced = [ln for ln in current.line_items.all() if ln.unit_price is None]
        if unpriced:
            names = ", ".join(sorted({ln.product.name for ln in unpriced}))
            raise ApiError(422, f"Error verifying sales order: no price for {names}.")
        return credit.check(current, user=user, override=override_credit, reason=reason)

    def apply(current: SalesOrder) -> None:
        LineItem.objects.filter(sales_order=current).update(price_fixed=True)
        current.verified_at = timezone.now()

    return transition(order, "verify", machine=MACHINE, by=user, check=check, apply=apply)


def reopen(order: SalesOrder, *, by: Any = None) -> SalesOrder:
    """Back to draft: prices follow the engine again until the next verification."""

    def apply(current: SalesOrder) -> None:
        LineItem.objects.filter(sales_order=current).update(price_fixed=False)
        current.verified_at = None

    return transition(order, "reopen", machine=MACHINE, by=_by(by), apply=apply)


def assign(
    order: SalesOrder,
    *,
    driver_id: int,
    truck_id: int,
    trailer_id: int | None = None,
    stop_sequence: int | None = None,
    by: Any = None,
    one_load: bool = True,
) -> SalesOrder:
    """`one_load=False`: the route planner's accept (routes with reloads; dispatch.check_assignment)."""

    def check(current: SalesOrder) -> dict[str, Any]:
        driver, truck, trailer = dispatch.check_assignment(
            current, driver_id, truck_id, trailer_id, one_load=one_load
        )
        return {
            "driver": {"id": driver.pk, "name": driver.name},
            "truck": {"id": truck.pk, "asset_number": truck.asset_number},
            **({"trailer": {"id": trailer.pk, "asset_number": trailer.asset_number}} if trailer else {}),
        }

    def apply(current: SalesOrder) -> None:
        moving = current.truck_id != truck_id or current.planned_date is None
        current.driver_id = driver_id
        current.truck_id = truck_id
        current.trailer_id = trailer_id
        if stop_sequence is not None:
            current.stop_sequence = stop_sequence
        elif moving or current.stop_sequence is None:
            current.stop_sequence = dispatch.next_stop(truck_id, current.planned_date, exclude=current.pk)

    return transition(order, "assign", machine=MACHINE, by=_by(by), check=check, apply=apply)


def unassign(order: SalesOrder, *, by: Any = None) -> SalesOrder:
    def apply(current: SalesOrder) -> None:
        current.driver_id = current.truck_id = current.trailer_id = None
        current.stop_sequence = None

    return transition(order, "unassign", machine=MACHINE, by=_by(by), apply=apply)


def start_delivery(order: SalesOrder, *, start: dt.datetime | None = None, by: Any = None) -> SalesOrder:
    when = start or timezone.now()

    def apply(current: SalesOrder) -> None:
        current.delivery_started_at = when

    return transition(
        order, "start_delivery", machine=MACHINE, by=_by(by), apply=apply, details={"at": when.isoformat()}
    )


def _set_delivered(current: SalesOrder, quantities: Sequence[tuple[int, Decimal]], error: str) -> list[dict]:
    lines = {ln.pk: ln for ln in current.line_items.all()}
    recorded = []
    for line_id, qty in quantities:
        line = lines.get(line_id)
        if line is None:
            raise ApiError(422, f"{error}: line item {line_id} is not on this sales order.")
        if qty < 0:
            raise ApiError(422, f"{error}: a delivered quantity cannot be negative.")
        line.delivered_quantity = qty
        line.save(update_fields=["delivered_quantity", "updated_at"])
        recorded.append({"line_item_id": line_id, "delivered_quantity": str(qty)})
    return recorded


def deliver_products(
    order: SalesOrder, quantities: Sequence[tuple[int, Decimal]], *, by: Any = None
) -> SalesOrder:
    """Record delivered quantities (per line); may be called again until the delivery ends."""
    if not quantities:
        raise ApiError(422, f"{DELIVER_PRODUCTS_ERROR}: send at least one line's delivered quantity.")
    return transition(
        order,
        "deliver_products",
        machine=MACHINE,
        by=_by(by),
        check=lambda cur: {"lines": _set_delivered(cur, quantities, DELIVER_PRODUCTS_ERROR)},
    )


def deliver(
    order: SalesOrder,
    quantities: Sequence[tuple[int, Decimal]] = (),
    *,
    delivered_at: dt.datetime | None = None,
    by: Any = None,
) -> SalesOrder:
    """End the delivery. Every line needs a delivered quantity by then (0 for a product not delivered)."""
    error = "Error delivering sales order"

    def check(current: SalesOrder) -> dict[str, Any]:
        recorded = _set_delivered(current, quantities, error) if quantities else []
        missing = [ln for ln in current.line_items.select_related("product") if ln.delivered_quantity is None]
        if missing:
            names = ", ".join(f"{ln.product.name} (line {ln.pk})" for ln in missing)
            raise ApiError(
                422,
                f"{error}: no delivered quantity for {names}. Send 0 for a product that was not delivered.",
            )
        return {"lines": recorded} if recorded else {}

    def apply(current: SalesOrder) -> None:
        current.delivered_at = delivered_at or timezone.now()

    return transition(order, "deliver", machine=MACHINE, by=_by(by), check=check, apply=apply)


def complete(order: SalesOrder, *, by: Any = None) -> SalesOrder:
    return transition(order, "complete", machine=MACHINE, by=_by(by))


def archive(order: SalesOrder, *, by: Any = None) -> SalesOrder:
    return transition(order, "archive", machine=MACHINE, by=_by(by))


def cancel(order: SalesOrder, *, by: Any = None, reason: str = "") -> SalesOrder:
    def apply(current: SalesOrder) -> None:
        current.driver_id = current.truck_id = current.trailer_id = None
        current.stop_sequence = None

    return transition(
        order,
        "cancel",
        machine=MACHINE,
        by=_by(by),
        apply=apply,
        details={"reason": reason} if reason else None,
    )


def set_status(
    order: SalesOrder, status: str, *, by: Any = None, override_credit: bool = False
) -> SalesOrder:
    """`PUT …/status?status=`: the action that reaches `status` from where the order is."""
    action = MACHINE.status_action(status, order.status)
    if action is None:
        allowed = ", ".join(MACHINE.status_calls)
        raise ApiError(
            422,
            f"'{status}' cannot be set through the status call (use: {allowed}; assign, start-delivery "
            "and deliver have their own calls).",
        )
    if action == "verify":
        return verify(order, by=by, override_credit=override_credit)
    fn = {
        "unassign": unassign,
        "reopen": reopen,
        "deliver": deliver,
        "complete": complete,
        "archive": archive,
        "cancel": cancel,
    }[action]
    return fn(order, by=by)  # type: ignore[operator]
