"""A delivery ticket's moves are a state machine that records them: the ticket's timeline shows when it
was made, voided, reopened and delivered, and by whom; a move its status does not allow is refused
with a 409 naming the moves allowed now; the tickets made before the machine get their timeline from a
data migration."""

from __future__ import annotations

import datetime as dt

import pytest
from core.errors import ApiError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tenants.delivery.tests.helpers import TICKETS, entry_body, fuel_order, png_bytes, upload

ADMIN = "Alpha Fuels Admin"


def moves(ticket: dict) -> list[tuple[str, str, str]]:
    return [(e["action"], e["from_status"], e["to_status"]) for e in ticket["timeline"]]


def by_number(api, order_id: int) -> dict[str, dict]:
    items = api.get(TICKETS, {"sales_order_id": order_id}).json()["data"]["items"]
    return {t["number"]: t for t in items}


def test_generate_void_reopen_and_deliver_are_on_the_timeline(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = fuel_order(status="assigned")
    order_id = md["order"].pk
    split = api_a.get(f"{TICKETS}/generate", {"sales_order_id": order_id, "split_by_po": "true"})
    first, second = split.json()["data"]
    assert moves(first) == [("create", "", "open")]
    assert first["timeline"][0]["by_name"] == ADMIN
    assert first["timeline"][0]["details"] == {"sales_order": md["order"].number, "po_number": "PO-1"}

    # back to one ticket: the PO-2 ticket is voided, with the reason
    api_a.get(f"{TICKETS}/generate", {"sales_order_id": order_id, "split_by_po": "false"})
    voided = by_number(api_a, order_id)[second["number"]]
    assert voided["status"] == "void"
    assert moves(voided) == [("create", "", "open"), ("void", "open", "void")]
    assert "regenerated" in voided["timeline"][1]["details"]["reason"]
    # refreshing an open ticket is no move: its timeline does not grow
    assert moves(by_number(api_a, order_id)[first["number"]]) == [("create", "", "open")]

    # split again: the voided ticket comes back for its PO
    api_a.get(f"{TICKETS}/generate", {"sales_order_id": order_id, "split_by_po": "true"})
    back = by_number(api_a, order_id)[second["number"]]
    assert back["status"] == "open"
    assert moves(back)[-1] == ("reopen", "void", "open")
    assert back["timeline"][-1]["details"] == {"po_number": "PO-2"}

    sig, photo = upload(api_a, "signature"), upload(api_a, "photo", "t.png", png_bytes("blue"))
    res = api_a.post(f"{TICKETS}/entry/{order_id}", entry_body(md, sig, photo))
    assert res.status_code == 200, res.json()
    for ticket in res.json()["data"]:
        assert ticket["status"] == "delivered"
        last = ticket["timeline"][-1]
        assert (last["action"], last["from_status"], last["to_status"]) == ("deliver", "open", "delivered")
        assert last["by_name"] == ADMIN
        recorded = dt.datetime.fromisoformat(last["details"]["delivered_at"])
        assert abs(recorded - dt.datetime.fromisoformat(ticket["delivered_at"])) < dt.timedelta(
            milliseconds=1
        )
    # the one ticket's GET shows the same timeline
    one = api_a.get(f"{TICKETS}/{first['id']}").json()["data"]
    assert moves(one) == [("create", "", "open"), ("deliver", "open", "delivered")]


def test_a_move_the_status_does_not_allow_is_a_409_naming_the_allowed_moves(tenant_a, in_tenant):
    from tenants.delivery import services, workflow
    from tenants.delivery.models import DeliveryTicketEvent

    with in_tenant(tenant_a):
        md = fuel_order(status="in_delivery")
        [ticket] = services.generate_tickets(order=md["order"], split_by_po=False, po_number=None, by=None)
        delivered = workflow.deliver(ticket, delivered_at=timezone.now())
        before = DeliveryTicketEvent.objects.filter(ticket=ticket).count()

        with pytest.raises(ApiError) as refused:
            workflow.void(delivered, reason="changed my mind")
        assert refused.value.status_code == 409
        assert refused.value.extra["allowed_actions"] == [
            {"action": "deliver", "to": "delivered", "label": "Mark delivered"}
        ]
        assert "delivery ticket is delivered" in str(refused.value)
        assert "allowed now: deliver (→ delivered)" in str(refused.value)
        with pytest.raises(ApiError) as not_void:
            workflow.reopen(delivered, po_number="PO-9")
        assert not_void.value.status_code == 409

        delivered.refresh_from_db()
        assert delivered.status == "delivered" and delivered.po_number == "PO-1"
        assert DeliveryTicketEvent.objects.filter(ticket=ticket).count() == before


def test_existing_tickets_get_their_timeline_from_the_data_migration(two_tenants, db):
    from tenancy.services import clone_template, schema_name_for

    from tenants.delivery import services
    from tenants.delivery.models import DeliveryTicket, DeliveryTicketEvent

    schema = schema_name_for("Ticket Backfill")
    clone_template(schema)  # rolled back with the test's transaction
    connection.set_schema(schema)
    md = fuel_order(status="assigned")
    open_t, done_t = services.generate_tickets(order=md["order"], split_by_po=True, po_number=None, by=None)
    delivered_at = timezone.now() - dt.timedelta(days=3)
    DeliveryTicket.objects.filter(pk=done_t.pk).update(status="delivered", delivered_at=delivered_at)
    with connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending trigger events before DROP TABLE

    executor = MigrationExecutor(connection)
    executor.migrate([("delivery", "0001_initial")])  # as a schema was before the ticket workflow
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    rows = {
        t: [
            (e.action, e.from_status, e.to_status, e.at, e.details)
            for e in DeliveryTicketEvent.objects.filter(ticket=t)
        ]
        for t in (open_t.pk, done_t.pk)
    }
    created = DeliveryTicket.objects.get(pk=open_t.pk).created_at
    assert rows[open_t.pk] == [("create", "", "open", created, {"backfilled": True})]
    assert [r[:3] for r in rows[done_t.pk]] == [("create", "", "open"), ("deliver", "open", "delivered")]
    done = DeliveryTicket.objects.get(pk=done_t.pk)
    assert rows[done_t.pk][1][3:] == (
        done.updated_at,
        {"backfilled": True, "delivered_at": delivered_at.isoformat()},
    )
