"""Platform-level jobs (public schema)."""

import core.dramatiq_setup  # noqa: F401
import dramatiq

from tenancy import provisioning


@dramatiq.actor(max_retries=3, time_limit=10 * 60_000)
def refill_spare_schemas() -> None:
    provisioning.refill_spares()
