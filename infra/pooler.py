#!/usr/bin/env python3
"""PgBouncer between FuelDesk and Postgres, on loopback, with its config generated under var/.

Why session mode (docs/operations.md, "Connection pooling"): django-tenants chooses a company by
`SET search_path` on the connection, then runs the statements that read its rows. Django runs in
autocommit, so each of those is a transaction of its own; behind a transaction-mode pooler the SET
and the next SELECT can be given different server connections, and company B's request reads company
A's rows (tests/pooling shows it: the same test fails in transaction mode). The kit also prepares
its repeated list statements server-side (core/kept.py), which PgBouncer 1.18 (Debian 12) cannot
carry across server connections in transaction mode. In session mode a client connection keeps one
server connection for its life, so the SET and its statements always meet, and `DISCARD ALL` resets
a server connection before the next client gets it.

The budget: one Django connection per thread that touches the database, whatever the number of
companies (django-tenants switches schemas on the connection; it never opens one per company).
So server connections <= web processes x threads + worker processes x threads + the scheduler,
and `default_pool_size` is set to that (tests/bench/test_bench_pooler.py measures it).

    python infra/pooler.py run [--port 6432] [--mode session] [--pool-size 40]   # until Ctrl-C

`make run POOLER=1` and `make load POOLER=1` start it (infra/run.py --pooler); tests start their own.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PORT = 6432
# Startup parameters psycopg may send that PgBouncer 1.18 does not know. `options` carries the web
# server's max_parallel_workers_per_gather=0 (fueldesk.settings.database_from_url): behind the
# pooler set it on the role instead (docs/operations.md).
IGNORED_STARTUP_PARAMETERS = "extra_float_digits,options"


def log(msg: str) -> None:
    print(f"[pooler] {msg}", file=sys.stderr, flush=True)


def binary() -> str | None:
    found = shutil.which("pgbouncer") or next(
        (p for p in ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer") if os.access(p, os.X_OK)), None
    )
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Upstream:
    """The Postgres server behind the pooler, read from a DATABASE_URL."""

    host: str
    port: int
    user: str
    password: str
    dbname: str

    @classmethod
    def from_url(cls, url: str) -> Upstream:
        parsed = urlparse(url)
        query = parse_qs(parsed.query)
        host = query["host"][0] if "host" in query else unquote(parsed.hostname or "127.0.0.1")
        return cls(
            host=host,
            port=int(parsed.port or 5432),
            user=unquote(parsed.username or "postgres"),
            password=unquote(parsed.password or ""),
            dbname=unquote(parsed.path.lstrip("/")) or "fueldesk",
        )


def pooled_url(url: str, port: int, host: str = "127.0.0.1") -> str:
    """`url` pointed at the pooler: same user, password and database, the pooler's host and port."""
    parsed = urlparse(url)
    userinfo = parsed.netloc.rpartition("@")[0]
    netloc = f"{userinfo}@{host}:{port}" if userinfo else f"{host}:{port}"
    query = "&".join(part for part in parsed.query.split("&") if part and not part.startswith("host="))
    return urlunparse(parsed._replace(netloc=netloc, query=query))


