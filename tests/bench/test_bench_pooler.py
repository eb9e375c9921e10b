"""Server connections behind PgBouncer (issue 25 §2): 4 web workers x 2 threads and 2 worker processes
x 4 threads serve requests and jobs of 10, 100 and 1,000 companies; the pooler's server connections
are sampled every 0.2 s. Target: the figure does not grow with the number of companies.

    make bench-pooler                                   # BENCH_POOL_COMPANIES=10,100,1000 by default
    BENCH_POOL_COMPANIES=10,200 make bench-pooler       # a quicker run

The companies are schemas made by replaying the template's DDL (as test_bench_tenancy_scale does)
with one user row each, so a token of each can be signed; each step sends BENCH_POOL_REQUESTS
requests (`GET /api/profile`, which reads the company's user in its schema) of random companies
from 16 client threads, and BENCH_POOL_JOBS stuck-job checks (a tenant job) of random companies to
the workers. Figures in docs/benchmarks.md ("Connection pooling").
"""

from __future__ import annotations

import http.client
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from typing import Any

from django.conf import settings
from django.db import connection

from infra import pooler
from tests.bench.floor import ROOT, free_port
from tests.bench.stats import summary
from tests.bench.test_bench_tenancy_scale import load, schema_count

COUNTS = [int(x) for x in os.environ.get("BENCH_POOL_COMPANIES", "10,100,1000").split(",") if x.strip()]
REQUESTS = int(os.environ.get("BENCH_POOL_REQUESTS", "3000"))
JOBS = int(os.environ.get("BENCH_POOL_JOBS", "400"))
CLIENTS = 16
WEB_WORKERS, WEB_THREADS = 4, 2
WORKER_PROCESSES, WORKER_THREADS = 2, 4


def seed_schemas(target: int) -> None:
    """Company schemas (the template's DDL replayed) until `target` exist, one per transaction: ten
    per transaction (test_bench_tenancy_scale) now take more locks than a shared server's lock table
    holds (max_locks_per_transaction x max_connections; "out of shared memory")."""
    from django.db import transaction
    from tenancy import provisioning
    from tenancy.models import Tenant

    _key, body = provisioning.template_ddl()
    while (have := schema_count()) < target:
        name = f"bench_{have:05d}"
        with transaction.atomic():
            with connection.cursor() as cur:
                cur.execute(provisioning.replay_sql(body, name))
            # bulk_create: Tenant.save() would create the schema again (auto_create_schema)
            Tenant.objects.bulk_create(
                [Tenant(schema_name=name, name=f"Bench company {name}", status=Tenant.Status.ACTIVE)]
            )


def users_by_schema() -> dict[str, int]:
    """One user in every company schema (inserted where missing): its id, by schema."""
    from tenancy.models import Tenant

    out: dict[str, int] = {}
    with connection.cursor() as cur:
        active = Tenant.objects.filter(status=Tenant.Status.ACTIVE).exclude(schema_name="public")
        for schema in active.values_list("schema_name", flat=True):
            cur.execute(f'SELECT id FROM "{schema}".accounts_user ORDER BY id LIMIT 1')
            row = cur.fetchone()
            if row is None:
                cur.execute(
                    f'INSERT INTO "{schema}".accounts_user (username, email, name, password, is_active,'
                    " phone, token_version, created_at, updated_at)"
                    " VALUES (%s, %s, 'Bench', '!', true, '', 0, now(), now()) RETURNING id",
                    [f"bench@{schema}", f"bench@{schema}.test"],
                )
                row = cur.fetchone()
            out[schema] = int(row[0])
    return out


class Sampler(threading.Thread):
    """SHOW POOLS every 0.2 s: the most server and client connections seen for the database."""

    def __init__(self, bouncer: pooler.PgBouncer, dbname: str) -> None:
        super().__init__(daemon=True)
        self.bouncer, self.dbname = bouncer, dbname
        self.stop = threading.Event()
        self.max_servers = self.max_clients = self.max_waiting = 0

    def run(self) -> None:
        while not self.stop.is_set():
            for p in self.bouncer.show("POOLS"):
                if p["database"] != self.dbname:
                    continue
                servers = sum(int(p[k]) for k in ("sv_active", "sv_idle", "sv_used", "sv_tested", "sv_login"))
                self.max_servers = max(self.max_servers, servers)
                self.max_clients = max(self.max_clients, int(p["cl_active"]) + int(p["cl_waiting"]))
                self.max_waiting = max(self.max_waiting, int(p["cl_waiting"]))
            time.sleep(0.2)


