"""Signup latency: `POST /api/tenant` until the returned token reads the profile, 20 times, beside
clone-on-the-spot and migrate-based creation of a tenant schema."""

import time

from django.db import connection
from django.test import Client, override_settings

from tests.bench.stats import summary

RUNS = 20


def signup(client: Client, n: int, tag: str) -> float:
    start = time.perf_counter()
    res = client.post(
        "/api/tenant",
        {
            "company_name": f"Bench {tag} {n}",
            "name": "B",
            "email": f"b{n}@{tag}.bench",
            "password": "Bench-pass-2026",
        },
        content_type="application/json",
    )
    assert res.status_code == 201, res.content
    token = res.json()["data"]["access_token"]
    assert client.get("/api/profile", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200
    return time.perf_counter() - start


def test_signup_latency(committed, record):
    from tenancy.models import Tenant
    from tenancy.services import refill_spares

    client = Client()
    with override_settings(SPARE_SCHEMA_POOL_SIZE=RUNS, SIGNUP_RATE_LIMIT_PER_IP=10_000):
        t0 = time.perf_counter()
        refill_spares(RUNS)
        refill_seconds = time.perf_counter() - t0
        pooled = [signup(client, n, "pool") for n in range(RUNS)]

    with override_settings(SPARE_SCHEMA_POOL_SIZE=0, SIGNUP_RATE_LIMIT_PER_IP=10_000):
        Tenant.objects.filter(status=Tenant.Status.SPARE).delete()
        cloned = [signup(client, n, "clone") for n in range(RUNS)]

    migrated = []
    with override_settings(TENANT_CREATION_FAKES_MIGRATIONS=False):
        for n in range(5):
            start = time.perf_counter()
            Tenant(schema_name=f"bench_migrated_{n}", name=f"migrated {n}", status=Tenant.Status.SPARE).save(
                verbosity=0
            )
            migrated.append(time.perf_counter() - start)
    connection.set_schema_to_public()
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'tenant_template'")
        tables = cur.fetchone()[0]
    record["signup"] = {
        "tenant_tables": tables,
        "pool_signup": summary(pooled),
        "clone_on_the_spot_signup": summary(cloned),
        "migrate_based_schema_only": summary(migrated),
        "pool_refill_per_schema_ms": round(refill_seconds / RUNS * 1000, 1),
    }
    print("\nsignup", record["signup"])
    assert summary(pooled)["p50_ms"] <= 500, "target: p50 ≤ 0.5 s with a warm pool"
