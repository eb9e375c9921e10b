"""The Citus path stays open (docs/scaling.md): when one Postgres cluster is not enough, each
company's schema becomes a Citus *distributed schema* (its tables one colocated shard, placed on one
worker node) and the public tables it needs become *reference tables* (copied to every node). Citus
then allows a foreign key only inside one distributed schema or from it to a reference table, never
from a reference table to a distributed one, and it routes a query only when it touches one
company's schema (plus reference tables). These tests hold the models, the migrated database and
the raw SQL to that, so no change closes the path without someone deciding it here."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection, models

ROOT = Path(__file__).resolve().parents[2]

# Public (shared) tables a company's tables may reference: each would be a Citus reference table, so
# each must stay small and rarely written (a write to a reference table is a 2PC on every node).
# None today: no company table points into public. (django_content_type would be the first candidate,
# if a company model ever took a generic relation: a few rows, written only by migrations.)
REFERENCE_TABLES: dict[str, str] = {}

# Integer (not bigint) id sequences allowed in a company's schema. Citus needs bigint sequences on a
# distributed table: a node that takes inserts itself encodes its node id in the high bits.
INTEGER_SEQUENCES: dict[str, str] = {}


def _tenant_app_labels() -> set[str]:
    names = set(settings.TENANT_APPS) - set(settings.SHARED_APPS)
    return {cfg.label for cfg in apps.get_app_configs() if cfg.name in names}


def _shared_tables() -> set[str]:
    tenant_labels = _tenant_app_labels()
    return {
        m._meta.db_table
        for m in apps.get_models(include_auto_created=True)
        if m._meta.app_label not in tenant_labels and m._meta.managed
    }


def _relations(model: type[models.Model]) -> list[tuple[str, type[models.Model]]]:
    out: list[tuple[str, type[models.Model]]] = []
    for field in model._meta.get_fields(include_hidden=True):
        remote = getattr(field, "remote_field", None)
        if field.is_relation and field.concrete and remote is not None and not field.auto_created:
            out.append((field.name, remote.model))
    return out


def test_a_company_model_references_only_company_models_or_reference_tables() -> None:
    tenant_labels = _tenant_app_labels()
    found = []
    for model in apps.get_models(include_auto_created=True):
        if model._meta.app_label not in tenant_labels:
            continue
        for name, target in _relations(model):
            if target._meta.app_label in tenant_labels:
                continue
            if target._meta.db_table not in REFERENCE_TABLES:
                found.append(f"{model._meta.label}.{name} -> {target._meta.label} ({target._meta.db_table})")
    assert not found, (
        "a company's table references a public table that is not a (future) reference table: "
        f"{found}; add it to REFERENCE_TABLES with why it stays small, or keep the data in the company"
    )


def test_no_public_model_references_a_company_model() -> None:
    """A reference table may not point into a distributed schema."""
    tenant_labels = _tenant_app_labels()
    found = [
        f"{model._meta.label}.{name} -> {target._meta.label}"
        for model in apps.get_models(include_auto_created=True)
        if model._meta.app_label not in tenant_labels
        for name, target in _relations(model)
        if target._meta.app_label in tenant_labels
    ]
    assert not found, found


def _foreign_keys_leaving(schema: str) -> list[tuple[str, str, str]]:
    with connection.cursor() as cur:
        cur.execute(
            """
            SELECT c.conname, src.relname, tns.nspname || '.' || tgt.relname
            FROM pg_constraint c
            JOIN pg_class src ON src.oid = c.conrelid
            JOIN pg_namespace sns ON sns.oid = src.relnamespace
            JOIN pg_class tgt ON tgt.oid = c.confrelid
            JOIN pg_namespace tns ON tns.oid = tgt.relnamespace
            WHERE c.contype = 'f' AND sns.nspname = %s AND tns.nspname <> sns.nspname
            """,
            [schema],
        )
        return list(cur.fetchall())


@pytest.mark.django_db
def test_the_migrated_company_schema_has_no_foreign_key_citus_refuses(tenant_a: Any) -> None:
    """The database as migrations (RunSQL included) left it, not only as the models say."""
    schema = tenant_a.tenant.schema_name
    leaving = _foreign_keys_leaving(schema)
    bad = [
        f"{name}: {table} -> {target}"
        for name, table, target in leaving
        if not target.startswith("public.") or target.split(".", 1)[1] not in REFERENCE_TABLES
    ]
    assert not bad, bad
    with connection.cursor() as cur:
        cur.execute(
            """
            SELECT c.conname, src.relname
            FROM pg_constraint c
            JOIN pg_class src ON src.oid = c.conrelid JOIN pg_namespace sns ON sns.oid = src.relnamespace
            JOIN pg_class tgt ON tgt.oid = c.confrelid JOIN pg_namespace tns ON tns.oid = tgt.relnamespace
            WHERE c.contype = 'f' AND sns.nspname = 'public' AND tns.nspname = %s
            """,
            [schema],
        )
        assert cur.fetchall() == [], "a public table references a company's table"


@pytest.mark.django_db
def test_the_schema_check_sees_a_key_into_public(tenant_a: Any) -> None:
    """The database check can fail: a key from a company's table to a public one is listed."""
    schema = tenant_a.tenant.schema_name
    with connection.cursor() as cur:
        cur.execute(
            f'CREATE TABLE "{schema}".citus_probe (id bigint PRIMARY KEY, '
            "tenant_id bigint REFERENCES public.tenancy_tenant (id))"
        )
    leaving = _foreign_keys_leaving(schema)
    assert [(table, target) for _, table, target in leaving] == [("citus_probe", "public.tenancy_tenant")]


