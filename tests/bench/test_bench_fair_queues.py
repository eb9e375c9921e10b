"""Queue wait per company under one company's flood (issue 25 §3): company A queues 1,000 parses and
5,000 emails, company B one invoice email, on a real Redis and Dramatiq worker (4 threads); run with
the lanes (core/fairness.py) and without (FAIR_QUEUES=0). Figures in docs/benchmarks.md."""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.reliability.flood import Flood, run_flood
from tests.reliability.redis_server import RedisServer


def test_queue_wait_per_company_under_a_flood(record):
    figures = {}
    for fair in (False, True):
        with RedisServer(Path(tempfile.mkdtemp())) as server:
            outcome = run_flood(server.url, Flood(), fair=fair)
        label = "lanes" if fair else "one FIFO per queue"
        figures[label] = {
            "company_b_wait_s": round(outcome.b_wait or -1, 2),
            "company_a_p95_s": round(outcome.p95("company_a"), 2),
            "all_done_s": round(outcome.seconds, 1),
        }
        print(f"\n{label}: B's email waited {outcome.b_wait:.2f} s; {outcome.summary()}")
    record["fair_queues"] = figures
    assert figures["lanes"]["company_b_wait_s"] < 10
