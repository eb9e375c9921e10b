"""Statements of a list of ids kept and run again (core/kept.py): the rows the ORM reads, in the
tenant the statement runs in."""

from typing import Any

from django.test import override_settings


def _rates(in_tenant: Any, tenant: Any, rates: list[str]) -> list[int]:
    import datetime as dt

    from tenants.pricing.models import Tax, TaxRate

    with in_tenant(tenant):
        tax = Tax.objects.create(name="Kept excise", code=f"KEPT{len(rates)}", kind="per_unit")
        for n, rate in enumerate(rates):
            TaxRate.objects.create(tax=tax, rate=rate, effective_from=dt.date(2026, 1, 1 + n))
        return [tax.pk]


def test_a_kept_statement_reads_what_the_orm_reads_in_each_tenant(
    tenant_a: Any, tenant_b: Any, in_tenant: Any
) -> None:
    from django.db import connection

    from core.kept import KeptByIds
    from core.listing import AnyOf
    from tenants.pricing.models import TaxRate

    def rates_of(ids: list[int]) -> Any:
        return (
            TaxRate.objects.filter(AnyOf("tax_id", ids))
            .order_by("effective_from")
            .values_list("rate", "tax_id")
        )

    statement = KeptByIds(rates_of)
    a_ids = _rates(in_tenant, tenant_a, ["1.500000", "2.250000"])
    b_ids = _rates(in_tenant, tenant_b, ["9.000000"])
    seen = []
    for tenant, ids in ((tenant_a, a_ids), (tenant_b, b_ids), (tenant_a, a_ids)) * 3:  # past prepare (5)
        with in_tenant(tenant):
            names, found = statement.rows(ids)
            with override_settings(KIT_LIST_SQL_CACHE=False):
                assert statement.rows(ids) == (names, list(rates_of(ids)))
            assert [tuple(row) for row in found] == list(rates_of(ids))
            seen.append([str(row[0]) for row in found])
    assert statement.kept is not None  # learned once, then run again
    assert seen[:3] == [["1.500000", "2.250000"], ["9.000000"], ["1.500000", "2.250000"]]
    assert statement.rows([]) == (("rate", "tax_id"), [])
    with in_tenant(tenant_a), connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement ILIKE '%%tax_id%%'")
        assert cursor.fetchone()[0] >= 1  # prepared on this connection


def test_a_query_whose_ids_are_not_one_parameter_runs_through_the_orm(tenant_a: Any, in_tenant: Any) -> None:
    from core.kept import KeptByIds
    from tenants.pricing.models import TaxRate

    def rates_of(ids: list[int]) -> Any:  # one placeholder per id: not a statement of its own
        return TaxRate.objects.filter(tax_id__in=ids).order_by("effective_from").values_list("rate")

    statement = KeptByIds(rates_of)
    ids = _rates(in_tenant, tenant_a, ["3.000000"])
    with in_tenant(tenant_a):
        assert [str(r[0]) for r in statement.rows(ids)[1]] == ["3.000000"]
    assert statement.learned and statement.kept is None
