"""What /api/health checks beyond reachability: the worker's heartbeat, the spare pool, migrations.

Each check answers "ok", "warning: <what>" (worth a look, nothing is broken: the answer stays 200) or
"error: <what>" (the answer is a 503). The load balancer uses /api/health/live instead, which only
says the process answers: a dead worker or a pending migration must not take the web servers out.
"""

from __future__ import annotations

import time
from typing import Any

from core import metrics
from django.apps import apps
from django.conf import settings
from django.db import connection
from django.db.migrations.loader import MigrationLoader

# The migration check reads two tables; the migration graph comes from the code, read once a process.
MIGRATIONS_CACHE_SECONDS = 30.0
_loader: MigrationLoader | None = None
_pending_cache: tuple[float, list[str]] | None = None


def worker_check() -> tuple[str, float | None, int]:
    age, alive = metrics.worker_heartbeat()
    if age is None:
        return "error: no worker has ever reported (is the Dramatiq worker running?)", None, 0
    if age > settings.WORKER_HEARTBEAT_STALE_SECONDS:
        return f"error: the newest worker heartbeat is {age:.0f} s old (jobs are not being run)", age, alive
    return "ok", round(age, 1), alive


def spare_pool_check() -> tuple[str, int]:
    size = metrics.spare_pool_size()
    target = settings.SPARE_SCHEMA_POOL_SIZE
    if target > 0 and size == 0:
        return "warning: no spare schema ready: signups clone the template (slower) until it is refilled", 0
    return "ok", size


def _graph_loader() -> MigrationLoader:
    global _loader
    if _loader is None:
        _loader = MigrationLoader(None, ignore_no_migrations=True)  # no connection: the code's graph only
    return _loader


def _labels(app_names: list[str]) -> set[str]:
    return {config.label for config in apps.get_app_configs() if config.name in app_names}


def _tenant_schema() -> str | None:
    """The schema that stands for every company's: the template (bootstrap makes it; new companies
    are cloned from it), else the newest company (a database set up without the pool), else none."""
    from tenancy.models import Tenant

    with connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", [settings.TENANT_BASE_SCHEMA])
        if cur.fetchone() is not None:
            return str(settings.TENANT_BASE_SCHEMA)
        cur.execute("SELECT to_regclass('public.tenancy_tenant')")
        if cur.fetchone()[0] is None:  # an empty database: the public schema's migrations come first
            return None
    newest = (
        Tenant.objects.filter(status__in=[Tenant.Status.ACTIVE, Tenant.Status.SUSPENDED])
        .order_by("-id")
        .values_list("schema_name", flat=True)
        .first()
    )
    return str(newest) if newest else None


def pending_migrations() -> list[str]:
    """Migrations the code has and the public schema (shared apps) or the tenant template (tenant apps:
    every company is migrated with it) has not applied, as "schema: app.name"."""
    global _pending_cache
    now = time.monotonic()
    if _pending_cache is not None and now - _pending_cache[0] < MIGRATIONS_CACHE_SECONDS:
        return _pending_cache[1]
    loader = _graph_loader()
    nodes = set(loader.graph.nodes)
    missing: list[str] = []
    for schema, labels in (
        ("public", _labels(settings.SHARED_APPS)),
        (_tenant_schema(), _labels(settings.TENANT_APPS)),
    ):
        if schema is None:
            continue
        with connection.cursor() as cur:
            cur.execute("SELECT to_regclass(%s)", [f'"{schema}".django_migrations'])
            if cur.fetchone()[0] is None:  # a database never migrated
                missing.append(f"{schema}: no migration applied yet")
                continue
            cur.execute(f'SELECT app, name FROM "{schema}".django_migrations')  # noqa: S608 - a schema we name
            applied = {(app, name) for app, name in cur.fetchall()}
        for app, name in sorted(nodes):
            if app not in labels or (app, name) in applied:
                continue
            replaced = loader.replacements.get((app, name))
            if replaced is not None and all(key in applied for key in replaced.replaces):
                continue
            missing.append(f"{schema}: {app}.{name}")
    _pending_cache = (now, missing)
    return missing


def migrations_check() -> tuple[str, list[str]]:
    missing = pending_migrations()
    if missing:
        return f"error: {len(missing)} migration(s) not applied (run manage.py bootstrap)", missing[:20]
    return "ok", []


def clear_cache() -> None:
    global _pending_cache
    _pending_cache = None


def run_checks() -> dict[str, Any]:
    """The extra checks, each guarded: a check that cannot run says why instead of failing the page."""
    out: dict[str, Any] = {
        "worker": "ok",
        "worker_heartbeat_age_seconds": None,
        "workers_alive": 0,
        "spare_pool": "ok",
        "spare_schemas": None,
        "migrations": "ok",
        "pending_migrations": [],
    }
    try:
        out["worker"], out["worker_heartbeat_age_seconds"], out["workers_alive"] = worker_check()
    except Exception as exc:
        out["worker"] = f"error: the heartbeat could not be read ({type(exc).__name__})"
    try:
        out["spare_pool"], out["spare_schemas"] = spare_pool_check()
    except Exception as exc:
        out["spare_pool"] = f"error: the pool could not be counted ({type(exc).__name__})"
    try:
        out["migrations"], out["pending_migrations"] = migrations_check()
    except Exception as exc:
        out["migrations"] = f"error: the migration state could not be read ({type(exc).__name__})"
    return out
