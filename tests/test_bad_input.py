"""Bad input always gets a clear 4xx {"detail": ...} and changes nothing."""

import pytest
from django.core.management import call_command

from conftest import Api, token_for


def test_malformed_json_is_a_400(api_a):
    res = api_a.client.post(
        "/api/role", "{not json", content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {api_a.token}"
    )
    assert res.status_code == 400 and res.json()["detail"]


def test_wrong_types_are_a_422_naming_the_field(api_a):
    res = api_a.post("/api/state/states", {"name": ["x"], "code": 5})
    assert res.status_code == 422
    body = res.json()
    assert body["detail"].startswith("Invalid input:") and "name" in body["detail"]
    assert {tuple(e["loc"])[-1] for e in body["errors"]} >= {"name"}


@pytest.mark.parametrize(
    "params",
    [
        {"size": 100000},
        {"page": 0},
        {"page": "x"},
        {"sort_by": "password"},
        {"order": "sideways"},
        {"filter_field": "name"},
        {"filter_field": "secret", "filter_operator": "equals", "filter_value": "1"},
        {"filter_field": "name", "filter_operator": "between", "filter_value": "a"},
    ],
)
def test_bad_list_parameters_are_a_422(api_a, params):
    res = api_a.get("/api/user-account", params)
    assert res.status_code == 422, res.content
    assert isinstance(res.json()["detail"], str) and res.json()["detail"]


def test_sql_looking_search_is_just_text(api_a, tenant_a):
    res = api_a.get("/api/user-account", {"search": "' OR 1=1; DROP TABLE accounts_user; --"})
    assert res.status_code == 200 and res.json()["data"]["total"] == 0
    assert api_a.get("/api/user-account").json()["data"]["total"] >= 1


def test_filter_operators(api_a, tenant_a, in_tenant):
    from tenants.geo.models import State

    with in_tenant(tenant_a):
        for name, code in [("Texas", "TX"), ("Tennessee", "TN"), ("Ohio", "OH")]:
            State.objects.create(name=name, code=code)

    def names(**params):
        res = api_a.get("/api/state/states", params)
        assert res.status_code == 200, res.json()
        return [s["name"] for s in res.json()["data"]["items"]]

    assert names(filter_field="name", filter_operator="startsWith", filter_value="te") == [
        "Tennessee",
        "Texas",
    ]
    assert names(filter_field="name", filter_operator="endsWith", filter_value="io") == ["Ohio"]
    assert names(filter_field="code", filter_operator="equals", filter_value="tx") == ["Texas"]
    assert names(filter_field="name", filter_operator="contains", filter_value="ss") == ["Tennessee"]
    assert names(sort_by="code", order="desc") == ["Texas", "Tennessee", "Ohio"]
    assert names(search="oh") == ["Ohio"]


def test_token_of_a_deleted_tenant_is_refused(two_tenants, db, tmp_path):
    from tenancy.models import Tenant

    from conftest import PASSWORD

    tenant = Tenant.objects.get(name="Doomed Co")
    token = (
        Api(None)
        .post("/api/login", {"email": "admin@doomed.test", "password": PASSWORD})
        .json()["data"]["access_token"]
    )
    assert Api(token).get("/api/profile").status_code == 200
    from django.db import connection

    with connection.cursor() as cur:  # the login's rows are in this test's open transaction
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("tenant_delete", tenant.schema_name, "--yes", "--dump-dir", str(tmp_path))
    from core.middleware import clear_tenant_cache

    clear_tenant_cache()
    res = Api(token).get("/api/profile")
    assert res.status_code == 401 and res.json() == {"detail": "This company account no longer exists."}
    dumps = list(tmp_path.glob("*.sql"))
    assert len(dumps) == 1 and "CREATE TABLE" in dumps[0].read_text()


def test_roles_without_permission_get_403(tenant_a):
    driver = Api(token_for(tenant_a, role="Driver"))
    res = driver.get("/api/user-account")
    assert res.status_code == 403 and res.json()["detail"] == "You do not have permission to view users."
    res = driver.post("/api/role", {"name": "Sneaky", "permissions": []})
    assert res.status_code == 403


def test_last_admin_cannot_be_deleted_or_demoted(api_a, tenant_a, in_tenant):
    from tenants.accounts.models import Role, User

    with in_tenant(tenant_a):
        admin = User.objects.get(email=tenant_a.admin_email)
        sales = Role.objects.get(name="Sales")
    # Through the API nobody changes their own role or deletes themselves...
    res = api_a.put(f"/api/user-account/{admin.pk}", {"role_id": sales.pk})
    assert res.status_code == 409 and "your own role" in res.json()["detail"]
    res = api_a.delete(f"/api/user-account/{admin.pk}")
    assert res.status_code == 409
    # ...and the services keep the last active admin whoever calls them.
    from core.errors import ApiError

    from tenants.accounts.services import delete_user, update_user

    with in_tenant(tenant_a):
        with pytest.raises(ApiError, match="last active admin"):
            update_user(admin, {"role_id": sales.pk})
        with pytest.raises(ApiError, match="last active admin"):
            update_user(admin, {"is_active": False})
        with pytest.raises(ApiError, match="last active admin"):
            delete_user(admin)
        assert User.objects.filter(is_active=True, role__name="Admin").count() == 1


def test_role_permissions_matrix_round_trip(api_a):
    perms = api_a.get("/api/permission").json()["data"]
    codes = {p["code"] for p in perms}
    assert {"user.view", "role.change", "company_settings.view"} <= codes
    res = api_a.post("/api/role", {"name": "Auditor", "permissions": ["user.view", "role.view"]})
    assert res.status_code == 201 and res.json()["data"]["permissions"] == ["role.view", "user.view"]
    rid = res.json()["data"]["id"]
    assert api_a.put(f"/api/role/{rid}", {"permissions": ["nope.view"]}).status_code == 422
    assert api_a.post("/api/role", {"name": "auditor"}).status_code == 409
    me = api_a.get("/api/role/current-user").json()["data"]
    assert me["role"]["name"] == "Admin" and "user.view" in me["permissions"]
    assert api_a.delete(f"/api/role/{rid}").status_code == 200


def test_deleting_a_referenced_row_says_what_uses_it(api_a, tenant_a, in_tenant):
    from tenants.geo.models import City, State

    with in_tenant(tenant_a):
        tx = State.objects.create(name="Texas", code="TX")
        City.objects.create(name="Houston", state=tx)
    res = api_a.delete(f"/api/state/states/{tx.pk}")
    assert res.status_code == 409
    assert res.json()["detail"] == "This record cannot be deleted because it is used by 1 city."


def test_searched_lists_count_with_the_page(api_a, tenant_a, in_tenant, django_assert_max_num_queries):
    from tenants.geo.models import State

    with in_tenant(tenant_a):
        for i in range(30):
            State.objects.create(name=f"Alpha {i:02d}", code=f"A{i:02d}")
        State.objects.create(name="Beta", code="B00")
    res = api_a.get("/api/state/states", {"search": "alpha", "size": 10, "page": 3, "sort_by": "name"})
    data = res.json()["data"]
    assert data["total"] == 30 and data["pages"] == 3 and len(data["items"]) == 10
    assert data["items"][0]["name"] == "Alpha 20"
    beyond = api_a.get("/api/state/states", {"search": "alpha", "size": 10, "page": 9}).json()["data"]
    assert beyond["total"] == 30 and beyond["items"] == []
    none = api_a.get("/api/state/states", {"search": "zulu"}).json()["data"]
    assert none["total"] == 0 and none["items"] == []
