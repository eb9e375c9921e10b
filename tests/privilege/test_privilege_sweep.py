"""Privilege sweep: a driver's token on rows that are not his, and a no-permission user's token, on
every operation of the OpenAPI document (so routes added later join by themselves).

The company holds a row of every tenant model (tests/model_factory.py), the first of each table
with id 5001; its sales orders, tickets, notes and driver actions belong to ANOTHER driver and carry
marker texts. Each operation is called with path ids 5001, its required query parameters and a body
built from its schema (ids 5001). A 2xx answer fails unless the operation is on the reviewed
allow-list below (with its reason); no 2xx answer may show a marker (another driver's order, ticket,
note or refused action), and no answer may be a 5xx. Each call runs in a savepoint rolled back after
it, so one call's effect never hides another's.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import pytest
from django.db import connection, transaction

from conftest import Api, token_for
from tests.model_factory import fill_tenant

FOREIGN_ID = 5001
MARKERS = ("SO-FOREIGN-77", "DT-FOREIGN-77", "FOREIGN NOTE 77", "FOREIGN ACTION 77")
# Operations that end or change the caller's own session: called, they would end the sweep's token.
SKIPPED = {
    ("POST", "/api/logout"): "ends the caller's own session",
}

# Reviewed: operations any signed-in user may call with success, whatever the role holds.
SELF_SERVICE = {
    ("GET", "/api/role/current-user"): "the caller's own profile and permissions (the SPA needs them)",
    ("GET", "/api/profile"): "the caller's own profile",
    ("GET", "/api/session"): "whether the caller's own session is valid",
}
# Reviewed: what the Driver role may answer 2xx on, on rows that are not his (never showing them).
DRIVER_ALLOWED: dict[tuple[str, str], str] = {
    # His own stops only: the lists answer 200 with none of the other driver's rows (markers checked).
    ("GET", "/api/sales-order/sales-orders"): "own-scoped list: his stops only (none here)",
    ("GET", "/api/sales-order/sales-orders/board"): "own-scoped board: his stops only (none here)",
    ("GET", "/api/delivery-ticket"): "own-scoped list: his orders' tickets only (none here)",
    ("GET", "/api/note"): "own-scoped list: notes of his orders only (none here)",
    ("GET", "/api/driver-portal/todays-orders"): "the driver portal: his stops of the day",
    ("GET", "/api/driver-portal/daily-summary"): "the driver portal: his day",
    ("GET", "/api/driver-portal/conflicts"): "own-scoped: his own refused actions only (none here)",
    ("POST", "/api/driver-portal/actions"): "the portal's queue: each action is checked against his stops",
}
# Reference data the Driver role reads over the whole company (view only): the trucks he picks
# (company assets), where he delivers (ship-tos and the customer's tanks), what he delivers
# (products) and the company's name and logo for the ticket.
DRIVER_READS = {
    "/api/company-asset": "the trucks a driver picks for the day",
    "/api/customer-ship-to": "ship-to addresses of stops",
    "/api/customer-asset": "the customer's tanks at a stop",
    "/api/asset": "the customer's tanks at a stop",
    "/api/product": "the products a driver delivers",
    "/api/company-settings": "the company's name and logo on the ticket",
    "/api/company": "the company's name and logo on the ticket",
}


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = spec["components"]["schemas"][name]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [_resolve(s, spec) for s in schema[key] if s.get("type") != "null"]
            if options:
                return {**options[0], **{k: v for k, v in schema.items() if k not in (key,)}}
    return schema


def _example(schema: dict[str, Any], spec: dict[str, Any], name: str = "", depth: int = 0) -> Any:
    schema = _resolve(schema, spec)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        if depth > 4:
            return {}
        props = schema.get("properties", {})
        wanted = set(schema.get("required", [])) | {p for p in props if p.endswith("_id")}
        return {p: _example(props[p], spec, p, depth + 1) for p in sorted(wanted) if p in props}
    if kind == "array":
        return [_example(schema.get("items", {}), spec, name, depth + 1)] if depth <= 4 else []
    if kind == "integer":
        return FOREIGN_ID if name.endswith("id") or name.endswith("_ids") else 1
    if kind == "number":
        return 1
    if kind == "boolean":
        return True
    fmt = schema.get("format", "")
    if fmt == "date":
        return "2026-01-01"
    if fmt == "date-time":
        return "2026-01-01T10:00:00Z"
    if fmt == "email":
        return "someone@example.com"
    if name.endswith("_id") or name == "id":
        return str(FOREIGN_ID)
    return "x"


@functools.cache
def openapi() -> dict[str, Any]:
    from fueldesk.api import api

    return dict(api.get_openapi_schema(path_prefix="/api"))


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    spec = openapi()
    ops = []
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            if op.get("security"):  # public operations (log-in, sign-up, health) take no token
                ops.append((method.upper(), path, op))
    return sorted(ops, key=lambda o: (o[1], o[0]))


def build_call(method: str, path: str, op: dict[str, Any]) -> tuple[str, Any, dict[str, Any]]:
    """The URL (with its query string) and body of one call on the other driver's rows."""
    from urllib.parse import urlencode

    spec = openapi()
    url = path
    query: dict[str, Any] = {}
    for param in op.get("parameters", []):
        schema = param.get("schema", {})
        if param["in"] == "path":
            url = url.replace("{" + param["name"] + "}", str(_example(schema, spec, "id")))
        elif param["in"] == "query" and (param.get("required") or param["name"].endswith("_id")):
            query[param["name"]] = _example(schema, spec, param["name"])
    url = re.sub(r"\{[^}]+\}", str(FOREIGN_ID), url)
    if query:
        url += "?" + urlencode(
            {k: json.dumps(v) if isinstance(v, (dict, list)) else v for k, v in query.items()}
        )
    body = None
    extra: dict[str, Any] = {}
    content = (op.get("requestBody") or {}).get("content", {})
    if "application/json" in content:
        body = _example(content["application/json"]["schema"], spec)
    elif content:
        body, extra = {}, {"content_type": "multipart/form-data; boundary=BoUnDaRy"}
    return url, body, extra


