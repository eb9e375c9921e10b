"""Conventions every route follows: readable unique operation ids, both `path` and `path/`, the
envelope, and tenant resolution by Host for tenants that have their own domain."""

import re

from conftest import Api, token_for


def test_operation_ids_are_unique_and_readable():
    from fueldesk.api import api

    schema = api.get_openapi_schema(path_prefix="/api")
    ids = [op["operationId"] for methods in schema["paths"].values() for op in methods.values()]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids), [
        i for i in ids if not re.fullmatch(r"[a-z][a-z0-9_]*", i)
    ]
    assert len(ids) > 100


def test_trailing_slash_is_optional_and_the_envelope_is_uniform(api_a):
    plain = api_a.get("/api/user-account")
    slashed = api_a.get("/api/user-account/")
    assert plain.status_code == slashed.status_code == 200
    for body in (plain.json(), slashed.json()):
        assert set(body) == {"status_code", "message", "data"}
        assert set(body["data"]) == {"items", "total", "page", "size", "pages"}


def test_a_token_sent_to_another_tenants_domain_is_refused(tenant_a, tenant_b, in_tenant):
    from core.middleware import clear_tenant_cache
    from tenancy.models import Domain

    Domain.objects.create(domain="bravo.fueldesk.test", tenant=tenant_b.tenant, is_primary=True)
    clear_tenant_cache()
    token_a = token_for(tenant_a)
    res = Api(token_a).get("/api/profile", HTTP_HOST="bravo.fueldesk.test")
    assert res.status_code == 401 and res.json() == {"detail": "This token belongs to another company."}
    res = Api(token_for(tenant_b)).get("/api/profile", HTTP_HOST="bravo.fueldesk.test")
    assert res.status_code == 200 and res.json()["data"]["tenant"]["schema_name"] == tenant_b.schema
    clear_tenant_cache()


def test_every_openapi_schema_name_stands_for_one_schema() -> None:
    """django-ninja names a component after its class: two apps' `CustomerRef` would silently share
    one entry in /api/openapi.json, so the generated SPA client would type one app's answer with the
    other's fields. Prefix a schema with its domain instead (e.g. `SalesCustomerRef`)."""
    from fueldesk.api import api
    from ninja import Schema

    components = set(api.get_openapi_schema().get("components", {}).get("schemas", {}))

    def subclasses(cls: type[Schema]) -> list[type[Schema]]:
        found: list[type[Schema]] = []
        for sub in cls.__subclasses__():
            found += [sub, *subclasses(sub)]
        return found

    shapes: dict[str, set[tuple[str, tuple[str, ...]]]] = {}
    for schema in subclasses(Schema):
        if schema.__name__ in components:
            shapes.setdefault(schema.__name__, set()).add(
                (schema.__module__, tuple(sorted(schema.model_fields)))
            )
    clashes = {
        name: sorted(module for module, _ in found)
        for name, found in shapes.items()
        if len({fields for _, fields in found}) > 1
    }
    assert not clashes, f"one OpenAPI name, several schemas: {clashes}"
