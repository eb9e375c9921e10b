"""Background jobs of invoicing."""

from __future__ import annotations

import datetime as dt

import core.dramatiq_setup  # noqa: F401
from core.jobs import report_outcome, report_progress, tenant_actor


@tenant_actor(kind="invoice_day", label="Invoice a day's deliveries", retryable=True)
def invoice_delivered_day(day: str) -> None:
    """Invoice every order delivered on `day`. Idempotent (issued invoices are skipped, drafts brought
    up to date), so a redelivery or a retry after a crash ends with the same invoices."""
    from tenants.invoicing.services import invoice_day

    result = invoice_day(day=dt.date.fromisoformat(day), progress=report_progress)
    if result["failed"]:
        reason = f"{result['failed']} of {result['orders']} orders could not be invoiced: " + "; ".join(
            result["errors"][:5]
        )
        report_outcome(failed=True, reason=reason[:500], retryable=True)
