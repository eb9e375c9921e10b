from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tenancy.management.commands._base import find_tenant
from tenancy.services import delete_tenant


class Command(BaseCommand):
    help = "Delete a company and its schema, after writing a backup of it (schema, files, manifest)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("tenant", help="schema name, id or company name")
        parser.add_argument("--yes", action="store_true", help="Do not ask for confirmation")
        parser.add_argument(
            "--dump-dir",
            default=str(settings.VAR_DIR / "tenant-dumps"),
            help="folder or s3://bucket/prefix of the backup written first (restore it with tenant_restore)",
        )

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        tenant = find_tenant(o["tenant"])
        if not o["yes"]:
            answer = input(
                f"Delete {tenant.name} ({tenant.schema_name}) and all its data? Type the schema name: "
            )
            if answer.strip() != tenant.schema_name:
                raise CommandError("Not confirmed; nothing was deleted.")
        dump = delete_tenant(tenant, o["dump_dir"])
        self.stdout.write(self.style.SUCCESS(f"Deleted {tenant.name}. Backup: {dump}"))
