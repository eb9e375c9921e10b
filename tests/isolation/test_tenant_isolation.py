"""Tenant B's token never reads or changes tenant A's rows, on every route of the API.

Both tenants hold their seeded rows under the same low ids (overlapping ids), plus a row of every
tenant model each; A's factory rows are then given ids from 5001, which exist in A only. Every route
with an integer path parameter is called with B's token for those ids with each of its methods; each
must answer 403/404/405/409/422, and every table of A must be unchanged.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection

from conftest import Api, token_for
from tests.model_factory import fill_tenant, table_fingerprint

ALLOWED = {403, 404, 405, 409, 422}


def id_routes() -> list[tuple[str, str]]:
    from fueldesk.api import api

    schema = api.get_openapi_schema(path_prefix="/api")
    routes = []
    for path, methods in schema["paths"].items():
        if not re.search(r"\{[^}]+\}", path):
            continue
        for method, op in methods.items():
            params = {p["name"]: p for p in op.get("parameters", []) if p["in"] == "path"}
            if params and all(p["schema"].get("type") == "integer" for p in params.values()):
                routes.append((method.upper(), path))
    return sorted(routes)


def test_the_isolation_suite_sees_the_routes() -> None:
    routes = id_routes()
    assert ("GET", "/api/user-account/{id}") in routes and ("DELETE", "/api/role/{id}") in routes
    assert len(routes) >= 15


A_ONLY_IDS = (5001, 5002, 5003)


@pytest.fixture
def overlapping(tenant_a, tenant_b, in_tenant):
    with in_tenant(tenant_b):
        fill_tenant(1)
    with in_tenant(tenant_a):
        with connection.cursor() as cur:
            cur.execute(
                """SELECT pg_get_serial_sequence(quote_ident(table_name), column_name)
                   FROM information_schema.columns
                   WHERE table_schema = current_schema() AND is_identity = 'YES'"""
            )
            for (seq,) in cur.fetchall():
                cur.execute("SELECT setval(%s, 5000)", [seq])
        made_a = fill_tenant(3)
    return made_a


@pytest.mark.parametrize(("method", "path"), id_routes())
def test_tenant_b_cannot_reach_tenant_a_rows(method, path, tenant_a, tenant_b, overlapping, in_tenant):
    with in_tenant(tenant_a):
        before = table_fingerprint()
    api_b = Api(token_for(tenant_b))
    for target in (*A_ONLY_IDS, 999_999):
        url = re.sub(r"\{[^}]+\}", str(target), path)
        res = api_b.call(method, url, {} if method in {"POST", "PUT"} else None)
        assert res.status_code in ALLOWED, (method, url, res.status_code, res.content[:300])
    connection.set_schema_to_public()
    with in_tenant(tenant_a):
        assert table_fingerprint() == before
