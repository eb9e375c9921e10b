from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection
from tenancy.models import Tenant
from tenancy.services import ensure_template, refill_spares

from tenants.accounts.services import sync_permissions, top_up_system_roles


class Command(BaseCommand):
    help = (
        "Migrate the public schema, the tenant template, the spare pool and every tenant; sync permissions."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--no-spares", action="store_true", help="Do not fill the spare-schema pool")

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        call_command("migrate_schemas", shared=True, interactive=False, verbosity=0)
        ensure_template()
        call_command("migrate_schemas", tenant=True, interactive=False, verbosity=0)
        for tenant in Tenant.objects.filter(status__in=[Tenant.Status.ACTIVE, Tenant.Status.SUSPENDED]):
            connection.set_tenant(tenant)
            sync_permissions()
            top_up_system_roles()
        connection.set_schema_to_public()
        if not options["no_spares"]:
            made = refill_spares()
            self.stdout.write(f"Spare schemas created: {made}")
        self.stdout.write(self.style.SUCCESS("Database ready."))
