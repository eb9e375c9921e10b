"""How the outbox reaches a mail provider other than Django's email backend (SMTP, the console).

An app that sends through a provider's API (tenants/google: Gmail) registers a resolver here in its
`AppConfig.ready()`; the mail app never imports it. `deliver` asks `resolve()` for the current
company's transport before each send: None means Django's email backend."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from django.core.mail import EmailMessage


class Held(Exception):
    """The provider refuses until a person acts (a revoked Google grant): the email is held with
    this reason, not retried and not failed, and released when the person has acted."""


class TemporaryError(Exception):
    """The provider said "try later" (5xx, 429, a dropped connection): the worker retries."""


class Throttled(TemporaryError):
    """The provider said "not before ``retry_after`` seconds" (a 429 with Retry-After) and that is
    longer than a worker should sleep: the email waits, queued again for then. Not an attempt: a
    rate limit never fails an email."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Transport(Protocol):
    name: str

    def open(self) -> None:
        """Get ready to send (credentials); may raise Held or TemporaryError."""

    def send(self, message: EmailMessage) -> None:
        """Hand one message to the provider. Returns once the provider accepted it."""

    def close(self) -> None: ...


Resolver = Callable[[], "Transport | None"]
_resolvers: dict[str, Resolver] = {}


def register(name: str, resolver: Resolver) -> None:
    """Register (or replace) a resolver: called in the current company's schema before a send."""
    _resolvers[name] = resolver


def resolve() -> Transport | None:
    for resolver in _resolvers.values():
        transport = resolver()
        if transport is not None:
            return transport
    return None
