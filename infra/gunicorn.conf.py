"""Gunicorn settings for FuelDesk (used by `make run`, the Docker image and ECS).

Everything is read from the environment so one file serves every place:

- ``PORT`` (default 8000) and ``HOST`` (default 127.0.0.1; the Docker image sets 0.0.0.0),
  or ``GUNICORN_BIND`` for a full bind address;
- ``WEB_CONCURRENCY``: sync workers (default 2, or 3 with 4+ CPUs); the views are sync Django;
- ``GUNICORN_TIMEOUT`` (default 60 s), ``GUNICORN_MAX_REQUESTS`` (default 10000, jittered);
- ``FORWARDED_ALLOW_IPS``: proxies whose X-Forwarded-* headers are trusted (the ALB in AWS);
- ``DB_MAX_PARALLEL_WORKERS_PER_GATHER`` (default 0 here): parallel query for request connections.

Requests gunicorn itself refuses before Django sees them (a request line or headers over the limits
below, a malformed request) are answered as JSON ``{"detail": ...}`` like every answer under /api
(``JsonErrorWorker``), not gunicorn's HTML page.
"""

import json
import os

from gunicorn import util
from gunicorn.workers.sync import SyncWorker

_host = os.environ.get("HOST", "127.0.0.1")
_port = os.environ.get("PORT", "8000")
bind = os.environ.get("GUNICORN_BIND", f"{_host}:{_port}")

workers = int(os.environ.get("WEB_CONCURRENCY", "3" if (os.cpu_count() or 1) >= 4 else "2"))

# What gunicorn answers itself, by status: the sentence of the JSON body.
GUNICORN_ERROR_DETAILS = {
    400: "The request is malformed and was refused.",
    403: "The request was refused.",
    414: "The request line is too long: the limit is {limit:,} bytes. Send long lists or searches in a body.",
    417: "The request's Expect header cannot be met.",
    431: "The request's headers are too large.",
    500: "Something went wrong on our side. The error has been recorded.",
    501: "The request's transfer coding is not supported.",
}


def write_json_error(sock, status_int, reason, mesg):  # type: ignore[no-untyped-def]
    """gunicorn.util.write_error's contract, writing `{"detail": ...}` instead of an HTML page."""
    detail = GUNICORN_ERROR_DETAILS.get(status_int, "The request could not be handled.")
    body = json.dumps({"detail": detail.format(limit=limit_request_line)}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin1") + body)


class JsonErrorWorker(SyncWorker):  # type: ignore[misc]
    """The sync worker, answering the requests gunicorn refuses itself in JSON: gunicorn writes those
    through `gunicorn.util.write_error` (workers/base.py, handle_error), replaced in this process."""

    def init_process(self) -> None:
        util.write_error = write_json_error
        super().init_process()


worker_class = JsonErrorWorker
# The longest request line accepted (method, URL with its query, version): gunicorn's maximum. The
# default, 4094, refused a long search or a list of ids in the query (414) before Django saw it.
limit_request_line = 8190
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 20
keepalive = 5
# A worker is replaced after this many requests (a guard against slow leaks). Not too often: a new
# worker boots Django (~1 s of CPU beside the other worker's requests) and starts with none of the
# kit's kept list statements or Postgres's prepared plans (core/listsql.py).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "10000"))
max_requests_jitter = max_requests // 10

# Interactive requests do not use parallel query (fueldesk/settings.py, database_from_url): set here,
# before the workers load Django, so the worker processes and `make run` share it.
os.environ.setdefault("DB_MAX_PARALLEL_WORKERS_PER_GATHER", "0")

# Django opens its database connections lazily after the fork: no preload (and no shared sockets).
preload_app = False
# Heartbeat files on tmpfs: a slow disk (or a container's overlay) must not look like a hung worker.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # noqa: S108

# Several gunicorns may run on one machine (make run, test servers, benchmarks): no shared control socket.
control_socket_disable = True

accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-")
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
proc_name = "fueldesk-web"


def post_worker_init(worker: object) -> None:
    """Once the worker has loaded Django: its boot-time objects (modules, models, schemas, URL
    patterns) move to the collector's permanent generation, so a full collection during a request
    walks only what requests made (gc.freeze, as Instagram's web servers do)."""
    import gc

    gc.collect()
    gc.freeze()


def on_starting(server: object) -> None:
    """Prometheus multiprocess files (core/metrics.py) left by processes that no longer run go:
    a restarted container starts its counters afresh. Files of live processes (the Dramatiq worker
    beside us under `make run`) stay."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        pid = name.rsplit(".", 1)[0].rsplit("_", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            os.remove(os.path.join(folder, name))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def child_exit(server: object, worker: object) -> None:
    """A worker's live-gauge files are marked dead (prometheus_client's multiprocess contract)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined]
