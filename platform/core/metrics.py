"""Prometheus metrics: request latency per route, jobs per actor, per-tenant counts, and the live state
(queue depth, spare pool, worker heartbeat) read at scrape time.

Requests are counted by the web processes that answer them: with ``PROMETHEUS_MULTIPROC_DIR`` set
(``make run`` and the image set it) every gunicorn worker writes its values to files there and the
scrape sums them (prometheus_client's multiprocess mode); the gunicorn master empties the folder at
start and marks dead workers (infra/gunicorn.conf.py). Without it (tests, a shell) the values live in
this process. Jobs are counted in Redis instead (``JobCounts``): the worker processes run in other
containers (other ECS tasks) than the web that is scraped, and every job must be seen by any scrape.

The endpoint is ``GET /api/metrics`` with ``Authorization: Bearer $METRICS_TOKEN``; it answers 404
while no token is configured (fueldesk/views.py).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

_multiproc_dir = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if _multiproc_dir:
    os.makedirs(_multiproc_dir, exist_ok=True)

from prometheus_client import (  # noqa: E402 - the folder must exist before the first value is made
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import (  # noqa: E402
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
)
from prometheus_client.registry import Collector  # noqa: E402

log = logging.getLogger(__name__)

# Seconds. Requests: most answer in 5-50 ms; a PDF or an export in a second or more.
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
JOB_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0)

REQUESTS = Counter(
    "fueldesk_http_requests", "Requests answered, by route pattern and status", ["method", "route", "status"]
)
REQUEST_SECONDS = Histogram(
    "fueldesk_http_request_duration_seconds",
    "Request latency by route pattern",
    ["method", "route"],
    buckets=REQUEST_BUCKETS,
)
TENANT_REQUESTS = Counter("fueldesk_tenant_requests", "Requests per company (schema)", ["tenant"])


def observe_request(method: str, route: str, status: int, seconds: float, tenant: str | None) -> None:
    REQUESTS.labels(method, route, str(status)).inc()
    REQUEST_SECONDS.labels(method, route).observe(seconds)
    if tenant:
        TENANT_REQUESTS.labels(tenant).inc()


def observe_job(actor: str, outcome: str, seconds: float | None, tenant: str | None) -> None:
    JobCounts.record(actor, outcome, seconds, tenant)


class JobCounts:
    """Per-actor job counts and durations, per-company job counts, kept in one Redis hash that every
    worker process of every task increments (one pipelined round trip per job) and a scrape of any web
    process reads. Redis keeps nothing on disk here: a restart resets the counters, which Prometheus
    reads as a counter reset (as it does for a restarted process). A Redis failure loses the count,
    never the job."""

    SEP = "\x1f"  # not in an actor name nor a schema name

    @staticmethod
    def key() -> str:
        from django.conf import settings

        return f"{settings.CACHES['default'].get('KEY_PREFIX', 'fd')}:job-metrics"

    @classmethod
    def record(cls, actor: str, outcome: str, seconds: float | None, tenant: str | None) -> None:
        from core.cache import raw_redis_client

        sep = cls.SEP
        try:
            pipe = raw_redis_client().pipeline(transaction=False)
            key = cls.key()
            pipe.hincrby(key, f"n{sep}{actor}{sep}{outcome}", 1)
            if seconds is not None:
                # Stored per bucket (the first bound the duration fits under, or +Inf), made cumulative
                # at the scrape.
                bucket = next((str(b) for b in JOB_BUCKETS if seconds <= b), "+Inf")
                pipe.hincrby(key, f"b{sep}{actor}{sep}{bucket}", 1)
                pipe.hincrbyfloat(key, f"s{sep}{actor}", seconds)
            if tenant:
                pipe.hincrby(key, f"t{sep}{tenant}", 1)
            pipe.execute()
        except Exception:
            log.warning("metrics: job count of %s not recorded", actor, exc_info=True)

    @classmethod
    def collect(cls) -> Iterator[Any]:
        from core.cache import raw_redis_client

        raw = raw_redis_client().hgetall(cls.key())
        jobs = CounterMetricFamily(
            "fueldesk_jobs",
            "Jobs processed, by actor and outcome (succeeded, failed, retrying, skipped)",
            labels=["actor", "outcome"],
        )
        tenant_jobs = CounterMetricFamily(
            "fueldesk_tenant_jobs", "Jobs processed per company (schema)", labels=["tenant"]
        )
        buckets: dict[str, dict[str, int]] = {}
        sums: dict[str, float] = {}
        for field_bytes, value_bytes in sorted(raw.items()):
            field = field_bytes.decode() if isinstance(field_bytes, bytes) else str(field_bytes)
            value = value_bytes.decode() if isinstance(value_bytes, bytes) else str(value_bytes)
            kind, *parts = field.split(cls.SEP)
            if kind == "n" and len(parts) == 2:
                jobs.add_metric(parts, float(value))
            elif kind == "t" and len(parts) == 1:
                tenant_jobs.add_metric(parts, float(value))
            elif kind == "b" and len(parts) == 2:
                buckets.setdefault(parts[0], {})[parts[1]] = int(value)
            elif kind == "s" and len(parts) == 1:
                sums[parts[0]] = float(value)
        seconds = HistogramMetricFamily(
            "fueldesk_job_duration_seconds", "Job run time by actor", labels=["actor"]
        )
        for actor, counts in sorted(buckets.items()):
            cumulative, total = [], 0
            for bound in [*(str(b) for b in JOB_BUCKETS), "+Inf"]:
                total += counts.get(bound, 0)
                cumulative.append((bound, float(total)))
            seconds.add_metric([actor], cumulative, sum_value=sums.get(actor, 0.0))
        yield jobs
        yield seconds
        yield tenant_jobs


# --------------------------------------------------------------------------- live state, read at scrape


WORKER_HEARTBEAT_INTERVAL_SECONDS = 10.0


def _heartbeat_key() -> str:
    from django.conf import settings

    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'fd')}:worker-heartbeats"


def beat(worker_id: str) -> None:
    """A worker process is alive (core.jobs.JobTelemetry calls it every few seconds)."""
    from core.cache import raw_redis_client

    client = raw_redis_client()
    now = time.time()
    client.zadd(_heartbeat_key(), {worker_id: now})
    # Workers gone for a day are forgotten (a deploy replaces every worker id).
    client.zremrangebyscore(_heartbeat_key(), 0, now - 86400)


def worker_heartbeat() -> tuple[float | None, int]:
    """(age in seconds of the newest worker heartbeat or None when no worker ever beat, workers that
    beat in the last minute)."""
    from core.cache import raw_redis_client

    client = raw_redis_client()
    now = time.time()
    newest = client.zrevrange(_heartbeat_key(), 0, 0, withscores=True)
    alive = client.zcount(_heartbeat_key(), now - 60, "+inf")
    if not newest:
        return None, 0
    return max(0.0, now - float(newest[0][1])), int(alive)


def spare_pool_size() -> int:
    from django_tenants.utils import get_tenant_model  # the tenant model lives above the kit

    return int(get_tenant_model().objects.filter(status="spare").count())


QueueDepths = Callable[[], dict[str, tuple[int, int]]]


class LiveStateCollector(Collector):
    """Values read at each scrape (a few Redis round trips and one count): the job counts every
    worker keeps in Redis and the live gauges. A failing source is skipped (and logged), never a
    failed scrape. ``queue_depths`` is core.jobs.queue_depths (passed in: the kit's jobs module
    records into this one)."""

    def __init__(self, queue_depths: QueueDepths) -> None:
        self.queue_depths = queue_depths

    def collect(self) -> Iterator[Any]:
        try:
            yield from JobCounts.collect()
        except Exception:
            log.warning("metrics: job counts unavailable", exc_info=True)
        try:
            depth = GaugeMetricFamily("fueldesk_queue_depth", "Messages waiting per queue", labels=["queue"])
            delayed = GaugeMetricFamily(
                "fueldesk_queue_delayed", "Messages delayed (retries, scheduled) per queue", labels=["queue"]
            )
            for queue, (waiting, later) in self.queue_depths().items():
                depth.add_metric([queue], waiting)
                delayed.add_metric([queue], later)
            yield depth
            yield delayed
        except Exception:
            log.warning("metrics: queue depth unavailable", exc_info=True)
        try:
            age, alive = worker_heartbeat()
            yield GaugeMetricFamily(
                "fueldesk_workers_alive", "Worker processes that beat in the last minute", alive
            )
            if age is not None:
                yield GaugeMetricFamily(
                    "fueldesk_worker_heartbeat_age_seconds", "Seconds since the newest worker heartbeat", age
                )
        except Exception:
            log.warning("metrics: worker heartbeat unavailable", exc_info=True)
        try:
            yield GaugeMetricFamily(
                "fueldesk_spare_schemas", "Spare schemas ready for signups", spare_pool_size()
            )
        except Exception:
            log.warning("metrics: spare pool size unavailable", exc_info=True)


def exposition(queue_depths: QueueDepths) -> tuple[bytes, str]:
    """The text a Prometheus scrape gets: the web processes' request counters, the job counts of every
    worker (Redis) and the live state."""
    if _multiproc_dir:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = CollectorRegistry()
        for collector in (REQUESTS, REQUEST_SECONDS, TENANT_REQUESTS):
            registry.register(collector)
    registry.register(LiveStateCollector(queue_depths))
    return generate_latest(registry), CONTENT_TYPE_LATEST
