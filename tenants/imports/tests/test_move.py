"""The import job model moved from catalog to imports without touching the database."""

from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tenants.imports.models import DataImport


def test_an_import_made_before_the_move_is_there_after_migrating(tenant_a: Any) -> None:
    connection.set_tenant(tenant_a.tenant)
    executor = MigrationExecutor(connection)
    # Back to before the move: catalog still owns DataImport.
    executor.migrate([("imports", None)])
    executor.loader.build_graph()
    old_state = executor.loader.project_state(("catalog", "0001_initial"))
    OldImport = old_state.apps.get_model("catalog", "DataImport")
    old = OldImport.objects.create(
        resource="product", file_key="imports/old.csv", file_name="old.csv", status="ready", total_rows=3
    )
    assert "imports" not in {app for app, _ in executor.loader.applied_migrations}

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = DataImport.objects.get(pk=old.pk)
    assert (moved.resource, moved.file_name, moved.status, moved.total_rows) == (
        "product",
        "old.csv",
        "ready",
        3,
    )
    # New imports keep numbering after the old rows.
    new = DataImport.objects.create(resource="product", file_key="imports/new.csv", file_name="new.csv")
    assert new.pk > old.pk
