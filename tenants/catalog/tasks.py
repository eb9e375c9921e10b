"""Background jobs of the catalog: CSV imports too large to check or write within a request."""

import fueldesk.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
from core.jobs import tenant_actor


@tenant_actor(max_retries=0, time_limit=60 * 60 * 1000)
def run_data_import(import_id: int, phase: str) -> None:
    """Check ("validate") or write ("import") one uploaded CSV file; see core.csv_io."""
    from core.csv_io import run_job

    run_job(import_id, phase)
