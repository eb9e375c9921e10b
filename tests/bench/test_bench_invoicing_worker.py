"""Invoicing a day of delivered orders in the worker, with the invoices' PDFs (issue 11).

1. The `invoice_delivered_day` job runs in a real Dramatiq worker process (1 process x 2 threads,
   Redis on loopback), sent as the API sends it: the time from the message to the last invoice.
2. Then the PDF of every invoice, by the print path (`document_data("invoice", id)` → the default
   template → WeasyPrint: what `GET /api/template/print/invoice/{id}` and the email step render),
   one after the other in this process, with wall and CPU time per PDF.

The job does not render PDFs (they are rendered when printed or emailed), so the day's cost with
PDFs is the sum of the two. `BENCH_INVOICE_ORDERS` sizes it (default 1,000)."""

import datetime as dt
import os
import subprocess
import time
import uuid

from django.conf import settings
from django.db import connection

from tests.bench.stats import summary
from tests.workers import Worker, worker_env

TOTAL = int(os.environ.get("BENCH_INVOICE_ORDERS", "1000"))


def test_invoice_a_day_in_the_worker_with_pdfs(committed, record):
    from dramatiq import Message
    from dramatiq.brokers.redis import RedisBroker
    from tenancy.services import provision_tenant

    from tenants.documents.services import document_data, render_document
    from tenants.invoicing.models import Invoice
    from tenants.invoicing.tests.helpers import DAY, delivered_order, fuel_tax, master_data

    tenant, _ = provision_tenant(
        company_name=f"Invoice worker bench {uuid.uuid4().hex[:6]}",
        admin_email=f"bench-{uuid.uuid4().hex[:6]}@invoice.bench",
        admin_name="Bench",
        admin_password="Bench-pass-2026",
        use_pool=False,
    )
    namespace = f"fdbench-{uuid.uuid4().hex[:8]}"
    broker = RedisBroker(url=settings.DRAMATIQ_BROKER_URL, namespace=namespace)
    connection.set_tenant(tenant)
    worker = None
    try:
        md = master_data(name="Bench customer")
        fuel_tax()
        lines = (("diesel", "3000", "3.1275", "2987.4"), ("gas", "2000", "2.8900", "1999.9"))
        t0 = time.perf_counter()
        for _ in range(TOTAL):
            delivered_order(md, lines=lines)
        seeded = time.perf_counter() - t0
        env = worker_env(DRAMATIQ_NAMESPACE=namespace)
        worker = Worker(env, threads=2, stderr=subprocess.DEVNULL).start()
        load_before = os.getloadavg()
        t0 = time.perf_counter()
        broker.enqueue(
            Message(
                queue_name="default",
                actor_name="invoice_delivered_day",
                args=(DAY.isoformat(),),
                kwargs={},
                options={"tenant_schema": tenant.schema_name},
            )
        )
        first = None
        while Invoice.objects.count() < TOTAL and time.perf_counter() - t0 < 1800:
            assert worker.running, "the worker died"
            if first is None and Invoice.objects.exists():
                first = time.perf_counter() - t0
            time.sleep(0.2)
        invoiced = time.perf_counter() - t0
        assert Invoice.objects.count() == TOTAL
        numbers = sorted(Invoice.objects.values_list("number", flat=True))
        assert numbers == [f"INV-{n:06d}" for n in range(1, TOTAL + 1)]  # no gap, no duplicate
        worker.stop(grace=60)
        worker = None

        load_mid = os.getloadavg()
        wall, cpu = [], []
        size = 0
        t0 = time.perf_counter()
        for pk in Invoice.objects.order_by("id").values_list("pk", flat=True):
            w0, c0 = time.perf_counter(), time.process_time()
            _html, pdf = render_document("invoice", document_data("invoice", pk))
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
            assert pdf.startswith(b"%PDF")
            size += len(pdf)
        pdfs = time.perf_counter() - t0
        figures = {
            "orders": TOTAL,
            "day": dt.date.isoformat(DAY),
            "seed_seconds": round(seeded, 1),
            "worker": "1 process x 2 threads (one message: the day)",
            "first_invoice_seconds": round(first or 0.0, 2),
            "invoice_seconds": round(invoiced, 1),
            "invoices_per_second": round(TOTAL / invoiced, 1),
            "pdf_seconds": round(pdfs, 1),
            "pdfs_per_second": round(TOTAL / pdfs, 1),
            "pdf_wall": summary(wall),
            "pdf_cpu": summary(cpu),
            "pdf_bytes_mean": size // TOTAL,
            "invoices_with_pdfs_per_second": round(TOTAL / (invoiced + pdfs), 1),
            "load_average": {"before": load_before, "between": load_mid, "after": os.getloadavg()},
        }
        record["invoice_day_worker"] = figures
        print(f"\ninvoice_day in the worker, with PDFs: {figures}")
    finally:
        if worker is not None:
            worker.stop(grace=0)
        connection.set_schema_to_public()
        for key in broker.client.keys(f"{namespace}*"):
            broker.client.delete(key)
        tenant.delete(force_drop=True)
