"""The typed list contract (sort/filter enums in each list's own OpenAPI parameters, operators per
field type) and the write allow-list (save_object and Crud take declared fields only)."""

from typing import Any

import pytest

from conftest import Api


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    from fueldesk.api import api

    return api.get_openapi_schema(path_prefix="/api")


def _param(openapi: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    params = openapi["paths"][path]["get"]["parameters"]
    return next(p for p in params if p["name"] == name)


def _enum(param: dict[str, Any]) -> list[str]:
    return next(s["enum"] for s in param["schema"]["anyOf"] if "enum" in s)


def test_each_list_declares_its_own_sort_and_filter_fields(openapi: dict[str, Any]) -> None:
    from tenants.parties.api import customer_crud

    sort_by = _param(openapi, "/api/customer/customers", "sort_by")
    assert _enum(sort_by) == sorted(customer_crud.spec.sort)
    filter_field = _param(openapi, "/api/customer/customers", "filter_field")
    assert _enum(filter_field) == sorted(customer_crud.spec.filters)
    # Operators per type are documented with the field.
    assert "`credit_limit` (number): equals, greaterThan, lessThan, between" in filter_field["description"]
    assert "`name` (text): contains, equals, startsWith, endsWith, between" in filter_field["description"]
    # Another list has other fields: the enums are per list, not shared.
    assert _enum(_param(openapi, "/api/yard", "sort_by")) != _enum(sort_by)
    # Every kit list (and its export) declares them.
    untyped = [
        path
        for path, item in openapi["paths"].items()
        if "get" in item and item["get"]["operationId"].endswith(("_list", "_export"))
        for p in item["get"].get("parameters", [])
        if p["name"] in ("sort_by", "filter_field")
        and not any("enum" in s for s in [p["schema"], *p["schema"].get("anyOf", [])])
        # A list with nothing to sort or filter by says so: the parameter takes no value.
        and p["schema"].get("type") != "null"
    ]
    assert untyped == []


def test_unknown_sort_or_filter_fields_and_operators_are_refused(api_a: Api) -> None:
    res = api_a.get("/api/job-log", {"filter_field": "password"})
    assert res.status_code == 422
    assert res.json()["detail"].startswith("Cannot filter by 'password'. Filterable fields: ")
    res = api_a.get("/api/customer/customers", {"sort_by": "password"})
    assert res.status_code == 422
    assert res.json()["detail"].startswith("Cannot sort by 'password'. Sortable fields: account_number")
    res = api_a.get(
        "/api/customer/customers", {"filter_field": "notes", "filter_operator": "equals", "filter_value": "x"}
    )
    assert res.status_code == 422 and res.json()["detail"].startswith("Cannot filter by 'notes'.")
    res = api_a.get(
        "/api/yard", {"filter_field": "is_active", "filter_operator": "between", "filter_value": "a,b"}
    )
    assert res.status_code == 422 and res.json()["detail"] == "is_active only supports equals, not between."
    res = api_a.get(
        "/api/yard", {"filter_field": "name", "filter_operator": "greaterThan", "filter_value": "a"}
    )
    assert res.status_code == 422 and "name only supports contains, equals" in res.json()["detail"]


def test_save_object_sets_only_writable_fields(tenant_a: Any, in_tenant: Any) -> None:
    from core.crud import save_object
    from tenants.catalog.models import ProductCategory

    with in_tenant(tenant_a):
        with pytest.raises(TypeError, match="does not take id"):
            save_object(ProductCategory(), {"name": "Lubes", "id": 99})
        with pytest.raises(TypeError, match="does not take created_at, is_admin"):
            save_object(ProductCategory(), {"name": "Lubes", "created_at": None, "is_admin": True})
        with pytest.raises(TypeError, match="does not take description"):
            save_object(ProductCategory(), {"name": "Lubes", "description": "x"}, allowed={"name"})
        saved = save_object(ProductCategory(), {"name": "Lubes", "description": "Oils"})
        assert ProductCategory.objects.get(pk=saved.pk).description == "Oils"


def test_crud_writes_take_the_input_schema_fields_only(tenant_a: Any, in_tenant: Any) -> None:
    from tenants.catalog.api import category_crud

    with in_tenant(tenant_a), pytest.raises(TypeError, match="product_category: id not in"):
        category_crud.create_row({"name": "Lubes", "id": 7})
