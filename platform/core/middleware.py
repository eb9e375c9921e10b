"""Request plumbing: the request id and its log line, `/api` path normalisation, JSON answers for
every `/api` error, and tenant resolution from the access token."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import Any, Protocol

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django_tenants.utils import get_public_schema_name, get_tenant_domain_model, get_tenant_model, remove_www
from whitenoise.middleware import WhiteNoiseMiddleware

from core import metrics, observability
from core.permissions import begin_request, end_request
from core.tokens import AccessClaims, TokenError, decode_access_token


class Tenant(Protocol):
    """What the kit needs of the tenant model (settings.TENANT_MODEL, found through django-tenants'
    get_tenant_model(): the kit sits below the platform app that defines it)."""

    pk: Any
    schema_name: str

    @property
    def is_business(self) -> bool: ...  # a company (not a spare or the template schema)

    @property
    def is_active(self) -> bool: ...

    @property
    def is_suspended(self) -> bool: ...


# Tenants are looked up on every authenticated request; a short per-process cache keeps that off
# the database. Suspension takes effect within this many seconds on every worker.
TENANT_CACHE_SECONDS = 5.0
_tenant_cache: dict[str, tuple[float, Tenant | None]] = {}
_domain_cache: dict[str, tuple[float, Tenant | None]] = {}


def clear_tenant_cache() -> None:
    _tenant_cache.clear()
    _domain_cache.clear()


def tenant_by_schema(schema: str) -> Tenant | None:
    hit = _tenant_cache.get(schema)
    now = time.monotonic()
    if hit and now - hit[0] < TENANT_CACHE_SECONDS:
        return hit[1]
    tenant = get_tenant_model().objects.filter(schema_name=schema).first()
    _tenant_cache[schema] = (now, tenant)
    return tenant


def tenant_by_host(host: str) -> Tenant | None:
    hit = _domain_cache.get(host)
    now = time.monotonic()
    if hit and now - hit[0] < TENANT_CACHE_SECONDS:
        return hit[1]
    domain = get_tenant_domain_model().objects.select_related("tenant").filter(domain=host).first()
    tenant = domain.tenant if domain and domain.tenant.schema_name != get_public_schema_name() else None
    _domain_cache[host] = (now, tenant)
    return tenant


request_log = logging.getLogger("fueldesk.request")

# Probes a load balancer sends every few seconds: counted in the metrics, not logged line by line.
UNLOGGED_PATHS = frozenset({"/api/health/live", "/api/metrics"})


def route_of(request: HttpRequest) -> str:
    """The URL pattern that answered (``api/customer/<int:customer_id>``): one metric series per route,
    not per id. Unmatched paths fold into two series."""
    match = getattr(request, "resolver_match", None)
    if match is not None and match.route:
        return str(match.route)
    return "api:unmatched" if is_api_path(request.path) else "files"


class RequestTelemetryMiddleware:
    """Outermost: gives the request its id (a sane incoming ``X-Request-ID`` or a new one), returns it
    in the ``X-Request-ID`` header, and writes one log line (``fueldesk.request``: request id, tenant,
    user, role, method, route, status, duration, statement count) and the request metrics."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = observability.accept_request_id(request.headers.get(observability.REQUEST_ID_HEADER))
        request.request_id = request_id  # type: ignore[attr-defined]
        context = observability.Context(request_id)
        observability.tag_scope(request_id=request_id)
        counter = observability.QueryCounter()
        started = time.perf_counter()
        status = 500
        try:
            with connection.execute_wrapper(counter):
                response = self.get_response(request)
            status = response.status_code
            response[observability.REQUEST_ID_HEADER] = request_id
            return response
        finally:
            seconds = time.perf_counter() - started
            self._record(request, status, seconds, counter.count)
            context.close()

    def _record(self, request: HttpRequest, status: int, seconds: float, queries: int) -> None:
        route = route_of(request)
        tenant = getattr(getattr(request, "tenant", None), "schema_name", None)
        claims = getattr(request, "claims", None)
        try:
            metrics.observe_request(request.method or "", route, status, seconds, tenant)
        except Exception:  # metrics must never fail a request
            request_log.debug("could not record request metrics", exc_info=True)
        if request.path in UNLOGGED_PATHS and status < 400:
            return
        observability.bind_identity(tenant=tenant, user_id=claims.user_id if claims is not None else None)
        request_log.log(
            logging.WARNING if status >= 500 else logging.INFO,
            "%s %s %s in %.0f ms, %d statements",
            request.method,
            request.path,
            status,
            seconds * 1000,
            queries,
            extra={
                "event": "request",
                "method": request.method,
                "path": request.path,
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 1),
                "queries": queries,
            },
        )


