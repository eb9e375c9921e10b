"""Permissions granted on own rows (`<code>:own`, core.scoping) through the roles API (issue 23)."""

from __future__ import annotations

import importlib
from typing import Any

from conftest import Api, token_for


def test_the_permission_list_says_which_permissions_take_own_scope(api_a: Api) -> None:
    listed = {p["code"]: p for p in api_a.get("/api/permission").json()["data"]}
    assert listed["sales_order.view"]["own_scope"] is True
    assert listed["delivery_ticket.view"]["own_scope"] is True
    assert listed["customer.view"]["own_scope"] is False


def test_a_role_holds_a_permission_on_own_rows(api_a: Api) -> None:
    r = api_a.post("/api/role", {"name": "Helper", "permissions": ["sales_order.view:own", "customer.view"]})
    assert r.status_code == 201, r.content
    assert r.json()["data"]["permissions"] == ["customer.view", "sales_order.view:own"]
    # Only resources whose rows have owners take the scope; a full grant beside it wins.
    bad = api_a.post("/api/role", {"name": "Odd", "permissions": ["customer.view:own"]})
    assert bad.status_code == 422 and "customer.view:own" in bad.json()["detail"]
    both = api_a.post(
        "/api/role", {"name": "Both", "permissions": ["sales_order.view", "sales_order.view:own"]}
    )
    assert both.json()["data"]["permissions"] == ["sales_order.view"]


def test_nobody_grants_more_rows_than_they_hold(tenant_a: Any, in_tenant: Any, api_a: Api) -> None:
    from tenants.accounts.models import Role

    with in_tenant(tenant_a):
        Role.objects.create(
            name="Lead driver", permissions=["role.view", "role.add", "role.change", "sales_order.view:own"]
        )
    lead = Api(token_for(tenant_a, "Lead driver", email="lead@alpha.test"))
    full = lead.post("/api/role", {"name": "Too much", "permissions": ["sales_order.view"]})
    assert full.status_code == 403, full.content
    assert (
        lead.post("/api/role", {"name": "Same", "permissions": ["sales_order.view:own"]}).status_code == 201
    )
    # Holding every row covers granting own rows.
    dispatcher = Api(token_for(tenant_a, "Dispatcher"))
    assert dispatcher.get("/api/sales-order/sales-orders").status_code == 200


def test_existing_companies_driver_role_becomes_own_scoped(tenant_a: Any, in_tenant: Any) -> None:
    from django.apps import apps

    from tenants.accounts.models import Role

    migration = importlib.import_module("tenants.accounts.migrations.0003_driver_role_own_scoped")
    old = ["company_asset.view", "delivery_ticket.view", "sales_order.deliver", "sales_order.view"]
    with in_tenant(tenant_a):
        Role.objects.filter(name="Driver").update(permissions=old, seeded_permissions=old)
        migration.scope_driver_role(apps, None)
        role = Role.objects.get(name="Driver")
        assert role.permissions == [
            "company_asset.view",
            "delivery_ticket.view:own",
            "sales_order.deliver:own",
            "sales_order.view:own",
        ]
        assert role.seeded_permissions == role.permissions
        assert role.description == "Sees and delivers today's orders on a phone."
        # Topping the seeded roles up later does not bring the company-wide codes back.
        from tenants.accounts.services import top_up_system_roles

        top_up_system_roles()
        role.refresh_from_db()
        assert "sales_order.view" not in role.permissions and "sales_order.view:own" in role.permissions
