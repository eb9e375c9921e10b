import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
from core.fairness import QUEUES
from core.jobs import tenant_actor


@tenant_actor(
    kind="data_export", label="Data export", max_retries=0, time_limit=60 * 60_000, queue_name=QUEUES.backups
)
def build_data_export(export_id: int) -> None:
    from tenants.dataexport import services

    try:
        services.build_export(export_id)
    except Exception as exc:
        services.fail_export(export_id, str(exc) or type(exc).__name__)
        raise
