"""Permission codes (`<resource>.<action>`) and the auth classes every tenant endpoint declares.

Resources register themselves; the registry is the source of the `Permission` rows seeded into
each tenant and of the permission matrix the SPA shows.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from core import scoping
from core.errors import ApiError
from core.observability import tag_request

CRUD_ACTIONS = ("view", "add", "change", "delete")
ACTION_VERBS = {"view": "view", "add": "create", "change": "change", "delete": "delete"}


@dataclass(frozen=True)
class PermissionDef:
    code: str
    resource: str
    action: str
    name: str


_REGISTRY: dict[str, PermissionDef] = {}
# The signed-in user of the request being served, for services that must know who acts.
_acting_user: ContextVar[Any] = ContextVar("acting_user", default=None)


def acting_user() -> Any:
    return _acting_user.get()


def begin_request() -> tuple[Any, Any]:
    """Forget the previous request's user and row scope (a thread serves many requests)."""
    return _acting_user.set(None), scoping.begin_request()


def end_request(tokens: tuple[Any, Any]) -> None:
    _acting_user.reset(tokens[0])
    scoping.end_request(tokens[1])


_RESOURCE_LABELS: dict[str, str] = {}


def register_resource(resource: str, label: str, actions: tuple[str, ...] = CRUD_ACTIONS) -> None:
    """Declare a resource's permission codes; calling again adds actions (e.g. workflow actions)."""
    _RESOURCE_LABELS[resource] = label
    for action in actions:
        code = f"{resource}.{action}"
        verb = ACTION_VERBS.get(action, action.replace("_", " "))
        _REGISTRY[code] = PermissionDef(code, resource, action, f"Can {verb} {label.lower()}")


_complete = False


def mark_registry_complete() -> None:
    """Called by the composition root (fueldesk's AppConfig.ready) once every API module is loaded:
    resources register when their API modules load, and the kit imports none of them."""
    global _complete
    _complete = True


def registered_permissions() -> list[PermissionDef]:
    if not _complete:
        # A partial registry would make sync_permissions delete the rows of resources not loaded yet.
        raise RuntimeError("the permission registry is read before the composition root filled it")
    return sorted(_REGISTRY.values(), key=lambda p: (p.resource, p.action))


def resource_label(resource: str) -> str:
    return _RESOURCE_LABELS.get(resource, resource.replace("_", " "))


def denial_message(code: str) -> str:
    resource, _, action = code.partition(".")
    verb = ACTION_VERBS.get(action, action.replace("_", " "))
    return f"You do not have permission to {verb} {resource_label(resource).lower()}."


def current_user(request: HttpRequest) -> Any:
    """The signed-in user of a tenant request, loaded once per request."""
    cached = getattr(request, "_current_user", None)
    if cached is not None:
        return cached
    claims = getattr(request, "claims", None)
    if claims is None:
        return None
    from core.authcache import Revoked, user_for_claims

    try:
        user = user_for_claims(claims)
    except Revoked as exc:
        raise ApiError(401, "You have been logged out.") from exc
    request._current_user = user  # type: ignore[attr-defined]
    return user


class TenantAuth(HttpBearer):
    """Bearer auth for tenant endpoints, optionally requiring one permission code."""

    def __init__(self, permission: str | None = None) -> None:
        super().__init__()
        self.permission = permission
        if permission and permission not in _REGISTRY:
            resource, _, action = permission.partition(".")
            register_resource(resource, resource_label(resource), (action,))

    def __call__(self, request: HttpRequest) -> Any:
        auth_error = getattr(request, "auth_error", None)
        if auth_error:
            raise ApiError(auth_error[0], auth_error[1])
        if getattr(request, "claims", None) is None:
            return None
        user = current_user(request)
        if user is None:
            raise ApiError(401, "Your session is no longer valid. Please log in again.")
        if self.permission and not user.has_perm(self.permission):
            raise ApiError(403, denial_message(self.permission))
        _acting_user.set(user)
        scoping.note_grant(user, self.permission)
        # The request's log line and Sentry events name the company, the role and the user.
        tag_request(request.claims.tenant_schema, user.role.name if user.role else None, user.pk)  # type: ignore[attr-defined]
        return user

    def authenticate(self, request: HttpRequest, token: str) -> Any:  # pragma: no cover - __call__ does it
        return None


def perm(code: str | None = None) -> TenantAuth:
    return TenantAuth(code)
