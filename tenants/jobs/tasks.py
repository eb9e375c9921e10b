"""The stuck-job reaper, sent every minute by the scheduler (fueldesk/scheduler.py).

The periodic public message fans out: one message per tenant that has unfinished jobs, stamped with
its schema; each fails the jobs of its tenant that made no progress for JOB_STUCK_AFTER_SECONDS."""

import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
import dramatiq
from core.jobs import (
    clear_unfinished,
    message_in_broker,
    periodic,
    schemas_with_unfinished_jobs,
    send_job,
    tenant_actor,
)

REAP_EVERY_SECONDS = 60


@periodic(REAP_EVERY_SECONDS)
@dramatiq.actor(max_retries=0, time_limit=5 * 60_000)
def reap_stuck_jobs_everywhere() -> None:
    for schema in schemas_with_unfinished_jobs():
        send_job(reap_stuck_jobs_in_tenant, schema=schema)


@tenant_actor(kind="job_reaper", label="Stuck-job check", logged=False, max_retries=0, time_limit=5 * 60_000)
def reap_stuck_jobs_in_tenant() -> None:
    from django.db import connection

    from tenants.jobs.services import has_unfinished_jobs, reap_stuck_jobs

    reap_stuck_jobs(in_queue=lambda entry: message_in_broker(entry.queue_name, entry.broker_message_id))
    if not has_unfinished_jobs():
        clear_unfinished(connection.schema_name)
