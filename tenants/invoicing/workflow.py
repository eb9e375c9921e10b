"""The invoice's workflow: its transition table and one service function per action.

    draft → issued → partially_paid → paid
    draft / issued → void (with a reason; an invoice with payments applied cannot be voided)

Payments move an invoice between issued, partially_paid and paid (`settle` picks the move from the
amounts: an allocation added or removed). Overdue is not a status: it is derived from the due date
(an open invoice past its due date). Every move is recorded (who, when, from, to) as an
`InvoiceEvent`: the invoice's status history. A move the table does not allow is a 409 naming the
current status and the moves allowed now.
"""

from __future__ import annotations

from typing import Any

from core.errors import ApiError
from core.workflow import Machine, event_recorder, move, transition
from django.utils import timezone

from tenants.invoicing.models import ZERO, Invoice, InvoiceEvent

S = Invoice.Status
DRAFT, ISSUED, PARTIALLY_PAID, PAID, VOID = (
    S.DRAFT.value,
    S.ISSUED.value,
    S.PARTIALLY_PAID.value,
    S.PAID.value,
    S.VOID.value,
)
STATUS_ERROR = "Failed to update invoice status"


# The moves a user asks for by name carry their permission (`invoice.issue`, `invoice.void`); the
# others follow payments.
MACHINE = Machine(
    name="invoice",
    resource="invoice",
    statuses=[s.value for s in S],
    moves=[
        move("issue", [DRAFT], ISSUED, "Issue", "Error issuing invoice", permission="issue"),
        move("pay_partially", [ISSUED, PARTIALLY_PAID, PAID], PARTIALLY_PAID, "Record a partial payment"),
        move("pay_in_full", [ISSUED, PARTIALLY_PAID], PAID, "Record the payment in full"),
        move("unpay", [PARTIALLY_PAID, PAID], ISSUED, "Payments removed"),
        move("void", [DRAFT, ISSUED], VOID, "Void", "Error voiding invoice", permission="void"),
    ],
    record=event_recorder(InvoiceEvent),
    # `POST /api/invoice/sales-orders/{id}/invoice-status?status=`: the status → the move.
    status_calls={ISSUED: ("issue",), VOID: ("void",)},
)


def allowed_actions(status: str) -> list[dict[str, str]]:
    return MACHINE.user_actions(status)


def issue(invoice: Invoice, *, by: Any = None) -> Invoice:
    def check(inv: Invoice) -> dict[str, Any]:
        if not inv.lines.exists():
            raise ApiError(409, f"Invoice {inv.number} has no lines: nothing to issue.")
        return {"total": str(inv.total)}

    def apply(inv: Invoice) -> None:
        inv.issued_at = timezone.now()

    return transition(invoice, "issue", machine=MACHINE, by=by, check=check, apply=apply)


def void(invoice: Invoice, *, reason: str, by: Any = None) -> Invoice:
    reason = (reason or "").strip()
    if not reason:
        raise ApiError(422, "A reason is required to void an invoice.")

    def check(inv: Invoice) -> dict[str, Any]:
        if inv.allocations.exists():
            raise ApiError(
                409,
                f"Invoice {inv.number} has payments applied: remove them before voiding it.",
            )
        return {"reason": reason[:500]}

    def apply(inv: Invoice) -> None:
        inv.void_reason = reason[:500]
        inv.voided_at = timezone.now()
        inv.balance = ZERO

    return transition(invoice, "void", machine=MACHINE, by=by, check=check, apply=apply)


def set_status(invoice: Invoice, status: str, *, by: Any = None, reason: str = "") -> Invoice:
    """The spec's status call: `issued` or `void` (with a reason); paid statuses follow payments."""
    action = MACHINE.status_action(status, invoice.status)
    if action is None:
        allowed = ", ".join(sorted(MACHINE.status_calls))
        raise ApiError(
            422,
            f"Cannot set an invoice to '{status}': allowed values are {allowed} "
            "(paid and partially paid follow the payments recorded).",
        )
    if action == "void":
        return void(invoice, reason=reason, by=by)
    return issue(invoice, by=by)


def settle(invoice: Invoice, *, paid: Any, by: Any = None, details: dict[str, Any] | None = None) -> Invoice:
    """Set the invoice's amount paid and balance (the caller holds its row lock) and move it to the
    status its amounts mean: nothing paid → issued, all → paid, else partially paid."""
    balance = invoice.total - paid
    target = ISSUED if paid <= ZERO else (PAID if balance <= ZERO else PARTIALLY_PAID)

    def apply(inv: Invoice) -> None:
        inv.amount_paid = paid
        inv.balance = balance

    mv = MACHINE.action_to(invoice.status, target)
    if mv is None:  # the same status (issued with nothing paid): only the amounts change
        invoice.amount_paid, invoice.balance = paid, balance
        invoice.save(update_fields=["amount_paid", "balance", "updated_at"])
        return invoice
    return transition(invoice, mv.action, machine=MACHINE, by=by, apply=apply, details=details)
