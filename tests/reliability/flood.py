"""The flood of issue 25 §3, run on a real Redis and a real Dramatiq worker (in this process): company
A queues 1,000 bill parses and 5,000 emails, then company B queues one invoice email. Shared by the
fairness test (B's email starts within 10 s, A's work all completes) and the benchmark (queue wait
per company).

The actors stand in for the real ones: they sleep for the work's duration instead of parsing or
sending (the lanes decide on the queue and the company, never on what the actor does), so the
scenario needs no database and shows only the queueing. They are declared on the real queues
(``QUEUES.mail``, ``QUEUES.parsing``) of a broker built as production builds it."""

from __future__ import annotations

import statistics
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import dramatiq
from core.fairness import QUEUES, FairShareMiddleware
from core.jobs import SCHEMA_OPTION, FuelDeskRedisBroker, redis_client
from dramatiq.middleware import Middleware


@dataclass
class Flood:
    emails: int = 5000
    parses: int = 1000
    email_seconds: float = 0.010
    parse_seconds: float = 0.020
    threads: int = 4


@dataclass
class Outcome:
    waits: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    done: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    b_wait: float | None = None
    seconds: float = 0.0

    def p95(self, company: str) -> float:
        values = sorted(self.waits[company])
        return values[max(0, int(len(values) * 0.95) - 1)] if values else 0.0

    def summary(self) -> str:
        lines = []
        for company in sorted(self.waits):
            values = self.waits[company]
            lines.append(
                f"{company}: {len(values)} jobs, queue wait p50 {statistics.median(values):.2f} s, "
                f"p95 {self.p95(company):.2f} s, max {max(values):.2f} s"
            )
        return "; ".join(lines)


class _Started(Middleware):
    """Notes when each message starts: its wait in the queue (start minus send)."""

    def __init__(self, outcome: Outcome, lock: threading.Lock) -> None:
        self.outcome = outcome
        self.lock = lock

    def before_process_message(self, broker: Any, message: Any) -> None:
        company = message.options.get(SCHEMA_OPTION, "?")
        wait = time.time() - message.kwargs["sent_at"]
        with self.lock:
            self.outcome.waits[company].append(wait)
            if company == "company_b":
                self.outcome.b_wait = wait


def run_flood(redis_url: str, flood: Flood, *, timeout: float = 180.0, fair: bool = True) -> Outcome:
    from django.test import override_settings

    outcome = Outcome()
    lock = threading.Lock()
    with override_settings(FAIR_QUEUES=fair):
        broker = FuelDeskRedisBroker(client=redis_client(redis_url), namespace="flood")
        broker.add_middleware(FairShareMiddleware(broker.fair_share, SCHEMA_OPTION))
        broker.add_middleware(_Started(outcome, lock))

        def work(seconds: float, key: str, sent_at: float) -> None:
            time.sleep(seconds)
            company = dramatiq.middleware.CurrentMessage.get_current_message()
            with lock:
                outcome.done[company.options[SCHEMA_OPTION] if company else "?"].add(key)

        broker.add_middleware(dramatiq.middleware.CurrentMessage())
        email = dramatiq.actor(
            broker=broker, actor_name="flood_email", queue_name=QUEUES.mail, max_retries=0
        )(work)
        parse = dramatiq.actor(
            broker=broker, actor_name="flood_parse", queue_name=QUEUES.parsing, max_retries=0
        )(work)
        worker = dramatiq.Worker(broker, worker_threads=flood.threads, worker_timeout=100)
        worker.start()
        started = time.time()
        try:
            for i in range(flood.parses):
                parse.send_with_options(
                    kwargs={"seconds": flood.parse_seconds, "key": f"p{i}", "sent_at": time.time()},
                    **{SCHEMA_OPTION: "company_a"},
                )
            for i in range(flood.emails):
                email.send_with_options(
                    kwargs={"seconds": flood.email_seconds, "key": f"e{i}", "sent_at": time.time()},
                    **{SCHEMA_OPTION: "company_a"},
                )
            email.send_with_options(
                kwargs={"seconds": flood.email_seconds, "key": "invoice", "sent_at": time.time()},
                **{SCHEMA_OPTION: "company_b"},
            )
            expected = flood.parses + flood.emails
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                with lock:
                    finished = len(outcome.done["company_a"]) == expected and outcome.done["company_b"]
                if finished:
                    break
                time.sleep(0.1)
        finally:
            worker.stop()
            broker.close()
        outcome.seconds = time.time() - started
    return outcome
