"""Fixtures shared by every suite: two tenants made once per session, API clients signed in as a
role of either, helpers to run queued background jobs in-process, and a real SMTP server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from django.db import connection
from django.test import Client

if TYPE_CHECKING:
    from tests.smtp import FakeSmtp

pytest_plugins = ["tests.route_gate"]  # --route-gate: every API operation is called by a test

PASSWORD = "Correct-Horse-42"


@dataclass
class TenantHandle:
    tenant: Any
    admin_email: str

    @property
    def schema(self) -> str:
        return str(self.tenant.schema_name)


class Api:
    """A test client bound to one tenant user: JSON in, envelope out, status checked by callers."""

    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.token = token

    def _headers(self) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Bearer {self.token}"} if self.token else {}

    def call(self, method: str, path: str, body: Any = None, **extra: Any) -> Any:
        fn = getattr(self.client, method.lower())
        kwargs: dict[str, Any] = {**self._headers(), **extra}
        if body is not None and method.upper() in {"POST", "PUT", "PATCH"}:
            kwargs.setdefault("content_type", "application/json")
            if kwargs["content_type"] == "application/json":
                body = json.dumps(body)
            return fn(path, body, **kwargs)
        if body is not None:
            return fn(path, body, **kwargs)
        return fn(path, **kwargs)

    def get(self, path: str, params: dict[str, Any] | None = None, **kw: Any) -> Any:
        return self.call("GET", path, params, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Any:
        return self.call("POST", path, body if body is not None else {}, **kw)

    def put(self, path: str, body: Any = None, **kw: Any) -> Any:
        return self.call("PUT", path, body if body is not None else {}, **kw)

    def delete(self, path: str, **kw: Any) -> Any:
        return self.call("DELETE", path, **kw)


def _make_tenant(name: str, email: str) -> TenantHandle:
    from tenancy.services import provision_tenant

    tenant, _admin = provision_tenant(
        company_name=name,
        admin_email=email,
        admin_name=f"{name} Admin",
        admin_password=PASSWORD,
        use_pool=False,
    )
    return TenantHandle(tenant=tenant, admin_email=email)


@pytest.fixture(scope="session")
def two_tenants(django_db_setup: Any, django_db_blocker: Any) -> tuple[TenantHandle, TenantHandle]:
    """Tenants A and B, committed once for the session (tests roll back what they add)."""
    with django_db_blocker.unblock():
        from tenancy.services import ensure_template

        ensure_template()
        a = _make_tenant("Alpha Fuels", "admin@alpha.test")
        b = _make_tenant("Bravo Energy", "admin@bravo.test")
        # Committed, so that pg_dump (another connection) sees it when the deletion test drops it.
        _make_tenant("Doomed Co", "admin@doomed.test")
        connection.set_schema_to_public()
    return a, b


@pytest.fixture
def tenant_a(two_tenants: tuple[TenantHandle, TenantHandle], db: None) -> TenantHandle:
    return two_tenants[0]


@pytest.fixture
def tenant_b(two_tenants: tuple[TenantHandle, TenantHandle], db: None) -> TenantHandle:
    return two_tenants[1]


@pytest.fixture(autouse=True)
def _public_schema_between_tests() -> Iterator[None]:
    yield
    connection.set_schema_to_public()


def token_for(handle: TenantHandle, role: str | None = "Admin", email: str | None = None) -> str:
    """A session for an existing admin, or for a new user holding `role` (None: no role at all)."""
    from tenants.accounts.auth import session_for
    from tenants.accounts.models import Role, User
    from tenants.accounts.services import create_user

    connection.set_tenant(handle.tenant)
    try:
        if role == "Admin" and email is None:
            user = User.objects.select_related("role").get(email=handle.admin_email)
        else:
            role_obj = Role.objects.get(name=role) if role else None
            user = create_user(
                email=email or f"{(role or 'norole').lower()}@{handle.schema}.test",
                name=f"{role} User",
                password=PASSWORD,
                role=role_obj,
            )
        return str(session_for(user, handle.tenant)["access_token"])
    finally:
        connection.set_schema_to_public()


@pytest.fixture
def api_a(tenant_a: TenantHandle) -> Api:
    return Api(token_for(tenant_a))


@pytest.fixture
def api_b(tenant_b: TenantHandle) -> Api:
    return Api(token_for(tenant_b))


@pytest.fixture
def anon() -> Api:
    return Api(None)


@pytest.fixture
def in_tenant() -> Any:
    """Context manager: run ORM code inside a tenant's schema."""
    from contextlib import contextmanager

    @contextmanager
    def activate(handle: TenantHandle) -> Iterator[None]:
        connection.set_tenant(handle.tenant)
        try:
            yield
        finally:
            connection.set_schema_to_public()

    return activate


def run_queued_jobs() -> int:
    """Process every queued Dramatiq message in this thread through the broker's middleware, as the
    worker would (tenant activation, job log), so tests see the effects inside their transaction."""
    import dramatiq

    broker = dramatiq.get_broker()
    processed = 0
    for queue_name in list(broker.queues):
        queue = broker.queues[queue_name]
        while not queue.empty():
            from dramatiq.broker import MessageProxy
            from dramatiq.middleware import SkipMessage

            message = MessageProxy(dramatiq.Message.decode(queue.get_nowait()))
            actor = broker.get_actor(message.actor_name)
            exception = None
            try:
                broker.emit_before("process_message", message)
            except SkipMessage:  # as dramatiq's worker: acknowledged, not run, not an error
                broker.emit_after("skip_message", message)
                continue
            try:
                actor.fn(*message.args, **message.kwargs)
            except Exception as exc:
                exception = exc
            finally:
                broker.emit_after("process_message", message, exception=exception)
            if exception is not None:
                raise exception
            processed += 1
    return processed


@pytest.fixture
def jobs() -> Any:
    import dramatiq
    import fueldesk.tasks  # noqa: F401  registers every actor on the stub broker

    # Only the jobs this test queues: messages an earlier test left in the process-wide stub broker
    # (e.g. an on-commit email or a repricing it did not run) are dropped first.
    dramatiq.get_broker().flush_all()
    return run_queued_jobs


@pytest.fixture
def smtp() -> Iterator[FakeSmtp]:
    """A real SMTP server on loopback (tests/smtp.py) that Django's mail goes to during the test;
    `smtp.messages` are what it accepted."""
    from tests.smtp import smtp_delivery  # aiosmtpd only for the tests that send mail

    with smtp_delivery() as server:
        yield server
