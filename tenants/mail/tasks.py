"""Thin actors of the outbox, and the periodic re-queue of stale emails (the scheduler sends it)."""

from __future__ import annotations

from typing import Any

import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
import dramatiq
from core.fairness import QUEUES
from core.jobs import periodic, tenant_actor

from tenants.mail import services

REQUEUE_EVERY_SECONDS = 300


@tenant_actor(
    kind="email",
    label="Email",
    retryable=True,  # the outbox makes a second message for a sent email a no-op
    max_retries=services.MAX_ATTEMPTS,
    min_backoff=2_000,
    max_backoff=120_000,
    queue_name=QUEUES.mail,
)
def send_email(email_id: int, **_: Any) -> None:
    """Deliver one outbox email (retried with backoff on temporary SMTP failures)."""
    services.deliver(email_id)


@tenant_actor(kind="email_requeue", label="Stale email re-queue", logged=False, max_retries=0)
def requeue_stale_emails() -> None:
    services.requeue_stale()


@periodic(REQUEUE_EVERY_SECONDS)
@dramatiq.actor(actor_name="mail_requeue_stale", max_retries=0, time_limit=10 * 60_000)
def mail_requeue_stale() -> None:
    """Every company's stale outbox emails offered to the worker again (docs/email.md)."""
    services.requeue_stale_everywhere()
