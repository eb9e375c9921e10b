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
    import tarfile

    dumps = list(tmp_path.glob("*/*.tar.gz"))  # the backup written first (tenancy/backup.py)
    assert len(dumps) == 1
    with tarfile.open(dumps[0]) as tar:
        assert b"CREATE TABLE" in tar.extractfile("schema.sql").read()  # type: ignore[union-attr]


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


# --- refused once by the kit, for every route (core/parser.py, core/dates.py) ----------------------


def _list_text_parameters() -> list[tuple[str, str]]:
    """Every free-text query parameter of every GET operation without path parameters, from the
    OpenAPI document (as tests/fuzz reads it): (path, parameter)."""
    from fueldesk.api import api

    doc = api.get_openapi_schema(path_prefix="/api")
    found = []
    for path, methods in doc["paths"].items():
        op = methods.get("get")
        if not op or "{" in path:
            continue
        for p in op.get("parameters", []):
            options = p.get("schema", {}).get("anyOf", [p.get("schema", {})])
            if p["in"] == "query" and any(
                o.get("type") == "string" and not o.get("format") and "enum" not in o for o in options
            ):
                found.append((path, p["name"]))
    return found


def test_a_nul_in_any_text_query_parameter_is_a_422_naming_it(api_a):
    pairs = _list_text_parameters()
    assert len(pairs) > 40 and ("/api/customer/customers", "search") in pairs
    failures = []
    for path, name in pairs:
        res = api_a.get(path, {name: "a\x00b"})
        body = res.json()
        if res.status_code != 422 or name not in body.get("detail", "") or "NUL" not in body["detail"]:
            failures.append((path, name, res.status_code, body.get("detail")))
    assert not failures, failures
    # A filter value too, and a parameter no route declares (the kit cannot tell it apart).
    res = api_a.get(
        "/api/state/states", {"filter_field": "name", "filter_operator": "contains", "filter_value": "\x00"}
    )
    assert res.status_code == 422 and res.json()["errors"][0]["loc"] == ["query", "filter_value"]


def test_a_nul_in_a_json_body_string_is_a_422_naming_the_field_and_writes_nothing(api_a):
    res = api_a.post("/api/state/states", {"name": "Tex\x00as", "code": "TX"})
    assert res.status_code == 422, res.content
    assert res.json()["detail"] == "Invalid input: name must not contain a NUL character (\\u0000)."
    assert res.json()["errors"][0]["loc"] == ["body", "name"]
    assert api_a.get("/api/state/states").json()["data"]["total"] == 0
    # Nested: a list of objects in a body, and an object's key.
    res = api_a.post("/api/role", {"name": "Auditor", "permissions": ["user.view", "x\x00"]})
    assert res.status_code == 422 and res.json()["errors"][0]["loc"] == ["body", "permissions", 1]
    res = api_a.post("/api/role", {"name": "Auditor", "\x00": 1})
    assert res.status_code == 422
    # The escaped text `\\u0000` (a backslash, then u0000) is ordinary text.
    res = api_a.post("/api/state/states", {"name": "Back\\u0000slash", "code": "BS"})
    assert res.status_code == 201, res.content


def test_a_nul_in_a_form_field_of_an_upload_is_a_422(api_a):
    from django.core.files.uploadedfile import SimpleUploadedFile

    png = SimpleUploadedFile("logo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, content_type="image/png")
    res = api_a.client.post(
        "/api/storage/upload-file",
        {"file": png, "purpose": "logo\x00"},
        HTTP_AUTHORIZATION=f"Bearer {api_a.token}",
    )
    assert res.status_code == 422 and res.json()["errors"][0]["loc"] == ["form", "purpose"], res.content


@pytest.mark.parametrize("value", ["9999-12-31", "0001-01-01"])
def test_extreme_dates_of_a_range_are_a_422_or_a_page_never_a_500(api_a, value):
    for path in ("/api/job-log", "/api/job-log/export"):
        res = api_a.get(path, {"date_from": "0001-01-01", "date_to": value})
        if value == "9999-12-31":  # the day after it, the range's exclusive end, does not exist
            assert res.status_code == 422, res.content
            assert (
                res.json()["detail"]
                == "Invalid input: date_to 9999-12-31 is outside the range of dates this can use."
            )
        else:
            assert res.status_code == 200, res.content


@pytest.mark.parametrize(
    "value", ["9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59"]
)
def test_extreme_datetimes_in_a_kit_filter_are_a_422_or_a_page(api_a, value):
    res = api_a.get(
        "/api/job-log", {"filter_field": "created", "filter_operator": "lessThan", "filter_value": value}
    )
    assert res.status_code in (200, 422), res.content
    if res.status_code == 422:
        assert "not a valid value for created" in res.json()["detail"]


def test_an_update_cannot_set_a_required_field_to_null(api_a):
    fee = api_a.post(
        "/api/fee", {"name": "Env", "fee_type": "percentage", "amount_type": "percentage", "rate": "2"}
    )
    assert fee.status_code == 201, fee.content
    fid = fee.json()["data"]["id"]
    res = api_a.put(f"/api/fee/{fid}", {"rate": None})
    assert res.status_code == 422, res.content
    assert "rate" in res.json()["detail"]
    assert api_a.get(f"/api/fee/{fid}").json()["data"]["rate"] == "2.0000"
    # Left out, it stays; a nullable field may still be cleared.
    res = api_a.put(f"/api/fee/{fid}", {"name": "Environmental", "customer_id": None})
    assert res.status_code == 200 and res.json()["data"]["rate"] == "2.0000"


def test_a_json_body_sent_as_text_plain_is_a_415_and_writes_nothing(api_a):
    import json

    res = api_a.client.post(
        "/api/state/states",
        json.dumps({"name": "Texas", "code": "TX"}),
        content_type="text/plain",
        HTTP_AUTHORIZATION=f"Bearer {api_a.token}",
    )
    assert res.status_code == 415, res.content
    assert res.json()["detail"] == "Send the body as JSON, with the header Content-Type: application/json."
    assert api_a.get("/api/state/states").json()["data"]["total"] == 0
    # application/json with a charset, and the login route, still work.
    res = api_a.client.post(
        "/api/state/states",
        json.dumps({"name": "Texas", "code": "TX"}),
        content_type="application/json; charset=utf-8",
        HTTP_AUTHORIZATION=f"Bearer {api_a.token}",
    )
    assert res.status_code == 201, res.content


def test_a_page_past_any_table_is_a_422_on_every_paged_list(api_a):
    """A page number whose offset overflows Postgres' bigint was a DataError inside the request (a 422
    by the handler, but the transaction it ran in was left aborted): every list bounds `page`."""
    from fueldesk.api import api

    document = api.get_openapi_schema(path_prefix="/api")
    paged = [
        path
        for path, methods in document["paths"].items()
        if "{" not in path
        and any(
            p["name"] == "page" and p["in"] == "query"
            for p in (methods.get("get") or {}).get("parameters", [])
        )
    ]
    assert "/api/intuit/customers" in paged and len(paged) > 20
    unbounded = [
        path
        for path in paged
        for p in document["paths"][path]["get"]["parameters"]
        if p["name"] == "page" and "maximum" not in p.get("schema", {})
    ]
    assert unbounded == []
    res = api_a.get("/api/intuit/customers", {"page": 10**15})
    assert res.status_code == 422 and "page" in res.json()["detail"]
