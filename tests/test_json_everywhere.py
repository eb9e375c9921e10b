"""Every answer under /api is JSON `{"detail": ...}`: unknown paths (404), wrong methods (405 with
an Allow header), oversized bodies (413) and unexpected errors (500) included."""

from __future__ import annotations

import re

import pytest

from conftest import Api

METHODS = ("get", "post", "put", "patch", "delete")


def api_paths() -> dict[str, set[str]]:
    """Every route of the API (hidden ones too) as a concrete URL -> the methods it answers."""
    from django.urls import resolve
    from fueldesk.api import api

    routes: dict[str, set[str]] = {}
    for pattern in api.urls[0]:
        route = str(pattern.pattern)
        if route in {"openapi.json", "docs", ""}:
            continue
        url = "/api/" + re.sub(r"<path:[^>]+>", "x/y", re.sub(r"<(?:int:|str:)?[^>]+>", "1", route))
        callback = resolve(url).func
        views = [c.cell_contents for c in (getattr(callback, "__closure__", None) or ())]
        path_view = next(v for v in views if type(v).__name__ == "PathView")
        routes[url] = {m.lower() for op in path_view.operations for m in op.methods}
    return routes


def schema_paths() -> list[str]:
    from fueldesk.api import api

    return list(api.get_openapi_schema(path_prefix="/api")["paths"])


def concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "1", path)


def template_regex(path: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "/?$")


def assert_json_detail(res, status: int | None = None) -> dict:
    assert res["Content-Type"].startswith("application/json"), (res.status_code, res["Content-Type"])
    body = res.json()
    assert isinstance(body.get("detail"), str) and body["detail"], body
    if status is not None:
        assert res.status_code == status, (res.status_code, body)
    return body


def test_every_route_answers_a_wrong_method_with_a_json_405_and_its_allow_header(api_a):
    routes = api_paths()
    assert len(routes) > 50
    checked = 0
    for url, served in routes.items():
        for method in sorted(set(METHODS) - served):
            res = getattr(api_a.client, method)(url, HTTP_AUTHORIZATION=f"Bearer {api_a.token}")
            body = assert_json_detail(res, 405)
            allowed = {m.strip().lower() for m in res["Allow"].split(",")}
            assert allowed == served, (method, url, res["Allow"])
            assert method.upper() in body["detail"]
            checked += 1
    assert checked > 100


def test_every_made_up_sibling_path_is_a_json_404(api_a):
    paths = schema_paths()
    patterns = [template_regex(p) for p in paths]
    checked = 0
    for path in paths:
        parent = concrete(path).rsplit("/", 1)[0]
        made_up = f"{parent}/no-such-route-qx7"
        res = api_a.client.get(made_up, HTTP_AUTHORIZATION=f"Bearer {api_a.token}")
        if any(p.match(made_up) for p in patterns):
            # The made-up segment fills a parameter of a real route: whatever it says, it is JSON.
            assert res["Content-Type"].startswith("application/json"), made_up
            continue
        body = assert_json_detail(res, 404)
        assert made_up in body["detail"]
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("path", ["/api/nonexistent", "/api", "/api/customer/customers/abc", "/api/../etc"])
def test_unknown_api_paths_are_json_404_signed_in_or_not(api_a, path):
    assert_json_detail(api_a.client.get(path, HTTP_AUTHORIZATION=f"Bearer {api_a.token}"), 404)
    assert_json_detail(Api(None).client.get(path), 404)


def test_the_spec_example_patch_on_a_customer_is_a_json_405(api_a):
    res = api_a.client.patch("/api/customer/customers/1", HTTP_AUTHORIZATION=f"Bearer {api_a.token}")
    body = assert_json_detail(res, 405)
    assert set(res["Allow"].replace(" ", "").split(",")) >= {"GET", "PUT", "DELETE"}
    assert body["detail"].startswith("The method PATCH is not allowed on /api/customer/customers/1.")


def test_an_unexpected_error_is_a_json_500(api_a, monkeypatch):
    from core.crud import Crud
    from core.listsql import ListStatements

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    # Both ways a kit list is read: through the ORM, or by its kept statements (core/listsql.py,
    # once another test has taught it the shape).
    monkeypatch.setattr(Crud, "list_queryset", boom)
    monkeypatch.setattr(ListStatements, "page", boom)
    res = Api(api_a.token).client.get("/api/user-account", HTTP_AUTHORIZATION=f"Bearer {api_a.token}")
    body = assert_json_detail(res, 500)
    assert "kaboom" not in body["detail"]


def test_an_error_outside_the_api_handlers_is_a_json_500(api_a, monkeypatch):
    from core import middleware

    def boom(*args, **kwargs):
        raise RuntimeError("middleware kaboom")

    monkeypatch.setattr(middleware, "tenant_by_schema", boom)
    client = Api(api_a.token).client
    client.raise_request_exception = False
    res = client.get("/api/user-account", HTTP_AUTHORIZATION=f"Bearer {api_a.token}")
    body = assert_json_detail(res, 500)
    assert "kaboom" not in body["detail"]


def test_the_spa_still_gets_html_outside_api(anon, db):
    res = anon.client.get("/customer/list")
    assert res.status_code == 200 and res["Content-Type"].startswith("text/html")


def test_products_of_a_category_take_the_category_from_the_path_only(api_a):
    from fueldesk.api import api

    op = api.get_openapi_schema(path_prefix="/api")["paths"][
        "/api/product/products/products_category/{category_id}"
    ]["get"]
    names = [(p["name"], p["in"]) for p in op["parameters"]]
    assert [n for n in names if n[0] == "category_id"] == [("category_id", "path")]
    fuel = api_a.post("/api/product-category", {"name": "Fuel"}).json()["data"]
    lubes = api_a.post("/api/product-category", {"name": "Lubricants"}).json()["data"]
    for code, category in (("F1", fuel), ("L1", lubes)):
        res = api_a.post(
            "/api/product/products",
            {"name": code, "code": code, "sold_as": "each", "category_id": category["id"]},
        )
        assert res.status_code == 201, res.json()
    # A category_id in the query cannot override the path's (it used to be declared twice).
    res = api_a.get(f"/api/product/products/products_category/{fuel['id']}", {"category_id": lubes["id"]})
    assert res.status_code == 200 and [p["code"] for p in res.json()["data"]["items"]] == ["F1"]


def test_every_collection_answers_an_undocumented_method_with_a_405(api_a):
    """A collection path (no parameter: `/api/product-category`) takes exactly the methods the
    OpenAPI document lists for it; any other is a JSON 405 with an Allow header of those methods (a
    PUT without an id used to be a 422 on three catalog collections)."""
    from fueldesk.api import api

    checked = 0
    for path, ops in api.get_openapi_schema(path_prefix="/api")["paths"].items():
        if "{" in path:
            continue
        documented = {m for m in ops if m in METHODS}
        for method in sorted(set(METHODS) - documented):
            body = {} if method == "get" else {"data": "{}", "content_type": "application/json"}
            res = getattr(api_a.client, method)(path, **body, HTTP_AUTHORIZATION=f"Bearer {api_a.token}")
            assert_json_detail(res, 405)
            assert {m.strip().lower() for m in res["Allow"].split(",")} == documented, (method, path)
            checked += 1
    assert checked > 300
