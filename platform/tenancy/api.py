"""Public endpoints of the platform: company signup and health."""

from core import csp, ratelimit
from core.envelope import Answer, Envelope, ok
from core.storage import check_storage
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest
from ninja import Router, Schema
from ninja.responses import Status

from tenancy.services import provision_tenant
from tenants.accounts.auth import session_for
from tenants.accounts.schemas import SessionOut, SignupIn

router = Router(tags=["platform"])


@router.post("/tenant", response={201: Envelope[SessionOut]}, auth=None, operation_id="tenant_signup")
def signup(request: HttpRequest, payload: SignupIn) -> Answer:
    ratelimit.hit(
        "signup-ip",
        ratelimit.client_ip(request),
        settings.SIGNUP_RATE_LIMIT_PER_IP,
        3600,
        "Too many signups from this address.",
    )
    tenant, admin = provision_tenant(
        company_name=payload.company_name,
        admin_email=str(payload.email),
        admin_name=payload.name,
        admin_password=payload.password,
    )
    connection.set_tenant(tenant)
    session = session_for(admin, tenant)
    connection.set_schema_to_public()
    return ok(session, f"Welcome to FuelDesk, {tenant.name} is ready.", status=201)


@router.get("/ping", response=Envelope[None], auth=None, operation_id="ping")
def ping(request: HttpRequest) -> Answer:
    """A no-op, for load balancers and as the baseline of the auth-overhead benchmark."""
    return ok(None, "pong")


class HealthOut(Schema):
    database: str
    redis: str
    storage: str


@router.get(
    "/health", response={200: Envelope[HealthOut], 503: Envelope[HealthOut]}, auth=None, operation_id="health"
)
def health(request: HttpRequest) -> Answer:
    checks = {"database": "ok", "redis": "ok", "storage": "ok"}
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
    healthy = all(v == "ok" for v in checks.values())
    status = 200 if healthy else 503
    return Status(
        status,
        {
            "status_code": status,
            "message": "All systems operational" if healthy else "Degraded",
            "data": checks,
        },
    )


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
