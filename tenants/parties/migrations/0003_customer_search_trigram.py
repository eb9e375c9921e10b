"""Trigram (pg_trgm) GIN indexes for the customer list's search: name, account number, email, phone.

The extension is database-wide and must live in `public`. Django's TrigramExtension runs a bare
`CREATE EXTENSION pg_trgm`, which puts it in the first schema of the search path: during
`migrate_schemas` that is the tenant being migrated (in practice the template), so the operator class
`gin_trgm_ops` would be visible to that schema only and every other tenant's index would fail. This
operation creates it in `public` (on every tenant's search path: `<tenant>, public`), moves it there if
an earlier migration created it elsewhere, and tolerates another schema's migration creating it at
the same moment (parallel `migrate_schemas`). It is never dropped on the way back: other tenants
still use it.
"""

import django.contrib.postgres.indexes
import django.db.models.functions.text
from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations, router

CREATE_IN_PUBLIC = """
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE EXTENSION pg_trgm WITH SCHEMA public;
  ELSIF (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_trgm') <> 'public' THEN
    ALTER EXTENSION pg_trgm SET SCHEMA public;
  END IF;
EXCEPTION WHEN unique_violation OR duplicate_object THEN
  NULL; -- created by a concurrent migration of another schema
END $$;
"""


class PublicTrigramExtension(TrigramExtension):
    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql" or not router.allow_migrate(
            schema_editor.connection.alias, app_label
        ):
            return
        schema_editor.execute(CREATE_IN_PUBLIC)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        pass  # shared by every tenant: never dropped by one schema's rollback

    def describe(self):
        return "Creates extension pg_trgm in the public schema"


def trigram_index(field, name):
    return django.contrib.postgres.indexes.GinIndex(
        django.contrib.postgres.indexes.OpClass(django.db.models.functions.text.Upper(field), name="gin_trgm_ops"),
        name=name,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("parties", "0002_customer_payment_foreign_keys"),
    ]

    operations = [
        PublicTrigramExtension(),
        migrations.AddIndex(model_name="customer", index=trigram_index("name", "customer_name_trgm")),
        migrations.AddIndex(
            model_name="customer", index=trigram_index("account_number", "customer_account_number_trgm")
        ),
        migrations.AddIndex(model_name="customer", index=trigram_index("email", "customer_email_trgm")),
        migrations.AddIndex(model_name="customer", index=trigram_index("phone", "customer_phone_trgm")),
    ]
