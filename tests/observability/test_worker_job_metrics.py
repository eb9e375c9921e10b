"""Job metrics come from worker processes that run elsewhere (other ECS tasks than the web that is
scraped, each with its own PROMETHEUS_MULTIPROC_DIR): a job run by a real worker process, with a
metrics folder of its own, is counted in the scrape of a web process that shares only Redis."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from tests.reliability.redis_server import RedisServer
from tests.workers import Worker, worker_env

TOKEN = "scrape-token-123456"
ACTOR = "mail_requeue_stale"  # a periodic job with nothing to do on an empty database: quick


def _value(text: str, series: str) -> float:
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


@pytest.mark.django_db
def test_a_job_run_by_a_worker_in_another_container_reaches_the_web_scrape(anon, tmp_path: Path) -> None:
    import dramatiq
    import fueldesk.tasks  # noqa: F401  (every actor)
    from core.jobs import build_broker

    prefix = f"jobmetrics-{time.monotonic_ns()}"
    worker_metrics = tmp_path / "worker-metrics"  # the worker task's folder, never read by the web
    worker_metrics.mkdir()
    with RedisServer(tmp_path) as redis_server:
        cache = {**settings.CACHES["default"], "LOCATION": redis_server.url, "KEY_PREFIX": prefix}
        caches = {"default": cache}
        with override_settings(CACHES=caches, METRICS_TOKEN=TOKEN):
            scrape = lambda: anon.get("/api/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").content.decode()  # noqa: E731
            before = scrape()
            env = worker_env(
                REDIS_URL=redis_server.url,
                DRAMATIQ_BROKER_URL=redis_server.url,
                CACHE_KEY_PREFIX=prefix,
                PROMETHEUS_MULTIPROC_DIR=str(worker_metrics),
                FUELDESK_ENV="test",
            )
            broker = build_broker(url=redis_server.url)
            worker = Worker(env, stdout=subprocess.DEVNULL).start()
            try:
                message = dramatiq.get_broker().get_actor(ACTOR).message()
                broker.declare_queue(message.queue_name)
                broker.enqueue(message)
                series = f'fueldesk_jobs_total{{actor="{ACTOR}",outcome="succeeded"}}'
                deadline = time.monotonic() + 90
                while _value(after := scrape(), series) == _value(before, series):
                    worker.check_running()
                    assert time.monotonic() < deadline, "the worker's job never reached the scrape"
                    time.sleep(0.3)
            finally:
                worker.stop()
    assert _value(after, series) - _value(before, series) == 1
    count = f'fueldesk_job_duration_seconds_count{{actor="{ACTOR}"}}'
    assert _value(after, count) - _value(before, count) == 1
    inf = f'fueldesk_job_duration_seconds_bucket{{actor="{ACTOR}",le="+Inf"}}'
    assert _value(after, inf) == _value(after, count)  # buckets are cumulative up to the count
