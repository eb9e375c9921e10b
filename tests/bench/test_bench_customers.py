"""The customer list at scale: one tenant with 100,000 customers and 1,000,000 ship-tos
(`manage.py bench_seed_customers`), page 1 of `GET /api/customer/customers?search=…&sort_by=name&order=asc`
through gunicorn over loopback, one keep-alive client, beside the floor: the same two statements the
API runs (the page's count and the page itself, captured from the ORM) sent by psycopg on one connection.

Target (issue 4): p95 ≤ 50 ms at the API for every search term; the result says whether it was met.
Target (issue 14): every case's API p95 ≤ its SQL floor's p95 + 5 ms; the bench FAILS when one is over
(`floor.assert_near_floor`), after recording its figures. `BENCH_CUSTOMERS` / `BENCH_SHIP_TOS` scale
the data down for a quick look; `BENCH_CUSTOMER_REQUESTS` sets the requests per term.
"""

from __future__ import annotations

import io
import os
import time
from typing import Any
from urllib.parse import urlencode

from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.bench.floor import (
    GAP_TARGET_MS,
    assert_near_floor,
    bench_tenant,
    over_gap_target,
    served_beside_floor,
)
from tests.bench.stats import summary

CUSTOMERS = int(os.environ.get("BENCH_CUSTOMERS", "100000"))
SHIP_TOS = int(os.environ.get("BENCH_SHIP_TOS", "1000000"))
REQUESTS = int(os.environ.get("BENCH_CUSTOMER_REQUESTS", "250"))  # per term, each side
WARM_UP = 20
TARGET_P95_MS = float(os.environ.get("BENCH_CUSTOMER_P95_MS", "50"))
PATH = "/api/customer/customers"
SHIP_TO_PATH = "/api/customer-ship-to"

# What people type into the search box (the seed's names, numbers and emails look like these).
TERMS = {
    "company-name fragment": "johnson",
    "trade (2.6 % of rows)": "trucking",
    "account-number prefix": "C0421",
    "email fragment": "@pronghorn",
    "phone fragment": "432 55",
    "two letters (prefix indexes)": "jo",
}


def query_string(term: str | None, path: str = PATH, **extra: Any) -> str:
    params = {"sort_by": "name", "order": "asc", **extra}
    if term:
        params["search"] = term
    return f"{path}?{urlencode(params)}"


