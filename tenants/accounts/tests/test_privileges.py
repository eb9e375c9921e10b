"""Nobody grants a permission they do not hold; credentials and roles of others are an admin's job;
and a company never loses its last active admin, not even to two admins demoting each other at once."""

from __future__ import annotations

import contextlib
import threading
import uuid
from typing import Any

import pytest
from django.db import connection, connections
from django.db.models.signals import pre_save

from conftest import PASSWORD, Api, token_for


def make_role(in_tenant: Any, tenant: Any, name: str, codes: list[str]) -> Any:
    from tenants.accounts.models import Role

    with in_tenant(tenant):
        return Role.objects.create(name=name, permissions=codes)


def user_of(in_tenant: Any, tenant: Any, email: str) -> Any:
    from tenants.accounts.models import User

    with in_tenant(tenant):
        return User.objects.select_related("role").get(email=email)


def login(email: str, password: str = PASSWORD) -> Any:
    return Api(None).post("/api/login", {"email": email, "password": password})


@pytest.fixture
def user_manager(tenant_a, in_tenant) -> Api:
    make_role(in_tenant, tenant_a, "User managers", ["user.view", "user.change", "user.add", "role.view"])
    return Api(token_for(tenant_a, role="User managers", email="usermanager@alpha.test"))


@pytest.fixture
def role_manager(tenant_a, in_tenant) -> Api:
    make_role(in_tenant, tenant_a, "Role managers", ["role.view", "role.change", "role.add"])
    return Api(token_for(tenant_a, role="Role managers", email="rolemanager@alpha.test"))


def admin_role_id(api: Api) -> int:
    roles = api.get("/api/role").json()["data"]["items"]
    return next(r["id"] for r in roles if r["name"] == "Admin")


def test_a_user_manager_cannot_give_themselves_the_admin_role(user_manager, api_a, tenant_a, in_tenant):
    me = user_of(in_tenant, tenant_a, "usermanager@alpha.test")
    res = user_manager.put(f"/api/user-account/{me.pk}", {"role_id": admin_role_id(api_a)})
    assert res.status_code == 409, res.json()
    assert res.json()["detail"] == "You cannot change your own role: another administrator must do it."
    assert user_of(in_tenant, tenant_a, "usermanager@alpha.test").role.name == "User managers"
    # Nor hand the Admin role to a new account they control.
    res = user_manager.post(
        "/api/user-account",
        {
            "email": "sock@alpha.test",
            "name": "Sock",
            "password": "Sock-puppet-42",
            "role_id": admin_role_id(api_a),
        },
    )
    assert res.status_code == 403 and "every permission" in res.json()["detail"]
    assert login("sock@alpha.test", "Sock-puppet-42").status_code == 401


def test_a_user_manager_cannot_take_over_an_admin_by_email_or_password(user_manager, tenant_a, in_tenant):
    admin = user_of(in_tenant, tenant_a, tenant_a.admin_email)
    res = user_manager.put(f"/api/user-account/{admin.pk}", {"password": "Taken-over-1234"})
    assert res.status_code == 403
    assert res.json()["detail"] == "Only an administrator can change another user's password."
    res = user_manager.put(f"/api/user-account/{admin.pk}", {"email": "attacker@evil.test"})
    assert res.status_code == 403
    assert res.json()["detail"] == "Only an administrator can change another user's email."
    assert login("attacker@evil.test", "Taken-over-1234").status_code == 401
    assert login(tenant_a.admin_email).status_code == 200
    # Nor switch the admin off.
    res = user_manager.put(f"/api/user-account/{admin.pk}", {"is_active": False})
    assert res.status_code == 403
    assert user_of(in_tenant, tenant_a, tenant_a.admin_email).is_active


def test_a_user_manager_still_edits_names_and_their_own_password(user_manager, api_a, tenant_a, in_tenant):
    other = user_of(in_tenant, tenant_a, tenant_a.admin_email)
    # The SPA's edit form sends the whole user back, email and role unchanged.
    body = {"name": "Renamed Admin", "email": other.email, "role_id": other.role_id, "is_active": True}
    res = user_manager.put(f"/api/user-account/{other.pk}", body)
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["name"] == "Renamed Admin"
    me = user_of(in_tenant, tenant_a, "usermanager@alpha.test")
    res = user_manager.put(f"/api/user-account/{me.pk}", {"password": "My-own-new-pass-9"})
    assert res.status_code == 200, res.json()
    assert login("usermanager@alpha.test", "My-own-new-pass-9").status_code == 200


def test_role_changes_need_the_administer_permission_that_only_admin_holds(
    user_manager, api_a, tenant_a, in_tenant
):
    codes = {p["code"] for p in api_a.get("/api/permission").json()["data"]}
    assert "user.administer" in codes
    roles = api_a.get("/api/role").json()["data"]["items"]
    holders = [r["name"] for r in roles if r["grants_all"] or "user.administer" in r["permissions"]]
    assert holders == ["Admin"]
    driver = Api(token_for(tenant_a, role="Driver", email="driver-target@alpha.test"))
    target = user_of(in_tenant, tenant_a, "driver-target@alpha.test")
    sales_id = next(r["id"] for r in roles if r["name"] == "Sales")
    res = user_manager.put(f"/api/user-account/{target.pk}", {"role_id": sales_id})
    assert (
        res.status_code == 403
        and res.json()["detail"] == "Only an administrator can change another user's role."
    )
    assert user_of(in_tenant, tenant_a, "driver-target@alpha.test").role.name == "Driver"
    # The admin can: role, email and password of another user; the old sessions of that user end.
    res = api_a.put(
        f"/api/user-account/{target.pk}",
        {"role_id": sales_id, "email": "moved@alpha.test", "password": "Fresh-start-2026"},
    )
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["role"]["name"] == "Sales" and res.json()["data"]["email"] == "moved@alpha.test"
    assert driver.get("/api/profile").status_code == 401
    assert login("moved@alpha.test", "Fresh-start-2026").status_code == 200


