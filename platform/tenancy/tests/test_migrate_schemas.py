"""`migrate_schemas` leaves out the schemas that already record every migration, and only those."""

from __future__ import annotations

from django.db import connection
from django_tenants.migration_executors.base import MigrationExecutor

from tenancy.migration_executor import get_executor, graph_migrations, schemas_up_to_date
from tenancy.services import clone_template, schema_name_for

seen: list[str] = []


class RecordingExecutor(MigrationExecutor):
    codename = "recording-test"

    def run_migrations(self, tenants=None):
        seen.extend(tenants or [])


def _behind_schema() -> str:
    """A clone whose history lacks one migration (as after a deploy that adds one)."""
    schema = schema_name_for("Behind")
    clone_template(schema)
    with connection.cursor() as cur:
        cur.execute(
            f"DELETE FROM {schema}.django_migrations"
            f" WHERE id = (SELECT max(id) FROM {schema}.django_migrations)"
        )
    return schema


def test_only_schemas_missing_a_migration_are_migrated(two_tenants, db):
    current = schema_name_for("Current")
    clone_template(current)
    behind = _behind_schema()
    with connection.cursor() as cur:
        cur.execute("CREATE SCHEMA bare_no_history")  # no django_migrations table at all
    assert len(graph_migrations()) >= 20
    assert schemas_up_to_date([current, behind, "bare_no_history", two_tenants[0].schema]) == {
        current,
        two_tenants[0].schema,
    }

    seen.clear()
    executor = get_executor("recording-test")((), {"verbosity": 0})
    executor.run_migrations(tenants=["public", current, behind, "bare_no_history"])
    assert seen == ["public", behind, "bare_no_history"]


def test_a_targeted_or_faked_migrate_goes_through_every_schema(two_tenants, db):
    current = schema_name_for("Current Two")
    clone_template(current)
    for option in ("fake", "app_label", "migration_name", "prune", "check_unapplied"):
        seen.clear()
        get_executor("recording-test")((), {"verbosity": 0, option: "x"}).run_migrations(tenants=[current])
        assert seen == [current], option
    # Django's test database setup passes run_syncdb: no app without migrations has models here.
    seen.clear()
    get_executor("recording-test")((), {"verbosity": 0, "run_syncdb": True}).run_migrations(tenants=[current])
    assert seen == []


def test_the_standard_executor_is_kept_behind_the_filter():
    from django_tenants.migration_executors import MultiprocessingExecutor, StandardExecutor

    assert issubclass(get_executor("standard"), StandardExecutor)
    assert issubclass(get_executor("multiprocessing"), MultiprocessingExecutor)
