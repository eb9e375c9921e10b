"""Gunicorn settings for FuelDesk (used by `make run`, the Docker image and ECS).

Everything is read from the environment so one file serves every place:

- ``PORT`` (default 8000) and ``HOST`` (default 127.0.0.1; the Docker image sets 0.0.0.0),
  or ``GUNICORN_BIND`` for a full bind address;
- ``WEB_CONCURRENCY``: sync workers (default 2, or 3 with 4+ CPUs); the views are sync Django;
- ``GUNICORN_TIMEOUT`` (default 60 s), ``GUNICORN_MAX_REQUESTS`` (default 10000, jittered);
- ``FORWARDED_ALLOW_IPS``: proxies whose X-Forwarded-* headers are trusted (the ALB in AWS);
- ``DB_MAX_PARALLEL_WORKERS_PER_GATHER`` (default 0 here): parallel query for request connections.
"""

import os

_host = os.environ.get("HOST", "127.0.0.1")
_port = os.environ.get("PORT", "8000")
bind = os.environ.get("GUNICORN_BIND", f"{_host}:{_port}")

workers = int(os.environ.get("WEB_CONCURRENCY", "3" if (os.cpu_count() or 1) >= 4 else "2"))
worker_class = "sync"
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
