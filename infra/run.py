#!/usr/bin/env python3
"""`make run`: the whole stack on one machine, stopped as a whole by Ctrl-C.

1. Postgres and Redis: from the environment, the local standard ports, or embedded (services.py);
2. ``manage.py bootstrap`` (public schema, tenant template, every tenant) and ``manage.py seed_demo``;
3. the SPA built into spa/dist when spa/package.json exists and the build is stale;
4. gunicorn (infra/gunicorn.conf.py) on http://127.0.0.1:$PORT, a Dramatiq worker and the scheduler
   (periodic jobs: the stuck-job reaper, ...), as children; without QBO_DISCOVERY_URL also the fake
   QuickBooks Online (infra/fakes/qbo.py), with the QBO_* settings pointed at it.

Ctrl-C or SIGTERM stops the children, then any embedded server this run started. A worker or
scheduler that dies (a crash, the OOM killer, a SIGKILL) is started again at once, and the run says
so; its unacknowledged messages go back to the queue within about 35 s (core/jobs.py). If one dies
more than RESTART_LIMIT times in RESTART_WINDOW seconds, or the web server dies, everything stops
and the exit status is non-zero.

Options: ``--port N`` (else $PORT, else 8000), ``--no-worker``, ``--no-seed``, ``--no-spa``, ``--pooler``
(or POOLER=1: the web server, worker and scheduler reach Postgres through PgBouncer, infra/pooler.py).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # infra.fakes.*

import pooler
import services

from infra import spa
from infra.fakes.google import FakeGoogle

ROOT = services.ROOT
PY = sys.executable
STOP_TIMEOUT = 25.0
RESTART_LIMIT = 5
RESTART_WINDOW = 60.0


def log(msg: str) -> None:
    print(f"[run] {msg}", file=sys.stderr, flush=True)


class Stop(Exception):
    """Raised from the signal handler to leave the main loop."""


def _die_with_parent() -> None:
    """In the child, before exec: get SIGTERM if run.py itself dies (even by SIGKILL)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def spawn(cmd: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A child in its own session (Ctrl-C reaches only run.py, which stops children in order)."""
    log("$ " + " ".join(["python", *cmd[1:]] if cmd[0] == PY else cmd))
    return subprocess.Popen(  # noqa: S603
        cmd, cwd=ROOT, env=env, start_new_session=True, preexec_fn=_die_with_parent
    )


def manage(env: dict[str, str], *args: str, capture: bool = False) -> str:
    cmd = [PY, "manage.py", *args]
    log("$ python " + " ".join(cmd[1:]))
    if not capture:
        subprocess.run(cmd, cwd=ROOT, env=env, check=True)  # noqa: S603
        return ""
    proc = subprocess.run(cmd, cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE, text=True)  # noqa: S603
    sys.stdout.write(proc.stdout)
    return proc.stdout


def wait_http(url: str, timeout: float, children: dict[str, subprocess.Popen[bytes]]) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for name, proc in children.items():
            if proc.poll() is not None:
                raise ChildDied(name, proc.returncode)
        try:
            with urllib.request.urlopen(url, timeout=2):  # noqa: S310 - our own loopback URL
                return True
        except urllib.error.HTTPError:
            return True  # it answers; 503 means a dependency is unhealthy, the health body says which
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    return False


def describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-code).name}"
    return f"exited with status {code}"


class ChildDied(Exception):
    def __init__(self, name: str, code: int | None) -> None:
        super().__init__(f"{name} exited unexpectedly with status {code}")
        self.name, self.code = name, code


def stop_children(children: dict[str, subprocess.Popen[bytes]]) -> None:
    for name, proc in children.items():
        if proc.poll() is None:
            log(f"stopping {name} (pid {proc.pid})")
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
    deadline = time.monotonic() + STOP_TIMEOUT
    for name, proc in children.items():
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log(f"{name} did not stop in {STOP_TIMEOUT:.0f}s: killing it")
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_fake_qbo(env: dict[str, str], children: dict[str, subprocess.Popen[bytes]]) -> str:
    """No QBO_DISCOVERY_URL: start the fake QuickBooks Online (infra/fakes/qbo.py) and point the
    settings of the web server and the worker at it. Answers the banner's line ("" when not started)."""
    if env.get("QBO_DISCOVERY_URL"):
        return ""
    port = int(env.get("QBO_FAKE_PORT") or free_port())
    url = f"http://127.0.0.1:{port}"
    env.update(
        {
            "QBO_DISCOVERY_URL": f"{url}/.well-known/openid_configuration",
            "QBO_API_BASE": f"{url}/v3/company",
            "QBO_CLIENT_ID": env.get("QBO_CLIENT_ID") or "fake-qbo-client",
            "QBO_CLIENT_SECRET": env.get("QBO_CLIENT_SECRET") or "fake-qbo-secret",
            "QBO_WEBHOOK_VERIFIER_TOKEN": env.get("QBO_WEBHOOK_VERIFIER_TOKEN") or "fake-qbo-verifier",
        }
    )
    children["fake QuickBooks Online"] = spawn(
        [
            PY, "-m", "infra.fakes.qbo", "--port", str(port),
            "--client-id", env["QBO_CLIENT_ID"], "--client-secret", env["QBO_CLIENT_SECRET"],
            "--verifier-token", env["QBO_WEBHOOK_VERIFIER_TOKEN"],
            "--webhook-url", f"{env['PUBLIC_BASE_URL']}/api/quickbook/webhook",
        ],
        env,
    )  # fmt: skip
    return f"QuickBooks Online: a local fake on {url} (control API: /_control/...)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--no-worker", action="store_true", help="do not start the Dramatiq worker")
    parser.add_argument("--no-seed", action="store_true", help="do not run seed_demo")
    parser.add_argument("--no-spa", action="store_true", help="do not build the SPA")
    parser.add_argument(
        "--pooler",
        action="store_true",
        default=os.environ.get("POOLER", "") not in ("", "0"),
        help="put PgBouncer (session mode) between the app and Postgres",
    )
    args = parser.parse_args(argv)

    def on_signal(signum: int, _frame: object) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the clean-up short
        raise Stop(signal.Signals(signum).name)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)

    if services.tcp_open("127.0.0.1", args.port):
        log(f"port {args.port} is already in use: stop what listens there or set PORT=<another port>")
        return 1

    children: dict[str, subprocess.Popen[bytes]] = {}
    found: services.Services | None = None
    fake_google: FakeGoogle | None = None
    bouncer: pooler.PgBouncer | None = None
    code = 0
    try:
        found = services.ensure_services()
        for line in found.report():
            log(line)
        env = {
            **os.environ,
            **found.env(),
            "PORT": str(args.port),
            "PYTHONPATH": os.pathsep.join(
                [str(ROOT / "platform"), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
            ),
            "PYTHONUNBUFFERED": "1",
        }
        env.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings")
        if args.pooler:
            # Session mode: one server connection per client connection (infra/pooler.py says why);
            # the budget is the threads that hold one: web workers, the worker's 4, the scheduler.
            budget = int(env.get("WEB_CONCURRENCY") or 3) + 4 + 1 + 4
            bouncer = pooler.PgBouncer(
                pooler.Upstream.from_url(env["DATABASE_URL"]), pool_size=budget
            ).start()
            log(f"PgBouncer (session mode, {budget} server connections at most) on 127.0.0.1:{bouncer.port}")
        env.setdefault("PUBLIC_BASE_URL", f"http://127.0.0.1:{args.port}")
        # Prometheus counters of gunicorn's and Dramatiq's processes, summed by /api/metrics
        # (core/metrics.py); emptied at each run.
        metrics_dir = ROOT / "var" / f"metrics-{args.port}"
        shutil.rmtree(metrics_dir, ignore_errors=True)
        metrics_dir.mkdir(parents=True, exist_ok=True)
        env.setdefault("PROMETHEUS_MULTIPROC_DIR", str(metrics_dir))
        if not os.environ.get("GOOGLE_DISCOVERY_URL"):
            # No Google configured: a local fake (infra/fakes/google.py) for "Connect Google" and
            # Gmail sending; its control API is at the same origin (docs/google.md).
            fake_google = FakeGoogle(
                port=int(os.environ.get("FAKE_GOOGLE_PORT", "0")),
                client_id="fueldesk-dev-client",
                client_secret="fueldesk-dev-secret",
            ).start()
            env.update(fake_google.settings())
            log(f"fake Google on {fake_google.base_url} (GOOGLE_DISCOVERY_URL is not set)")
        qbo_note = start_fake_qbo(env, children)

        manage(env, "bootstrap")
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")
        demo = "" if args.no_seed else manage(env, "seed_demo", capture=True)
        spa_note = ""
        if not args.no_spa:
            try:
                spa.build()
            except subprocess.CalledProcessError as exc:
                # The API stays usable while the SPA is broken; the banner says so.
                serving = "the previous build" if (ROOT / "spa/dist/index.html").exists() else "the API only"
                spa_note = f"SPA build FAILED (status {exc.returncode}, output above): serving {serving}"
                log(spa_note)

        if bouncer is not None:
            # The served processes only: bootstrap's migration children each hold a connection of
            # their own for the whole run and went straight to Postgres above.
            env["DATABASE_URL"] = bouncer.url(env["DATABASE_URL"])
        children["web server (gunicorn)"] = spawn(
            [PY, "-m", "gunicorn", "-c", "infra/gunicorn.conf.py", "fueldesk.wsgi:application"], env
        )
        restartable = {
            "worker (dramatiq)": [
                PY,
                "-m",
                "dramatiq",
                "fueldesk.tasks",
                "--processes",
                "1",
                "--threads",
                "4",
            ],
            "scheduler": [PY, "-m", "fueldesk.scheduler"],
        }
        if not args.no_worker:
            for name, cmd in restartable.items():
                children[name] = spawn(cmd, env)
        restarts: dict[str, list[float]] = {name: [] for name in restartable}

        url = f"http://127.0.0.1:{args.port}"
        if not wait_http(f"{url}/api/health", 60, children):
            log("the web server did not answer /api/health within 60s; still waiting on it")
        banner = ["", "=" * 64, f"  FuelDesk is running on {url}", f"  API docs: {url}/api/docs"]
        banner += ["", "  Services:", *(f"    {line}" for line in found.report())]
        if fake_google is not None:
            banner += [f"    Google: a local fake on {fake_google.base_url} (control API: /_control/...)"]
        if qbo_note:
            banner += [f"    {qbo_note}"]
        if spa_note:
            banner += ["", f"  WARNING: {spa_note}"]
        if demo.strip():
            banner += ["", "  Demo logins:", *(f"    {line}" for line in demo.strip().splitlines())]
        banner += ["", "  Ctrl-C stops everything.", "=" * 64, ""]
        print("\n".join(banner), flush=True)

        while True:
            for name, proc in list(children.items()):
                if proc.poll() is None:
                    continue
                if name not in restartable:
                    raise ChildDied(name, proc.returncode)
                now = time.monotonic()
                recent = [t for t in restarts[name] if now - t < RESTART_WINDOW] + [now]
                restarts[name] = recent
                if len(recent) > RESTART_LIMIT:
                    log(f"{name} died {len(recent)} times within {RESTART_WINDOW:.0f}s: giving up")
                    raise ChildDied(name, proc.returncode)
                how = describe_exit(proc.returncode)
                log(
                    f"{name} (pid {proc.pid}) {how}: restarting it (restart {len(recent)} in the last minute)"
                )
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)  # its own children (Dramatiq's worker processes)
                children[name] = spawn(restartable[name], env)
            time.sleep(0.5)
    except Stop as stop:
        log(f"{stop}: shutting down")
    except ChildDied as died:
        log(f"{died}; stopping everything (see its output above)")
        code = 1
    except subprocess.CalledProcessError as exc:
        log(f"failed with status {exc.returncode}: {' '.join(map(str, exc.cmd))}")
        code = 1
    except RuntimeError as exc:
        log(f"error: {exc}")
        code = 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        stop_children(children)
        if bouncer is not None:
            bouncer.stop()
        if found is not None:
            found.stop()
        if fake_google is not None:
            fake_google.stop()
        log("stopped")
    return code


if __name__ == "__main__":
    sys.exit(main())
