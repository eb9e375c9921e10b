"""What an operator sees of a request and a job: the request id (returned, logged, carried into the
job it queued), one JSON log line each, and the metrics a Prometheus scrape reads."""

import json
import logging
import re

import pytest
from core import observability
from core.jobs import send_job
from core.observability import JsonFormatter
from django.test import override_settings

from tests.observability.probe import obs_probe

HEX_ID = re.compile(r"^[0-9a-f]{32}$")


class JsonLines(logging.Handler):
    """Formats each record as production does (JSON) and keeps the parsed lines."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def log_lines():
    handler = JsonLines()
    loggers = [logging.getLogger("fueldesk.request"), logging.getLogger("fueldesk.job")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler.lines
    for logger in loggers:
        logger.removeHandler(handler)


def test_every_answer_carries_a_request_id_and_a_sane_incoming_one_is_kept(anon, db):
    made = anon.get("/api/ping")
    assert HEX_ID.match(made["X-Request-ID"])
    assert anon.get("/api/ping")["X-Request-ID"] != made["X-Request-ID"]
    kept = anon.get("/api/ping", HTTP_X_REQUEST_ID="lb-7f3a9c2e-trace")
    assert kept["X-Request-ID"] == "lb-7f3a9c2e-trace"
    # Not sane (spaces, a newline, too short, too long): replaced, never echoed into logs or headers.
    for bad in ("has spaces in it", "inject\nFAKE LOG LINE", "short", "x" * 300):
        answer = anon.get("/api/ping", HTTP_X_REQUEST_ID=bad)
        assert HEX_ID.match(answer["X-Request-ID"]), bad
    # Errors too: the id the user quotes from the error toast.
    missing = anon.get("/api/no-such-route")
    assert missing.status_code == 404 and HEX_ID.match(missing["X-Request-ID"])


def test_a_request_is_one_json_line_naming_tenant_user_route_status_time_and_queries(
    api_a, tenant_a, log_lines, db
):
    answer = api_a.get("/api/customer/customers", HTTP_X_REQUEST_ID="req-listing-0001")
    assert answer.status_code == 200
    lines = [line for line in log_lines if line.get("event") == "request"]
    assert len(lines) == 1, log_lines
    line = lines[0]
    assert line["request_id"] == "req-listing-0001" == answer["X-Request-ID"]
    assert line["tenant"] == tenant_a.schema
    assert line["role"] == "Admin"
    assert isinstance(line["user_id"], int)
    assert line["method"] == "GET" and line["route"] == "api/customer/customers" and line["status"] == 200
    assert line["duration_ms"] > 0 and line["queries"] >= 1
    assert line["level"] == "INFO" and line["logger"] == "fueldesk.request"


def test_a_job_is_one_json_line_carrying_the_request_id_that_queued_it(
    tenant_a, in_tenant, jobs, log_lines, db
):
    context = observability.Context("req-queued-0002", tenant_a.schema, "Admin")
    try:
        with in_tenant(tenant_a):
            send_job(obs_probe)
            send_job(obs_probe, fail=True)
    finally:
        context.close()
    with pytest.raises(RuntimeError):
        jobs()
    lines = [line for line in log_lines if line.get("event") == "job"]
    assert [(line["actor"], line["status"]) for line in lines] == [
        ("obs_probe", "succeeded"),
        ("obs_probe", "failed"),
    ]
    for line in lines:
        assert line["request_id"] == "req-queued-0002"
        assert line["tenant"] == tenant_a.schema and line["role"] == "Admin"
        assert line["queue"] == "default" and line["queries"] >= 1 and line["duration_ms"] > 0
    assert lines[1]["error"] == "the probe job failed on purpose" and lines[1]["level"] == "WARNING"


def _scrape(anon, token="scrape-token-123456"):
    return anon.get("/api/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")


def test_metrics_are_behind_their_token(anon, db):
    assert anon.get("/api/metrics").status_code == 404  # no token configured: no endpoint
    with override_settings(METRICS_TOKEN="scrape-token-123456"):
        assert anon.get("/api/metrics").status_code == 401
        assert _scrape(anon, "wrong-token-0000000").status_code == 401
        assert _scrape(anon).status_code == 200


def _value(text: str, series: str) -> float:
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_metrics_count_requests_per_route_and_tenant_jobs_per_actor_and_the_live_state(
    api_a, anon, tenant_a, in_tenant, jobs, db
):
    with override_settings(METRICS_TOKEN="scrape-token-123456"):
        before = _scrape(anon).content.decode()
        api_a.get("/api/customer/customers")
        with in_tenant(tenant_a):
            send_job(obs_probe)
        jobs()
        after = _scrape(anon)
    assert after["Content-Type"].startswith("text/plain")
    text = after.content.decode()
    route = 'method="GET",route="api/customer/customers"'
    for series, grew_by in (
        (f'fueldesk_http_requests_total{{{route},status="200"}}', 1),
        (f"fueldesk_http_request_duration_seconds_count{{{route}}}", 1),
        (f'fueldesk_tenant_requests_total{{tenant="{tenant_a.schema}"}}', 1),
        ('fueldesk_jobs_total{actor="obs_probe",outcome="succeeded"}', 1),
        ('fueldesk_job_duration_seconds_count{actor="obs_probe"}', 1),
        (f'fueldesk_tenant_jobs_total{{tenant="{tenant_a.schema}"}}', 1),
    ):
        assert _value(text, series) - _value(before, series) == grew_by, series
    assert 'fueldesk_http_request_duration_seconds_bucket{le="0.005",' in text or "_bucket{" in text
    # The live state, read at the scrape.
    assert re.search(r'^fueldesk_queue_depth\{queue="default"\} \d', text, re.M)
    assert re.search(r"^fueldesk_spare_schemas \d", text, re.M)
    assert re.search(r"^fueldesk_workers_alive \d", text, re.M)
