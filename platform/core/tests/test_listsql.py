"""Kept list statements (core/listsql.py): a page answered by a statement kept from an earlier request
is byte for byte the page the ORM builds for the same parameters, whatever the search term; a
statement whose term is not sent as a LIKE pattern is not kept."""

from typing import Any

import pytest
from django.test import override_settings

from conftest import Api
from core.listing import ListParams, apply_list, paginate
from core.tests.test_fast_lists import _list_url

# Terms of both kinds (one or two letters: prefix; longer: contains), LIKE's own characters, quotes.
TERMS = ["a", "ab", "%", "_", "a%", "\\", "o'b", "x_y", "  ", "zzzzzzzz"]


def test_kept_statements_answer_what_the_orm_answers(
    api_a: Api, api_b: Api, tenant_a: Any, tenant_b: Any, in_tenant: Any, monkeypatch: Any
) -> None:
    import fueldesk.api  # noqa: F401  declares every resource

    from core import listsql
    from core.crud import REGISTRY
    from tests.model_factory import fill_tenant, required_list_params

    runs: list[int] = []
    run = listsql.ListStatements._run

    def counted_run(self: Any, *args: Any) -> Any:
        runs.append(1)
        return run(self, *args)

    monkeypatch.setattr(listsql.ListStatements, "_run", counted_run)

    # Tenant B has other rows than A: a statement learned in A must read B's in B.
    for tenant, count in ((tenant_a, 4), (tenant_b, 2)):
        with in_tenant(tenant):
            fill_tenant(count)
    kept = [c for c in REGISTRY if c.statements is not None]
    with in_tenant(tenant_a):
        required = {c.resource: required_list_params(c.resource) for c in kept}
    # Every fast list that declared pure queries, those searching through a foreign key too (the
    # related match is a subquery of the statement, core.listing.search_q) and those read ids-first.
    resources = {c.resource for c in kept}
    assert {"customer", "user", "state", "payment_method", "city", "product_sub_category"} <= resources
    assert "customer_ship_to" in resources
    compared = 0
    for crud in kept:
        url = _list_url(crud)
        if url is None:
            continue
        first = api_a.get(url, {"size": 50, **required[crud.resource]}).json()["data"]["items"]
        words = (
            [str(first[0].get(crud.spec.search[0].split("__")[0], ""))[:n] for n in (2, 5)]
            if first and crud.spec.search
            else []
        )
        for api in (api_a, api_b):
            for term in [*TERMS, *words]:
                for extra in ({}, {"page": 2, "size": 2}):
                    query = {"search": term, **extra, **required[crud.resource]}
                    kept_answer = [api.get(url, query).content for _ in range(2)]  # learn, then run kept
                    with override_settings(KIT_LIST_SQL_CACHE=False):
                        orm = api.get(url, query)
                    assert kept_answer[0] == kept_answer[1] == orm.content, (url, query)
                    compared += 1
    assert compared > 300 and len(runs) > compared, (compared, len(runs))  # most answered by kept ones


