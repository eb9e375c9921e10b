"""The scheduler: one small process beside the worker (``make run`` starts it; in production one task
of its own) that sends the periodic jobs (``core.jobs.periodic``): the stuck-job reaper every minute,
and later inbox polling, spare-pool refills, accounting syncs.

    python -m fueldesk.scheduler            # PYTHONPATH=platform:. as for the worker

Each periodic actor is sent once per period slot (``int(now // every)``). A Redis key per slot
(``SET NX`` with the period as expiry) lets only one of several schedulers send it, so running two
(a rolling deploy, two machines) never doubles a job. A per-tenant job fans out from its message:
one message per tenant, stamped with its schema. Redis unreachable: logged, retried next second.
SIGTERM/SIGINT stop it between ticks.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import time
from typing import Any

log = logging.getLogger("fueldesk.scheduler")


class Scheduler:
    def __init__(self, broker: Any, periodic: dict[str, int], key_prefix: str) -> None:
        self.broker = broker
        self.periodic = periodic
        self.key_prefix = key_prefix
        self.sent_slot: dict[str, int] = {}

    def tick(self, now: float | None = None) -> list[str]:
        """Send what is due; answers the actor names sent by this scheduler."""
        from core.cache import raw_redis_client
        from core.errors import REDIS_ERRORS

        now = time.time() if now is None else now
        sent = []
        for name, every in sorted(self.periodic.items()):
            slot = int(now // every)
            if self.sent_slot.get(name) == slot:
                continue
            try:
                key = f"{self.key_prefix}:scheduler:{name}:{slot}"
                if raw_redis_client().set(key, str(os.getpid()), nx=True, ex=max(every, 1)):
                    self.broker.get_actor(name).send()
                    sent.append(name)
                self.sent_slot[name] = slot
            except REDIS_ERRORS as exc:
                log.warning("cannot send %s now (Redis unreachable: %s); retrying", name, exc)
        return sent


def publish_queue_depth(key_prefix: str, namespace: str, environment: str, now: float | None = None) -> bool:
    """Put the queue depth (waiting messages, per queue and in all) into CloudWatch once a minute, for
    the worker service's autoscaling (terraform/ecs.tf: backlog per worker task). One scheduler of
    several publishes a given minute (the slot key, as for periodic jobs)."""
    from core.cache import raw_redis_client
    from core.jobs import queue_depths

    now = time.time() if now is None else now
    if not raw_redis_client().set(f"{key_prefix}:scheduler:cloudwatch:{int(now // 60)}", "1", nx=True, ex=60):
        return False
    import boto3

    depths = queue_depths()
    dimensions = [{"Name": "Environment", "Value": environment}]
    data = [
        {
            "MetricName": "QueueDepth",
            "Dimensions": [*dimensions, {"Name": "Queue", "Value": q}],
            "Value": waiting,
        }
        for q, (waiting, _delayed) in depths.items()
    ]
    data.append(
        {"MetricName": "QueueDepth", "Dimensions": dimensions, "Value": sum(w for w, _ in depths.values())}
    )
    boto3.client("cloudwatch").put_metric_data(Namespace=namespace, MetricData=data)
    return True


def main() -> int:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings")
    django.setup()
    from core.jobs import PERIODIC, setup_broker
    from django.conf import settings

    import fueldesk.tasks  # noqa: F401  every actor, periodic ones included

    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO"),
        format="[%(asctime)s] [scheduler] %(levelname)s %(message)s",
    )
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    prefix = str(settings.CACHES["default"].get("KEY_PREFIX", "fd"))
    scheduler = Scheduler(setup_broker(), dict(PERIODIC), prefix)
    listed = ", ".join(f"{name} every {every}s" for name, every in sorted(PERIODIC.items()))
    log.info("started: %s", listed or "nothing to schedule")
    namespace = settings.CLOUDWATCH_METRICS_NAMESPACE
    next_publish = 0.0
    while not stopping:
        for name in scheduler.tick():
            log.info("sent %s", name)
        if namespace and time.monotonic() >= next_publish:
            next_publish = time.monotonic() + 15
            try:
                publish_queue_depth(prefix, namespace, settings.ENVIRONMENT)
            except Exception:
                log.warning("could not publish the queue depth to CloudWatch", exc_info=True)
        time.sleep(1)
    log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
