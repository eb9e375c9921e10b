"""One company's flood does not starve the others (issue 25 §3), on a real Redis and Dramatiq worker.

Company A queues 1,000 bill parses and 5,000 emails; company B then queues one invoice email. B's
email starts within 10 s of being queued, and A's 6,000 jobs all run, each once. Without the lanes
(FAIR_QUEUES=0) B's email waits behind A's 5,000 (about 13 s of work on this test's 4 threads):
`make bench` runs both and records the waits (docs/benchmarks.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability.flood import Flood, run_flood
from tests.reliability.redis_server import RedisServer


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with RedisServer(tmp_path) as server:
        yield server


def test_one_companys_flood_does_not_starve_another(redis_server: RedisServer) -> None:
    flood = Flood()
    outcome = run_flood(redis_server.url, flood)
    assert outcome.b_wait is not None, "company B's email never ran"
    assert outcome.b_wait < 10, f"company B's email waited {outcome.b_wait:.1f} s ({outcome.summary()})"
    assert outcome.done["company_a"] == {f"p{i}" for i in range(flood.parses)} | {
        f"e{i}" for i in range(flood.emails)
    }, "company A's work did not all complete"
    assert len(outcome.waits["company_a"]) == flood.parses + flood.emails, "a job of A ran twice"


def test_a_companys_waiting_messages_past_its_share_go_to_the_bulk_lane(redis_server: RedisServer) -> None:
    import dramatiq
    from core.fairness import QUEUES
    from core.jobs import SCHEMA_OPTION, FuelDeskRedisBroker, redis_client
    from django.test import override_settings

    with override_settings(FAIR_QUEUED_PER_COMPANY=3):
        broker = FuelDeskRedisBroker(client=redis_client(redis_server.url), namespace="lanes")
        actor = dramatiq.actor(broker=broker, actor_name="lane_probe", queue_name=QUEUES.mail)(lambda: None)
        sent = [actor.send_with_options(**{SCHEMA_OPTION: "company_a"}) for _ in range(5)]
        other = actor.send_with_options(**{SCHEMA_OPTION: "company_b"})
        broker.close()
    assert [m.queue_name for m in sent] == ["email"] * 3 + ["email.bulk"] * 2
    assert other.queue_name == "email"
    assert {"email", "email.bulk"} <= broker.get_declared_queues()