def test_a_prepared_statement_reads_the_tenant_it_runs_in(
    api_a: Api, api_b: Api, tenant_a: Any, tenant_b: Any, in_tenant: Any
) -> None:
    """Kept statements are prepared by Postgres after a few runs on a connection (core.listsql
    .prepared_cursor); run again under another tenant's search_path, the statement reads that
    tenant's rows, never the plan's first tenant's."""
    from django.db import connection

    from tenants.parties.models import Customer, ShipTo

    for tenant, names in ((tenant_a, ["Prepco North", "Prepco South"]), (tenant_b, ["Prepco West"])):
        with in_tenant(tenant):
            for name in names:
                customer = Customer.objects.create(name=name, account_number=name[-5:].upper())
                ShipTo.objects.create(customer=customer, name=f"{name} yard")
    for url in ("/api/customer/customers", "/api/customer-ship-to"):
        for api, expected in ((api_a, 2), (api_b, 1), (api_a, 2)):
            for _ in range(8):  # past psycopg's prepare threshold (5)
                body = api.get(url, {"search": "prepco", "sort_by": "name"}).json()["data"]
                assert body["total"] == expected, (url, body)
                assert all(item["name"].startswith("Prepco") for item in body["items"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement ILIKE '%%prepco%%'")
        assert cursor.fetchone()[0] >= 2  # the searches were prepared on this connection


def test_a_term_not_sent_as_a_like_pattern_is_not_kept(tenant_a: Any, in_tenant: Any) -> None:
    """A list whose filters use the search term themselves (here: an exact match) breaks the contract
    of `pure_queries`; the stand-in terms show it and its statements are not kept."""
    from core import listsql, rows
    from core.listing import ListSpec
    from tenants.pricing.models import PaymentMethod
    from tenants.pricing.schemas import PaymentMethodOut

    plan = rows.plan_for(PaymentMethod, PaymentMethodOut)
    assert plan is not None
    spec = ListSpec(search=("name",))

    def build(params: Any, *, prefix: bool | None = None, fetch: Any = None) -> dict[str, Any]:
        qs = PaymentMethod.objects.exclude(name__iexact=(params.search or "").strip())
        qs = rows.values(apply_list(qs, params, spec, prefix=prefix), plan)
        return paginate(qs, params, 25, fetch=fetch or (lambda sliced: rows.fetch(plan, sliced)))

    statements = listsql.ListStatements(
        plan=plan, build=build, count=lambda p: 0, prefix_below=0, default_size=25
    )
    with in_tenant(tenant_a):
        PaymentMethod.objects.create(name="Zebcheck", code="ZC1")
        PaymentMethod.objects.create(name="Zebcheckbook", code="ZC2")
        for term in ("zebcheck", "zebcheckbook"):
            page = statements.page(_params(search=term))
            expected = ["Zebcheckbook"] if term == "zebcheck" else []
            assert [i["name"] for i in page["items"]] == expected
        assert list(statements.shapes.values()) == [None]
        # Without a term the same list is kept (its parameters are constants of the shape).
        statements.page(_params())
        assert [s for s in statements.shapes.values() if s is not None]


@pytest.mark.parametrize("term", ["qv", "QVCHECK", "v_e"])
def test_a_kept_page_binds_the_term_escaped(term: str, tenant_a: Any, in_tenant: Any) -> None:
    from core import listsql, rows
    from core.listing import ListSpec
    from tenants.pricing.models import PaymentMethod
    from tenants.pricing.schemas import PaymentMethodOut

    plan = rows.plan_for(PaymentMethod, PaymentMethodOut)
    assert plan is not None
    spec = ListSpec(search=("name",), prefix_below=3)

    def build(params: Any, *, prefix: bool | None = None, fetch: Any = None) -> dict[str, Any]:
        qs = rows.values(apply_list(PaymentMethod.objects.all(), params, spec, prefix=prefix), plan)
        return paginate(qs, params, 25, fetch=fetch or (lambda sliced: rows.fetch(plan, sliced)))

    statements = listsql.ListStatements(
        plan=plan, build=build, count=lambda p: 0, prefix_below=3, default_size=25
    )
    with in_tenant(tenant_a):
        for n, name in enumerate(("Qvcheck", "Qv_eck", "Qv%eck", "Qvwire")):
            PaymentMethod.objects.create(name=name, code=f"QV{n}")
        statements.page(_params(search="zz" if len(term) < 3 else "zzz"))  # learns the shape
        assert [s for s in statements.shapes.values() if s is not None]
        for probe in (term, "qv_", "qv%", "q%", "v_e", "v%e"):
            if (len(probe) < 3) != (len(term) < 3):
                continue
            kept = statements.page(_params(search=probe))
            assert kept == build(_params(search=probe)), probe


def _params(**values: Any) -> ListParams:
    return ListParams.model_validate(values)
