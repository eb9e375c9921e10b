from django.core.management.base import BaseCommand

from tenancy.management.commands._base import find_tenant
from tenancy.services import suspend


class Command(BaseCommand):
    help = "Suspend a company: its users' requests are refused with 403 until it is resumed."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("tenant", help="schema name, id or company name")

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        tenant = find_tenant(o["tenant"])
        suspend(tenant)
        self.stdout.write(self.style.SUCCESS(f"Suspended {tenant.name} ({tenant.schema_name})"))
