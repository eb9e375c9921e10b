"""Searches of one or two letters: the start of a name, number, email or phone, from btree prefix
indexes (a trigram index needs three letters; a contains-search of two letters would scan the table)."""

from tenants.parties.tests.helpers import CUSTOMERS, customer


def names(api, term):
    res = api.get(CUSTOMERS, {"search": term, "sort_by": "name"})
    assert res.status_code == 200, res.json()
    return [c["name"] for c in res.json()["data"]["items"]]


def test_short_terms_match_the_start_longer_ones_anywhere(api_a):
    customer(api_a, "Acme Construction")
    customer(api_a, "Bravo Acres")
    customer(api_a, "Acorn Farms")
    assert names(api_a, "ac") == ["Acme Construction", "Acorn Farms"]  # not "Bravo Acres"
    assert names(api_a, "a") == ["Acme Construction", "Acorn Farms"]
    assert names(api_a, "acr") == ["Bravo Acres"]  # three letters: anywhere


def test_the_parameter_says_so(api_a):
    from fueldesk.api import api

    params = api.get_openapi_schema(path_prefix="/api")["paths"][CUSTOMERS]["get"]["parameters"]
    search = next(p for p in params if p["name"] == "search")
    assert (
        "fewer than 3 characters matches the start of name, account_number, email, phone"
        in (search["description"])
    )


def test_short_searches_use_the_prefix_indexes(tenant_a, in_tenant):
    from django.db import connection

    from tenants.parties.api import customer_crud

    params = customer_crud.query_schema.model_validate({"search": "ac", "sort_by": "name", "order": "asc"})
    with in_tenant(tenant_a):
        with connection.cursor() as cur:
            cur.execute("SET LOCAL enable_seqscan = off")
        plan = customer_crud.list_queryset(params).explain()
        with connection.cursor() as cur:
            cur.execute("SET LOCAL enable_seqscan = on")
    for field in ("name", "account_number", "email", "phone"):
        assert f"customer_{field}_prefix" in plan, plan
