"""What a load balancer and an operator call without signing in."""

from core import metrics
from core.cache import raw_redis_client
from django.db import connection

from tenancy import health


def test_ping_answers_pong(anon, db):
    res = anon.get("/api/ping")
    assert res.status_code == 200 and res.json()["message"] == "pong"


def test_live_is_trivial(anon, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        res = anon.get("/api/health/live")
    assert res.status_code == 200 and res.json()["message"] == "alive"


def _fresh_heartbeat(age: float = 0.0) -> None:
    import time

    raw_redis_client().delete(metrics._heartbeat_key())
    raw_redis_client().zadd(metrics._heartbeat_key(), {"test:1": time.time() - age})


def test_health_reports_each_dependency(anon, db):
    _fresh_heartbeat()
    health.clear_cache()
    res = anon.get("/api/health")
    assert res.status_code == 200, res.json()
    data = res.json()["data"]
    assert {k: data[k] for k in ("database", "redis", "storage", "worker", "migrations")} == {
        "database": "ok",
        "redis": "ok",
        "storage": "ok",
        "worker": "ok",
        "migrations": "ok",
    }
    assert data["workers_alive"] == 1 and data["worker_heartbeat_age_seconds"] < 30
    assert data["pending_migrations"] == [] and isinstance(data["spare_schemas"], int)


def test_health_says_the_worker_is_gone(anon, db):
    _fresh_heartbeat(age=600)
    res = anon.get("/api/health")
    assert res.status_code == 503
    assert res.json()["data"]["worker"].startswith("error: the newest worker heartbeat is 600 s old")
    assert "worker" in res.json()["message"]
    raw_redis_client().delete(metrics._heartbeat_key())
    res = anon.get("/api/health")
    assert res.status_code == 503 and res.json()["data"]["worker"].startswith("error: no worker")


def test_health_names_a_pending_migration(anon, db):
    _fresh_heartbeat()
    with connection.cursor() as cur:
        cur.execute(
            "DELETE FROM public.django_migrations WHERE app = 'tenancy' AND name = "
            "(SELECT max(name) FROM public.django_migrations WHERE app = 'tenancy') RETURNING name"
        )
        (name,) = cur.fetchone()
    health.clear_cache()
    try:
        res = anon.get("/api/health")
    finally:
        health.clear_cache()
    assert res.status_code == 503
    data = res.json()["data"]
    assert data["migrations"].startswith("error: 1 migration(s) not applied")
    assert data["pending_migrations"] == [f"public: tenancy.{name}"]


def test_health_warns_when_the_spare_pool_is_empty(anon, db, settings):
    _fresh_heartbeat()
    settings.SPARE_SCHEMA_POOL_SIZE = 3
    from tenancy.models import Tenant

    Tenant.objects.filter(status=Tenant.Status.SPARE).update(status=Tenant.Status.SUSPENDED)
    res = anon.get("/api/health")
    assert res.status_code == 200  # a warning, not an outage
    assert res.json()["data"]["spare_pool"].startswith("warning: no spare schema ready")
    assert res.json()["data"]["spare_schemas"] == 0
