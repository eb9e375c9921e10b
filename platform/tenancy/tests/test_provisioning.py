"""Tenant schemas made by cloning the template (or renaming a spare) equal freshly migrated ones."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import override_settings

from tenancy import provisioning
from tenancy.models import TemplateDDL, Tenant
from tenancy.services import (
    TEMPLATE_SCHEMA,
    clone_template,
    ensure_template,
    provision_tenant,
    refill_spares,
    schema_name_for,
    template_row_counts,
)


def describe_schema(schema: str) -> dict[str, object]:
    """Tables, columns, constraints, indexes and identity sequences, with the schema name removed."""
    with connection.cursor() as cur:
        cur.execute(
            """SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, ''),
                      is_identity, coalesce(identity_generation, '')
               FROM information_schema.columns WHERE table_schema = %s ORDER BY 1, 2""",
            [schema],
        )
        columns = cur.fetchall()
        cur.execute(
            """SELECT cl.relname, con.conname, con.contype, pg_get_constraintdef(con.oid)
               FROM pg_constraint con JOIN pg_class cl ON cl.oid = con.conrelid
               JOIN pg_namespace ns ON ns.oid = cl.relnamespace WHERE ns.nspname = %s ORDER BY 1, 2""",
            [schema],
        )
        constraints = cur.fetchall()
        cur.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = %s ORDER BY 1, 2",
            [schema],
        )
        indexes = cur.fetchall()
        cur.execute(
            """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = %s AND c.relkind = 'S' ORDER BY 1""",
            [schema],
        )
        sequences = cur.fetchall()
    text = repr((columns, constraints, indexes, sequences))

    def norm(rows: list) -> set:
        return {re.sub(rf"\b{re.escape(schema)}\b", "<schema>", repr(r)) for r in rows}

    return {
        "text": re.sub(rf"\b{re.escape(schema)}\b", "<schema>", text),
        "tables": {c[0] for c in columns},
        "items": norm(columns) | norm(constraints) | norm(indexes) | norm(sequences),
    }


def _no_fallback(*_args, **_kwargs):
    raise AssertionError("the template's DDL could not be replayed: django-tenants' clone was used")


@pytest.fixture
def fresh_and_cloned(two_tenants, django_db_blocker, monkeypatch):
    fresh = "fresh_migrated_cmp"
    cloned = schema_name_for("Clone Compare")
    monkeypatch.setattr(provisioning, "_clone_with_django_tenants", _no_fallback)
    with django_db_blocker.unblock():
        ensure_template()
        with override_settings(TENANT_CREATION_FAKES_MIGRATIONS=False):
            tenant = Tenant(schema_name=fresh, name="fresh", status=Tenant.Status.SPARE)
            tenant.save(verbosity=0)
        clone_template(cloned)
        yield fresh, cloned
        connection.set_schema_to_public()
        with connection.cursor() as cur:
            cur.execute(f'DROP SCHEMA IF EXISTS "{cloned}" CASCADE')
        Tenant.objects.filter(schema_name=fresh).delete()


def test_cloned_schema_equals_a_freshly_migrated_one(fresh_and_cloned):
    fresh, cloned = fresh_and_cloned
    a, b = describe_schema(fresh), describe_schema(cloned)
    assert len(a["tables"]) >= 10
    assert a["tables"] == b["tables"]
    assert sorted(a["items"] - b["items"]) == [] and sorted(b["items"] - a["items"]) == []
    assert a["text"] == b["text"]


def test_every_identity_key_of_a_clone_uses_its_own_sequence(fresh_and_cloned):
    _fresh, cloned = fresh_and_cloned
    with connection.cursor() as cur:
        cur.execute(
            """SELECT table_name, column_name FROM information_schema.columns
               WHERE table_schema = %s AND (is_identity = 'YES' OR column_default LIKE 'nextval%%')""",
            [cloned],
        )
        keys = cur.fetchall()
        assert len(keys) >= 8
        for table, column in keys:
            cur.execute("SELECT pg_get_serial_sequence(%s, %s)", [f'"{cloned}"."{table}"', column])
            seq = cur.fetchone()[0]
            assert seq and seq.startswith(f"{cloned}."), (table, seq)
            cur.execute("SELECT nextval(%s)", [seq])
            value = cur.fetchone()[0]
            if table == "django_migrations":  # the only table the template holds rows in
                cur.execute(f'SELECT max(id) FROM "{cloned}".django_migrations')
                assert value > cur.fetchone()[0]
                continue
            assert value == 1, table  # a new tenant's keys start at 1
            cur.execute("SELECT pg_get_serial_sequence(%s, %s)", [f'"{TEMPLATE_SCHEMA}"."{table}"', column])
            template_seq = cur.fetchone()[0]
            cur.execute(f"SELECT last_value, is_called FROM {template_seq}")
            assert cur.fetchone()[1] is False, f"cloning advanced the template's sequence of {table}"


def test_template_holds_no_rows(two_tenants, db):
    counts = template_row_counts()
    assert counts and all(n == 0 for n in counts.values()), {t: n for t, n in counts.items() if n}


def test_signup_renames_a_spare_schema_and_an_empty_pool_still_works(two_tenants, db, in_tenant):
    from tenants.accounts.models import Role, User

    refill_spares(1)
    spare = Tenant.objects.get(status=Tenant.Status.SPARE)
    tenant, _admin = provision_tenant(
        company_name="Pool Co", admin_email="a@pool.test", admin_name="A", admin_password="Pool-pass-2026"
    )
    assert tenant.pk == spare.pk and tenant.schema_name.startswith("t_pool_co_")
    assert not Tenant.objects.filter(status=Tenant.Status.SPARE).exists()
    tenant2, _ = provision_tenant(
        company_name="No Pool Co",
        admin_email="a@nopool.test",
        admin_name="B",
        admin_password="Pool-pass-2026",
    )
    for t in (tenant, tenant2):
        connection.set_tenant(t)
        assert set(Role.objects.values_list("name", flat=True)) == {
            "Admin",
            "Dispatcher",
            "Accounting",
            "Sales",
            "Driver",
        }
        assert User.objects.get().role.name == "Admin"
        connection.set_schema_to_public()


def test_schema_names_are_safe_whatever_the_company_name():
    for name in ['Robert"); DROP SCHEMA public;--', "Ünïcödé Öl GmbH", "  ", "a" * 300, "123 Fuel"]:
        schema = schema_name_for(name)
        assert re.fullmatch(r"t_[a-z0-9_]+_[0-9a-f]{6}", schema) and len(schema) <= 63, schema


def test_a_clone_is_the_cached_ddl_of_the_template_migration_state(two_tenants, db, monkeypatch):
    monkeypatch.setattr(provisioning, "_clone_with_django_tenants", _no_fallback)
    provisioning._memo.clear()
    first = schema_name_for("Cache One")
    clone_template(first)
    key = provisioning.migration_state_key()
    assert TemplateDDL.objects.filter(key=key).exists()
    assert provisioning.migration_state_key(first) == key  # the clone counts as migrated

    # A new migration state (a migration applied to the template) gets DDL of its own.
    with connection.cursor() as cur:
        cur.execute(
            f"INSERT INTO {TEMPLATE_SCHEMA}.django_migrations (app, name, applied)"
            " VALUES ('tenancy_test', '9999_pretend', now())"
        )
    second = schema_name_for("Cache Two")
    clone_template(second)
    new_key = provisioning.migration_state_key()
    assert new_key != key and TemplateDDL.objects.filter(key=new_key).exists()
    with connection.cursor() as cur:
        cur.execute(f"SELECT count(*) FROM {second}.django_migrations WHERE app = 'tenancy_test'")
        assert cur.fetchone()[0] == 1
        cur.execute(f"SELECT count(*) FROM {first}.django_migrations WHERE app = 'tenancy_test'")
        assert cur.fetchone()[0] == 0


def test_rows_the_template_holds_are_carried_with_their_sequence(two_tenants, db, monkeypatch):
    """A data migration may seed the template (e.g. default contact services): clones get the rows,
    and their keys continue after them."""
    monkeypatch.setattr(provisioning, "_clone_with_django_tenants", _no_fallback)
    with connection.cursor() as cur:
        cur.execute(
            # An explicit key: the template's sequence (not transactional) stays untouched.
            f"INSERT INTO {TEMPLATE_SCHEMA}.parties_contactservice (id, code, name, description, is_active)"
            " VALUES (7, 'seeded', 'Seeded', '', true)"
        )
        seeded_id = 7
        clone = schema_name_for("Seeded Rows")
        clone_template(clone)
        cur.execute(f"SELECT id, name FROM {clone}.parties_contactservice")
        assert cur.fetchall() == [(seeded_id, "Seeded")]
        cur.execute(
            f"INSERT INTO {clone}.parties_contactservice (code, name, description, is_active)"
            " VALUES ('next', 'Next', '', true) RETURNING id"
        )
        assert cur.fetchone()[0] == seeded_id + 1


def test_a_new_tenant_takes_rows_and_enforces_its_constraints(two_tenants, db, monkeypatch):
    from django.db import IntegrityError, transaction

    from tenants.accounts.models import Role, User

    monkeypatch.setattr(provisioning, "_clone_with_django_tenants", _no_fallback)
    tenant, admin = provision_tenant(
        company_name="Replay Co",
        admin_email="a@replay.test",
        admin_name="A",
        admin_password="Pool-pass-2026",
        use_pool=False,
    )
    connection.set_tenant(tenant)
    assert User.objects.get().pk == admin.pk == 1
    role = Role.objects.get(name="Sales")
    user = User.objects.create(email="s@replay.test", username="s@replay.test", name="S", role=role)
    assert user.pk == 2
    with pytest.raises(IntegrityError), transaction.atomic():  # unique e-mail
        User.objects.create(email="s@replay.test", username="other", name="S2", role=role)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cur:  # foreign key
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
        User.objects.filter(pk=user.pk).update(role_id=987654)
    connection.set_schema_to_public()


def test_a_migration_landing_during_the_replay_is_retried(two_tenants, db, monkeypatch):
    real = provisioning.template_ddl
    calls = []

    def stale_once():
        key, body = real()
        calls.append(key)
        return ("stale-key" if len(calls) == 1 else key), body

    monkeypatch.setattr(provisioning, "template_ddl", stale_once)
    monkeypatch.setattr(provisioning, "_clone_with_django_tenants", _no_fallback)
    clone = schema_name_for("Retried")
    clone_template(clone)
    assert len(calls) == 2
    assert provisioning.migration_state_key(clone) == calls[1]


def test_a_template_the_generator_cannot_replay_falls_back_to_cloning(two_tenants, db, monkeypatch):
    with connection.cursor() as cur:  # a migration that adds a view
        cur.execute(
            f"CREATE VIEW {TEMPLATE_SCHEMA}.v_roles AS SELECT id FROM {TEMPLATE_SCHEMA}.accounts_role"
        )
        cur.execute(
            f"INSERT INTO {TEMPLATE_SCHEMA}.django_migrations (app, name, applied)"
            " VALUES ('tenancy_test', '9998_view', now())"
        )
    with pytest.raises(provisioning.TemplateNotReplayable, match="v_roles"):
        provisioning.generate_template_ddl()
    used = []
    real = provisioning._clone_with_django_tenants

    def spy(name: str) -> None:
        used.append(name)
        real(name)

    monkeypatch.setattr(provisioning, "_clone_with_django_tenants", spy)
    provisioning._memo.clear()
    clone = schema_name_for("Fallback")
    clone_template(clone)
    assert used == [clone]
    assert describe_schema(clone)["tables"] == describe_schema(TEMPLATE_SCHEMA)["tables"]


def test_a_replay_that_fails_falls_back_to_cloning(two_tenants, db, monkeypatch):
    used: list[str] = []
    real = provisioning._clone_with_django_tenants

    def spy(name: str) -> None:
        used.append(name)
        real(name)

    monkeypatch.setattr(provisioning, "_clone_with_django_tenants", spy)
    monkeypatch.setattr(provisioning, "replay_sql", lambda body, name: f"CREATE SCHEMA {name}; SELECT 1/0")
    clone = schema_name_for("Broken Replay")
    clone_template(clone)
    assert used == [clone]
    assert describe_schema(clone)["tables"] == describe_schema(TEMPLATE_SCHEMA)["tables"]
