"""Fair queues: one company's flood of jobs does not starve the others (issue 25 §3).

Two shapes:

1. **Queues per kind of work** (``QUEUES``): mail, bill parsing, accounting sync, imports, inbox
   polls and the rest. A flood of bill parses never sits in front of an email. An actor names its
   kind with ``tenant_actor(..., queue_name=QUEUES.parsing)``.
2. **A company's share of each queue.** Each queue has a *bulk lane* (``<queue>.bulk``). When a
   message is sent, the company's messages waiting in the queue's main lane are counted; past
   ``FAIR_QUEUED_PER_COMPANY`` the message goes to the bulk lane instead. A worker consumes both
   lanes side by side (a consumer each, with the same prefetch, feeding one work queue in arrival
   order), so a company that sends one email waits behind at most that many waiting messages of
   each other company plus what the bulk lane's consumer holds, never behind a flood of 5,000. The
   bulk lane is first in, first out and always consumed: the flood itself keeps moving at the
   worker's full speed whenever nobody else has work.

Why not "at most N running per company", which a worker could only enforce by putting a message
back (an acknowledged skip and a delayed copy)? Each put-back would be a new delivery with a new
broker id (the job log's stuck-job reaper could take a long-waiting one for lost) and a cost per
message of the flood on every pass; the lanes decide once, when the message is sent, and never move
it again.

State lives in Redis next to the broker: per (queue, company) a sorted set of the message ids
waiting in the main lane, scored with the time they were sent. A message leaves the set when it
starts running; entries older than ``FAIR_WAITING_LEASE_MS`` are dropped when the set is read, so a
message lost with a SIGKILLed worker's prefetch cannot hold a company's place for longer than that
(Dramatiq itself redelivers the message). Long work is also cut into bounded batches that commit
their progress and queue the next message (e.g. QuickBooks payment lookups: quickbooks/tasks.py), so
one message never holds a thread for long.

Only the Redis broker is fair; the tests' stub broker runs everything in line. ``FAIR_QUEUES=0``
turns the lanes off (the benchmark's before/after).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from dramatiq.common import current_millis
from dramatiq.middleware import Middleware

from core.errors import REDIS_ERRORS

log = logging.getLogger(__name__)

BULK_SUFFIX = ".bulk"
LANE_OPTION = "fair_lane"  # "main" or "bulk": where the message was put when sent


@dataclass(frozen=True)
class _Queues:
    """The kinds of work, each a Dramatiq queue (and its bulk lane)."""

    default: str = "default"
    mail: str = "email"  # the outbox's queue (its name predates this module; kept for queued messages)
    parsing: str = "parsing"
    accounting: str = "accounting"
    imports: str = "imports"
    inbox: str = "inbox"
    backups: str = "backups"  # nightly company backups and data exports
    planning: str = "planning"  # route planning ("Plan the day": a solver busy for its time budget)


QUEUES = _Queues()


def base_queue(queue_name: str) -> str:
    """The queue a lane or delay queue belongs to: ``email.bulk.DQ`` -> ``email``."""
    return queue_name.removesuffix(".DQ").removesuffix(".XQ").removesuffix(BULK_SUFFIX)


def bulk_lane(queue_name: str) -> str:
    return base_queue(queue_name) + BULK_SUFFIX


def enabled() -> bool:
    return bool(getattr(settings, "FAIR_QUEUES", True))


# Drops expired entries first, then counts. KEYS[1] the set; ARGV: now (ms), lease (ms), limit,
# member. Returns 1 when the member was added.
_ADMIT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
    redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return 1
end
return 0
"""


class FairShare:
    """The Redis side: a company's places in each queue's main lane."""

    def __init__(self, client: Any, namespace: str) -> None:
        self.client = client
        self.prefix = f"{namespace}:fair"
        self._admit = client.register_script(_ADMIT)

    def _key(self, what: str, queue_name: str, schema: str) -> str:
        return f"{self.prefix}:{what}:{base_queue(queue_name)}:{schema}"

    def admit(
        self, what: str, queue_name: str, schema: str, member: str, *, limit: int, lease_ms: int
    ) -> bool:
        key = self._key(what, queue_name, schema)
        return bool(self._admit(keys=[key], args=[current_millis(), lease_ms, limit, member]))

    def release(self, what: str, queue_name: str, schema: str, member: str) -> None:
        self.client.zrem(self._key(what, queue_name, schema), member)

    def count(self, what: str, queue_name: str, schema: str) -> int:
        return int(self.client.zcard(self._key(what, queue_name, schema)))


def choose_lane(share: FairShare, message: Any, schema: str) -> Any:
    """The lane a new message of ``schema`` goes to: the queue itself while the company has fewer than
    FAIR_QUEUED_PER_COMPANY messages waiting there, else its bulk lane."""
    if message.queue_name.endswith(BULK_SUFFIX) or message.options.get(LANE_OPTION):
        return message  # already placed (a deferral or a retry keeps its lane)
    try:
        admitted = share.admit(
            "waiting",
            message.queue_name,
            schema,
            message.message_id,
            limit=settings.FAIR_QUEUED_PER_COMPANY,
            lease_ms=settings.FAIR_WAITING_LEASE_MS,
        )
    except REDIS_ERRORS:
        return message  # the enqueue itself will answer for Redis (503); no lane to choose
    if admitted:
        return message.copy(options={LANE_OPTION: "main"})
    return message.copy(queue_name=bulk_lane(message.queue_name), options={LANE_OPTION: "bulk"})


class FairShareMiddleware(Middleware):
    """Frees a company's place in a queue's main lane when its message starts running."""

    def __init__(self, share: FairShare, schema_option: str) -> None:
        self.share = share
        self.schema_option = schema_option  # the option that carries the message's company

    def before_process_message(self, broker: Any, message: Any) -> None:
        schema = message.options.get(self.schema_option)
        if not schema or message.options.get(LANE_OPTION) != "main":
            return
        try:
            self.share.release("waiting", message.queue_name, schema, message.message_id)
        except REDIS_ERRORS:
            log.warning(
                "could not free %s's place in %s (it expires with its lease)", schema, message.queue_name
            )
