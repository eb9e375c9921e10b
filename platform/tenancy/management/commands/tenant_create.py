from core.errors import ApiError
from django.core.management.base import BaseCommand, CommandError

from tenancy.services import provision_tenant


class Command(BaseCommand):
    help = "Create a company (tenant) with its first admin."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("company_name")
        parser.add_argument("--admin-email", required=True)
        parser.add_argument("--admin-name", required=True)
        parser.add_argument("--admin-password", required=True)

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        try:
            tenant, admin = provision_tenant(
                company_name=o["company_name"],
                admin_email=o["admin_email"],
                admin_name=o["admin_name"],
                admin_password=o["admin_password"],
            )
        except ApiError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            self.style.SUCCESS(f"Created {tenant.name} (schema {tenant.schema_name}); admin {admin.email}")
        )
