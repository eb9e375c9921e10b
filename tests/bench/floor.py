"""What the API benchmarks share: a tenant of their own, and the SQL floor's connection."""

from __future__ import annotations

import time
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection


def bench_tenant(label: str) -> tuple[Any, Any, str]:
    """A new tenant for one benchmark (never from the spare pool), its admin, and an access token."""
    from tenancy.services import provision_tenant

    from tenants.accounts.auth import session_for

    stamp = time.time_ns()
    tenant, admin = provision_tenant(
        company_name=f"Bench {label} {stamp}",
        admin_email=f"admin{stamp}@{label.lower().replace(' ', '-')}.bench",
        admin_name="Bench Admin",
        admin_password="Bench-pass-2026",
        use_pool=False,
    )
    connection.set_tenant(tenant)  # the token reads the admin's tenant rows
    token = session_for(admin, tenant)["access_token"]
    connection.set_schema_to_public()
    return tenant, admin, token


def floor_connection(schema: str) -> psycopg.Connection[Any]:
    """psycopg on the test database in `schema`, with the session the web server's requests get
    (infra/gunicorn.conf.py: no parallel query). psycopg prepares a statement on its 5th run, as the
    kit's kept list statements are (core.kept.prepared_cursor)."""
    db = settings.DATABASES["default"]
    floor = psycopg.connect(
        host=str(db["HOST"] or "127.0.0.1"),
        port=int(str(db["PORT"] or 5432)),
        user=str(db["USER"]),
        dbname=str(db["NAME"]),
        options="-c max_parallel_workers_per_gather=0",
        autocommit=True,
    )
    floor.execute(f'SET search_path = "{schema}", public')  # type: ignore[call-overload]
    return floor
