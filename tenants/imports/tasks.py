"""Background jobs of CSV imports: files too large to check or write within a request."""

from typing import Any

import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
from core import csv_io
from core.fairness import QUEUES
from core.jobs import tenant_actor


def retry_import(args: list[Any], kwargs: dict[str, Any]) -> None:
    """The job log's "retry" of an import stopped by a crash, the reaper or a lost message."""
    csv_io.rearm_import(int(args[0]), str(args[1]))


def import_stuck(args: list[Any], kwargs: dict[str, Any], reason: str) -> bool:
    """The reaper's question: is this silent import still running? (see csv_io.import_stuck)"""
    return csv_io.import_stuck(int(args[0]), str(args[1]), reason)


@tenant_actor(
    queue_name=QUEUES.imports,
    kind="csv_import",
    label="CSV import",
    retry=retry_import,  # idempotent: a run restarts from the first row under the import's lock
    on_stuck=import_stuck,
    max_retries=0,
    time_limit=60 * 60 * 1000,
)
def run_data_import(import_id: int, phase: str) -> None:
    """Check ("validate") or write ("import") one uploaded CSV file; see core.csv_io."""
    csv_io.run_job(import_id, phase)
