"""The inbox poll: the scheduler sends the fan-out every minute; it sends one `poll_inbox` per tenant
whose mailbox is due (a Redis sorted set kept by the services), stamped with its schema."""

from __future__ import annotations

import time

import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
import dramatiq
from core.fairness import QUEUES
from core.jobs import Document, periodic, report_outcome, report_progress, send_job, tenant_actor

from tenants.inbox import services

FAN_OUT_EVERY_SECONDS = 60
MAILBOX_DOCUMENT = Document("mailbox", 1, "Inbox", "/email/inbox")


@periodic(FAN_OUT_EVERY_SECONDS)
@dramatiq.actor(max_retries=0, time_limit=5 * 60_000)
def poll_inboxes_everywhere() -> None:
    for schema in services.due_schemas(time.time()):
        send_job(poll_inbox, schema=schema, document=MAILBOX_DOCUMENT)


@tenant_actor(
    kind="inbox_poll",
    label="Inbox poll",
    retryable=True,
    max_retries=0,
    time_limit=15 * 60_000,
    queue_name=QUEUES.inbox,
)
def poll_inbox(force: bool = False) -> None:
    """Import the mailbox's new messages (idempotent: each message once). A refused login or an
    unreachable server fails the entry with the reason and backs off; it is not retried at once."""
    result = services.poll(force=force, progress=report_progress)
    if result.status in ("login_refused", "unreachable"):
        report_outcome(failed=True, reason=result.message, retryable=True)
