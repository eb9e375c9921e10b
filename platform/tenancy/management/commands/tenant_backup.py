from django.core.management.base import BaseCommand, CommandError

from tenancy.backup import BackupError, Location, backup_schema, prune_backups
from tenancy.management.commands._base import find_tenant


class Command(BaseCommand):
    help = (
        "Back up a company: its schema (pg_dump), its files and a manifest (migrations, row counts and "
        "checksums, file hashes), as one archive in a folder or s3://bucket/prefix."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("tenant", help="schema name, id or company name")
        parser.add_argument(
            "--to", default=None, help="folder or s3://bucket/prefix (default BACKUP_LOCATION)"
        )
        parser.add_argument(
            "--keep-days",
            type=int,
            default=None,
            help="then delete this company's backups there older than this (the newest is always kept)",
        )

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        tenant = find_tenant(o["tenant"])
        try:
            where = backup_schema(tenant, o["to"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Backed up {tenant.name} ({tenant.schema_name}): {where}"))
        if o["keep_days"] is not None:
            pruned = prune_backups(tenant.schema_name, Location.parse(o["to"]), o["keep_days"])
            self.stdout.write(f"Deleted {len(pruned)} older backup(s): {', '.join(pruned) or '-'}")
