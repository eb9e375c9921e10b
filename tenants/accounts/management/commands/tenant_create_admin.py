from core.errors import ApiError
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from tenancy.management.commands._base import find_tenant

from tenants.accounts.models import Role
from tenants.accounts.roles import ADMIN
from tenants.accounts.services import create_user


class Command(BaseCommand):
    help = "Create an admin user in a company."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("tenant", help="schema name, id or company name")
        parser.add_argument("--email", required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--password", required=True)

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        tenant = find_tenant(o["tenant"])
        connection.set_tenant(tenant)
        try:
            user = create_user(
                email=o["email"], name=o["name"], password=o["password"], role=Role.objects.get(name=ADMIN)
            )
        except ApiError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            connection.set_schema_to_public()
        self.stdout.write(self.style.SUCCESS(f"Admin {user.email} created in {tenant.name}"))
