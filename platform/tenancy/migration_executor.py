"""`migrate_schemas` that skips the schemas with nothing to apply (settings.GET_EXECUTOR_FUNCTION).

django-tenants runs Django's whole `migrate` command once per schema, even when nothing is to be
applied: building the loader and the graph, reading the applied migrations, checking the project
state and sending the signals, about 0.15 to 0.5 s a schema; over 1,000 tenant schemas a deploy with no
tenant migration would spend minutes doing nothing. Here every schema whose `django_migrations`
already records every migration of the graph is found in a few queries (one per 250 schemas) and
left out; the executor chosen (standard or multiprocessing) runs for the others only, as before.

Only a plain `migrate_schemas` is filtered: with an app label, a target migration, --fake,
--fake-initial, --plan, --prune or --check every schema goes through Django's command, and with
--run-syncdb too when an installed app without migrations has models.
"""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django_tenants.migration_executors import get_executor as django_tenants_executor
from django_tenants.utils import get_public_schema_name, get_tenant_database_alias

log = logging.getLogger(__name__)
CHUNK = 250
UNFILTERED_OPTIONS = (
    "app_label",
    "migration_name",
    "fake",
    "fake_initial",
    "plan",
    "prune",
    "check_unapplied",
)


def syncdb_has_work() -> bool:
    """--run-syncdb (Django's test database setup passes it) creates the tables of apps without
    migrations: only then can it change a schema whose history is complete."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return any(list(apps.get_app_config(label).get_models()) for label in loader.unmigrated_apps)


def graph_migrations() -> set[tuple[str, str]]:
    """Every migration the project knows (the loader without a connection reads no database)."""
    return set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def schemas_up_to_date(schemas: Iterable[str], database: str | None = None) -> set[str]:
    """The schemas whose migration history already holds every migration of the graph."""
    expected = sorted(f"{app}.{name}" for app, name in graph_migrations())
    wanted = list(schemas)
    connection = connections[database or get_tenant_database_alias()]
    connection.set_schema_to_public()
    done: set[str] = set()
    with connection.cursor() as cur:
        cur.execute(
            """SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE c.relname = 'django_migrations' AND c.relkind = 'r' AND n.nspname = ANY(%s)""",
            [wanted],
        )
        with_table = sorted(r[0] for r in cur.fetchall())
        for start in range(0, len(with_table), CHUNK):
            chunk = with_table[start : start + CHUNK]
            union = " UNION ALL ".join(
                f"SELECT %s::text, count(*) FROM {_qi(s)}.django_migrations"  # noqa: S608 - names from the catalog
                " WHERE app || '.' || name = ANY(%s)"
                for s in chunk
            )
            params: list[Any] = []
            for s in chunk:
                params += [s, expected]
            cur.execute(union, params)
            done |= {schema for schema, count in cur.fetchall() if count == len(expected)}
    return done


def _qi(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class SkipUpToDateMixin:
    args: Any
    options: dict[str, Any]
    PUBLIC_SCHEMA_NAME: str

    def run_migrations(self, tenants: Iterable[str] | None = None) -> None:
        tenants = list(tenants or [])
        if not any(self.options.get(o) for o in UNFILTERED_OPTIONS) and not (
            self.options.get("run_syncdb") and syncdb_has_work()
        ):
            public = get_public_schema_name()
            current = schemas_up_to_date([t for t in tenants if t != public], self.options.get("database"))
            if current:
                tenants = [t for t in tenants if t not in current]
                if int(self.options.get("verbosity", 1)) >= 1:
                    sys.stdout.write(
                        f"{len(current)} schema(s) already record every migration: skipped; "
                        f"{len(tenants)} to migrate.\n"
                    )
        if tenants:
            super().run_migrations(tenants=tenants)  # type: ignore[misc]


@functools.cache
def get_executor(codename: str | None = None) -> type:
    base = django_tenants_executor(codename)
    return type(f"SkipUpToDate{base.__name__}", (SkipUpToDateMixin, base), {})
