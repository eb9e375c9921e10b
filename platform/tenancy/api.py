"""Public endpoints of the platform: ping, health and CSP reports (signup: tenants/accounts/signup_api.py)."""

from typing import Any

from core import csp
from core.envelope import Answer, Envelope, ok
from core.storage import check_storage
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest
from ninja import Field, Router, Schema
from ninja.responses import Status

from tenancy.health import run_checks

router = Router(tags=["platform"])


@router.get("/ping", response=Envelope[None], auth=None, operation_id="ping")
def ping(request: HttpRequest) -> Answer:
    """A no-op, for load balancers and as the baseline of the auth-overhead benchmark."""
    return ok(None, "pong")


class HealthOut(Schema):
    database: str
    redis: str
    storage: str
    worker: str = Field(..., description='"ok", or "error: ..." when no worker beat recently')
    worker_heartbeat_age_seconds: float | None = None
    workers_alive: int = 0
    spare_pool: str = Field(..., description='"ok", or "warning: ..." when no spare schema is ready')
    spare_schemas: int | None = None
    migrations: str = Field(..., description='"ok", or "error: ..." when migrations are not applied')
    pending_migrations: list[str] = []


@router.get(
    "/health", response={200: Envelope[HealthOut], 503: Envelope[HealthOut]}, auth=None, operation_id="health"
)
def health(request: HttpRequest) -> Answer:
    """What is wrong, for an operator: each dependency is "ok", "warning: ..." or "error: ...";
    any error makes it a 503. Load balancers call /api/health/live."""
    checks: dict[str, Any] = {"database": "ok", "redis": "ok", "storage": "ok"}
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
    except Exception as exc:
        checks["database"] = f"error: {type(exc).__name__}"
    try:
        cache.set("health-probe", 1, timeout=5)
        if cache.get("health-probe") != 1:
            checks["redis"] = "error: value not read back"
    except Exception as exc:
        checks["redis"] = f"error: {type(exc).__name__}"
    try:
        check_storage()
    except Exception as exc:
        checks["storage"] = f"error: {type(exc).__name__}"
    checks.update(run_checks())
    problems = [
        f"{name}: {value}" for name, value in checks.items() if isinstance(value, str) and value != "ok"
    ]
    healthy = not any(isinstance(v, str) and v.startswith("error") for v in checks.values())
    status = 200 if healthy else 503
    message = "All systems operational" if not problems else "; ".join(problems)
    return Status(status, {"status_code": status, "message": message, "data": checks})


@router.get("/health/live", response=Envelope[None], auth=None, operation_id="health_live")
def health_live(request: HttpRequest) -> Answer:
    """The process answers (no database, no Redis): what load balancers and container checks call."""
    return ok(None, "alive")


class CspReportOut(Schema):
    violations: int


_REPORT_SCHEMA = {"type": "object", "additionalProperties": True}
CSP_REPORT_BODY = {
    "required": True,
    "description": 'A report-uri body (`{"csp-report": {...}}`) or a Reporting API batch.',
    "content": {
        "application/csp-report": {"schema": _REPORT_SCHEMA},
        "application/reports+json": {"schema": {"type": "array", "items": _REPORT_SCHEMA}},
        "application/json": {
            "schema": {"anyOf": [_REPORT_SCHEMA, {"type": "array", "items": _REPORT_SCHEMA}]}
        },
    },
}


@router.post(
    "/csp-report",
    response={202: Envelope[CspReportOut]},
    auth=None,
    operation_id="csp_report",
    openapi_extra={"requestBody": CSP_REPORT_BODY},
)
def csp_report(request: HttpRequest) -> Answer:
    """Where browsers report Content-Security-Policy violations of the SPA's pages (core/csp.py):
    each is logged; at most CSP_REPORTS_PER_MINUTE bodies a minute per address."""
    count = csp.receive_report(request)
    return Status(202, {"status_code": 202, "message": "Report received.", "data": {"violations": count}})


routes = [("", router)]
