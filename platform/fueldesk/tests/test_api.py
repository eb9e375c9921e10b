"""The composition root (platform/fueldesk/api.py): every app's routes are mounted under /api, each
operation has a unique readable id, and every operation documents the `{detail}` errors it answers."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

from fueldesk.api import DOMAIN_API_MODULES, api

ROOT = Path(__file__).resolve().parents[3]


def modules_with_routes() -> set[str]:
    """The api modules that declare `routes` (an app's routes not listed in the root are never served)."""
    found = set()
    for base in ("platform", "."):
        modules = (
            ("*/**/*api.py", "*/**/api/__init__.py") if base == "." else ("*/*api.py", "*/api/__init__.py")
        )
        for path in (p for pattern in modules for p in (ROOT / base).glob(pattern)):
            rel = path.relative_to(ROOT / base)
            if "tests" in rel.parts or ".venv" in rel.parts or rel.parts[0] not in ("tenancy", "tenants"):
                continue
            if re.search(r"^routes(: [^=]+)? = ", path.read_text(), re.M):  # annotated or not
                parts = rel.with_suffix("").parts
                found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_every_module_with_routes_is_mounted_and_serves_them() -> None:
    assert modules_with_routes() == set(DOMAIN_API_MODULES)
    paths = set(api.get_openapi_schema(path_prefix="/api")["paths"])
    for name in DOMAIN_API_MODULES:
        for prefix, _router in import_module(name).routes:
            assert any(p == f"/api{prefix}" or p.startswith(f"/api{prefix}/") for p in paths), (name, prefix)


def test_operation_ids_are_unique_and_name_the_tag_and_the_function() -> None:
    schema = api.get_openapi_schema(path_prefix="/api")
    ids = [op["operationId"] for methods in schema["paths"].values() for op in methods.values()]
    assert len(ids) == len(set(ids))
    get_ticket = schema["paths"]["/api/delivery-ticket/{id}"]["get"]
    assert get_ticket["operationId"] == "delivery_ticket_get_ticket"


def test_every_operation_documents_its_errors_as_detail() -> None:
    schema = api.get_openapi_schema(path_prefix="/api")
    detail = {"$ref": "#/components/schemas/ErrorDetail"}
    ticket = schema["paths"]["/api/delivery-ticket/{id}"]["get"]["responses"]
    for status in ("401", "403", "404", "422"):
        assert ticket[status]["content"]["application/json"]["schema"] == detail, status
    generate = schema["paths"]["/api/delivery-ticket/entry/{sales_order_id}"]["post"]["responses"]
    assert {"400", "409", "413", "415", "422"} <= set(generate)
    assert schema["components"]["schemas"]["ErrorDetail"]["required"] == ["detail"]
