"""Customer.payment_term_id / payment_method_id: plain bigint columns become foreign keys to the pricing
app, keeping the columns and their values.

1. Ids that name no row (the columns had no constraint) are set to NULL, or the constraint could not
   be added.
2. In the migration state only, the `…_id` integer fields become fields named `payment_term` /
   `payment_method` on the same columns (db_column): nothing happens in the database.
3. AlterField to ForeignKey: same column name and type, so Django only adds the index and the
   constraint (with its usual names, as a fresh `AddField` would).
"""

import django.db.models.deletion
from django.db import migrations, models

NULL_UNKNOWN_IDS = """
UPDATE parties_customer c SET payment_term_id = NULL
 WHERE c.payment_term_id IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM pricing_paymentterm t WHERE t.id = c.payment_term_id);
UPDATE parties_customer c SET payment_method_id = NULL
 WHERE c.payment_method_id IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM pricing_paymentmethod m WHERE m.id = c.payment_method_id);
"""


class Migration(migrations.Migration):
    dependencies = [
        ("parties", "0001_initial"),
        ("pricing", "0001_initial"),
    ]

    operations = [
        migrations.RunSQL(NULL_UNKNOWN_IDS, migrations.RunSQL.noop),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name="customer", name="payment_term_id"),
                migrations.RemoveField(model_name="customer", name="payment_method_id"),
                migrations.AddField(
                    model_name="customer",
                    name="payment_term",
                    field=models.BigIntegerField(blank=True, null=True, db_column="payment_term_id"),
                ),
                migrations.AddField(
                    model_name="customer",
                    name="payment_method",
                    field=models.BigIntegerField(blank=True, null=True, db_column="payment_method_id"),
                ),
            ],
        ),
        migrations.AlterField(
            model_name="customer",
            name="payment_term",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="customers",
                to="pricing.paymentterm",
            ),
        ),
        migrations.AlterField(
            model_name="customer",
            name="payment_method",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="customers",
                to="pricing.paymentmethod",
            ),
        ),
    ]
