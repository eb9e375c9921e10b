"""Numbering, duplicate bill numbers and approvals under real concurrency: threads, each with its own
database connection, in a tenant of their own whose rows are committed."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from tenants.sales.tests.test_concurrency import in_threads, race_tenant  # noqa: F401  (fixture)


@pytest.mark.django_db
def test_twenty_concurrent_purchase_orders_number_without_gap(race_tenant: Any) -> None:  # noqa: F811
    from tenants.purchasing import services
    from tenants.purchasing.models import PurchaseOrder

    def setup(_: int) -> int:
        from tenants.parties.models import Supplier

        return Supplier.objects.create(name="Race supplier", code="RACE-S").pk

    [supplier_id] = in_threads(1, race_tenant.tenant, setup)
    assert isinstance(supplier_id, int), supplier_id

    def create(i: int) -> str:
        if i % 5 == 0:  # every fifth create fails after numbering: its number is given back
            from django.db import transaction

            with transaction.atomic():
                services.create_purchase_order({"supplier_id": supplier_id, "reference": f"R-{i}"})
                raise RuntimeError("rolled back")
        return services.create_purchase_order({"supplier_id": supplier_id, "reference": f"R-{i}"}).number

    results = in_threads(20, race_tenant.tenant, create)
    kept = [r for r in results if isinstance(r, str)]
    assert len(kept) == 16, results
    connection.set_tenant(race_tenant.tenant)
    numbers = sorted(PurchaseOrder.objects.values_list("number", flat=True))
    assert numbers == [f"PO-{n:06d}" for n in range(1, 17)] == sorted(kept)


@pytest.mark.django_db
def test_the_same_bill_number_entered_twice_at_once_is_kept_once(race_tenant: Any) -> None:  # noqa: F811
    import datetime as dt
    from decimal import Decimal

    from core.errors import ApiError

    from tenants.purchasing import services
    from tenants.purchasing.models import Bill

    def setup(_: int) -> int:
        from tenants.parties.models import Supplier

        return Supplier.objects.create(name="Race biller", code="RACE-B").pk

    [supplier_id] = in_threads(1, race_tenant.tenant, setup)

    def enter(i: int) -> int:
        bill = services.create_bill(
            {
                "supplier_id": supplier_id,
                "bill_number": "RACE-INV-1" if i % 2 else "race-inv-1",
                "bill_date": dt.date(2026, 11, 2),
                "lines": [{"description": "Diesel", "quantity": Decimal("10"), "unit_price": Decimal("2")}],
            }
        )
        return bill.pk

    results = in_threads(4, race_tenant.tenant, enter)
    made = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, ApiError)]
    assert len(made) == 1 and len(refused) == 3, results
    assert all(r.status_code == 409 for r in refused)
    connection.set_tenant(race_tenant.tenant)
    assert Bill.objects.filter(supplier_id=supplier_id).count() == 1
