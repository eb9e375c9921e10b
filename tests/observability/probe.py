"""A tenant job for the observability tests: succeeds, or fails with a message free of secrets."""

from core.jobs import tenant_actor


@tenant_actor(kind="obs_probe", label="Observability probe", logged=False, max_retries=0)
def obs_probe(fail: bool = False) -> None:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT 1")
    if fail:
        raise RuntimeError("the probe job failed on purpose")
