"""Company signup (`POST /api/tenant`): the platform provisions the company (tenancy/services.py),
this app answers with the first admin's session. It lives here, not in tenancy/api.py, because the
session and its schemas are this app's and the platform sits below the domain apps."""

from core import ratelimit
from core.envelope import Answer, Envelope, ok
from django.conf import settings
from django.db import connection
from django.http import HttpRequest
from ninja import Router
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


routes = [("", router)]