@pytest.fixture
def company(tenant_a: Any, in_tenant: Any) -> dict[str, Any]:
    """A company with a row of every model; its orders belong to another driver (markers)."""
    from tenants.accounts.models import Role, User
    from tenants.accounts.services import create_user
    from tenants.delivery.models import DeliveryTicket
    from tenants.driver.models import DriverAction
    from tenants.fleet.models import Driver
    from tenants.sales.models import Note, SalesOrder

    with in_tenant(tenant_a):
        with connection.cursor() as cur:
            cur.execute(
                """SELECT pg_get_serial_sequence(quote_ident(table_name), column_name)
                   FROM information_schema.columns
                   WHERE table_schema = current_schema() AND is_identity = 'YES'"""
            )
            for (seq,) in cur.fetchall():
                cur.execute("SELECT setval(%s, 5000)", [seq])
        fill_tenant(1)
        driver_role = Role.objects.get(name="Driver")
        other_user = create_user(
            email="other.driver@alpha.test", name="Other Driver", password="Sweep-pass-123", role=driver_role
        )
        other = Driver.objects.create(name="Other Driver", user=other_user)
        Driver.objects.exclude(pk=other.pk).filter(user__isnull=False).update(user=None)
        SalesOrder.objects.update(driver=other, number=MARKERS[0], status=SalesOrder.Status.ASSIGNED)
        DeliveryTicket.objects.update(number=MARKERS[1])
        Note.objects.update(body=MARKERS[2], created_by=other_user)
        DriverAction.objects.update(user=other_user, driver=other, reason=MARKERS[3], outcome="conflict")
    driver_token = token_for(tenant_a, role="Driver", email="my.driver@alpha.test")
    nobody_token = token_for(tenant_a, role=None, email="nobody@alpha.test")
    with in_tenant(tenant_a):
        mine = User.objects.get(email="my.driver@alpha.test")
        Driver.objects.create(name="My Driver", user=mine)
        assert SalesOrder.objects.filter(pk=FOREIGN_ID, driver=other).exists()
    return {"driver": driver_token, "nobody": nobody_token}


def sweep(token: str, allowed: dict[tuple[str, str], str], tenant: Any) -> tuple[list[str], set[Any]]:
    """The problems found, and the operations that answered 2xx (allowed ones)."""
    api = Api(token)
    problems = []
    succeeded = set()
    connection.set_tenant(tenant.tenant)
    for method, path, op in operations():
        if (method, path) in SKIPPED:
            continue
        url, body, extra = build_call(method, path, op)
        sid = transaction.savepoint()
        try:
            if method in {"POST", "PUT", "PATCH"}:
                res = api.call(method, url, body if body is not None else {}, **extra)
            else:
                res = api.call(method, url)
        finally:
            transaction.savepoint_rollback(sid)
        raw = b"".join(res.streaming_content) if res.streaming else res.content
        text = raw.decode("utf-8", "replace")
        if res.status_code >= 500:
            problems.append(f"{method} {url}: {res.status_code} {text[:200]}")
        elif 200 <= res.status_code < 300:
            shown = [m for m in MARKERS if m in text]
            if shown:
                problems.append(f"{method} {url}: {res.status_code} shows another driver's rows {shown}")
            elif (method, path) not in allowed:
                problems.append(f"{method} {url}: {res.status_code} not on the allow-list: {text[:160]}")
            succeeded.add((method, path))
    return problems, succeeded


def test_the_sweep_sees_every_operation() -> None:
    ops = {(m, p) for m, p, _ in operations()}
    assert ("POST", "/api/delivery-ticket/entry/{sales_order_id}") in ops
    assert ("PUT", "/api/sales-order/sales-orders/{id}/start-delivery") in ops
    assert len(ops) >= 300
    # The allow-lists name operations that exist (a renamed route must be reviewed again).
    listed = set(SELF_SERVICE) | set(DRIVER_ALLOWED)
    assert listed - ops - set(SKIPPED) == set(), listed - ops


def driver_allowed() -> dict[tuple[str, str], str]:
    allowed = {**SELF_SERVICE, **DRIVER_ALLOWED}
    for method, path, _op in operations():
        for prefix, reason in DRIVER_READS.items():
            if method == "GET" and (path == prefix or path.startswith(prefix + "/")):
                allowed[(method, path)] = f"view-only reference data: {reason}"
    return allowed


def test_a_driver_reaches_no_row_that_is_not_his(company: dict[str, Any], tenant_a: Any) -> None:
    problems, succeeded = sweep(company["driver"], driver_allowed(), tenant_a)
    assert problems == [], "\n".join(problems)
    # The walker builds calls the routes accept: the driver's own-scoped lists and portal answered.
    assert {
        ("GET", "/api/sales-order/sales-orders"),
        ("GET", "/api/delivery-ticket"),
        ("GET", "/api/note"),
        ("GET", "/api/driver-portal/conflicts"),
        ("GET", "/api/company-asset"),
    } <= succeeded, sorted(succeeded)


def test_a_user_without_permissions_reaches_nothing(company: dict[str, Any], tenant_a: Any) -> None:
    problems, succeeded = sweep(company["nobody"], dict(SELF_SERVICE), tenant_a)
    assert problems == [], "\n".join(problems)
    assert ("GET", "/api/role/current-user") in succeeded
