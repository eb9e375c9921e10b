# The DataImport model moves here from the catalog app. Its table (catalog_dataimport) stays as it is:
# only Django's state changes, so every existing schema keeps its import rows.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0001_initial"),
        ("catalog", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DataImport",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("resource", models.CharField(max_length=60)),
                        ("file_key", models.CharField(max_length=500)),
                        ("file_name", models.CharField(max_length=200)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("validating", "Validating"),
                                    ("ready", "Ready"),
                                    ("invalid", "Invalid"),
                                    ("importing", "Importing"),
                                    ("completed", "Completed"),
                                    ("failed", "Failed"),
                                ],
                                default="validating",
                                max_length=20,
                            ),
                        ),
                        ("in_worker", models.BooleanField(default=False)),
                        ("total_rows", models.PositiveIntegerField(default=0)),
                        ("processed", models.PositiveIntegerField(default=0)),
                        ("valid_rows", models.PositiveIntegerField(default=0)),
                        ("error_rows", models.PositiveIntegerField(default=0)),
                        ("created_rows", models.PositiveIntegerField(default=0)),
                        ("columns", models.JSONField(blank=True, default=list)),
                        ("ignored_columns", models.JSONField(blank=True, default=list)),
                        ("errors", models.JSONField(blank=True, default=list)),
                        ("sample", models.JSONField(blank=True, default=list)),
                        ("message", models.CharField(blank=True, default="", max_length=500)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="accounts.user",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "catalog_dataimport",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [models.Index(fields=["resource", "-created_at"], name="data_import_resource")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
