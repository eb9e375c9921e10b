#!/usr/bin/env python3
"""`make load`: FuelDesk under load across many companies (issue 25 §1), on loopback only.

1. Postgres and Redis as `make run` finds them (infra/services.py); `manage.py bootstrap`;
2. tests/load/prepare.py: 200 companies signed up through the spare pool, 50 filled with the demo
   generator at a few sizes (`--fill 10` for a quick run), each company's rows marked;
3. gunicorn (4 sync workers) and a Dramatiq worker, through PgBouncer with `--pooler` (infra/pooler.py);
4. locust headless (tests/load/locustfile.py) at 25, 50 and 100 users, each step bounded by
   `--run-time` seconds and `--max-requests` requests; any answer carrying another company's marker
   fails the run (exit status 1);
5. var/load/report-<users>.json per step and var/load/summary.md: p50/p95/p99 per request type,
   throughput per core, errors, the slowest 10 requests, the machine and its load.

    python infra/load.py [--users 25,50,100] [--run-time 60] [--max-requests 20000] [--fill 50] [--pooler]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pooler
import services

ROOT = services.ROOT
PY = sys.executable
OUT = ROOT / "var" / "load"


def log(msg: str) -> None:
    print(f"[load] {msg}", file=sys.stderr, flush=True)


def spawn(cmd: list[str], env: dict[str, str], logfile: Path) -> subprocess.Popen[bytes]:
    out = logfile.open("ab")
    proc = subprocess.Popen(  # noqa: S603
        cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )
    out.close()
    return proc


def stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def wait_http(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=30):  # noqa: S310 - our own loopback URL
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f}s")


def machine() -> str:
    cpu = ""
    with contextlib.suppress(OSError):
        cpu = next(
            (
                ln.split(":", 1)[1].strip()
                for ln in Path("/proc/cpuinfo").read_text().splitlines()
                if ln.startswith("model name")
            ),
            "",
        )
    return f"{platform.machine()} {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def summary(reports: list[dict[str, Any]], *, pooled: bool, note: str) -> str:
    lines = [
        f"# Load run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        f"Machine: {machine()}. {note}. Through PgBouncer: {'yes (session mode)' if pooled else 'no'}.",
        "",
        "| users | requests | s | req/s | req/s per core | p50 ms | p95 ms | p99 ms | failures | crossed"
        " | load before → after |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in reports:
        lines.append(
            f"| {r['users']} | {r['requests']} | {r['seconds']} | {r['rps']} | {r['rps_per_core']}"
            f" | {r['p50_ms']} | {r['p95_ms']} | {r['p99_ms']} | {r['failures']} | {r['crossed_count']} |"
            f" {r['load_before']} → {r['load_after']} |"
        )
    for r in reports:
        lines += ["", f"## {r['users']} users: per request type", ""]
        lines += ["| request | n | fail | p50 | p95 | p99 |", "|---|---|---|---|---|---|"]
        for name, row in r["by_request"].items():
            lines.append(
                f"| {name} | {row['requests']} | {row['failures']} | {row['p50_ms']} | {row['p95_ms']}"
                f" | {row['p99_ms']} |"
            )
        lines += ["", "Slowest 10: " + ", ".join(f"{s['request']} {s['ms']} ms" for s in r["slowest"])]
        if r["errors"]:
            lines += ["", "Errors: " + "; ".join(f"{k} ×{v}" for k, v in list(r["errors"].items())[:10])]
        if r["crossed"]:
            lines += ["", "CROSSED: " + "; ".join(r["crossed"][:10])]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", default=os.environ.get("LOAD_USERS", "25,50,100"))
    parser.add_argument("--run-time", type=int, default=int(os.environ.get("LOAD_RUN_TIME", "60")))
    parser.add_argument("--max-requests", type=int, default=int(os.environ.get("LOAD_MAX_REQUESTS", "20000")))
    parser.add_argument("--companies", type=int, default=int(os.environ.get("LOAD_COMPANIES", "200")))
    parser.add_argument("--fill", type=int, default=int(os.environ.get("LOAD_FILL", "50")))
    parser.add_argument("--web-workers", type=int, default=int(os.environ.get("LOAD_WEB_WORKERS", "4")))
    parser.add_argument(
        "--pooler", action="store_true", default=os.environ.get("POOLER", "") not in ("", "0")
    )
    parser.add_argument("--skip-prepare", action="store_true", help="reuse var/load/companies.json as it is")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    if args.run_time > 600 or args.max_requests > 200_000:
        parser.error("a load step is bounded: --run-time at most 600 s, --max-requests at most 200,000")
    OUT.mkdir(parents=True, exist_ok=True)
    port = args.port or services.free_port(8090)
    found = services.ensure_services()
    env = {
        **os.environ,
        **found.env(),
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": "fueldesk.settings",
        "PORT": str(port),
        "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
        # Every simulated user signs in from 127.0.0.1: the per-IP limits would refuse them all.
        "LOGIN_RATE_LIMIT_PER_IP": "1000000",
        "LOGIN_FAILURES_PER_ACCOUNT_AND_IP": "1000000",
        "SIGNUP_RATE_LIMIT_PER_IP": "1000000",
        "SPARE_SCHEMA_POOL_SIZE": "0",  # prepare.py refills the pool itself; no refill jobs pile up
    }
    web = worker = None
    bouncer: pooler.PgBouncer | None = None
    reports: list[dict[str, Any]] = []
    code = 0
    try:
        if not args.skip_prepare:  # a prepared database is bootstrapped already
            subprocess.run([PY, "manage.py", "bootstrap"], cwd=ROOT, env=env, check=True)  # noqa: S603
            cmd = [PY, "tests/load/prepare.py", "--companies", str(args.companies), "--fill", str(args.fill)]
            subprocess.run(cmd, cwd=ROOT, env=env, check=True)  # noqa: S603
        served = dict(env)
        if args.pooler:
            budget = args.web_workers + 4 + 4  # web workers, the worker's threads, a margin
            bouncer = pooler.PgBouncer(
                pooler.Upstream.from_url(env["DATABASE_URL"]), pool_size=budget
            ).start()
            served["DATABASE_URL"] = bouncer.url(env["DATABASE_URL"])
        served.update({"WEB_CONCURRENCY": str(args.web_workers), "GUNICORN_ACCESSLOG": "/dev/null"})
        web = spawn(
            [PY, "-m", "gunicorn", "-c", "infra/gunicorn.conf.py", "fueldesk.wsgi:application"],
            served,
            OUT / "web.log",
        )
        worker = spawn(
            [PY, "-m", "dramatiq", "fueldesk.tasks", "--processes", "1", "--threads", "4"],
            served,
            OUT / "worker.log",
        )
        host = f"http://127.0.0.1:{port}"
        wait_http(f"{host}/api/ping", 120)
        log(f"server on {host}; {args.companies} companies, {args.fill} filled")
        for users in [int(u) for u in args.users.split(",") if u.strip()]:
            report_path = OUT / f"report-{users}.json"
            report_path.unlink(missing_ok=True)
            step_env = {
                **env,
                "LOAD_REPORT": str(report_path),
                "LOAD_MAX_REQUESTS": str(args.max_requests),
            }
            before = [round(x, 2) for x in os.getloadavg()]
            cmd = [
                PY, "-m", "locust", "-f", "tests/load/locustfile.py", "--headless", "--only-summary",
                "-u", str(users), "-r", str(max(1, users // 5)), "-t", f"{args.run_time}s",
                "--host", host, "--stop-timeout", "10", "--loglevel", "WARNING",
            ]  # fmt: skip
            log(f"{users} users for at most {args.run_time} s / {args.max_requests} requests")
            rc = subprocess.run(cmd, cwd=ROOT, env=step_env, check=False).returncode  # noqa: S603
            report = json.loads(report_path.read_text())
            report.update(
                {"users": users, "load_before": before, "load_after": [round(x, 2) for x in os.getloadavg()]}
            )
            report_path.write_text(json.dumps(report, indent=1))
            reports.append(report)
            log(
                f"{users} users: {report['requests']} requests, {report['rps']} req/s,"
                f" p95 {report['p95_ms']} ms,"
                f" {report['failures']} failures, {report['crossed_count']} crossed (locust status {rc})"
            )
            if report["crossed_count"]:
                code = 1
        manifest = Path(os.environ.get("LOAD_MANIFEST", OUT / "companies.json"))
        rows = json.loads(manifest.read_text())["companies"]
        sizes = {s: sum(1 for r in rows if r.get("size") == s) for s in ("large", "medium", "small")}
        note = (
            f"{len(rows)} companies ({sum(1 for r in rows if r.get('filled'))} filled: {sizes}),"
            f" gunicorn {args.web_workers} sync workers, each step at most {args.run_time} s"
            f" / {args.max_requests} requests"
        )
        (OUT / "summary.md").write_text(summary(reports, pooled=args.pooler, note=note))
        log(f"summary: {OUT / 'summary.md'}")
        if code:
            log("FAILED: an answer carried another company's rows (see CROSSED in the summary)")
    except subprocess.CalledProcessError as exc:
        log(f"failed with status {exc.returncode}: {' '.join(map(str, exc.cmd))}")
        code = 1
    finally:
        stop(web)
        stop(worker)
        if bouncer is not None:
            bouncer.stop()
        found.stop()
    return code


if __name__ == "__main__":
    sys.exit(main())
