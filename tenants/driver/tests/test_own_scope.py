"""A driver sees and acts on his own stops only, on the office routes as on the portal (issue 23):
the seeded Driver role holds own-scoped grants (`sales_order.view:own`, core.scoping), and every
route loads its rows through the kit's scope."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from conftest import Api, token_for
from tenants.driver.tests.test_driver_portal import BASE, action, driver_setup, send, today

SO = "/api/sales-order/sales-orders"


@pytest.fixture
def world(tenant_a: Any, in_tenant: Any) -> dict[str, Any]:
    """Dave's stops today (two on T-101, one on another truck) and one stop of another driver."""
    return driver_setup(tenant_a, in_tenant, "dave@alpha.test")


def _line_id(in_tenant: Any, tenant: Any, order: Any) -> int:
    with in_tenant(tenant):
        return int(order.line_items.values_list("pk", flat=True).first())


def _status(in_tenant: Any, tenant: Any, order: Any) -> str:
    from tenants.sales.models import SalesOrder

    with in_tenant(tenant):
        return str(SalesOrder.objects.get(pk=order.pk).status)


def test_a_driver_cannot_move_another_drivers_order(world: Any, tenant_a: Any, in_tenant: Any) -> None:
    api, theirs = world["api"], world["theirs"]
    line = _line_id(in_tenant, tenant_a, theirs)
    assert api.put(f"{SO}/{theirs.pk}/start-delivery").status_code == 404
    body = {"line_items": [{"line_item_id": line, "delivered_quantity": "1999"}]}
    assert api.post(f"{SO}/{theirs.pk}/deliver-products", body).status_code == 404
    assert api.post(f"{SO}/{theirs.pk}/deliver", body).status_code == 404
    entry = {
        "lines": [{"line_item_id": line, "delivered_quantity": "1999"}],
        "signer_name": "x",
        "complete": True,
    }
    r = api.post(f"/api/delivery-ticket/entry/{theirs.pk}", entry)
    assert r.status_code == 404, r.content
    assert api.get(f"/api/delivery-ticket/entry/{theirs.pk}").status_code == 404
    assert _status(in_tenant, tenant_a, theirs) == "assigned"
    # His own stop moves as before.
    mine = world["first"]
    assert api.put(f"{SO}/{mine.pk}/start-delivery").status_code == 200
    assert _status(in_tenant, tenant_a, mine) == "in_delivery"


def test_a_driver_reads_his_own_orders_only(world: Any, tenant_a: Any, in_tenant: Any, api_a: Api) -> None:
    api, theirs = world["api"], world["theirs"]
    mine = {world["first"].pk, world["second"].pk, world["elsewhere"].pk}
    listed = api.get(SO).json()["data"]
    assert {row["id"] for row in listed["items"]} == mine and listed["total"] == 3
    assert theirs.pk in {row["id"] for row in api_a.get(SO).json()["data"]["items"]}  # the office sees all
    assert api.get(f"{SO}/{theirs.pk}").status_code == 404
    assert api.get(f"{SO}/{world['first'].pk}").status_code == 200
    board = api.get(f"{SO}/board").json()["data"]
    assert {c["id"] for col in board["columns"] for c in col["cards"]} == mine
    # Views of one order: its taxes, a fee on it, a product's price on it.
    assert api.get(f"/api/tax/sales-orders/taxes/{theirs.pk}").status_code == 404
    assert api.get(f"/api/tax/sales-orders/taxes/{world['first'].pk}").status_code == 200
    assert api.get("/api/fee/calculate", {"sales_order_id": theirs.pk, "fee_id": 1}).status_code == 404
    product = world["md"]["diesel"].pk
    r = api.get("/api/customer-price/specific", {"sales_order_id": theirs.pk, "product_id": product})
    assert r.status_code == 404
    # Notes of another driver's order: none to read, none to add.
    with in_tenant(tenant_a):
        from tenants.sales.models import Note

        Note.objects.create(sales_order=theirs, body="gate code 1234")
    assert api.get("/api/note", {"sales_order_id": theirs.pk}).json()["data"] == []
    assert len(api_a.get("/api/note", {"sales_order_id": theirs.pk}).json()["data"]) == 1
    assert api.post("/api/note", {"sales_order_id": theirs.pk, "body": "hi"}).status_code == 422
    assert api.post("/api/note", {"sales_order_id": world["first"].pk, "body": "hi"}).status_code == 201


