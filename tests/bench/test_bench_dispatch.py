"""The dispatch center's day view at size: 400 orders of the day (3 lines each; 300 on 60 trucks, 100
unassigned), 60 trucks with compartments, 60 drivers; `GET /api/dispatch/day?date=` through gunicorn
over loopback, one keep-alive client. Target (issue 9): ≤ 150 ms at the API with a bounded query count
(counted in-process beside it). `BENCH_DISPATCH_REQUESTS` sets the number of requests.
"""

from __future__ import annotations

import cProfile
import datetime as dt
import http.client
import io
import os
import pstats
import time
from decimal import Decimal
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.bench.floor import api_call, gunicorn
from tests.bench.stats import summary

REQUESTS = int(os.environ.get("BENCH_DISPATCH_REQUESTS", "100"))
WARM_UP = 10
TARGET_MS = 150
DAY = dt.date(2026, 12, 1)


def seed(trucks: int = 60, orders: int = 400, assigned: int = 300) -> None:
    from tenants.catalog.models import Product
    from tenants.fleet.models import AssetType, CompanyAsset, Driver
    from tenants.parties.models import Customer, ShipTo
    from tenants.sales.models import LineItem, SalesOrder

    kind = AssetType.objects.create(name="Bench tank truck", category="truck")
    units = CompanyAsset.objects.bulk_create(
        CompanyAsset(
            asset_number=f"BT-{i:03d}",
            name="Bench truck",
            asset_type=kind,
            capacity=9000,
            compartments=[{"number": n, "capacity": 3000} for n in (1, 2, 3)],
        )
        for i in range(trucks)
    )
    drivers = Driver.objects.bulk_create(Driver(name=f"Bench driver {i:03d}") for i in range(trucks))
    products = Product.objects.bulk_create(
        Product(name=f"Bench fuel {i}", code=f"BF-{i}", sold_as="gallon", is_fuel=True) for i in range(3)
    )
    customers = Customer.objects.bulk_create(
        Customer(name=f"Bench customer {i:03d}", account_number=f"BC-{i:03d}") for i in range(100)
    )
    sites = ShipTo.objects.bulk_create(ShipTo(customer=c, name="Yard") for c in customers)
    made = []
    for i in range(orders):
        on_truck = i < assigned
        made.append(
            SalesOrder(
                number=f"SO-B{i:05d}",
                customer=customers[i % 100],
                ship_to=sites[i % 100],
                planned_date=DAY,
                status="assigned" if on_truck else "verified",
                truck=units[i % trucks] if on_truck else None,
                driver=drivers[i % trucks] if on_truck else None,
                stop_sequence=(i // trucks) + 1 if on_truck else None,
                subtotal=Decimal("900.00"),
                total=Decimal("900.00"),
            )
        )
    made = SalesOrder.objects.bulk_create(made)
    LineItem.objects.bulk_create(
        LineItem(
            sales_order=o,
            position=n + 1,
            product=products[n],
            quantity=Decimal("100"),
            unit_price=Decimal("3.0000"),
            amount=Decimal("300.00"),
            price_fixed=True,
        )
        for o in made
        for n in range(3)
    )


def cpu_profile(path: str, token: str, runs: int = 20) -> dict[str, Any]:
    """The request in-process (Django's test client): wall and CPU time of the handler, which the
    machine's load moves much less than the wall time; `BENCH_PROFILE=1` prints a cProfile of it."""
    client = Client()
    for _ in range(3):
        client.get(path, HTTP_AUTHORIZATION=f"Bearer {token}")
    wall, cpu = [], []
    profiler = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        res = client.get(path, HTTP_AUTHORIZATION=f"Bearer {token}")
        if profiler:
            profiler.disable()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
        assert res.status_code == 200
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(45)
        print(out.getvalue())
    return {"wall": summary(wall), "cpu": summary(cpu)}


def test_dispatch_day_at_size(committed, record):
    from tenancy.services import provision_tenant

    from tenants.accounts.auth import session_for

    tenant, admin = provision_tenant(
        company_name=f"Bench Dispatch {time.time_ns()}",
        admin_email=f"d{time.time_ns()}@dispatch.bench",
        admin_name="Bench Admin",
        admin_password="Bench-pass-2026",
        use_pool=False,
    )
    connection.set_tenant(tenant)
    seed()
    token = session_for(admin, tenant)["access_token"]
    path = f"/api/dispatch/day?date={DAY}"
    connection.set_schema_to_public()
    with CaptureQueriesContext(connection) as ctx:
        res = Client().get(path, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert res.status_code == 200, res.content
    data = res.json()["data"]
    assert len(data["unassigned"]) == 100 and sum(len(t["orders"]) for t in data["trucks"]) == 300
    queries = len(ctx.captured_queries)
    if os.environ.get("BENCH_PROFILE"):
        for q in ctx.captured_queries:
            print(q["time"], q["sql"][:160])
    in_process = cpu_profile(path, token)

    samples = []
    with gunicorn() as port:
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            for n in range(WARM_UP + REQUESTS):
                elapsed = api_call(client, path, token)
                if n >= WARM_UP:
                    samples.append(elapsed)
        finally:
            client.close()
    stats = summary(samples)
    record["dispatch_day"] = {
        "orders": 400,
        "trucks": 60,
        "queries_per_request": queries,
        "api": stats,
        "in_process": in_process,
        "target_p95_ms": TARGET_MS,
        "met": stats["p95_ms"] <= TARGET_MS,
        "loadavg": os.getloadavg()[0],
    }
    print(f"\ndispatch day: {stats}, {queries} queries per request; in-process {in_process}")
