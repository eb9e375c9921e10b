"""The poll schedule, kept in Redis: when each tenant's mailbox is next due. After a refused login or an
unreachable server the next try waits 2, 4, 8 … minutes, at most an hour."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from tenants.inbox.models import Mailbox

log = logging.getLogger(__name__)


BACKOFF_BASE_SECONDS = 120
BACKOFF_MAX_SECONDS = 3600


def _due_key() -> str:
    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'fd')}:inbox:due"


def _built_key() -> str:
    return f"{_due_key()}:built"


def schedule(box: Mailbox) -> None:
    """Remember when this tenant's mailbox is due (a Redis sorted set: schema → time), so the
    scheduler's fan-out visits only due tenants. Best effort: the fan-out rebuilds a lost set."""
    from core.cache import raw_redis_client

    schema = connection.schema_name
    when = (box.next_poll_at or timezone.now()).timestamp()
    try:
        transaction.on_commit(lambda: raw_redis_client().zadd(_due_key(), {schema: when}))
    except Exception:
        log.warning("could not schedule the inbox of %s", schema, exc_info=True)


def unschedule(schema: str) -> None:
    from core.cache import raw_redis_client

    try:
        raw_redis_client().zrem(_due_key(), schema)
    except Exception:
        log.warning("could not unschedule the inbox of %s", schema, exc_info=True)


def due_schemas(now: float, hold_seconds: int = 600) -> list[str]:
    """The schemas whose mailbox is due, each pushed `hold_seconds` ahead (its poll sets the real
    next time when it ends, so a crashed poll is retried after the hold, never in a loop)."""
    from core.cache import raw_redis_client

    client = raw_redis_client()
    if not client.exists(_built_key()):
        rebuild_schedule()
        client.set(_built_key(), "1")
    members = client.zrangebyscore(_due_key(), "-inf", now)
    schemas = [m.decode() if isinstance(m, bytes) else str(m) for m in members]
    if schemas:
        client.zadd(_due_key(), {s: now + hold_seconds for s in schemas})
    return schemas


def rebuild_schedule() -> int:
    """Find every tenant with an enabled mailbox (after Redis lost the set)."""
    from core.cache import raw_redis_client
    from django_tenants.utils import get_tenant_model, schema_context

    found = 0
    client = raw_redis_client()
    for schema in (
        get_tenant_model().objects.exclude(schema_name="public").values_list("schema_name", flat=True)
    ):
        with schema_context(schema):
            try:
                box = Mailbox.objects.filter(enabled=True).only("next_poll_at").first()
            except Exception:  # a schema being provisioned: not yet migrated
                log.debug("no mailbox table in %s yet", schema, exc_info=True)
                continue
            if box is not None:
                client.zadd(_due_key(), {schema: (box.next_poll_at or timezone.now()).timestamp()})
                found += 1
    return found


def backoff_seconds(failures: int) -> int:
    return int(min(BACKOFF_BASE_SECONDS * 2 ** max(failures - 1, 0), BACKOFF_MAX_SECONDS))
