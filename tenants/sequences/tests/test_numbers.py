"""Document numbers (the concurrent cases are in tenants/sales/tests/test_concurrency.py)."""

import pytest
from django.db import transaction

from tenants.sequences.services import NotInTransaction, next_number, peek


def test_numbers_count_up_per_kind_and_roll_back(tenant_a, in_tenant):
    with in_tenant(tenant_a):
        assert peek("unit_test") == 0
        with transaction.atomic():
            assert next_number("unit_test") == "SO-000001"
            assert next_number("unit_test", prefix="X", width=3) == "X002"
            assert next_number("other_kind", prefix="INV-") == "INV-000001"
        try:
            with transaction.atomic():
                assert next_number("unit_test") == "SO-000003"
                raise RuntimeError
        except RuntimeError:
            pass
        with transaction.atomic():
            assert next_number("unit_test", width=1) == "SO-3"  # the rolled-back number comes back
        assert peek("unit_test") == 3


def test_numbering_outside_a_transaction_is_refused(tenant_a, in_tenant, django_db_blocker):
    from django.db import connection

    with in_tenant(tenant_a):
        connection.in_atomic_block = False  # as in autocommit (the test's own transaction hidden)
        try:
            with pytest.raises(NotInTransaction):
                next_number("unit_test")
        finally:
            connection.in_atomic_block = True
