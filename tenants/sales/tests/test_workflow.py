"""The sales order's state machine: every action from every status, table-driven; the timeline."""

from __future__ import annotations

from decimal import Decimal

import pytest
from core.errors import ApiError

from tenants.sales.tests.helpers import master_data, order_in_db

STATUSES = ["draft", "verified", "assigned", "in_delivery", "delivered", "completed", "archive", "cancelled"]
# action → {from status: to status} for the legal moves; every other status must refuse it.
LEGAL = {
    "verify": {"draft": "verified"},
    "reopen": {"verified": "draft"},
    "assign": {"verified": "assigned", "assigned": "assigned"},
    "unassign": {"assigned": "verified"},
    "start_delivery": {"assigned": "in_delivery"},
    "deliver_products": {"in_delivery": "in_delivery"},
    "deliver": {"in_delivery": "delivered"},
    "complete": {"delivered": "completed"},
    "archive": {"completed": "archive", "cancelled": "archive"},
    "cancel": {"draft": "cancelled", "verified": "cancelled", "assigned": "cancelled"},
}
SPEC_MESSAGES = {
    "assign": "Error assigning driver/assets to sales order",
    "deliver_products": "Error delivering products",
    "start_delivery": "Error starting delivery",
    "archive": "Error archiving sales order",
}


def run(action: str, order, md):
    from tenants.sales import workflow

    if action == "assign":
        return workflow.assign(order, driver_id=md["driver"].pk, truck_id=md["truck"].pk)
    if action == "deliver_products":
        line = order.line_items.first()
        return workflow.deliver_products(order, [(line.pk, Decimal("990"))])
    if action == "deliver":
        line = order.line_items.first()
        return workflow.deliver(order, [(line.pk, Decimal("1000"))])
    return getattr(workflow, action)(order)


CASES = [(action, status) for action in LEGAL for status in STATUSES]


@pytest.mark.parametrize(("action", "status"), CASES)
def test_every_action_from_every_status(action, status, tenant_a, in_tenant):
    from tenants.sales.models import StatusEvent
    from tenants.sales.workflow import MACHINE

    with in_tenant(tenant_a):
        md = master_data()
        extra = (
            {"truck": md["truck"], "driver": md["driver"]} if status in ("assigned", "in_delivery") else {}
        )
        order = order_in_db(md, status=status, **extra)
        if status in LEGAL[action]:
            moved = run(action, order, md)
            assert moved.status == LEGAL[action][status]
            event = StatusEvent.objects.filter(sales_order=order).last()
            assert (event.action, event.from_status, event.to_status) == (action, status, moved.status)
        else:
            with pytest.raises(ApiError) as err:
                run(action, order, md)
            assert err.value.status_code == 409
            detail = str(err.value)
            allowed = [m["action"] for m in MACHINE.allowed_actions(status)]
            assert f"the sales order is {status.replace('_', ' ')}" in detail

            for a in allowed:
                assert a in detail.split("allowed now:")[1]
            if not allowed:
                assert detail.endswith("allowed now: none.")
            if action in SPEC_MESSAGES:
                assert detail.startswith(SPEC_MESSAGES[action])
            assert err.value.extra["current_status"] == status
            order.refresh_from_db()
            assert order.status == status
            assert not StatusEvent.objects.filter(sales_order=order).exists()


def test_full_life_and_timeline(tenant_a, in_tenant):
    from tenants.accounts.models import User
    from tenants.sales import workflow

    with in_tenant(tenant_a):
        user = User.objects.get(email=tenant_a.admin_email)
        md = master_data()
        order = order_in_db(md, lines=(("diesel", "1000", "3.1000"), ("oil", "2", "845.0000")))
        order = workflow.verify(order, by=user)
        order = workflow.assign(order, driver_id=md["driver"].pk, truck_id=md["truck"].pk, by=user)
        assert order.stop_sequence == 1
        order = workflow.start_delivery(order, by=user)
        lines = list(order.line_items.order_by("position"))
        order = workflow.deliver_products(order, [(lines[0].pk, Decimal("400"))], by=user)
        order = workflow.deliver_products(order, [(lines[0].pk, Decimal("998.5"))], by=user)
        with pytest.raises(ApiError) as err:  # the drum line has no delivered quantity yet
            workflow.deliver(order, by=user)
        assert err.value.status_code == 422 and "Engine oil drum" in str(err.value)
        assert "Send 0" in str(err.value)
        order = workflow.deliver(order, [(lines[1].pk, Decimal("0"))], by=user)
        order = workflow.complete(order, by=user)
        order = workflow.archive(order, by=user)
        events = list(order.events.order_by("at", "id"))
        assert [(e.from_status, e.to_status) for e in events] == [
            ("draft", "verified"),
            ("verified", "assigned"),
            ("assigned", "in_delivery"),
            ("in_delivery", "in_delivery"),
            ("in_delivery", "in_delivery"),
            ("in_delivery", "delivered"),
            ("delivered", "completed"),
            ("completed", "archive"),
        ]
        assert {e.by_id for e in events} == {user.pk} and events[0].by_name == user.name
        assert events[3].details == {"lines": [{"line_item_id": lines[0].pk, "delivered_quantity": "400"}]}
        lines[0].refresh_from_db()
        assert lines[0].delivered_quantity == Decimal("998.500") and lines[0].price_fixed


def test_verify_needs_lines_and_fixes_prices(tenant_a, in_tenant):
    from tenants.sales import workflow

    with in_tenant(tenant_a):
        md = master_data()
        empty = order_in_db(md, lines=())
        with pytest.raises(ApiError) as err:
            workflow.verify(empty)
        assert err.value.status_code == 422 and "at least one product line" in str(err.value)
        order = workflow.verify(order_in_db(md))
        assert all(ln.price_fixed for ln in order.line_items.all())
        order = workflow.reopen(order)
        assert not any(ln.price_fixed for ln in order.line_items.all())
        assert order.verified_at is None
