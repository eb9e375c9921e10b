import core.dramatiq_setup  # noqa: F401  (the broker comes before the actors)
from core.fairness import QUEUES
from core.jobs import tenant_actor


@tenant_actor(
    kind="route_plan",
    label="Plan the day",
    max_retries=0,
    time_limit=15 * 60_000,
    queue_name=QUEUES.planning,
)
def plan_day(plan_id: int) -> None:
    from tenants.routing import services

    try:
        services.run_plan(plan_id)
    except Exception as exc:
        services.fail_plan(plan_id, f"The planner failed: {exc}" if str(exc) else type(exc).__name__)
        raise
