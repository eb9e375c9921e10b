"""Platform-level jobs (public schema)."""

import dramatiq
import fueldesk.dramatiq_setup  # noqa: F401

from tenancy import provisioning


@dramatiq.actor(max_retries=3, time_limit=10 * 60_000)
def refill_spare_schemas() -> None:
    provisioning.refill_spares()