class ApiPathMiddleware:
    """Accept both `path` and `path/` under /api: routes are declared without the trailing slash."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith("/api/") and len(path) > len("/api/") and path.endswith("/"):
            request.path_info = path.rstrip("/")
        return self.get_response(request)


def is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def api_error_detail(request: HttpRequest, status: int, allow: str = "") -> str:
    if status == 404:
        return f"Not found: there is no API route at {request.path}."
    if status == 405:
        return f"The method {request.method} is not allowed on {request.path}." + (
            f" Allowed: {allow}." if allow else ""
        )
    if status == 413:
        return "The request body is too large."
    if status >= 500:
        return "Something went wrong on our side. The error has been recorded."
    return "The request could not be handled."


class ApiJsonErrorsMiddleware:
    """Every answer under /api is JSON: Django's HTML 404s (unknown paths), django-ninja's plain-text
    405s (wrong methods; the Allow header stays) and error pages made outside the API's own error
    handlers become `{"detail": ...}` with the same status. Outermost, so it sees them all."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and is_api_path(request.path)
            and not str(response.get("Content-Type", "")).startswith("application/json")
        ):
            allow = str(response.get("Allow", ""))
            converted = JsonResponse(
                {"detail": api_error_detail(request, response.status_code, allow)},
                status=response.status_code,
            )
            if allow:
                converted["Allow"] = allow
            return converted
        return response


class TenantFromTokenMiddleware:
    """Activates the tenant named by the bearer token's `tid` claim (or by a tenant Domain's Host).

    Problems are not answered here: they are recorded on the request and the API's auth classes
    turn them into 401/403 bodies, so public endpoints (signup, login, health) keep working.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        connection.set_schema_to_public()
        request.tenant = None
        request.claims = None  # type: ignore[attr-defined]
        request.auth_error = None  # type: ignore[attr-defined]
        tokens = begin_request()
        try:
            self._resolve(request)
            return self.get_response(request)
        finally:
            end_request(tokens)
            connection.set_schema_to_public()

    def _resolve(self, request: HttpRequest) -> None:
        host = remove_www(request.get_host().split(":")[0])
        host_tenant = tenant_by_host(host)
        header = request.headers.get("Authorization", "")
        token = header[7:].strip() if header[:7].lower() == "bearer " else ""
        if not token:
            if host_tenant is not None and host_tenant.is_active:
                request.tenant = host_tenant
                connection.set_tenant(host_tenant)
            return
        try:
            claims: AccessClaims = decode_access_token(token)
        except TokenError as exc:
            request.auth_error = (401, str(exc))  # type: ignore[attr-defined]
            return
        tenant = tenant_by_schema(claims.tenant_schema)
        if tenant is None or not tenant.is_business:
            request.auth_error = (401, "This company account no longer exists.")  # type: ignore[attr-defined]
            return
        if host_tenant is not None and host_tenant.pk != tenant.pk:
            request.auth_error = (401, "This token belongs to another company.")  # type: ignore[attr-defined]
            return
        if tenant.is_suspended:
            request.auth_error = (  # type: ignore[attr-defined]
                403,
                "This company account is suspended. Contact FuelDesk support to restore access.",
            )
            return
        # Revocation is checked by the auth class with the user lookup, in one cache round trip.
        connection.set_tenant(tenant)
        request.tenant = tenant
        request.claims = claims  # type: ignore[attr-defined]


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise (the SPA's build and collected static files), told about ``STATIC_ROOT`` only when
    there is something to serve from it. No installed app ships static files today, so
    ``collectstatic`` copies nothing and creates no folder, and plain WhiteNoise warned "No directory
    at: …/var/static" at every web worker's start: noise in front of an operator. The warning stays
    where it means something: files to collect and no collected folder (``collectstatic`` not run)."""

    def add_files(self, root: str, prefix: str | None = None) -> None:
        if root == self.static_root and not os.path.isdir(root) and not _collectable_static_files():
            return
        super().add_files(root, prefix)


def _collectable_static_files() -> bool:
    from django.contrib.staticfiles import finders

    return any(True for finder in finders.get_finders() for _ in finder.list([]))
