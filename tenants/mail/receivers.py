"""Turns queued outbox emails into worker messages (connected in `MailConfig.ready`)."""

from __future__ import annotations

from typing import Any

from core.jobs import Document, send_job

from tenants.mail import services
from tenants.mail.tasks import send_email


def enqueue(schema: str, jobs: list[dict[str, Any]]) -> None:
    for job in jobs:
        kwargs = dict(job)
        doc = kwargs.pop("document", None)
        delay = kwargs.pop("delay_ms", None)  # a provider's Retry-After (services.deliver)
        document = (
            Document(doc["type"], doc["id"], doc.get("label", ""), doc.get("path", "")) if doc else None
        )
        send_job(send_email, schema=schema, document=document, delay=delay, **kwargs)


def on_emails_queued(sender: Any, *, schema: str, jobs: list[dict[str, Any]], **_: Any) -> None:
    enqueue(schema, jobs)


services.emails_queued.connect(on_emails_queued, dispatch_uid="mail-enqueue")
