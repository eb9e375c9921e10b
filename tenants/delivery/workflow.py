"""The delivery ticket's workflow: its transition table and one service function per action.

    (create) → open → delivered
    open → void → open (reopen: its PO number is on the order again)

Tickets follow their sales order: `services.generate_tickets` creates, reopens and voids them,
`services.record_delivery` delivers them (the office entry and the driver's offline sync). A delivered
ticket may be delivered again (the order's delivery recorded once more while it is still open: the
quantities and proof change, the status does not). Every move is a `DeliveryTicketEvent`: the ticket's
timeline. A move the table does not allow is a 409 naming the current status and the moves allowed now.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from core.workflow import Machine, event_recorder, move, record_event, transition

from tenants.delivery.models import DeliveryTicket, DeliveryTicketEvent

T = DeliveryTicket.Status
OPEN, DELIVERED, VOID = T.OPEN.value, T.DELIVERED.value, T.VOID.value

MACHINE = Machine(
    name="delivery ticket",
    statuses=[s.value for s in T],
    moves=[
        move("deliver", [OPEN, DELIVERED], DELIVERED, "Mark delivered", "Error delivering the ticket"),
        move("void", [OPEN], VOID, "Void", "Error voiding the ticket"),
        move("reopen", [VOID], OPEN, "Reopen", "Error reopening the ticket"),
    ],
    record=event_recorder(DeliveryTicketEvent),
)


def created(ticket: DeliveryTicket, *, by: Any, details: dict[str, Any]) -> None:
    """The timeline's first row: the ticket was made (outside the table, like every document's create)."""
    record_event(
        DeliveryTicketEvent,
        ticket,
        action="create",
        from_status="",
        to_status=ticket.status,
        by=by,
        details=details,
    )


def deliver(ticket: DeliveryTicket, *, delivered_at: dt.datetime, by: Any = None) -> DeliveryTicket:
    def apply(t: DeliveryTicket) -> None:
        t.delivered_at = delivered_at

    return transition(
        ticket,
        "deliver",
        machine=MACHINE,
        by=by,
        apply=apply,
        details={"delivered_at": delivered_at.isoformat()},
    )


def void(ticket: DeliveryTicket, *, reason: str, by: Any = None) -> DeliveryTicket:
    return transition(ticket, "void", machine=MACHINE, by=by, details={"reason": reason})


def reopen(ticket: DeliveryTicket, *, po_number: str, by: Any = None) -> DeliveryTicket:
    """A voided ticket back in use, for `po_number` (it keeps its number)."""

    def apply(t: DeliveryTicket) -> None:
        t.po_number = po_number

    return transition(ticket, "reopen", machine=MACHINE, by=by, apply=apply, details={"po_number": po_number})
