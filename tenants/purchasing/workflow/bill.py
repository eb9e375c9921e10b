"""The bill's workflow: its transition table and one service function per action.

    draft → approved → paid
    draft / approved → void;  approved → draft (unapprove)

`approve` recomputes the three-way match: a bill out of tolerance is refused (409 naming the lines and
why) unless the approver asks to override and holds `bill.override_match` (403 otherwise); the
override, its reason and the match are recorded on the move. Approving a bill moves its purchase order
to billed; voiding or unapproving the last approved bill moves it back to received.
"""

from __future__ import annotations

from typing import Any

from core.errors import ApiError
from core.permissions import acting_user, denial_message
from core.workflow import Machine, event_recorder, move, transition
from django.db import transaction
from django.utils import timezone

from tenants.purchasing import matching, services
from tenants.purchasing.models import Bill, BillEvent
from tenants.purchasing.workflow import po as po_workflow

S = Bill.Status
DRAFT, APPROVED, PAID, VOID = (s.value for s in S)
OVERRIDE_PERMISSION = "bill.override_match"


MACHINE = Machine(
    name="bill",
    resource="bill",
    statuses=[s.value for s in S],
    moves=[
        move("approve", [DRAFT], APPROVED, "Approve", "Error approving bill", permission="approve"),
        move("unapprove", [APPROVED], DRAFT, "Back to draft", "Error unapproving bill", permission="approve"),
        move("pay", [APPROVED], PAID, "Mark paid", "Error paying bill", permission="pay"),
        move("void", [DRAFT, APPROVED], VOID, "Void", "Error voiding bill", permission="change"),
    ],
    record=event_recorder(BillEvent),
)


def allowed_actions(status: str) -> list[dict[str, str]]:
    return MACHINE.allowed_actions(status)


def _by(by: Any) -> Any:
    return by if by is not None else acting_user()


def approve(bill: Bill, *, by: Any = None, override: bool = False, reason: str = "") -> Bill:
    user = _by(by)

    def check(current: Bill) -> dict[str, Any]:
        if not current.lines.exists():
            raise ApiError(422, f"Error approving bill: {current.bill_number} has no lines.")
        services.refresh_bill(current)
        match = matching.match_bill(current)
        if match["status"] != Bill.Match.OUT_OF_TOLERANCE:
            return {"match": match["status"]}
        if not override:
            raise ApiError(409, matching.refusal_text(current, match), match_status=match["status"])
        if user is None or not user.has_perm(OVERRIDE_PERMISSION):
            raise ApiError(403, denial_message(OVERRIDE_PERMISSION))
        current.match_overridden = True
        return {
            "match": match["status"],
            "override": True,
            "reason": reason,
            "lines": match["out_of_tolerance"],
        }

    def apply(current: Bill) -> None:
        current.approved_at = timezone.now()

    with transaction.atomic():
        bill = transition(bill, "approve", machine=MACHINE, by=user, check=check, apply=apply)
        if bill.purchase_order_id:
            po_workflow.mark_billed(bill.purchase_order_id, bill_number=bill.bill_number, by=user)
    return bill


def unapprove(bill: Bill, *, by: Any = None) -> Bill:
    user = _by(by)

    def apply(current: Bill) -> None:
        current.approved_at = None
        current.match_overridden = False

    with transaction.atomic():
        bill = transition(bill, "unapprove", machine=MACHINE, by=user, apply=apply)
        if bill.purchase_order_id:
            po_workflow.mark_unbilled(bill.purchase_order_id, bill_number=bill.bill_number, by=user)
    return bill


def pay(bill: Bill, *, by: Any = None) -> Bill:
    def apply(current: Bill) -> None:
        current.paid_at = timezone.now()

    return transition(bill, "pay", machine=MACHINE, by=_by(by), apply=apply)


def void(bill: Bill, *, by: Any = None, reason: str = "") -> Bill:
    user = _by(by)
    with transaction.atomic():
        bill = transition(
            bill, "void", machine=MACHINE, by=user, details={"reason": reason} if reason else None
        )
        if bill.purchase_order_id:
            po_workflow.mark_unbilled(bill.purchase_order_id, bill_number=bill.bill_number, by=user)
    return bill
