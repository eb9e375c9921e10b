"""Permission codes (core/permissions.py) on their own: what a role editor lists (one row per code,
named in words), that every route's code is one an admin can grant, the sentence of a refusal, and
that a thread serving many requests never carries one request's user into the next."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Api, token_for
from core import permissions
from core.permissions import TenantAuth, denial_message, register_resource, registered_permissions


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The registry as it is, restored after the test (a test's resources must not leak)."""
    import fueldesk.api  # noqa: F401  (every app's resources registered, as in a running server)

    monkeypatch.setattr(permissions, "_REGISTRY", dict(permissions._REGISTRY))
    monkeypatch.setattr(permissions, "_RESOURCE_LABELS", dict(permissions._RESOURCE_LABELS))
    return permissions._REGISTRY


def test_a_resource_registers_its_codes_named_in_words_and_more_actions_add_up(registry: Any) -> None:
    register_resource("credit_memo", "Credit memos")
    register_resource("credit_memo", "Credit memos", ("approve", "send_back"))
    mine = {p.code: p.name for p in registered_permissions() if p.resource == "credit_memo"}
    assert mine == {
        "credit_memo.add": "Can create credit memos",
        "credit_memo.approve": "Can approve credit memos",
        "credit_memo.change": "Can change credit memos",
        "credit_memo.delete": "Can delete credit memos",
        "credit_memo.send_back": "Can send back credit memos",
        "credit_memo.view": "Can view credit memos",
    }
    assert denial_message("credit_memo.add") == "You do not have permission to create credit memos."
    assert denial_message("credit_memo.send_back") == "You do not have permission to send back credit memos."
    # a resource nobody registered is still named in words
    assert denial_message("fuel_tax_report.view") == "You do not have permission to view fuel tax report."


def test_a_route_naming_an_unregistered_code_registers_it(registry: Any) -> None:
    assert "credit_memo.reissue" not in registry
    TenantAuth("credit_memo.reissue")
    assert registry["credit_memo.reissue"].name == "Can reissue credit memo"


def route_permission_codes() -> set[str]:
    from fueldesk.api import api

    codes: set[str] = set()
    routers = [router for _prefix, router in api._routers]
    while routers:
        router = routers.pop()
        routers.extend(child for _prefix, child in getattr(router, "_routers", []))
        for path_view in router.path_operations.values():
            for op in path_view.operations:
                codes.update(
                    cb.permission for cb in op.auth_callbacks if isinstance(cb, TenantAuth) and cb.permission
                )
    return codes


def test_every_routes_code_is_a_permission_a_tenant_can_grant(tenant_a: Any, in_tenant: Any) -> None:
    from tenants.accounts.models import Permission

    codes = route_permission_codes()
    assert len(codes) > 50 and "delivery_ticket.view" in codes and "sales_order.deliver" in codes
    assert codes <= {p.code for p in registered_permissions()}
    with in_tenant(tenant_a):
        stored = set(Permission.objects.values_list("code", flat=True))
    assert codes <= stored, sorted(codes - stored)


def test_a_missing_permission_is_a_403_in_words_and_no_session_a_401(tenant_a: Any, anon: Api) -> None:
    nobody = Api(token_for(tenant_a, role=None))
    res = nobody.get("/api/delivery-ticket")
    assert res.status_code == 403
    assert res.json() == {"detail": "You do not have permission to view delivery tickets."}
    assert anon.get("/api/delivery-ticket").status_code == 401


def test_a_new_request_starts_without_the_previous_requests_user() -> None:
    outer = permissions.begin_request()
    try:
        permissions._acting_user.set("the previous request's user")
        inner = permissions.begin_request()
        assert permissions.acting_user() is None
        permissions._acting_user.set("this request's user")
        permissions.end_request(inner)
        assert permissions.acting_user() == "the previous request's user"
    finally:
        permissions.end_request(outer)
    assert permissions.acting_user() is None
