"""schemathesis against /api/openapi.json, in-process through the WSGI app with an admin's token:
no 5xx anywhere, and every response matches its declared schema."""

from __future__ import annotations

import json
import os

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from conftest import token_for

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings_test")

from fueldesk.wsgi import application


def _load_schema() -> schemathesis.openapi.loaders.OpenApiSchema:  # type: ignore[name-defined]
    # The document is built in-process (fetching it through the app would touch the database
    # at collection time); requests then go through the real WSGI app.

    from fueldesk.api import api

    loaded = schemathesis.openapi.from_dict(
        json.loads(json.dumps(api.get_openapi_schema(path_prefix="/api")))
    )
    loaded.app = application
    loaded.location = "/api/openapi.json"
    return loaded


schema = _load_schema()
# Every answer must be declared: its status code, its content type, its headers and its body.
CHECKS = (
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_headers_conformance,
    schemathesis.checks.response_schema_conformance,
)
MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))

# Dictionaries: values that broke the API before (issue 23 §2), tried on every parameter they fit,
# beside what hypothesis generates. A NUL in any free text (Postgres cannot store it), the first
# and last days of the calendar in any date (a range's end is the day after), and the first and last
# instants in any date-time (with offsets that push them out of UTC's calendar).
NUL_TEXTS = ("a\x00b",)
EXTREME_DATES = ("9999-12-31", "0001-01-01")
EXTREME_DATETIMES = ("9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59")
# Generated dates and date-times lean on the extremes too.
schemathesis.openapi.format("date", st.sampled_from(EXTREME_DATES) | st.dates().map(lambda d: d.isoformat()))
schemathesis.openapi.format(
    "date-time",
    st.sampled_from(EXTREME_DATETIMES) | st.datetimes().map(lambda d: d.isoformat()),
)

# Routes whose side effects would end the fuzzing session itself.
SKIP_OPERATIONS = {"auth_logout"}


@pytest.fixture(autouse=True)
def _keep_test_connection():
    """Django's test client stops the request signals from closing the test's connection; this
    WSGI client does not, so do it here as the test client does."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def admin_headers(tenant_a):
    from core import metrics

    # A deployment has a worker beating: /api/health is then a 200 (without one it is a documented 503).
    metrics.beat("fuzz:worker")
    return {"Authorization": f"Bearer {token_for(tenant_a)}"}


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
def test_api_never_fails_and_matches_its_schema(case, admin_headers):
    if case.operation.definition.raw.get("operationId") in SKIP_OPERATIONS:
        pytest.skip("ends the session under test")
    # Each case runs as a request of its own would: in production a request's failed statement
    # (a DataError the kit answers with a 422, e.g. an id past bigint reaching SQL) ends with its
    # request, but here every case shares the test's transaction, which the failure leaves aborted,
    # so the next case would fail with a 500 it did not cause. A savepoint per case keeps them apart.
    # A generated `Host` header is the transport's, not an API parameter: Django refuses one that is
    # not a valid name (DisallowedHost, a 400 "The request is malformed") before any route, for every
    # path alike, so no operation declares it (seen once: `host: !=E]6I2` on GET /api/terminal/all).
    case.headers.pop("host", None)
    savepoint = transaction.savepoint()
    try:
        response = case.call(headers=admin_headers)
    finally:
        transaction.savepoint_rollback(savepoint)
    assert response.status_code < 500, (
        case.method,
        case.formatted_path,
        response.status_code,
        response.text[:500],
    )
    case.validate_response(response, checks=CHECKS)


def _dictionary_values(param: dict) -> tuple[str, ...]:
    schema = param.get("schema", {})
    options = schema.get("anyOf", [schema])
    if any(o.get("format") == "date" for o in options):
        return EXTREME_DATES
    if any(o.get("format") == "date-time" for o in options):
        return EXTREME_DATETIMES
    if any(
        o.get("type") == "string" and not o.get("format") and "enum" not in o and "pattern" not in o
        for o in options
    ):
        return NUL_TEXTS
    return ()


def _dictionary_cases() -> list[tuple[str, str, str, str]]:
    """(path, method, parameter, value) for every query parameter of every read the dictionaries fit."""
    document = json.loads(json.dumps(api_document()))
    cases = []
    for path, methods in document["paths"].items():
        op = methods.get("get")
        if not op:
            continue
        for param in op.get("parameters", []):
            if param["in"] == "query":
                cases += [(path, "GET", param["name"], value) for value in _dictionary_values(param)]
    return cases


def api_document() -> dict:
    from fueldesk.api import api

    return api.get_openapi_schema(path_prefix="/api")


def test_dictionary_values_are_refused_or_answered_as_documented(admin_headers):
    """Every read with each dictionary value in each parameter it fits (ids in paths: 1): never a
    5xx, and the answer (status, content type, body) is one the document declares."""
    cases = _dictionary_cases()
    assert len(cases) > 80
    failures = []
    for path, method, name, value in cases:
        operation = schema[path][method]
        path_parameters = {p.name: 1 for p in operation.path_parameters}
        case = operation.Case(path_parameters=path_parameters, query={name: value})
        response = case.call(headers=admin_headers)
        try:
            assert response.status_code < 500, response.text[:300]
            case.validate_response(response, checks=CHECKS)
        except Exception as exc:  # gather every failure, then fail once
            failures.append((method, path, name, repr(value), response.status_code, str(exc)[:300]))
    assert not failures, failures