def captured_statements(token: str, path: str) -> tuple[list[str], dict[str, Any]]:
    """The list's statements one request runs, as sent to Postgres: the page with its total
    (COUNT(*) OVER ()) for a search, or the count then the page for the whole list (a ship-to search
    first looks up the customers and cities it names)."""
    connection.set_schema_to_public()
    with CaptureQueriesContext(connection) as ctx:
        res = Client().get(path, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert res.status_code == 200, res.content
    table = '"parties_shipto"' if SHIP_TO_PATH in path else '"parties_customer"'
    statements = [
        q["sql"]
        for q in ctx.captured_queries
        if f"FROM {table}" in q["sql"]
        or (table == '"parties_shipto"' and 'FROM "parties_customer"' in q["sql"])
        or (table == '"parties_shipto"' and 'FROM "geo_city"' in q["sql"])
    ]
    # A searched ship-to page is read in two steps (its ids with the total, then the rows): 5 at most.
    assert 1 <= len(statements) <= 5 and any("LIMIT 100" in s for s in statements), statements
    return statements, res.json()["data"]


def plan_of(schema: str, sql: str) -> str:
    """The page statement's plan, shortened to its scan nodes (for the record)."""
    with connection.cursor() as cur:
        cur.execute(f'SET search_path = "{schema}", public')
        cur.execute(f"EXPLAIN {sql}")
        lines = [r[0].strip().lstrip("-> ") for r in cur.fetchall()]
    return "; ".join(line.split("  (")[0] for line in lines if "Scan" in line and "geo_" not in line)


def test_customer_list_at_scale(committed, record):
    tenant, _, token = bench_tenant("Customers")
    start = time.perf_counter()
    out = io.StringIO()
    call_command(
        "bench_seed_customers", tenant.schema_name, customers=CUSTOMERS, ship_tos=SHIP_TOS, stdout=out
    )
    seed_seconds = time.perf_counter() - start
    print("\n" + out.getvalue().strip())
    connection.set_tenant(tenant)

    from tenants.parties.models import Customer

    cases: dict[str, str | None] = {**TERMS, "no search (whole list)": None}
    paths = {label: query_string(term) for label, term in cases.items()}
    # The ship-to list over the same data (1,000,000 rows): one customer's, a search, the whole list.
    connection.set_tenant(tenant)
    some_customer = Customer.objects.filter(name__icontains="johnson").order_by("id").first()
    assert some_customer is not None
    connection.set_schema_to_public()
    ship_to_cases = {
        "ship-tos: one customer's (customer_id)": (None, {"customer_id": some_customer.pk}),
        "ship-tos: search": ("johnson", {}),
        "ship-tos: no search (whole list)": (None, {}),
    }
    for label, (term, extra) in ship_to_cases.items():
        cases[label] = term
        paths[label] = query_string(term, SHIP_TO_PATH, **extra)
    captured = {label: captured_statements(token, paths[label]) for label in cases}
    plans = {
        label: plan_of(tenant.schema_name, next(s for s in stmts if "LIMIT 100" in s))
        for label, (stmts, _) in captured.items()
    }
    connection.set_schema_to_public()

    results: dict[str, Any] = {}
    load_before = os.getloadavg()
    with served_beside_floor(tenant.schema_name) as bench:
        for label, term in cases.items():
            statements, page = captured[label]
            api, sql = bench.alternate(paths[label], token, statements, warm_up=WARM_UP, requests=REQUESTS)
            results[label] = {
                "search": term,
                "total": page["total"],
                "api": summary(api),
                "sql_floor": summary(sql),
                "plan": plans[label],
            }
    load = (load_before[0], os.getloadavg()[0])

    record["customer_list"] = {
        "customers": CUSTOMERS,
        "ship_tos": SHIP_TOS,
        "seed_seconds": round(seed_seconds, 1),
        "requests_per_case": REQUESTS,
        "load_average_1min_before_after": [round(x, 1) for x in load],
        "load": "1 client, sequential; gunicorn as deployed (infra/gunicorn.conf.py, 2 sync workers); "
        "floor: psycopg, 1 conn. (no parallel query, as the web server's sessions; psycopg prepares "
        "a statement on its 5th run, as the kit's kept statements).",
        "cases": results,
    }
    print(
        f"\ncustomer list at scale: {CUSTOMERS:,} customers, {SHIP_TOS:,} ship-tos, seed {seed_seconds:.1f} s"
    )
    print("| search | total | API p50 | API p95 | SQL p50 | SQL p95 | gap p95 | plan |")
    for label, r in results.items():
        r["gap_p95_ms"] = round(r["api"]["p95_ms"] - r["sql_floor"]["p95_ms"], 1)
        print(
            f"| {label}: `{r['search']}` | {r['total']:,} | {r['api']['p50_ms']} | {r['api']['p95_ms']} "
            f"| {r['sql_floor']['p50_ms']} | {r['sql_floor']['p95_ms']} | {r['gap_p95_ms']} | {r['plan']} |"
        )
    # Issue 14: every kit list at p95 ≤ SQL floor + GAP_TARGET_MS.
    gaps = {k: r["gap_p95_ms"] for k, r in results.items()}
    record["customer_list"]["gap_target_ms"] = GAP_TARGET_MS
    record["customer_list"]["over_gap_target"] = over_gap_target(gaps)
    # The absolute target depends on the machine: recorded, not failed on.
    slow = {
        k: r["api"]["p95_ms"]
        for k, r in results.items()
        if r["search"] and r["api"]["p95_ms"] > TARGET_P95_MS
    }
    record["customer_list"]["target_p95_ms"] = TARGET_P95_MS
    record["customer_list"]["over_target"] = slow
    print(f"API p95 target {TARGET_P95_MS} ms with a search term: " + (f"over for {slow}" if slow else "met"))
    assert_near_floor(gaps)
