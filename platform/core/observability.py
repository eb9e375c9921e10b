"""Sentry: errors and traces tagged with tenant and role, never carrying passwords or tokens."""

from __future__ import annotations

import re
from typing import Any

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


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any] | None:
    request = event.get("request")
    if isinstance(request, dict):
        for key in ("headers", "data", "cookies", "query_string", "env"):
            if key in request:
                request[key] = scrub(request[key])
    if "extra" in event:
        event["extra"] = scrub(event["extra"])
    try:
        from django.db import connection

        schema = getattr(connection, "schema_name", None)
        if schema:
            event.setdefault("tags", {})["tenant"] = schema
    except Exception:  # noqa: S110 - tagging must never break error reporting
        pass
    return event


def tag_request(tenant_schema: str | None, role: str | None) -> None:
    import sentry_sdk

    if tenant_schema:
        sentry_sdk.set_tag("tenant", tenant_schema)
    if role:
        sentry_sdk.set_tag("role", role)


def init_sentry(dsn: str, environment: str) -> None:
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.dramatiq import DramatiqIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), DramatiqIntegration()],
        send_default_pii=False,
        traces_sample_rate=0.05,
        before_send=before_send,  # type: ignore[arg-type]
    )
