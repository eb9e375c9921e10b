"""The bill parser's worker job: parse each PDF of an upload, reporting progress per file."""

from __future__ import annotations

import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
from core.fairness import QUEUES
from core.jobs import report_outcome, report_progress, tenant_actor

from tenants.billparse import selectors, services
from tenants.billparse.models import ParsedBill


@tenant_actor(
    queue_name=QUEUES.parsing,
    kind="bill_parse",
    label="Bill parsing",
    retryable=True,  # idempotent: files already parsed are skipped, interrupted ones parsed again
    max_retries=2,
    time_limit=15 * 60 * 1000,
)
def parse_bills(parse_ids: list[int]) -> None:
    hints = selectors.parse_hints()
    failed: list[str] = []
    for parse_id in parse_ids:
        row = services.parse_one(parse_id=int(parse_id), hints=hints)
        if row is not None and row.status == ParsedBill.Status.FAILED:
            failed.append(f"{row.file_name}: {row.message}")
        report_progress()
    if failed and len(failed) == len(parse_ids):
        report_outcome(failed=True, reason=" ".join(failed)[:1000], retryable=False)
