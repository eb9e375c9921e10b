"""Fill the rollup of the companies that already have orders (a new company starts empty)."""

from typing import Any

from django.db import migrations


def fill(apps: Any, schema_editor: Any) -> None:
    from tenants.dashboard import rollup

    if apps.get_model("sales", "SalesOrder").objects.exists():
        rollup.rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("dashboard", "0001_initial"),
        ("sales", "0001_initial"),
        ("pricing", "0003_buying_price_end_index"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
