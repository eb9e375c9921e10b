"""The migration that turns Customer.payment_term_id / payment_method_id into foreign keys keeps the
columns and their values, and clears ids that named nothing (the constraint could not be added)."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from tenancy.services import clone_template, schema_name_for


def test_payment_ids_survive_the_foreign_key_migration(two_tenants, db):
    schema = schema_name_for("Migration Check")
    clone_template(schema)  # rolled back with the test's transaction
    connection.set_schema(schema)
    executor = MigrationExecutor(connection)
    executor.migrate([("parties", "0001_initial")])
    loader = MigrationExecutor(connection).loader
    old = loader.project_state(list(loader.applied_migrations)).apps  # as the schema now is
    term = old.get_model("pricing", "PaymentTerm").objects.create(name="Net 30", net_days=30)
    method = old.get_model("pricing", "PaymentMethod").objects.create(name="Check", code="CHK")
    Customer = old.get_model("parties", "Customer")
    kept = Customer.objects.create(
        name="Kept", account_number="K-1", payment_term_id=term.pk, payment_method_id=method.pk
    )
    orphan = Customer.objects.create(
        name="Orphan",
        account_number="O-1",
        payment_term_id=term.pk + 1000,
        payment_method_id=method.pk + 1000,
    )
    with connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending trigger events before ALTER TABLE

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from tenants.parties.models import Customer as Current

    rows = {c.name: (c.payment_term_id, c.payment_method_id) for c in Current.objects.all()}
    assert rows == {"Kept": (term.pk, method.pk), "Orphan": (None, None)}
    assert Current.objects.get(pk=kept.pk).payment_term.name == "Net 30"
    assert Current.objects.filter(pk=orphan.pk).exists()
    with connection.cursor() as cur:
        cur.execute(
            """SELECT a.attname, pg_get_constraintdef(con.oid) FROM pg_constraint con
               JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey)
               WHERE con.conrelid = 'parties_customer'::regclass AND con.contype = 'f'
                 AND a.attname IN ('payment_term_id', 'payment_method_id') ORDER BY 1"""
        )
        fks = cur.fetchall()
    assert [name for name, _ in fks] == ["payment_method_id", "payment_term_id"]
    assert "pricing_paymentterm(id)" in fks[1][1]
