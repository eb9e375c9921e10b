"""Invoicing 1,000 delivered orders of a day: the work of the `invoice_day` job (each order priced
by the engine from its delivered quantities, numbered and saved in its own transaction), run
in-process on committed rows. Records the throughput (the invoice PDFs are the email/documents
side's job and are not included)."""

import datetime as dt
import time
import uuid

from django.db import connection

TOTAL = 1000


def test_invoice_a_day_of_1000_orders(committed, record):
    from tenancy.services import provision_tenant

    from tenants.invoicing.models import Invoice
    from tenants.invoicing.services import invoice_day
    from tenants.invoicing.tests.helpers import DAY, delivered_order, fuel_tax, master_data

    tenant, _ = provision_tenant(
        company_name=f"Invoice bench {uuid.uuid4().hex[:6]}",
        admin_email=f"bench-{uuid.uuid4().hex[:6]}@invoice.bench",
        admin_name="Bench",
        admin_password="Bench-pass-2026",
        use_pool=False,
    )
    connection.set_tenant(tenant)
    try:
        md = master_data(name="Bench customer")
        fuel_tax()
        lines = (("diesel", "3000", "3.1275", "2987.4"), ("gas", "2000", "2.8900", "1999.9"))
        t0 = time.perf_counter()
        for _ in range(TOTAL):
            delivered_order(md, lines=lines)
        seeded = time.perf_counter() - t0
        t0 = time.perf_counter()
        result = invoice_day(day=DAY)
        elapsed = time.perf_counter() - t0
        assert result["created"] == TOTAL and result["failed"] == 0
        assert Invoice.objects.count() == TOTAL
        numbers = sorted(Invoice.objects.values_list("number", flat=True))
        assert numbers == [f"INV-{n:06d}" for n in range(1, TOTAL + 1)]
        t0 = time.perf_counter()
        again = invoice_day(day=DAY)  # idempotent re-run: every draft compared, nothing changes
        rerun = time.perf_counter() - t0
        assert again["updated"] == TOTAL and Invoice.objects.count() == TOTAL
        figures = {
            "orders": TOTAL,
            "seconds": round(elapsed, 2),
            "invoices_per_second": round(TOTAL / elapsed, 1),
            "rerun_seconds": round(rerun, 2),
            "seed_seconds": round(seeded, 2),
            "day": dt.date.isoformat(DAY),
        }
        record["invoice_day"] = figures
        print(f"\ninvoice_day: {figures}")
    finally:
        connection.set_schema_to_public()
        tenant.delete(force_drop=True)