@pytest.mark.django_db
def test_every_id_sequence_of_a_company_is_bigint(tenant_a: Any) -> None:
    schema = tenant_a.tenant.schema_name
    with connection.cursor() as cur:
        cur.execute(
            """
            SELECT s.relname, seq.seqtypid::regtype::text
            FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
            JOIN pg_sequence seq ON seq.seqrelid = s.oid
            WHERE s.relkind = 'S' AND n.nspname = %s
            """,
            [schema],
        )
        rows = cur.fetchall()
    assert rows, "the company's schema has no sequences: the query looks in the wrong place"
    small = [name for name, kind in rows if kind != "bigint" and name not in INTEGER_SEQUENCES]
    assert not small, f"integer id sequences (Citus needs bigint): {small}"


# --- raw SQL ------------------------------------------------------------------------------------
SQL_WORDS = ("select ", "insert ", "update ", "delete ", " from ", " join ")
# Code that runs on the coordinator over the public schema or across companies on purpose:
# provisioning, the migration executor and the tenancy API (company sign-up, the spare pool).
COORDINATOR_CODE = ("platform/tenancy/",)


def _sql_strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.lower()
            if sum(word in text for word in SQL_WORDS) >= 2:
                out.append((node.lineno, node.value))
    return out


def _source_files() -> list[Path]:
    files = [*ROOT.glob("tenants/**/*.py"), *ROOT.glob("platform/**/*.py")]
    return [
        p
        for p in files
        if "/tests/" not in str(p)
        and "/migrations/" not in str(p)
        and not any(str(p.relative_to(ROOT)).startswith(c) for c in COORDINATOR_CODE)
    ]


def test_raw_sql_of_a_company_touches_no_public_table_but_reference_tables() -> None:
    """A query Citus routes to one node names one company's tables and reference tables only: a
    raw SQL string in company code naming a public table (or `public.` itself) would need the
    coordinator and a cross-node join."""
    shared = {t.lower() for t in _shared_tables()} - set(REFERENCE_TABLES)
    scanned = 0
    found = []
    for path in _source_files():
        for line, sql in _sql_strings(path):
            scanned += 1
            text = sql.lower()
            names = [t for t in shared if t in text]
            if "public." in text:
                names.append("public.")
            if names:
                found.append(f"{path.relative_to(ROOT)}:{line}: {sorted(names)}")
    assert scanned > 10, "found no raw SQL at all: the scanner is looking in the wrong place"
    assert not found, found


def test_the_scanner_sees_a_public_table_in_raw_sql(tmp_path: Path) -> None:
    """The raw-SQL check can fail: a string joining a company table to tenancy_tenant is found."""
    sample = tmp_path / "sample.py"
    sample.write_text('Q = "SELECT o.id FROM sales_salesorder o JOIN tenancy_tenant t ON t.id = 1"\n')
    strings = _sql_strings(sample)
    assert strings and "tenancy_tenant" in strings[0][1]
    assert "tenancy_tenant" in {t.lower() for t in _shared_tables()}
