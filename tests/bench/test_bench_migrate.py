"""`migrate_schemas` with nothing to apply over 200 tenants (spare schemas are tenants too)."""

import os
import time

from django.core.management import call_command

TENANTS = int(os.environ.get("BENCH_MIGRATE_TENANTS", "200"))


def test_migrate_noop_over_many_tenants(committed, record):
    from tenancy.models import Tenant
    from tenancy.services import create_spare

    t0 = time.perf_counter()
    while Tenant.objects.exclude(schema_name="public").count() < TENANTS:
        create_spare()
    create_seconds = time.perf_counter() - t0
    count = Tenant.objects.exclude(schema_name="public").count()
    timings = {}
    for executor in ("standard", "multiprocessing"):
        start = time.perf_counter()
        call_command("migrate_schemas", executor=executor, interactive=False, verbosity=0)
        timings[executor] = round(time.perf_counter() - start, 1)
    record["migrate_noop"] = {
        "tenant_schemas": count,
        "seconds_by_executor": timings,
        "clone_seconds_per_schema": round(create_seconds / max(1, TENANTS), 2),
    }
    print("\nmigrate", record["migrate_noop"])
