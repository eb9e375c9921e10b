"""What an operator reads when the stack starts: no warning repeated by design (issue 23, section 3).

Dramatiq's "returned a value that is not None … Results middleware" came from actors that returned
counts nobody reads (the scheduled ones every few minutes); WhiteNoise's "No directory at: var/static"
from a STATIC_ROOT that ``collectstatic`` never creates (no installed app ships static files). Both
were printed at every run or start, hiding the warnings that need attention."""

from __future__ import annotations

import subprocess
import time
import warnings
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from tests.reliability.redis_server import RedisServer
from tests.workers import Worker, worker_env

NOISE = ("returned a value that is not None", "No directory at")


def _env(redis_url: str, var_dir: Path) -> dict[str, str]:
    return worker_env(
        REDIS_URL=redis_url,
        DRAMATIQ_BROKER_URL=redis_url,
        FUELDESK_VAR_DIR=str(var_dir),  # no var/static: as on a fresh machine after collectstatic
        MEDIA_ROOT=str(settings.MEDIA_ROOT),
        FUELDESK_ENV="test",
        PYTHONUNBUFFERED="1",
        PYTHONWARNINGS="default",
        LOG_LEVEL="INFO",  # the warnings and the "booting up" line this test reads
    )


@pytest.mark.django_db
def test_a_worker_running_every_scheduled_job_logs_no_discarded_result_warning(tmp_path: Path) -> None:
    import dramatiq
    import fueldesk.tasks  # noqa: F401  (every actor, the periodic ones included)
    from core.jobs import PERIODIC, build_broker

    log_path = tmp_path / "worker.log"
    with RedisServer(tmp_path) as redis_server, log_path.open("wb") as log:
        broker = build_broker(url=redis_server.url)
        worker = Worker(_env(redis_server.url, tmp_path), stdout=log, stderr=subprocess.STDOUT).start()
        try:
            assert PERIODIC, "the scheduler has periodic jobs to send"
            for name in sorted(PERIODIC):
                message = dramatiq.get_broker().get_actor(name).message()  # as the scheduler sends it
                broker.declare_queue(message.queue_name)
                broker.enqueue(message)
            client = redis_server.client()

            def pending() -> int:
                return sum(int(client.hlen(k)) for k in client.keys("dramatiq:*.msgs"))

            deadline = time.monotonic() + 120
            while pending() and time.monotonic() < deadline:
                time.sleep(0.3)
            assert not pending(), "the worker did not run the scheduled jobs within 2 minutes"
        finally:
            worker.stop()
    text = log_path.read_text(errors="replace")
    assert "is booting up" in text
    noise = [line for line in text.splitlines() if any(n in line for n in NOISE)]
    assert not noise, "\n".join(noise)


def test_every_actor_is_declared_to_return_nothing() -> None:
    """The kit refuses an actor declared to return a value (``core.jobs.returns_nothing``)."""
    import dramatiq
    import fueldesk.tasks  # noqa: F401

    returning = {
        name: actor.fn.__annotations__.get("return")
        for name, actor in dramatiq.get_broker().actors.items()
        if actor.fn.__annotations__.get("return", "None") not in (None, "None")
    }
    assert not returning

    from core.jobs import tenant_actor

    def counts_rows() -> int:
        return 1

    with pytest.raises(TypeError, match="declare it -> None"):
        tenant_actor(counts_rows)


def test_a_web_worker_starts_without_a_missing_static_folder_warning(tmp_path: Path) -> None:
    from django.core.handlers.wsgi import WSGIHandler

    with override_settings(STATIC_ROOT=tmp_path / "static"), warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        WSGIHandler()  # loads the middleware, as each gunicorn worker does when it starts
    assert not [str(w.message) for w in seen if "No directory at" in str(w.message)]


def test_the_missing_static_folder_is_still_reported_when_there_are_files_to_collect(
    tmp_path: Path,
) -> None:
    from django.core.handlers.wsgi import WSGIHandler

    source = tmp_path / "assets"
    source.mkdir()
    (source / "app.css").write_text("body{}")
    with (
        override_settings(STATIC_ROOT=tmp_path / "static", STATICFILES_DIRS=[str(source)]),
        warnings.catch_warnings(record=True) as seen,
    ):
        from django.contrib.staticfiles import finders

        # get_finder is an lru_cache; the stubs type it as a plain function.
        finders.get_finder.cache_clear()  # type: ignore[attr-defined]
        warnings.simplefilter("always")
        try:
            WSGIHandler()
        finally:
            finders.get_finder.cache_clear()  # type: ignore[attr-defined]
    assert [str(w.message) for w in seen if "No directory at" in str(w.message)]
