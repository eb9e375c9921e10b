"""Throughput of an authenticated tenant endpoint (GET /api/session: token, tenant, revocation, user and
role) against a no-op endpoint (GET /api/ping) on the same gunicorn server, over loopback. GET
/api/profile (which also reads the database) is measured beside them."""

import http.client
import os
import subprocess
import sys
import threading
import time

from django.conf import settings

from tests.bench.floor import ROOT, bench_tenant, free_port
from tests.bench.stats import summary

THREADS = 4
REQUESTS_PER_THREAD = 400


def load(port: int, path: str, token: str | None) -> tuple[float, list[float]]:
    latencies: list[float] = []
    lock = threading.Lock()
    headers = {"Authorization": f"Bearer {token}"} if token else {}

    def worker() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine = []
        for _ in range(REQUESTS_PER_THREAD):
            start = time.perf_counter()
            conn.request("GET", path, headers=headers)
            res = conn.getresponse()
            res.read()
            assert res.status == 200, res.status
            mine.append(time.perf_counter() - start)
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    return len(latencies) / elapsed, latencies


def test_auth_overhead(committed, record):
    _, _, token = bench_tenant("Auth")
    db = settings.DATABASES["default"]
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fueldesk.settings",
        "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}",
        "LOGIN_RATE_LIMIT_PER_IP": "100000",
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "fueldesk.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "2",
            "--threads",
            "2",
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/api/ping")
                break
            except OSError:
                time.sleep(0.1)
        load(port, "/api/ping", None)  # warm up both workers
        load(port, "/api/session", token)
        noop_rps, noop_lat = load(port, "/api/ping", None)
        auth_rps, auth_lat = load(port, "/api/session", token)
        profile_rps, profile_lat = load(port, "/api/profile", token)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    cost = 1 - auth_rps / noop_rps
    record["auth_overhead"] = {
        "noop_rps": round(noop_rps),
        "noop": summary(noop_lat),
        "authenticated_rps": round(auth_rps),
        "authenticated": summary(auth_lat),
        "throughput_cost_percent": round(cost * 100, 1),
        "profile_rps": round(profile_rps),
        "profile": summary(profile_lat),
        "load": f"{THREADS} keep-alive clients x {REQUESTS_PER_THREAD} requests, gunicorn 2 workers x 2 thr",
    }
    print("\nauth overhead", record["auth_overhead"])
