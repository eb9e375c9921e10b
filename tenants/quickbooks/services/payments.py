"""Payments back: payments recorded in QBO against pushed invoices settle them in FuelDesk, once each; a
webhook's payments are looked up in batches."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from tenants.quickbooks import client as qbo
from tenants.quickbooks.connection import api, get_connection
from tenants.quickbooks.models import QboConnection, QboLink, QboPaymentLookup
from tenants.quickbooks.services.links import (
    SERVICE,
    Kind,
    Progress,
    Sync,
    _noop,
    _now,
)


def _iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def sync_payments(*, payment_ids: list[str] | None = None, progress: Progress = _noop) -> dict[str, int]:
    """Payments recorded in QBO against invoices FuelDesk pushed become FuelDesk payments that settle
    them, once each (keyed by the QBO payment Id). ``payment_ids`` None: change data capture since
    the last run; else those payments (a webhook named them)."""
    client = api()
    started = _now()
    if payment_ids is None:
        conn = get_connection()
        since = conn.cdc_since or (started - dt.timedelta(days=29))
        # A minute of overlap: a payment saved while the last run read is read again (and skipped).
        found = client.cdc(["Payment"], _iso(since - dt.timedelta(minutes=1))).get("Payment", [])
    else:
        found = []
        for pid in payment_ids:
            try:
                found.append(client.read("Payment", pid))
            except qbo.QboError as exc:
                if exc.code != "610":
                    raise
    counts = {"recorded": 0, "skipped": 0}
    for n, payment in enumerate(found):
        if n % 20 == 0:
            progress()
        counts["recorded" if record_qbo_payment(payment) else "skipped"] += 1
    updates: dict[str, Any] = {"last_sync_at": _now(), "updated_at": _now()}
    if payment_ids is None:
        updates["cdc_since"] = started
    QboConnection.objects.filter(singleton=True).update(**updates)
    return counts


# A webhook's payments are read LOOKUP_BATCH at a time, at most BATCHES_PER_JOB batches per job
# message; the job then queues its successor. Each payment's outcome commits with its recording.
LOOKUP_BATCH = 100
BATCHES_PER_JOB = 10
_LOOKUP_WRITE_CHUNK = 1000
Lookup = QboPaymentLookup.State


def note_payment_lookups(payment_ids: list[str]) -> int:
    """Keep the payment ids a webhook named as lookups to do (each id once, in the webhook's order);
    one named again after it was skipped or missing is looked up again. Answers how many wait."""
    ids = list(dict.fromkeys(str(i) for i in payment_ids if i))
    for start in range(0, len(ids), _LOOKUP_WRITE_CHUNK):
        chunk = ids[start : start + _LOOKUP_WRITE_CHUNK]
        QboPaymentLookup.objects.bulk_create(
            [QboPaymentLookup(qbo_id=i) for i in chunk], ignore_conflicts=True, batch_size=_LOOKUP_WRITE_CHUNK
        )
        QboPaymentLookup.objects.filter(qbo_id__in=chunk, state__in=[Lookup.SKIPPED, Lookup.MISSING]).update(
            state=Lookup.PENDING, updated_at=_now()
        )
    return QboPaymentLookup.objects.filter(state=Lookup.PENDING).count()


def run_payment_lookups(
    *, batches: int | None = None, progress: Progress = _noop
) -> tuple[dict[str, int], bool]:
    """Read and record the pending payments a webhook named, ``LOOKUP_BATCH`` at a time and at most
    ``batches`` batches (BATCHES_PER_JOB). Each payment is read under its row's lock (another worker
    skips it) and its state commits with the FuelDesk payment it made, so a worker killed half-way
    leaves every finished payment finished and the interrupted one pending: the next run resumes
    there, and records nothing twice. Answers the counts and whether payments are still pending."""
    client = api()
    counts = {"recorded": 0, "skipped": 0, "missing": 0}
    for _ in range(BATCHES_PER_JOB if batches is None else batches):
        ids = list(
            QboPaymentLookup.objects.filter(state=Lookup.PENDING)
            .order_by("id")
            .values_list("id", flat=True)[:LOOKUP_BATCH]
        )
        if not ids:
            break
        for pk in ids:
            with transaction.atomic():
                row = (
                    QboPaymentLookup.objects.select_for_update(skip_locked=True)
                    .filter(pk=pk, state=Lookup.PENDING)
                    .first()
                )
                if row is None:
                    continue  # another worker holds it, or finished it
                try:
                    payment: dict[str, Any] | None = client.read("Payment", row.qbo_id)
                except qbo.QboError as exc:
                    if exc.code != "610":
                        raise  # this payment stays pending; the job fails with QBO's reason
                    payment = None
                if payment is None:
                    row.state = Lookup.MISSING
                else:
                    row.state = Lookup.RECORDED if record_qbo_payment(payment) else Lookup.SKIPPED
                row.save(update_fields=["state", "updated_at"])
            counts[str(row.state)] += 1
        progress()
    QboConnection.objects.filter(singleton=True).update(last_sync_at=_now(), updated_at=_now())
    return counts, QboPaymentLookup.objects.filter(state=Lookup.PENDING).exists()


def record_qbo_payment(payment: dict[str, Any]) -> bool:
    """One QBO payment as a FuelDesk payment (True), or nothing (False: seen before, deleted, or
    about no invoice FuelDesk pushed). Serialized per company by the connection row's lock."""
    from tenants.invoicing.models import Invoice
    from tenants.invoicing.services import AllocationRequest, record_payment

    qbo_id = str(payment.get("Id") or "")
    if not qbo_id or payment.get("status") == "Deleted":
        return False
    with transaction.atomic():
        QboConnection.objects.select_for_update().filter(singleton=True).first()
        if QboLink.objects.filter(kind=Kind.PAYMENT, qbo_id=qbo_id).exists():
            return False
        wanted: dict[str, Decimal] = {}
        for line in payment.get("Line") or []:
            for txn in line.get("LinkedTxn") or []:
                if txn.get("TxnType") == "Invoice" and txn.get("TxnId"):
                    tid = str(txn["TxnId"])
                    wanted[tid] = wanted.get(tid, Decimal("0")) + Decimal(str(line.get("Amount") or 0))
        links = {
            lk.qbo_id: lk.local_id
            for lk in QboLink.objects.filter(kind=Kind.INVOICE, qbo_id__in=list(wanted))
        }
        invoices = Invoice.objects.in_bulk(list(links.values()))
        allocations: list[AllocationRequest] = []
        customer_id = None
        for tid, amount in wanted.items():
            invoice = invoices.get(links.get(tid, 0))
            if invoice is None or invoice.balance <= 0 or amount <= 0:
                continue
            if customer_id is not None and invoice.customer_id != customer_id:
                continue
            customer_id = invoice.customer_id
            allocations.append(AllocationRequest(invoice_id=invoice.pk, amount=min(amount, invoice.balance)))
        if customer_id is None or not allocations:
            return False
        total = sum((a.amount for a in allocations), Decimal("0"))
        try:
            paid_on = dt.date.fromisoformat(str(payment.get("TxnDate") or ""))
        except ValueError:
            paid_on = timezone.localdate()
        local = record_payment(
            customer_id=customer_id,
            payment_date=paid_on,
            amount=total,
            payment_method_id=None,
            reference=f"QBO payment {qbo_id}"[:100],
            notes=f"Recorded in {SERVICE}"
            + (f" (ref {payment['PaymentRefNum']})" if payment.get("PaymentRefNum") else ""),
            allocations=allocations,
        )
        QboLink.objects.create(
            kind=Kind.PAYMENT,
            local_id=local.pk,
            qbo_id=qbo_id,
            sync_token=str(payment.get("SyncToken", "")),
            sync_state=Sync.SYNCED,
            synced_at=_now(),
        )
    return True