def test_an_admin_cannot_change_their_own_role(api_a, tenant_a, in_tenant):
    from tenants.accounts.services import create_user

    with in_tenant(tenant_a):
        from tenants.accounts.models import Role

        create_user(
            email="second-admin@alpha.test",
            name="Second",
            password=PASSWORD,
            role=Role.objects.get(name="Admin"),
        )
    me = user_of(in_tenant, tenant_a, tenant_a.admin_email)
    sales = next(r["id"] for r in api_a.get("/api/role").json()["data"]["items"] if r["name"] == "Sales")
    res = api_a.put(f"/api/user-account/{me.pk}", {"role_id": sales})
    assert res.status_code == 409 and "your own role" in res.json()["detail"]
    assert user_of(in_tenant, tenant_a, tenant_a.admin_email).role.name == "Admin"


def test_a_role_manager_cannot_add_permissions_they_do_not_hold(role_manager, tenant_a, in_tenant, api_a):
    everything = [p["code"] for p in api_a.get("/api/permission").json()["data"]]
    own = next(
        r for r in role_manager.get("/api/role").json()["data"]["items"] if r["name"] == "Role managers"
    )
    res = role_manager.put(f"/api/role/{own['id']}", {"permissions": everything})
    assert res.status_code == 403
    assert res.json()["detail"].startswith("You cannot grant or remove permissions you do not hold:")
    with in_tenant(tenant_a):
        from tenants.accounts.models import Role

        assert sorted(Role.objects.get(pk=own["id"]).permissions) == ["role.add", "role.change", "role.view"]
    res = role_manager.post("/api/role", {"name": "Shadow admins", "permissions": ["user.administer"]})
    assert res.status_code == 403
    sales = next(r for r in role_manager.get("/api/role").json()["data"]["items"] if r["name"] == "Sales")
    # Nor take away what they do not hold.
    res = role_manager.put(f"/api/role/{sales['id']}", {"permissions": []})
    assert res.status_code == 403
    # What they hold, they may hand out.
    res = role_manager.post("/api/role", {"name": "Role readers", "permissions": ["role.view"]})
    assert res.status_code == 201, res.json()
    res = role_manager.put(f"/api/role/{sales['id']}", {"permissions": [*sales["permissions"], "role.view"]})
    assert res.status_code == 200 and "role.view" in res.json()["data"]["permissions"]


# --- "at least one active admin" under concurrency ---------------------------------------------------


def in_thread(fn: Any) -> Any:
    """Run fn on its own thread, hence its own database connection, committing for real."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:
            out["error"] = exc
        finally:
            connections.close_all()

    t = threading.Thread(target=run)
    t.start()
    t.join(60)
    if "error" in out:
        raise out["error"]
    return out.get("value")


@pytest.fixture
def race_company(two_tenants, db):
    """A company with two admins, committed (the racing requests run on their own connections)."""
    from tenancy.services import provision_tenant

    tag = uuid.uuid4().hex[:8]

    def setup() -> Any:
        from tenants.accounts.auth import session_for
        from tenants.accounts.models import Role
        from tenants.accounts.services import create_user

        tenant, first = provision_tenant(
            company_name=f"Race {tag}",
            admin_email=f"one@race-{tag}.test",
            admin_name="One",
            admin_password=PASSWORD,
            use_pool=False,
        )
        connection.set_tenant(tenant)
        second = create_user(
            email=f"two@race-{tag}.test", name="Two", password=PASSWORD, role=Role.objects.get(name="Admin")
        )
        sales = Role.objects.get(name="Sales").pk
        tokens = [session_for(u, tenant)["access_token"] for u in (first, second)]
        connection.set_schema_to_public()
        return tenant, (first.pk, second.pk), tokens, sales

    tenant, ids, tokens, sales = in_thread(setup)
    yield tenant, ids, tokens, sales

    def teardown() -> None:
        tenant.delete(force_drop=True)

    in_thread(teardown)


def test_two_admins_demoting_each_other_at_once_leave_one_admin(race_company):
    tenant, (one, two), (token_one, token_two), sales = race_company
    # Each request waits here (after its checks, before its write) until the other arrives or 3 s
    # pass: without a lock both pass the "another admin remains" check before either writes.
    barrier = threading.Barrier(2, timeout=3)

    def hold(sender: Any, instance: Any, **kwargs: Any) -> None:
        if threading.current_thread().name.startswith("racer"):
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait()

    from tenants.accounts.models import User

    pre_save.connect(hold, sender=User, dispatch_uid="race-hold")
    results: dict[str, int] = {}

    def demote(name: str, token: str, target: int) -> None:
        try:
            res = Api(token).put(f"/api/user-account/{target}", {"role_id": sales})
            results[name] = res.status_code
        finally:
            connections.close_all()

    racers = [
        threading.Thread(target=demote, args=("one", token_one, two), name="racer-one"),
        threading.Thread(target=demote, args=("two", token_two, one), name="racer-two"),
    ]
    try:
        for t in racers:
            t.start()
        for t in racers:
            t.join(60)
    finally:
        pre_save.disconnect(sender=User, dispatch_uid="race-hold")
    assert sorted(results.values()) == [200, 409], results

    def admins() -> int:
        connection.set_tenant(tenant)
        try:
            return User.objects.filter(is_active=True, role__grants_all=True).count()
        finally:
            connection.set_schema_to_public()

    assert in_thread(admins) == 1
