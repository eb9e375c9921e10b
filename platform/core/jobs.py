"""Dramatiq plumbing: the broker, the tenant-stamping middleware and the `tenant_actor` decorator.

The schema active when a message is sent is stamped into its options and re-activated in the
worker before processing (then reset to public). A tenant actor with no stamp fails closed.
Every tenant job's outcome is recorded in that tenant's job log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import dramatiq
from django.conf import settings
from django.db import close_old_connections, connection
from dramatiq.brokers.redis import RedisBroker
from dramatiq.brokers.stub import StubBroker
from dramatiq.middleware import Middleware, MiddlewareError

log = logging.getLogger(__name__)
SCHEMA_OPTION = "tenant_schema"


class MissingTenant(MiddlewareError):
    """A tenant actor's message carried no schema: refusing to guess.

    A MiddlewareError, because Dramatiq logs and swallows any other exception raised by middleware."""


class TenantMiddleware(Middleware):
    @property
    def actor_options(self) -> set[str]:
        return {"tenant_required"}

    def before_enqueue(self, broker: Any, message: Any, delay: Any) -> None:
        schema = getattr(connection, "schema_name", "public")
        if schema and schema != "public" and SCHEMA_OPTION not in message.options:
            message.options[SCHEMA_OPTION] = schema

    def before_process_message(self, broker: Any, message: Any) -> None:
        from tenancy.models import Tenant

        _close_stale_connections()
        actor = broker.get_actor(message.actor_name)
        schema = message.options.get(SCHEMA_OPTION)
        if not schema:
            connection.set_schema_to_public()
            if actor.options.get("tenant_required"):
                raise MissingTenant(f"{message.actor_name}: message has no tenant schema")
            return
        tenant = Tenant.objects.filter(schema_name=schema).first()
        if tenant is None:
            raise MissingTenant(f"{message.actor_name}: tenant {schema!r} does not exist")
        connection.set_tenant(tenant)
        _record(message, "running")

    def after_process_message(
        self, broker: Any, message: Any, *, result: Any = None, exception: Any = None
    ) -> None:
        try:
            if (
                message.options.get(SCHEMA_OPTION)
                and getattr(connection, "schema_name", "public") != "public"
            ):
                if exception is None:
                    _record(message, "succeeded")
                else:
                    retries = message.options.get("retries", 0)
                    max_retries = broker.get_actor(message.actor_name).options.get("max_retries", 20)
                    _record(message, "failed" if retries >= max_retries else "retrying", error=str(exception))
        finally:
            connection.set_schema_to_public()
            _close_stale_connections()

    def after_skip_message(self, broker: Any, message: Any) -> None:
        connection.set_schema_to_public()


def _close_stale_connections() -> None:
    # Like Django's request cycle; skipped inside a transaction (jobs run in-process by the tests).
    if not connection.in_atomic_block:
        close_old_connections()


def _record(message: Any, status: str, error: str = "") -> None:
    try:
        from tenants.jobs.services import record_job

        record_job(message, status, error)
    except Exception:  # the job log must never be the reason a job fails
        log.warning("could not record job %s", message.message_id, exc_info=True)


def send_in_tenant(actor: Any, schema: str, **kwargs: Any) -> Any:
    """Send a message for an explicit tenant (e.g. from an on-commit hook, when the request's
    schema may no longer be active)."""
    return actor.send_with_options(kwargs=kwargs, **{SCHEMA_OPTION: schema})


def build_broker() -> dramatiq.Broker:
    if getattr(settings, "DRAMATIQ_STUB", False):
        broker: dramatiq.Broker = StubBroker()
    else:
        broker = RedisBroker(url=settings.DRAMATIQ_BROKER_URL)
    broker.add_middleware(TenantMiddleware())
    return broker


def tenant_actor(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """A Dramatiq actor that always runs inside the tenant that sent it."""
    options.setdefault("max_retries", 5)
    options.setdefault("min_backoff", 1000)
    options.setdefault("max_backoff", 60_000)

    def wrap(func: Callable[..., Any]) -> Any:
        import functools

        import fueldesk.dramatiq_setup  # noqa: F401  the broker (with this middleware) comes first

        @functools.wraps(func)
        def in_tenant_only(*args: Any, **kwargs: Any) -> Any:
            # Second line of defence: never touch tenant tables with the public schema active.
            if getattr(connection, "schema_name", "public") == "public":
                raise MissingTenant(f"{func.__name__}: no tenant is active")
            return func(*args, **kwargs)

        return dramatiq.actor(in_tenant_only, actor_name=func.__name__, tenant_required=True, **options)  # type: ignore[call-overload]

    return wrap(fn) if fn is not None else wrap
