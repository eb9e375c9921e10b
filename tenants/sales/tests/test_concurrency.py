"""Numbering and transitions under real concurrency: threads, each with its own database connection,
in a tenant of their own whose rows are committed (the test transaction would hide them)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction

from conftest import _make_tenant


@pytest.fixture(scope="module")
def race_tenant(django_db_setup: Any, django_db_blocker: Any):
    with django_db_blocker.unblock():
        from tenancy.services import ensure_template

        ensure_template()
        handle = _make_tenant("Race Fuels", "admin@race.test")
        connection.set_schema_to_public()
    yield handle
    with django_db_blocker.unblock():
        handle.tenant.delete(force_drop=True)
        connection.set_schema_to_public()


def in_threads(n: int, tenant: Any, fn: Callable[[int], Any]) -> list[Any]:
    """Run fn(i) in n threads started together; each result or raised exception, in order."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def worker(i: int) -> None:
        try:
            connection.set_tenant(tenant)
            barrier.wait(timeout=30)
            results[i] = fn(i)
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.mark.django_db
def test_twenty_concurrent_numbers_have_no_gap_or_duplicate(race_tenant: Any) -> None:
    from tenants.sequences.services import next_number

    def take(i: int) -> str:
        with transaction.atomic():
            number = next_number("race_test", prefix="RT-")
            if i % 5 == 0:  # every fifth transaction rolls back: its number is given back
                raise RuntimeError(number)
            return number

    results = in_threads(20, race_tenant.tenant, take)
    kept = [r for r in results if isinstance(r, str)]
    rolled_back = [r for r in results if isinstance(r, RuntimeError)]
    assert len(kept) == 16 and len(rolled_back) == 4
    assert sorted(kept) == [f"RT-{n:06d}" for n in range(1, 17)]  # no duplicate, no gap


@pytest.mark.django_db
def test_twenty_concurrent_order_creates_number_in_sequence(race_tenant: Any) -> None:
    from tenants.sales import services
    from tenants.sales.models import SalesOrder

    def setup(_: int) -> int:
        from tenants.parties.models import Customer

        return Customer.objects.create(name="Race customer", account_number="RACE-1").pk

    [customer_id] = in_threads(1, race_tenant.tenant, setup)
    assert isinstance(customer_id, int), customer_id

    def create(i: int) -> str:
        order = services.create_order({"customer_id": customer_id, "po_number": f"PO-{i}"})
        return order.number

    results = in_threads(20, race_tenant.tenant, create)
    assert all(isinstance(r, str) for r in results), results
    connection.set_tenant(race_tenant.tenant)
    numbers = sorted(SalesOrder.objects.values_list("number", flat=True))
    assert numbers == [f"SO-{n:06d}" for n in range(1, 21)]
    assert sorted(results) == numbers


@pytest.mark.django_db
def test_two_threads_moving_one_order_one_wins_the_other_gets_409(race_tenant: Any) -> None:
    from core.errors import ApiError

    from tenants.sales import workflow
    from tenants.sales.models import SalesOrder, StatusEvent
    from tenants.sales.tests.helpers import master_data, order_in_db

    def setup(_: int) -> int:
        return order_in_db(master_data(name="Race two")).pk

    [order_id] = in_threads(1, race_tenant.tenant, setup)
    assert isinstance(order_id, int), order_id

    def move(i: int) -> str:
        order = SalesOrder.objects.get(pk=order_id)  # both read 'draft' before either moves
        return workflow.verify(order).status

    results = in_threads(2, race_tenant.tenant, move)
    wins = [r for r in results if isinstance(r, str)]
    losses = [r for r in results if isinstance(r, ApiError)]
    assert len(wins) == 1 and len(losses) == 1, results
    assert losses[0].status_code == 409
    connection.set_tenant(race_tenant.tenant)
    final = SalesOrder.objects.get(pk=order_id).status
    assert final == wins[0] == "verified"
    assert losses[0].extra["current_status"] == final
    assert StatusEvent.objects.filter(sales_order_id=order_id).count() == 1
