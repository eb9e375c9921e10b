"""A real Dramatiq worker process for the tests that need one: the worker-crash tests (the outbox
through SMTP and through Gmail, a CSV import), the worker-log test and the worker benches.

    worker = Worker(worker_env(DRAMATIQ_NAMESPACE=namespace), queues=["email"]).start()
    ...
    assert worker.kill() == -signal.SIGKILL       # the process group at once, as a crash would
    worker.stop()                                 # in `finally`: SIGTERM, then SIGKILL after `grace`

The worker runs `dramatiq fueldesk.tasks` in a process group of its own (`start_new_session`), so
a kill reaches its worker processes too, and on the test database (the test's rows must be
committed: the worker is another connection).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[1]

Output = int | IO[Any] | None


def database_url(db: dict[str, Any]) -> str:
    """A Django database's settings as a URL for another process (a socket directory as `?host=`)."""
    auth = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    host = db["HOST"] or "127.0.0.1"
    if host.startswith("/"):
        return f"postgres://{auth}@:{db['PORT'] or 5432}/{db['NAME']}?host={quote(host)}"
    return f"postgres://{auth}@{host}:{db['PORT'] or 5432}/{db['NAME']}"


def worker_env(**extra: str) -> dict[str, str]:
    """This process's environment pointed at the test database and broker; `extra` on top
    (DRAMATIQ_NAMESPACE, a fake's settings, another Redis...)."""
    from django.conf import settings

    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fueldesk.settings",
        "PYTHONPATH": f"{ROOT / 'platform'}{os.pathsep}{ROOT}",
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "DRAMATIQ_BROKER_URL": settings.DRAMATIQ_BROKER_URL,
        "SENTRY_DSN": "",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


class Worker:
    """One `dramatiq fueldesk.tasks` process group. stderr is kept (a pipe) unless told otherwise,
    so a worker that stops by itself can say why (`check_running`)."""

    def __init__(
        self,
        env: dict[str, str],
        *,
        processes: int = 1,
        threads: int = 1,
        queues: Sequence[str] = (),
        stdout: Output = subprocess.DEVNULL,
        stderr: Output = subprocess.PIPE,
    ) -> None:
        self.env = env
        self.args = [sys.executable, "-m", "dramatiq", "fueldesk.tasks"]
        self.args += ["--processes", str(processes), "--threads", str(threads)]
        if queues:
            self.args += ["--queues", *queues]
        self.stdout, self.stderr = stdout, stderr
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        self.proc = subprocess.Popen(
            self.args,
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
            stdout=self.stdout,
            stderr=self.stderr,
        )
        return self

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def check_running(self, what: str = "the worker") -> None:
        """Fail the test, with the end of the worker's stderr, if it stopped by itself."""
        assert self.proc is not None
        if self.proc.poll() is not None:
            err = self.proc.stderr.read().decode(errors="replace")[-2000:] if self.proc.stderr else ""
            pytest.fail(f"{what} stopped by itself: {err}")

    def kill(self, timeout: float = 30) -> int:
        """SIGKILL the process group (the main process and its worker processes at once, as the
        OOM killer or a power cut would); its exit status (-SIGKILL)."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        return self.wait(timeout)

    def wait(self, timeout: float = 30) -> int:
        assert self.proc is not None
        return self.proc.wait(timeout)

    def stop(self, grace: float = 30) -> None:
        """End it if it runs: SIGTERM (Dramatiq's warm shutdown), SIGKILL after `grace` seconds
        (at once with `grace=0`)."""
        if not self.running:
            return
        assert self.proc is not None
        if grace > 0:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=grace)
                return
            except subprocess.TimeoutExpired:
                pass
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
