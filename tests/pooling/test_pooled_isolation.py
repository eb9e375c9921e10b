"""Behind PgBouncer, a request of company B never reads or writes company A's rows (issue 25 §2).

Three companies, each with customers named by a marker of its own; the server as deployed (gunicorn,
4 sync workers) reaches Postgres only through a PgBouncer started for the test (infra/pooler.py).
Twelve client threads send requests of the three companies interleaved: a list read, a read by id
(the ids are the same in every company, so a read in the wrong schema finds another company's row)
and a create. Every answer must carry its own company's marker only, and afterwards every schema
must hold its own markers only. Then: the pooler held no more server connections than the server has
workers, however many companies they served.

The guarantee is session mode (infra/pooler.py says why). Run the same test with
POOLING_TEST_MODE=transaction to see what it prevents: the SET search_path and the statements after
it land on different server connections, and the test fails on crossed rows.
Skipped, with the reason, only when pgbouncer is not installed or cannot start.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from conftest import TenantHandle, _make_tenant, token_for
from infra import pooler
from tests.bench.floor import ROOT, free_port

MODE = os.environ.get("POOLING_TEST_MODE", "session")
COMPANIES = 3
WEB_WORKERS = 4
THREADS = 12
ROUNDS = 12  # per thread: 12 x 12 x 3 requests
CUSTOMERS = "/api/customer/customers"


def marker(schema: str) -> str:
    return f"Marker {schema}"


@pytest.fixture(scope="module")
def companies(django_db_setup: Any, django_db_blocker: Any) -> Iterator[list[dict[str, Any]]]:
    """Committed companies (the server is another process), each with three marker customers."""
    made: list[dict[str, Any]] = []
    with django_db_blocker.unblock():
        from tenancy.services import ensure_template

        from tenants.parties.models import Customer

        ensure_template()
        try:
            for i in range(COMPANIES):
                handle: TenantHandle = _make_tenant(f"Pooled Fuels {i}", f"admin@pooled{i}.test")
                connection.set_tenant(handle.tenant)
                ids = [
                    Customer.objects.create(name=f"{marker(handle.schema)} #{n}", account_number=f"PM-{n}").pk
                    for n in range(3)
                ]
                connection.set_schema_to_public()
                made.append({"handle": handle, "ids": ids, "token": token_for(handle)})
            yield made
        finally:
            connection.set_schema_to_public()
            for company in made:
                company["handle"].tenant.delete(force_drop=True)


@pytest.fixture(scope="module")
def bouncer(django_db_setup: Any) -> Iterator[pooler.PgBouncer]:
    if pooler.binary() is None:
        pytest.skip("pgbouncer is not installed (Debian package pgbouncer; `make deps` installs it)")
    db = settings.DATABASES["default"]
    upstream = pooler.Upstream(
        host=str(db["HOST"] or "127.0.0.1"),
        port=int(str(db["PORT"] or 5432)),
        user=str(db["USER"] or "postgres"),
        password=str(db["PASSWORD"] or ""),
        dbname=str(connection.settings_dict["NAME"]),
    )
    # Session mode needs a server connection per web worker; transaction mode is given fewer, as a
    # pooler in that mode is (that is its point), which makes the crossing show at once.
    bouncer = pooler.PgBouncer(upstream, mode=MODE, pool_size=WEB_WORKERS if MODE == "session" else 2)
    try:
        bouncer.start()
    except RuntimeError as exc:
        pytest.skip(f"pgbouncer could not be started: {exc}")
    yield bouncer
    bouncer.stop()


@pytest.fixture(scope="module")
def server(bouncer: pooler.PgBouncer, companies: list[dict[str, Any]]) -> Iterator[int]:
    up = bouncer.upstream
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fueldesk.settings",
        "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
        "DATABASE_URL": f"postgres://{up.user}@127.0.0.1:{bouncer.port}/{up.dbname}",
        "PORT": str(port),
        "WEB_CONCURRENCY": str(WEB_WORKERS),
        "GUNICORN_LOGLEVEL": "warning",
        "GUNICORN_ACCESSLOG": "/dev/null",
    }
    if MODE == "transaction":  # PgBouncer 1.18 cannot carry prepared statements in this mode
        env["DB_PREPARE_THRESHOLD"] = "1000000000"
    argv = [sys.executable, "-m", "gunicorn", "-c", "infra/gunicorn.conf.py", "fueldesk.wsgi:application"]
    proc = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", "/api/ping")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def call(conn: http.client.HTTPConnection, method: str, path: str, token: str, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    res = conn.getresponse()
    return res.status, json.loads(res.read() or b"null")


@pytest.mark.django_db
def test_concurrent_requests_of_many_companies_through_the_pooler_never_cross(
    companies: list[dict[str, Any]], bouncer: pooler.PgBouncer, server: int
) -> None:
    markers = {marker(c["handle"].schema) for c in companies}
    crossed: list[str] = []
    errors: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(THREADS)

    def foreign(names: list[str], own: str) -> list[str]:
        return [n for n in names if not n.startswith(own)]

    def client(t: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server, timeout=60)
        barrier.wait(timeout=60)
        for r in range(ROUNDS):
            company = companies[(t + r) % COMPANIES]
            own, token = marker(company["handle"].schema), company["token"]
            try:
                status, body = call(conn, "GET", f"{CUSTOMERS}?size=100&sort_by=name", token)
                names = [i["name"] for i in body["data"]["items"]] if status == 200 else []
                status2, one = call(conn, "GET", f"{CUSTOMERS}/{company['ids'][r % 3]}", token)
                name = [one["data"]["name"]] if status2 == 200 else []
                status3, made = call(
                    conn, "POST", CUSTOMERS, token, {"name": f"{own} t{t}r{r}", "account_number": f"T{t}R{r}"}
                )
                name3 = [made["data"]["name"]] if status3 == 201 else []
            except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError) as exc:
                with lock:
                    errors.append(f"{own}: {exc!r}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", server, timeout=60)
                continue
            with lock:
                for what, got in (("list", names), ("get", name), ("create", name3)):
                    bad = foreign(got, own)
                    if bad:
                        crossed.append(f"{own} {what} answered {bad[:3]}")
                for what, status in (("list", status), ("get", status2), ("create", status3)):
                    if status not in (200, 201):
                        errors.append(f"{own} {what}: HTTP {status}")
        conn.close()

    threads = [threading.Thread(target=client, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)

    # What each schema holds now: its own markers only (a write through the wrong search_path lands in
    # another company's schema).
    from tenants.parties.models import Customer

    for company in companies:
        connection.set_tenant(company["handle"].tenant)
        own = marker(company["handle"].schema)
        held = list(Customer.objects.values_list("name", flat=True))
        strays = [n for n in held if not n.startswith(own) and any(n.startswith(m) for m in markers)]
        if strays:
            crossed.append(f"schema {company['handle'].schema} holds {strays[:3]}")
        assert len(held) >= 3, held
    connection.set_schema_to_public()

    assert not crossed, f"{len(crossed)} crossed answers or rows, e.g. {crossed[:5]}"
    assert not errors, f"{len(errors)} failed requests, e.g. {errors[:5]}"

    # The connection budget: one server connection per web worker at most, for all the companies.
    held_now = bouncer.server_connections(bouncer.upstream.dbname)
    pools = [p for p in bouncer.show("POOLS") if p["database"] == bouncer.upstream.dbname]
    assert 1 <= held_now <= WEB_WORKERS, (held_now, pools)
    assert all(p["pool_mode"] == "session" for p in pools)


def test_the_generated_config_is_session_mode_on_loopback() -> None:
    up = pooler.Upstream.from_url("postgres://app:s3cret@db.internal:5433/fueldesk")
    assert (up.host, up.port, up.user, up.password, up.dbname) == (
        "db.internal",
        5433,
        "app",
        "s3cret",
        "fueldesk",
    )
    config = pooler.PgBouncer(up, port=6999).config()
    assert "pool_mode = session" in config and "listen_addr = 127.0.0.1" in config
    assert "server_reset_query = DISCARD ALL" in config
    assert pooler.pooled_url("postgres://app:s3cret@db:5433/fd?host=/run/pg", 6999) == (
        "postgres://app:s3cret@127.0.0.1:6999/fd"
    )
