# Default contact services used to be created by the first GET of the list (a read that wrote). New
# companies get them at provisioning (tenants/parties/apps.py); this gives them to the companies that
# existed before. The template schema stays row-less (it is cloned for every new company).

from django.conf import settings
from django.db import migrations

DEFAULTS = [
    ("invoices", "Invoices", "Receives invoices by email."),
    ("delivery_tickets", "Delivery tickets", "Receives signed delivery tickets after each delivery."),
    ("price_notices", "Price notices", "Receives price changes and rack price notices."),
    ("statements", "Statements", "Receives monthly account statements."),
    ("order_confirmations", "Order confirmations", "Receives a confirmation when an order is scheduled."),
    ("delivery_notifications", "Delivery notifications", "Is told when a driver is on the way or has delivered."),
]


def seed(apps, schema_editor):
    schema = getattr(schema_editor.connection, "schema_name", "public")
    if schema in ("public", settings.TENANT_BASE_SCHEMA):
        return
    ContactService = apps.get_model("parties", "ContactService")
    if ContactService.objects.exists():
        return
    ContactService.objects.bulk_create(
        [ContactService(code=code, name=name, description=text) for code, name, text in DEFAULTS],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("parties", "0004_customer_sort_indexes"),
    ]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
