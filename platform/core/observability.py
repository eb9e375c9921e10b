"""What an operator sees: request ids, structured (JSON) log lines, and Sentry events tagged with the
tenant, role, release and request id, never carrying passwords or tokens.

One request id follows a piece of work end to end: taken from a sane incoming ``X-Request-ID`` (a
load balancer's or a client's) or made here, returned in the answer's ``X-Request-ID`` header (the
SPA shows it in its error toast), put on every log line and Sentry event of the request, and stamped
into the messages the request queues, so the job's log line and events carry it too.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
import uuid
from typing import Any

REQUEST_ID_HEADER = "X-Request-ID"
# Sane: what a proxy or a client generates (a UUID, a hex or base64url id, an AWS trace id). Anything
# else (too long, spaces, control characters: a log-injection attempt) is replaced by our own id.
_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:=+/-]{7,127}$")

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("fd_request_id", default=None)
_tenant: contextvars.ContextVar[str | None] = contextvars.ContextVar("fd_tenant", default=None)
_role: contextvars.ContextVar[str | None] = contextvars.ContextVar("fd_role", default=None)
_user_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("fd_user_id", default=None)


def new_request_id() -> str:
    return uuid.uuid4().hex


def accept_request_id(incoming: str | None) -> str:
    """The incoming id when it is sane, else a new one."""
    if incoming and _SANE_REQUEST_ID.match(incoming):
        return incoming
    return new_request_id()


def current_request_id() -> str | None:
    return _request_id.get()


def current_role() -> str | None:
    return _role.get()


class Context:
    """Binds the request id (and, as they become known, tenant, role and user) for one request or job;
    ``close()`` restores what was bound before (a job run inside a test's request, for instance)."""

    def __init__(self, request_id: str, tenant: str | None = None, role: str | None = None) -> None:
        self._tokens: list[tuple[contextvars.ContextVar[Any], contextvars.Token[Any]]] = [
            (_request_id, _request_id.set(request_id)),
            (_tenant, _tenant.set(tenant)),
            (_role, _role.set(role)),
            (_user_id, _user_id.set(None)),
        ]

    def close(self) -> None:
        for var, token in reversed(self._tokens):
            try:
                var.reset(token)
            except ValueError:  # closed from another context: nothing of ours is bound there
                var.set(None)


def bind_identity(*, tenant: str | None = None, role: str | None = None, user_id: int | None = None) -> None:
    if tenant is not None:
        _tenant.set(tenant)
    if role is not None:
        _role.set(role)
    if user_id is not None:
        _user_id.set(user_id)


# --------------------------------------------------------------------------- structured logs

# Attributes every LogRecord has: anything else on a record came from ``extra=`` and is a field.
_RECORD_ATTRS = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request's id/tenant/role/user
    (from the context) and every ``extra=`` field of the call. Exceptions go in ``exc_info`` as text."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, var in (
            ("request_id", _request_id),
            ("tenant", _tenant),
            ("role", _role),
            ("user_id", _user_id),
        ):
            value = var.get()
            if value is not None:
                out[key] = value
        for key, value in record.__dict__.items():
            if key not in _RECORD_ATTRS and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)


class QueryCounter:
    """A ``connection.execute_wrapper``: counts the statements a request or job sends."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


# --------------------------------------------------------------------------- Sentry

SENSITIVE_KEYS = re.compile(r"pass(word)?|secret|token|authorization|cookie|api[_-]?key|signature", re.I)
FILTERED = "[Filtered]"


def scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: FILTERED if SENSITIVE_KEYS.search(str(k)) else scrub(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, str) and value.lower().startswith("bearer "):
        return FILTERED
    return value


def scrub_query(query: str) -> str:
    """A query string with the values of sensitive parameters (``?access_token=...``) filtered."""
    from urllib.parse import parse_qsl, urlencode

    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(k, FILTERED if SENSITIVE_KEYS.search(k) else v) for k, v in pairs])


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any] | None:
    request = event.get("request")
    if isinstance(request, dict):
        for key in ("headers", "data", "cookies", "env"):
            if key in request:
                request[key] = scrub(request[key])
        if isinstance(request.get("query_string"), str):
            request["query_string"] = scrub_query(request["query_string"])
        elif "query_string" in request:
            request["query_string"] = scrub(request["query_string"])
        if isinstance(request.get("url"), str) and "?" in request["url"]:
            base, _, query = request["url"].partition("?")
            request["url"] = f"{base}?{scrub_query(query)}"
    if "extra" in event:
        event["extra"] = scrub(event["extra"])
    tags = event.setdefault("tags", {})
    for key, var in (("request_id", _request_id), ("tenant", _tenant), ("role", _role)):
        value = var.get()
        if value and key not in tags:
            tags[key] = value
    try:
        from django.db import connection

        schema = getattr(connection, "schema_name", None)
        if schema and "tenant" not in tags:
            tags["tenant"] = schema
    except Exception:  # noqa: S110 - tagging must never break error reporting
        pass
    return event


def sentry_active() -> bool:
    try:
        import sentry_sdk

        return sentry_sdk.get_client().is_active()
    except Exception:
        return False


def tag_request(tenant_schema: str | None, role: str | None, user_id: int | None = None) -> None:
    """The signed-in user is known: their tenant and role go on the request's log line and events."""
    bind_identity(tenant=tenant_schema, role=role, user_id=user_id)
    if not sentry_active():
        return
    import sentry_sdk

    if tenant_schema:
        sentry_sdk.set_tag("tenant", tenant_schema)
    if role:
        sentry_sdk.set_tag("role", role)


def tag_scope(**tags: str | None) -> None:
    """Tags on the current Sentry scope (a request's or a job's isolation scope), when Sentry runs."""
    if not sentry_active():
        return
    import sentry_sdk

    for key, value in tags.items():
        if value:
            sentry_sdk.set_tag(key, value)


def init_sentry(dsn: str, environment: str, release: str | None = None) -> None:
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.dramatiq import DramatiqIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        integrations=[DjangoIntegration(), DramatiqIntegration()],
        send_default_pii=False,
        # A stack frame's variables hold what the request held (a login's payload, a token, a
        # customer's rows) in reprs no key-based scrubber sees: events carry the stack without them.
        include_local_variables=False,
        traces_sample_rate=0.05,
        before_send=before_send,  # type: ignore[arg-type]
    )