def test_server_connections_do_not_grow_with_companies(committed: Any, record: dict[str, Any]) -> None:
    from core.tokens import issue_access_token
    from dramatiq import Message
    from dramatiq.brokers.redis import RedisBroker

    db = settings.DATABASES["default"]
    dbname = str(connection.settings_dict["NAME"])  # the test database (settings keep the real name)
    upstream = pooler.Upstream(
        host=str(db["HOST"] or "127.0.0.1"),
        port=int(str(db["PORT"] or 5432)),
        user=str(db["USER"] or "postgres"),
        password=str(db["PASSWORD"] or ""),
        dbname=dbname,
    )
    budget = WEB_WORKERS * WEB_THREADS + WORKER_PROCESSES * WORKER_THREADS
    bouncer = pooler.PgBouncer(upstream, mode="session", pool_size=budget + 4).start()
    namespace = f"fdbench-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fueldesk.settings",
        "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
        "DATABASE_URL": f"postgres://{upstream.user}@127.0.0.1:{bouncer.port}/{dbname}",
        "DRAMATIQ_NAMESPACE": namespace,
        "PORT": str(port),
        "WEB_CONCURRENCY": str(WEB_WORKERS),
        "GUNICORN_LOGLEVEL": "warning",
        "GUNICORN_ACCESSLOG": "/dev/null",
        "LOG_LEVEL": "WARNING",
    }
    quiet = {"cwd": ROOT, "env": env, "start_new_session": True, "stdout": subprocess.DEVNULL}
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "infra/gunicorn.conf.py", "--worker-class", "gthread",
         "--threads", str(WEB_THREADS), "fueldesk.wsgi:application"],
        **quiet,  # type: ignore[call-overload]
    )  # fmt: skip
    worker = subprocess.Popen(
        [sys.executable, "-m", "dramatiq", "fueldesk.tasks", "--processes", str(WORKER_PROCESSES),
         "--threads", str(WORKER_THREADS)],
        stderr=subprocess.DEVNULL, **quiet,  # type: ignore[call-overload]
    )  # fmt: skip
    broker = RedisBroker(url=settings.DRAMATIQ_BROKER_URL, namespace=namespace)
    steps: list[dict[str, Any]] = []
    try:
        for _ in range(600):  # until a worker answers (the socket accepts before workers boot)
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                probe.request("GET", "/api/ping")
                if probe.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        for count in COUNTS:
            t0 = time.perf_counter()
            seed_schemas(count)
            users = users_by_schema()
            seeded = time.perf_counter() - t0
            tokens = [
                issue_access_token(user_id=uid, tenant_schema=schema, token_version=0, role=None)
                for schema, uid in sorted(users.items())
            ][:count]
            sampler = Sampler(bouncer, dbname)
            sampler.start()
            before = load()
            for _ in range(JOBS):
                schema = random.choice(list(users))
                broker.enqueue(
                    Message(
                        queue_name="default",
                        actor_name="reap_stuck_jobs_in_tenant",
                        args=(),
                        kwargs={},
                        options={"tenant_schema": schema},
                    )
                )
            times: list[float] = []
            statuses: dict[int, int] = {}
            lock = threading.Lock()

            def client(n: int) -> None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                for _ in range(n):
                    token = random.choice(tokens)
                    start = time.perf_counter()
                    conn.request("GET", "/api/profile", headers={"Authorization": f"Bearer {token}"})
                    res = conn.getresponse()
                    res.read()
                    with lock:
                        times.append(time.perf_counter() - start)
                        statuses[res.status] = statuses.get(res.status, 0) + 1
                conn.close()

            threads = [threading.Thread(target=client, args=(REQUESTS // CLIENTS,)) for _ in range(CLIENTS)]
            w0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            deadline = time.monotonic() + 300
            while broker.client.llen(f"{namespace}:default") and time.monotonic() < deadline:
                time.sleep(0.5)
            wall = time.perf_counter() - w0
            sampler.stop.set()
            sampler.join()
            step = {
                "companies": count,
                "requests": len(times),
                "statuses": statuses,
                "jobs": JOBS,
                "seconds": round(wall, 1),
                "server_connections_max": sampler.max_servers,
                "client_connections_max": sampler.max_clients,
                "clients_waiting_max": sampler.max_waiting,
                "server_connections_after": bouncer.server_connections(dbname),
                "profile_request": summary(times),
                "seed_seconds": round(seeded, 1),
                "load_before": before,
                "load_after": load(),
            }
            print(step, flush=True)
            steps.append(step)
            assert statuses.get(200) == len(times), statuses
            assert sampler.max_servers <= budget, step
    finally:
        for proc in (web, worker):
            proc.terminate()
        for proc in (web, worker):
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        bouncer.stop()
    record["pooler"] = {"budget": budget, "web": f"{WEB_WORKERS}x{WEB_THREADS}", "steps": steps}
    peaks = {s["server_connections_max"] for s in steps}
    assert max(peaks) <= budget
