from django.core.management.base import BaseCommand

from tenancy.management.commands._base import find_tenant
from tenancy.services import resume


class Command(BaseCommand):
    help = "Resume a suspended company."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("tenant", help="schema name, id or company name")

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        tenant = find_tenant(o["tenant"])
        resume(tenant)
        self.stdout.write(self.style.SUCCESS(f"Resumed {tenant.name} ({tenant.schema_name})"))
