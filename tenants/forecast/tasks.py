"""The forecast's jobs: a run of one company (from the office, or nightly), and the nightly fan-out.

The scheduler sends `forecast_every_company` once a day; it sends one `nightly_forecast` message per
active company, stamped with its schema, on the default queue's fair lanes (core/fairness.py): one
company's failure fails its own job only, and a company with many tanks cannot hold the others back.
"""

import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
import dramatiq
from core.fairness import QUEUES
from core.jobs import Document, periodic, report_progress, send_job, tenant_actor

NIGHTLY_EVERY_SECONDS = 86_400


@tenant_actor(
    kind="forecast_run",
    label="Keep-full forecast",
    max_retries=0,
    time_limit=30 * 60_000,
    queue_name=QUEUES.default,
)
def run_forecast_job(run_id: int) -> None:
    from tenants.forecast import services

    services.execute_run(run_id, progress=report_progress)


@tenant_actor(
    kind="forecast_nightly",
    label="Nightly keep-full forecast",
    max_retries=1,
    time_limit=30 * 60_000,
    queue_name=QUEUES.default,
)
def nightly_forecast() -> None:
    """Fetch the configured provider's temperatures, then forecast every keep-full tank."""
    from tenants.forecast import services
    from tenants.forecast.models import ForecastRun
    from tenants.forecast.weather import fetch_all

    fetch_all()  # never raises for the provider: its errors are kept on the provider row
    run = ForecastRun.objects.create(trigger=ForecastRun.Trigger.NIGHTLY)
    services.execute_run(run.pk, progress=report_progress)


@periodic(NIGHTLY_EVERY_SECONDS)
@dramatiq.actor(max_retries=0, time_limit=10 * 60_000)
def forecast_every_company() -> None:
    from django_tenants.utils import get_public_schema_name, get_tenant_model

    tenants = get_tenant_model().objects.exclude(schema_name=get_public_schema_name())
    for schema in tenants.filter(status="active").values_list("schema_name", flat=True):
        send_job(
            nightly_forecast,
            schema=schema,
            started_by=False,
            document=Document("forecast_run", 0, "Nightly forecast", "/forecast/due"),
        )
