"""The state machine kit (core/workflow.py) on its own: a table that refuses to be wrong, the moves a
payload offers, the 409 a refused move answers, and a move that locks the row, judges the status the
database holds (not a stale copy), changes nothing when refused and records what it did."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from core.errors import ApiError
from core.workflow import Machine, event_recorder, move, record_event, transition

STATUSES = ["open", "delivered", "void"]


def machine(**kw: Any) -> Machine:
    return Machine(
        name="delivery ticket",
        statuses=STATUSES,
        moves=[
            move("deliver", ["open", "delivered"], "delivered", "Mark delivered"),
            move("void", ["open"], "void", error="Error voiding the ticket"),
            move("reopen", ["void"], "open"),
        ],
        **kw,
    )


def test_a_table_with_a_duplicate_action_or_an_unknown_status_is_refused_when_declared():
    with pytest.raises(ValueError, match="duplicate action 'void'"):
        Machine("t", STATUSES, [move("void", ["open"], "void"), move("void", ["delivered"], "void")])
    with pytest.raises(ValueError, match=r"unknown statuses \['lost'\]"):
        Machine("t", STATUSES, [move("lose", ["open"], "lost")])


def test_the_moves_open_from_a_status_as_payloads_carry_them():
    m = machine()
    assert m.allowed_actions("open") == [
        {"action": "deliver", "to": "delivered", "label": "Mark delivered"},
        {"action": "void", "to": "void", "label": "Void"},  # a label defaults to the action, capitalized
    ]
    assert m.allowed_actions("void") == [{"action": "reopen", "to": "open", "label": "Reopen"}]
    # fresh dicts: a caller changing one does not change the next payload
    m.allowed_actions("void")[0]["label"] = "changed"
    assert m.allowed_actions("void")[0]["label"] == "Reopen"
    assert m.action_to("open", "void") == m.get("void")
    assert m.action_to("delivered", "open") is None  # a board's drop the table does not allow


def test_a_refusal_is_a_409_naming_the_status_and_the_moves_allowed_now():
    m = machine()
    err = m.refusal(m.get("void"), "delivered")
    assert err.status_code == 409
    assert str(err) == (
        "Error voiding the ticket: the delivery ticket is delivered; allowed now: deliver (→ delivered)."
    )
    assert err.extra == {
        "current_status": "delivered",
        "allowed_actions": [{"action": "deliver", "to": "delivered", "label": "Mark delivered"}],
    }
    # without a sentence of its own, the move names itself; from a status with no move: "none"
    bare = Machine("order", ["a", "b"], [move("go_on", ["a"], "b")])
    assert str(bare.refusal(bare.get("go_on"), "b")) == (
        "Cannot go on this order: the order is b; allowed now: none."
    )


@pytest.fixture
def ticket(tenant_a: Any, in_tenant: Any) -> Any:
    from tenants.delivery import services
    from tenants.delivery.tests.helpers import fuel_order

    with in_tenant(tenant_a):
        md = fuel_order(status="in_delivery")
        [made] = services.generate_tickets(order=md["order"], split_by_po=False, po_number=None, by=None)
        yield made


def test_a_move_checks_applies_saves_and_records(ticket: Any) -> None:
    from tenants.delivery.models import DeliveryTicketEvent

    recorded: list[tuple[Any, ...]] = []
    m = machine(
        record=lambda doc, mv, a, b, by, details: recorded.append((doc.pk, mv.action, a, b, by, details))
    )
    when = timezone.now()

    def apply(t: Any) -> None:
        t.delivered_at = when

    moved = transition(
        ticket,
        "deliver",
        machine=m,
        by="driver",
        check=lambda t: {"lines": t.lines.count()},
        apply=apply,
        details={"source": "office"},
    )
    assert moved.status == "delivered" and moved.delivered_at == when
    fresh = type(ticket).objects.get(pk=ticket.pk)
    assert (fresh.status, fresh.delivered_at) == ("delivered", when)  # saved, not only in memory
    assert recorded == [
        (ticket.pk, "deliver", "open", "delivered", "driver", {"source": "office", "lines": 3})
    ]
    assert not DeliveryTicketEvent.objects.filter(ticket=ticket, action="deliver").exists()  # its own hook


def test_a_move_judges_the_status_in_the_database_not_a_stale_copy(ticket: Any) -> None:
    stale = type(ticket).objects.get(pk=ticket.pk)  # read while open
    transition(ticket, "void", machine=machine())  # another request voids it
    assert stale.status == "open"
    with pytest.raises(ApiError) as refused:
        transition(stale, "deliver", machine=machine())
    assert refused.value.status_code == 409 and "the delivery ticket is void" in str(refused.value)
    assert refused.value.extra["allowed_actions"] == [{"action": "reopen", "to": "open", "label": "Reopen"}]
    assert type(ticket).objects.get(pk=ticket.pk).status == "void"


def test_a_check_that_refuses_changes_nothing_and_records_nothing(ticket: Any) -> None:
    recorded: list[Any] = []
    m = machine(record=lambda *args: recorded.append(args))

    def check(t: Any) -> None:
        raise ApiError(409, "The ticket has no signature.")

    def apply(t: Any) -> None:
        raise AssertionError("apply runs only after the check passed")

    with pytest.raises(ApiError, match="no signature"):
        transition(ticket, "deliver", machine=m, check=check, apply=apply)
    assert type(ticket).objects.get(pk=ticket.pk).status == "open"
    assert recorded == []


def test_the_recorder_writes_the_timeline_with_who_did_it(ticket: Any, tenant_a: Any) -> None:
    from tenants.accounts.models import User
    from tenants.delivery.models import DeliveryTicketEvent

    m = machine(record=event_recorder(DeliveryTicketEvent))
    admin = User.objects.get(email=tenant_a.admin_email)
    transition(ticket, "void", machine=m, by=admin, details={"reason": "split again"})
    transition(ticket, "reopen", machine=m)  # the system (no user)
    record_event(
        DeliveryTicketEvent,
        ticket,
        action="note",
        from_status="open",
        to_status="open",
        by=object(),
        details={},
    )
    rows = list(
        DeliveryTicketEvent.objects.filter(ticket=ticket)
        .exclude(action="create")
        .values_list("action", "from_status", "to_status", "by_id", "by_name", "details")
    )
    assert rows == [
        ("void", "open", "void", admin.pk, admin.name, {"reason": "split again"}),
        ("reopen", "void", "open", None, "", {}),
        ("note", "open", "open", None, "", {}),  # an actor that is not a saved user is not linked
    ]