@dataclass
class PgBouncer:
    """One PgBouncer process: `start()` writes var/pgbouncer/<port>/ and waits until it accepts."""

    upstream: Upstream
    port: int = 0
    mode: str = "session"
    pool_size: int = 40
    max_client_conn: int = 1000
    workdir: Path | None = None
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in {"session", "transaction"}:
            raise ValueError(f"pool mode {self.mode!r}: session or transaction")
        self.port = self.port or free_port()
        base = Path(os.environ.get("FUELDESK_VAR_DIR", ROOT / "var")).resolve()
        self.workdir = self.workdir or base / "pgbouncer" / str(self.port)

    @property
    def ini(self) -> Path:
        assert self.workdir is not None
        return self.workdir / "pgbouncer.ini"

    @property
    def logfile(self) -> Path:
        assert self.workdir is not None
        return self.workdir / "pgbouncer.log"

    def config(self) -> str:
        up = self.upstream
        # Every database name passes through to the same server (dev, test and bench databases).
        return "\n".join(
            [
                "; Generated by infra/pooler.py: edits are overwritten at the next start.",
                "[databases]",
                f"* = host={up.host} port={up.port}",
                "",
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                f"listen_port = {self.port}",
                "unix_socket_dir =",
                # Loopback only and for development: clients are trusted, the server login uses the
                # auth_file's password. Production uses scram-sha-256 (docs/operations.md).
                "auth_type = trust",
                f"auth_file = {self.workdir}/userlist.txt",
                f"admin_users = {up.user}",
                f"stats_users = {up.user}",
                f"pool_mode = {self.mode}",
                f"default_pool_size = {self.pool_size}",
                "reserve_pool_size = 0",
                f"max_client_conn = {self.max_client_conn}",
                f"max_db_connections = {self.pool_size}",
                "server_reset_query = DISCARD ALL",
                f"ignore_startup_parameters = {IGNORED_STARTUP_PARAMETERS}",
                "server_idle_timeout = 60",
                "query_wait_timeout = 30",
                "log_connections = 0",
                "log_disconnections = 0",
                "",
            ]
        )

    def start(self, timeout: float = 15.0) -> PgBouncer:
        exe = binary()
        if exe is None:
            raise RuntimeError(
                "pgbouncer is not installed (Debian: apt-get install pgbouncer; make deps does)"
            )
        assert self.workdir is not None
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.ini.write_text(self.config())
        users = (self.workdir / "userlist.txt").open("w")
        with users:
            users.write(f'"{self.upstream.user}" "{self.upstream.password}"\n')
        argv = [exe, str(self.ini)]
        if os.geteuid() == 0:  # PgBouncer refuses to run as root: drop to an unprivileged user
            user = next((u for u in ("postgres", "nobody") if _user_exists(u)), "nobody")
            entry = pwd.getpwnam(user)
            for path in (self.workdir, self.ini, self.workdir / "userlist.txt"):
                os.chown(path, entry.pw_uid, entry.pw_gid)
            os.chmod(self.workdir / "userlist.txt", 0o600)
            argv[1:1] = ["-u", user]
        out = self.logfile.open("ab")
        self.proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)  # noqa: S603
        out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = self.logfile.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"pgbouncer exited with status {self.proc.returncode}:\n{tail}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                log(f"PgBouncer ({self.mode} mode, pool {self.pool_size}) on 127.0.0.1:{self.port}")
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"pgbouncer did not listen on {self.port} within {timeout:.0f}s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # SIGINT: close connections and exit at once
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            if self.workdir is not None:  # the config and the auth file (a password) of this run
                shutil.rmtree(self.workdir, ignore_errors=True)
        self.proc = None

    def __enter__(self) -> PgBouncer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def url(self, database_url: str) -> str:
        return pooled_url(database_url, self.port)

    def show(self, what: str) -> list[dict[str, Any]]:
        """A SHOW command of the admin console (POOLS, SERVERS, CLIENTS, STATS), as dicts."""
        import psycopg

        conn = psycopg.connect(
            host="127.0.0.1",
            port=self.port,
            user=self.upstream.user,
            password=self.upstream.password or None,
            dbname="pgbouncer",
            autocommit=True,
            cursor_factory=psycopg.ClientCursor,  # the console speaks the simple query protocol only
        )
        with conn, conn.cursor() as cur:
            cur.execute(f"SHOW {what}")  # type: ignore[call-overload]
            names = [c.name for c in cur.description or []]
            return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def server_connections(self, dbname: str | None = None) -> int:
        """Server connections the pooler holds open now (any state), for one database or all."""
        rows = self.show("SERVERS")
        return sum(1 for r in rows if dbname is None or r.get("database") == dbname)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="start PgBouncer in front of $DATABASE_URL until Ctrl-C")
    run.add_argument("--port", type=int, default=int(os.environ.get("POOLER_PORT", DEFAULT_PORT)))
    run.add_argument("--mode", default=os.environ.get("POOLER_MODE", "session"))
    run.add_argument("--pool-size", type=int, default=int(os.environ.get("POOLER_POOL_SIZE", "40")))
    args = parser.parse_args(argv)
    url = os.environ.get("DATABASE_URL", "postgres://root@127.0.0.1:5432/fueldesk")
    bouncer = PgBouncer(Upstream.from_url(url), port=args.port, mode=args.mode, pool_size=args.pool_size)
    with bouncer:
        print(f"DATABASE_URL={bouncer.url(url)}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while bouncer.proc is not None and bouncer.proc.poll() is None:
                time.sleep(0.5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
