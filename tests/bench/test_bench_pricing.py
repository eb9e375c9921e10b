"""Pricing at scale (issue 8): buying prices of TERMINALS x PRODUCTS x DAYS (default 200 x 50 x 500 =
5,000,000 rows; BENCH_RACK_DAYS etc. make it smaller); the rack price in force for one (terminal,
product, supplier | lowest | average, date) through SQL (the floor: the statement alone) and through
the engine (`buying_price_in_force`); a 50-line order (rules + rack + 4 taxes + 2 fees) through
`price_document`, with its statement count asserted."""

from __future__ import annotations

import datetime as dt
import os
import random
import time
from decimal import Decimal

from django.db import connection

from tests.bench.stats import summary

TERMINALS = int(os.environ.get("BENCH_RACK_TERMINALS", "200"))
PRODUCTS = int(os.environ.get("BENCH_RACK_PRODUCTS", "50"))
DAYS = int(os.environ.get("BENCH_RACK_DAYS", "500"))
RUNS = int(os.environ.get("BENCH_RUNS", "300"))
START = dt.date(2025, 1, 1)


def _seed(schema: str) -> dict:
    from tenants.catalog.models import Product, ProductCategory
    from tenants.geo.models import State
    from tenants.parties.models import Customer, ShipTo, Supplier, Terminal
    from tenants.pricing.models import Fee, PricingRule, Tax, TaxRate

    state = State.objects.create(name="Texas", code="TX")
    fuel = ProductCategory.objects.create(name="Fuel")
    supplier = Supplier.objects.create(name="Bench Supplier")
    Terminal.objects.bulk_create(
        [Terminal(name=f"T{i}", terminal_code=f"T-{i:05}") for i in range(TERMINALS)]
    )
    Product.objects.bulk_create(
        [Product(name=f"P{i}", code=f"P{i:04}", sold_as="gallon", category=fuel) for i in range(PRODUCTS)]
    )
    t0 = time.perf_counter()
    with connection.cursor() as cur:
        # One supplier, every terminal x product x day; each day's row closes the day before's.
        cur.execute(
            """INSERT INTO pricing_buyingprice
                 (supplier_id, terminal_id, product_id, price, effective_from, effective_to,
                  created_at, updated_at)
               SELECT %s, t.id, p.id, 2 + random()::numeric(6,4), %s::date + d,
                      CASE WHEN d = %s - 1 THEN NULL ELSE %s::date + d END, now(), now()
               FROM parties_terminal t CROSS JOIN catalog_product p
               CROSS JOIN generate_series(0, %s - 1) d""",
            [supplier.pk, START, DAYS, START, DAYS],
        )
    seed_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with connection.cursor() as cur:
        # What autovacuum does after a bulk load (insert-triggered since PostgreSQL 13): statistics,
        # and the visibility map that lets the rack lookup answer from the index alone.
        cur.execute("VACUUM ANALYZE pricing_buyingprice")
    vacuum_s = time.perf_counter() - t0
    terminal = Terminal.objects.order_by("id").first()
    customer = Customer.objects.create(name="Bench Customer", account_number="B-1")
    ship_to = ShipTo.objects.create(customer=customer, name="Yard", state=state)
    PricingRule.objects.create(
        name="Fuel rack",
        category=fuel,
        basis="rack",
        rack_mode="lowest",
        terminal=terminal,
        margin=Decimal("0.15"),
        freight_per_unit=Decimal("0.05"),
    )
    for i, (kind, rate) in enumerate(
        [("per_unit", "0.244"), ("per_unit", "0.20"), ("percent", "6.25"), ("percent", "1")]
    ):
        tax = Tax.objects.create(
            name=f"Tax {i}",
            code=f"TX{i}",
            kind=kind,
            applies_to_all_states=True,
            applies_to_all_products=True,
            sequence=i,
        )
        TaxRate.objects.create(tax=tax, rate=Decimal(rate), effective_from=START)
    fees = [
        Fee.objects.create(name="Delivery", fee_code="DEL", rate=Decimal("75")),
        Fee.objects.create(name="Env", fee_code="ENV", fee_type="percentage", rate=Decimal("1")),
    ]
    return {
        "seed_s": round(seed_s, 1),
        "vacuum_analyze_s": round(vacuum_s, 1),
        "supplier": supplier.pk,
        "terminal_ids": list(Terminal.objects.values_list("id", flat=True)),
        "product_ids": list(Product.objects.values_list("id", flat=True)),
        "customer": customer.pk,
        "ship_to": ship_to.pk,
        "fees": [f.pk for f in fees],
    }


