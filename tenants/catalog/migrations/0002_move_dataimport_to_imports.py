# DataImport now lives in the imports app (tenants/imports/migrations/0001_initial.py). State only:
# the table and its rows stay where they are.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0001_initial"),
        ("imports", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="DataImport")],
            database_operations=[],
        ),
    ]