def test_a_driver_reads_his_own_tickets_only(world: Any, api_a: Api) -> None:
    api, theirs, mine = world["api"], world["theirs"], world["first"]
    their_ticket = api_a.get("/api/delivery-ticket/generate", {"sales_order_id": theirs.pk}).json()["data"][0]
    my_ticket = api_a.get("/api/delivery-ticket/generate", {"sales_order_id": mine.pk}).json()["data"][0]
    listed = api.get("/api/delivery-ticket").json()["data"]["items"]
    assert [t["id"] for t in listed] == [my_ticket["id"]]
    for suffix in ("", "/document", "/pdf"):
        assert api.get(f"/api/delivery-ticket/{their_ticket['id']}{suffix}").status_code == 404, suffix
    assert api.get(f"/api/delivery-ticket/{my_ticket['id']}/document").status_code == 200


def test_a_driver_lists_his_own_refused_actions_only(
    world: Any, tenant_a: Any, in_tenant: Any, api_a: Api
) -> None:
    from tenants.accounts.models import Role
    from tenants.accounts.services import create_user
    from tenants.driver.models import DriverAction

    with in_tenant(tenant_a):
        other_user = create_user(
            email="eve.driver@alpha.test",
            name="Eve",
            password="Sweep-pass-123",
            role=Role.objects.get(name="Driver"),
        )
        DriverAction.objects.create(
            client_action_id=uuid.uuid4(),
            kind="start_delivery",
            order_ref=world["theirs"].pk,
            sales_order=world["theirs"],
            driver=world["other_driver"],
            user=other_user,
            outcome="conflict",
            reason="Eve's refused start",
        )
    assert world["api"].get(f"{BASE}/conflicts").json()["data"] == []
    assert [c["reason"] for c in api_a.get(f"{BASE}/conflicts").json()["data"]] == ["Eve's refused start"]


def test_a_conflict_note_is_not_the_drivers_to_change(
    world: Any, tenant_a: Any, in_tenant: Any, api_a: Api
) -> None:
    api = world["api"]
    second = today(api, str(world["md"]["truck"].pk))["orders"][1]
    # The office changed the order after the phone loaded it: the start is refused and noted.
    assert send(api, action("start_delivery", second, version="0" * 16))[0]["outcome"] == "conflict"
    notes = api.get("/api/note", {"sales_order_id": second["id"]}).json()["data"]
    assert len(notes) == 1 and notes[0]["origin"] == "system"
    note_id = notes[0]["id"]
    r = api.put(f"/api/note/{note_id}", {"body": "never mind"})
    assert r.status_code == 403, r.content
    assert "written by the system" in r.json()["detail"]
    assert api.delete(f"/api/note/{note_id}").status_code == 403
    # His own notes stay his to edit; the office may remove the system's note.
    mine = api.post("/api/note", {"sales_order_id": second["id"], "body": "left at gate"}).json()["data"]
    assert mine["origin"] == "user"
    assert api.put(f"/api/note/{mine['id']}", {"body": "left at the gate"}).status_code == 200
    assert api_a.delete(f"/api/note/{note_id}").status_code == 200


def test_the_driver_role_holds_own_scoped_grants_only(tenant_a: Any, in_tenant: Any) -> None:
    from tenants.accounts.models import Role

    with in_tenant(tenant_a):
        role = Role.objects.get(name="Driver")
    assert role.description == "Sees and delivers today's orders on a phone."
    scoped = [c for c in role.permissions if c.split(".")[0] in {"sales_order", "delivery_ticket"}]
    assert scoped and all(c.endswith(":own") for c in scoped), scoped
    assert "sales_order.view:own" in role.permissions and "sales_order.view" not in role.permissions
    assert "company_asset.view" in role.permissions  # the trucks he picks stay company-wide


def test_a_driver_without_a_fleet_driver_row_sees_no_orders(
    tenant_a: Any, api_a: Api, in_tenant: Any
) -> None:
    from tenants.sales.tests.helpers import master_data, order_in_db

    with in_tenant(tenant_a):
        md = master_data()
        order_in_db(md, status="assigned", driver=md["driver"])
    loose = Api(token_for(tenant_a, "Driver", email="loose@alpha.test"))
    assert loose.get(SO).json()["data"]["items"] == []