def _floor_connection(schema: str):  # type: ignore[no-untyped-def]
    """A plain psycopg connection with the tenant's search_path set once: the statement alone, one
    round trip (Django's cursor sends django-tenants' `SET search_path` before each statement)."""
    import psycopg
    from django.conf import settings

    db = settings.DATABASES["default"]
    conn = psycopg.connect(
        dbname=str(connection.settings_dict["NAME"]),
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        autocommit=True,
    )
    conn.execute(f'SET search_path = "{schema}", public')
    return conn


def _server_ms(terminal: int, product: int, on: dt.date, supplier: int | None) -> float:
    """Planning + execution time of the rack statement as the server reports it (seconds)."""
    from tenants.pricing import selectors

    sql = selectors._RACK_SQL if supplier is None else selectors._RACK_NAMED_SQL
    params = {"terminals": [terminal], "products": [product], "on": on, "supplier": supplier}
    with connection.cursor() as cur:
        cur.execute("EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) " + sql, params)
        plan = cur.fetchone()[0][0]
    return float(plan["Planning Time"] + plan["Execution Time"]) / 1000


def test_rack_price_in_force_and_a_50_line_order(committed, record):
    from django.test.utils import CaptureQueriesContext
    from tenancy.services import provision_tenant

    from tenants.pricing import selectors, services

    tenant, _admin = provision_tenant(
        company_name="Bench Pricing",
        admin_email="bench.pricing@bench.test",
        admin_name="Bench",
        admin_password="Correct-Horse-42",
        use_pool=False,
    )
    connection.set_tenant(tenant)
    try:
        facts = _seed(tenant.schema_name)
        rng = random.Random(7)
        out: dict = {
            "rows": TERMINALS * PRODUCTS * DAYS,
            "seed_s": facts["seed_s"],
            "vacuum_analyze_s": facts["vacuum_analyze_s"],
            "load_average_before": os.getloadavg(),
        }

        def day() -> dt.date:
            return START + dt.timedelta(days=rng.randrange(DAYS))

        floor_conn = _floor_connection(tenant.schema_name)
        for basis in ("named", "lowest", "average"):
            sql_t, engine_t, engine_cpu, server_t, floor_t = [], [], [], [], []
            for i in range(RUNS):
                t, p, on = rng.choice(facts["terminal_ids"]), rng.choice(facts["product_ids"]), day()
                sup = facts["supplier"] if basis == "named" else None
                t0 = time.perf_counter()
                selectors.rack_quotes([(t, p)], on, sup)
                sql_t.append(time.perf_counter() - t0)
                t0, c0 = time.perf_counter(), time.process_time()
                found = services.buying_price_in_force(
                    product_id=p, terminal_id=t, supplier_id=facts["supplier"], on=on, basis=basis
                )
                engine_t.append(time.perf_counter() - t0)
                engine_cpu.append(time.process_time() - c0)
                assert found is not None
                if i % 5 == 0:
                    server_t.append(_server_ms(t, p, on, sup))
                sql = selectors._RACK_SQL if sup is None else selectors._RACK_NAMED_SQL
                params = {"terminals": [t], "products": [p], "on": on, "supplier": sup}
                t0 = time.perf_counter()
                floor_conn.execute(sql, params).fetchall()
                floor_t.append(time.perf_counter() - t0)
            out[f"rack_{basis}_sql"] = summary(sql_t)
            out[f"rack_{basis}_engine"] = summary(engine_t)
            # This process's CPU (Python: the selector, the engine, psycopg), not the server's.
            out[f"rack_{basis}_engine_cpu"] = summary(engine_cpu)
            # The server's own planning + execution time (EXPLAIN ANALYZE), without the round trip.
            out[f"rack_{basis}_server"] = summary(server_t)
            # The statement alone over one connection: one round trip, no SET search_path.
            out[f"rack_{basis}_floor"] = summary(floor_t)
        floor_conn.close()

        lines = [
            services.LineRequest(str(i), p, Decimal("100")) for i, p in enumerate(facts["product_ids"][:50])
        ]
        fees = [services.FeeRequest(str(i), f) for i, f in enumerate(facts["fees"])]
        order_t = []
        for _ in range(max(50, RUNS // 3)):
            on = day()
            t0 = time.perf_counter()
            with CaptureQueriesContext(connection) as q:
                doc = services.price_document(
                    customer_id=facts["customer"],
                    ship_to_id=facts["ship_to"],
                    lines=lines,
                    pricing_date=on,
                    fees=fees,
                )
            order_t.append(time.perf_counter() - t0)
            statements = [x for x in q.captured_queries if not x["sql"].startswith("SET search_path")]
            assert len(doc.lines) == 50 and len(statements) <= 10, len(statements)
        out["order_50_lines"] = summary(order_t)
        out["load_average_after"] = os.getloadavg()
        out["order_50_lines_statements"] = len(statements)
        record["pricing"] = out
        print(out)
    finally:
        connection.set_schema_to_public()
