"""Platform-level jobs (public schema)."""

import core.dramatiq_setup  # noqa: F401
import dramatiq
from core.fairness import QUEUES
from core.jobs import periodic

from tenancy import provisioning


@dramatiq.actor(max_retries=3, time_limit=10 * 60_000)
def refill_spare_schemas() -> None:
    provisioning.refill_spares()


BACKUP_EVERY_SECONDS = 86_400


@periodic(BACKUP_EVERY_SECONDS)
@dramatiq.actor(max_retries=0, time_limit=10 * 60_000)
def back_up_every_tenant() -> None:
    """Nightly (the scheduler sends it once a day, at 00:00 UTC): one backup message per company."""
    from django.conf import settings

    from tenancy.models import Tenant

    if not settings.BACKUP_NIGHTLY:
        return
    for schema in Tenant.objects.filter(status__in=["active", "suspended"]).values_list(
        "schema_name", flat=True
    ):
        back_up_tenant.send(schema)


@dramatiq.actor(queue_name=QUEUES.backups, max_retries=2, min_backoff=60_000, time_limit=60 * 60_000)
def back_up_tenant(schema: str) -> None:
    """One company's backup to BACKUP_LOCATION, then its backups older than BACKUP_RETENTION_DAYS go.
    A public actor: pg_dump and the storage walk name the schema; no tenant is activated."""
    from django.conf import settings

    from tenancy.backup import Location, backup_schema, prune_backups
    from tenancy.models import Tenant

    tenant = Tenant.objects.filter(schema_name=schema, status__in=["active", "suspended"]).first()
    if tenant is None:
        return  # deleted since the fan-out
    backup_schema(tenant)
    prune_backups(schema, Location.parse(None), settings.BACKUP_RETENTION_DAYS)
