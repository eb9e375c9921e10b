import time

import jwt
import pytest
from django.conf import settings
from django.test import override_settings

from conftest import PASSWORD, Api


def login(anon: Api, email: str, password: str = PASSWORD):
    return anon.post("/api/login", {"email": email, "password": password})


def test_login_returns_a_session_whose_token_reads_the_profile(tenant_a, anon):
    res = login(anon, tenant_a.admin_email)
    assert res.status_code == 200, res.json()
    body = res.json()
    assert body["message"] == "Login successful"
    token = body["data"]["access_token"]
    claims = jwt.decode(token, options={"verify_signature": False})
    assert claims["tid"] == tenant_a.schema and claims["exp"] > time.time()
    profile = Api(token).get("/api/profile").json()["data"]
    assert profile["email"] == tenant_a.admin_email
    assert profile["role"]["name"] == "Admin"
    assert profile["driver"] is None


def test_wrong_password_and_unknown_email_get_the_same_401(tenant_a, anon):
    wrong = login(anon, tenant_a.admin_email, "nope-nope-1")
    unknown = login(anon, "nobody@nowhere.test")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "Invalid email or password."}


def test_login_by_username_with_trailing_slash(tenant_a, anon):
    res = anon.post("/api/login/", {"email": tenant_a.admin_email.upper(), "password": PASSWORD})
    assert res.status_code == 200


@override_settings(LOGIN_FAILURES_PER_ACCOUNT_AND_IP=3)
def test_login_is_rate_limited_per_account_and_address(tenant_a, anon):
    email = tenant_a.admin_email.replace("admin", "ratelimited")
    codes = [login(anon, email, "bad-password-1").status_code for _ in range(4)]
    assert codes == [401, 401, 401, 429]
    assert "Too many failed sign-in attempts" in login(anon, email).json()["detail"]


def test_logout_revokes_the_token(api_a):
    assert api_a.get("/api/profile").status_code == 200
    res = api_a.post("/api/logout")
    assert res.status_code == 200 and res.json()["message"] == "You have been logged out."
    after = api_a.get("/api/profile")
    assert after.status_code == 401 and after.json()["detail"] == "You have been logged out."


def test_expired_and_forged_tokens_are_refused(tenant_a):
    expired = jwt.encode(
        {"sub": "1", "tid": tenant_a.schema, "jti": "x", "exp": int(time.time()) - 5},
        settings.JWT_SIGNING_KEY,
        algorithm="HS256",
    )
    res = Api(expired).get("/api/profile")
    assert res.status_code == 401 and res.json()["detail"] == "Session expired. Please log in again."
    forged = jwt.encode(
        {"sub": "1", "tid": tenant_a.schema, "jti": "x", "exp": int(time.time()) + 60},
        "not-the-key",
        algorithm="HS256",
    )
    res = Api(forged).get("/api/profile")
    assert res.status_code == 401 and res.json()["detail"] == "Invalid authentication token."
    assert Api("garbage").get("/api/profile").status_code == 401
    assert Api(None).get("/api/profile").status_code == 401


def test_token_of_a_suspended_tenant_gets_403_and_resumes(tenant_a, api_a):
    from core.middleware import clear_tenant_cache
    from tenancy.services import resume, suspend

    suspend(tenant_a.tenant)
    clear_tenant_cache()
    try:
        res = api_a.get("/api/profile")
        assert res.status_code == 403 and "suspended" in res.json()["detail"]
    finally:
        resume(tenant_a.tenant)
        clear_tenant_cache()
    assert api_a.get("/api/profile").status_code == 200


@pytest.mark.parametrize("password", ["short1", "onlyletterslong", "1234567890123"])
def test_weak_passwords_are_refused_at_signup(anon, db, password):
    res = anon.post(
        "/api/tenant", {"company_name": "Weak Co", "name": "W", "email": "w@weak.test", "password": password}
    )
    assert res.status_code == 422 and res.json()["detail"].startswith("The password is too weak")


def test_deactivating_a_user_or_changing_their_role_takes_effect_at_once(api_a, tenant_a, in_tenant):
    from conftest import token_for

    sales = Api(token_for(tenant_a, role="Sales", email="sales-person@alpha.test"))
    assert sales.get("/api/session").status_code == 200
    assert sales.get("/api/user-account").status_code == 403
    users = api_a.get("/api/user-account", {"search": "sales-person"}).json()["data"]["items"]
    uid = users[0]["id"]
    roles = {r["name"]: r["id"] for r in api_a.get("/api/role").json()["data"]["items"]}
    assert api_a.put(f"/api/user-account/{uid}", {"role_id": roles["Admin"]}).status_code == 200
    assert sales.get("/api/user-account").status_code == 200  # new permissions on the very next call
    assert api_a.put(f"/api/user-account/{uid}", {"is_active": False}).status_code == 200
    res = sales.get("/api/session")
    assert res.status_code == 401


def test_system_roles_gain_new_resources_but_keep_deliberate_removals(tenant_a, in_tenant):
    from tenants.accounts.models import Role
    from tenants.accounts.services import top_up_system_roles

    with in_tenant(tenant_a):
        sales = Role.objects.get(name="Sales")
        assert {"customer.view", "product.view"} <= set(sales.permissions)
        # as if product.view had been added to the Sales role after this company signed up ...
        sales.seeded_permissions = [c for c in sales.seeded_permissions if c != "product.view"]
        # ... and an admin had taken customer.view away on purpose
        sales.permissions = [c for c in sales.permissions if c not in {"product.view", "customer.view"}]
        sales.save()
        assert top_up_system_roles() == 1
        sales.refresh_from_db()
        assert "product.view" in sales.permissions
        assert "customer.view" not in sales.permissions
        assert top_up_system_roles() == 0
