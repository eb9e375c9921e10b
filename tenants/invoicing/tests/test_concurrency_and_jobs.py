"""Invoice numbers under 20 concurrent creates (threads with their own connections, committed rows),
two concurrent builds of one order (one invoice), and invoicing a day's deliveries in the worker."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection

from conftest import Api
from tenants.invoicing.tests.helpers import DAY, delivered_order, master_data
from tenants.sales.tests.test_concurrency import in_threads, race_tenant  # noqa: F401  (fixture)


@pytest.mark.django_db
def test_twenty_concurrent_creates_number_without_gap_or_duplicate(race_tenant: Any) -> None:  # noqa: F811
    from tenants.invoicing import services
    from tenants.invoicing.models import Invoice

    def setup(_: int) -> list[int]:
        md = master_data(name="Race invoices")
        return [delivered_order(md, lines=(("diesel", "100", "3.0000", "99.5"),)).pk for _ in range(20)]

    [order_ids] = in_threads(1, race_tenant.tenant, setup)
    assert isinstance(order_ids, list), order_ids

    def create(i: int) -> str:
        inv, _summary, created = services.create_or_update_invoice(sales_order_id=order_ids[i])
        assert created
        return inv.number

    results = in_threads(20, race_tenant.tenant, create)
    assert all(isinstance(r, str) for r in results), results
    connection.set_tenant(race_tenant.tenant)
    numbers = sorted(Invoice.objects.values_list("number", flat=True))
    assert numbers == [f"INV-{n:06d}" for n in range(1, 21)]
    assert sorted(results) == numbers
    assert {str(t) for t in Invoice.objects.values_list("total", flat=True)} == {"298.50"}

    # Two builds of one order at once: one invoice, the second brings it up to date (no duplicate).
    first = Invoice.objects.get(sales_order_id=order_ids[0]).number

    def again(_: int) -> tuple[str, bool]:
        inv, _s, created = services.create_or_update_invoice(sales_order_id=order_ids[0])
        return inv.number, created

    [(n1, c1), (n2, c2)] = in_threads(2, race_tenant.tenant, again)
    assert n1 == n2 == first and not c1 and not c2
    connection.set_tenant(race_tenant.tenant)
    assert Invoice.objects.filter(sales_order_id=order_ids[0]).count() == 1


@pytest.mark.django_db
def test_invoice_a_day_in_the_worker_is_idempotent(
    api_a: Api, tenant_a: Any, in_tenant: Any, jobs: Any
) -> None:
    from tenants.invoicing.models import Invoice
    from tenants.jobs.models import JobLog

    with in_tenant(tenant_a):
        md = master_data(name="Bulk Co")
        day_orders = [delivered_order(md, lines=(("diesel", "10", "2.0000", "10"),)) for _ in range(3)]
        delivered_order(
            md, lines=(("diesel", "10", "2.0000", "10"),), planned_date=DAY + dt.timedelta(days=1)
        )
        broken = delivered_order(md, lines=(("diesel", "10", "2.0000", None),))  # nothing delivered
    r = api_a.post("/api/invoice/invoice-day", {"day": DAY.isoformat()})
    assert r.status_code == 202, r.content
    assert r.json()["data"]["orders"] == 4
    assert r.json()["message"] == f"Invoicing 4 delivered orders of {DAY.isoformat()}"
    jobs()
    with in_tenant(tenant_a):
        made = Invoice.objects.filter(sales_order__in=day_orders)
        assert made.count() == 3
        assert not Invoice.objects.filter(sales_order=broken).exists()
        entry = JobLog.objects.get(kind="invoice_day")
        assert entry.status == "failed" and "could not be invoiced" in entry.error
        assert broken.number in entry.error
        numbers = set(made.values_list("number", flat=True))
        Invoice.objects.filter(pk=made.first().pk).update(status="issued")  # type: ignore[union-attr]
    # Run again: the same three invoices (one issued and skipped, two drafts left as they were).
    api_a.post("/api/invoice/invoice-day", {"day": DAY.isoformat()})
    jobs()
    with in_tenant(tenant_a):
        assert (
            set(Invoice.objects.filter(sales_order__in=day_orders).values_list("number", flat=True))
            == numbers
        )
        assert Invoice.objects.count() == 3
