"""QuickBooks jobs (thin actors over tenants.quickbooks.services). A QBO failure fails the job log
entry with QBO's code, message, detail and intuit_tid; a lost authorization says "reconnect" and keeps
what was waiting (it is picked up by the next run after connecting again)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
import dramatiq
from core.fairness import QUEUES
from core.jobs import Document, kind_of, periodic, report_outcome, report_progress, send_job, tenant_actor
from django.conf import settings
from tenancy.models import IntegrationAccount

from tenants.quickbooks import services
from tenants.quickbooks.client import QboError

DOCUMENT = Document("quickbooks", 1, "QuickBooks Online", "/quickbook-online")


def _run(fn: Callable[[], dict[str, int]], what: str) -> None:
    """Run a sync; its counts go to the job log's outcome when something failed (an actor's return
    value would be discarded: there is no results backend)."""
    try:
        counts = fn()
    except QboError as exc:
        report_outcome(failed=True, reason=f"{what} failed: {exc.describe()}", retryable=True)
        return
    failed = counts.get("failed", 0)
    if failed:
        report_outcome(
            failed=True,
            reason=f"{what}: {failed} record{'s' if failed != 1 else ''} failed (see each one's last error); "
            + ", ".join(f"{k} {v}" for k, v in counts.items()),
            retryable=True,
        )


@tenant_actor(
    kind="quickbooks_customers",
    label="QuickBooks customer sync",
    retryable=True,
    max_retries=0,
    queue_name=QUEUES.accounting,
)
def sync_customers_job(customer_ids: list[int] | None = None) -> None:
    _run(
        lambda: services.sync_customers(customer_ids=customer_ids, progress=report_progress), "Customer sync"
    )


@tenant_actor(
    queue_name=QUEUES.accounting,
    kind="quickbooks_customer_import",
    label="QuickBooks customer import",
    retryable=True,
    max_retries=0,
)
def import_customers_job() -> None:
    _run(lambda: services.import_customers(progress=report_progress), "Customer import")


@tenant_actor(
    kind="quickbooks_items",
    label="QuickBooks item sync",
    retryable=True,
    max_retries=0,
    queue_name=QUEUES.accounting,
)
def sync_items_job(items: list[list[Any]]) -> None:
    pairs = [(str(kind), int(local_id)) for kind, local_id in items]
    _run(lambda: services.sync_items(items=pairs, progress=report_progress), "Item sync")


@tenant_actor(
    kind="quickbooks_payments",
    label="QuickBooks payments",
    retryable=True,
    max_retries=0,
    queue_name=QUEUES.accounting,
)
def sync_payments_job(payment_ids: list[str] | None = None) -> None:
    _run(lambda: services.sync_payments(payment_ids=payment_ids, progress=report_progress), "Payment sync")


@tenant_actor(
    kind="quickbooks_payments",
    label="QuickBooks payments",
    retryable=True,
    max_retries=0,
    queue_name=QUEUES.accounting,
)
def lookup_payments_job() -> None:
    """The payments webhooks named, a bounded number of batches per message (each payment committed
    with its recording); while some remain, the next message is queued. A killed worker's message
    is delivered again and resumes at the first pending payment."""
    remaining = False

    def run() -> dict[str, int]:
        nonlocal remaining
        counts, remaining = services.run_payment_lookups(progress=report_progress)
        return counts

    _run(run, "Payment lookups")
    if remaining:
        send_job(lookup_payments_job, document=DOCUMENT)


@periodic(settings.QBO_CDC_EVERY_SECONDS)
@dramatiq.actor(max_retries=0, time_limit=5 * 60_000)
def sync_payments_everywhere() -> None:
    """The scheduler's fan-out: one payment sync per company connected to QuickBooks."""
    schemas = IntegrationAccount.objects.filter(provider="quickbooks").values_list(
        "tenant__schema_name", flat=True
    )
    for schema in schemas:
        send_job(sync_payments_job, schema=schema, document=DOCUMENT)


def queue(actor: Any, **kwargs: Any) -> dict[str, str]:
    """Send a job about the QuickBooks connection; answers what the API returns ({job_id, kind})."""
    message = send_job(actor, document=DOCUMENT, **kwargs)
    return {"job_id": str(message.message_id), "kind": kind_of(actor.actor_name).kind}
