from django.core.management.base import BaseCommand, CommandError

from tenancy.backup import BackupError, restore_backup
from tenancy.models import Tenant


class Command(BaseCommand):
    help = (
        "Restore a backup (tenant_backup's archive, or the one tenant_delete wrote) as a new company: "
        "a new schema, migrated forward when the backup is older than the code, checked against its "
        "manifest (row counts, checksums, files)."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("backup", help="the archive: a file path or s3://bucket/key")
        parser.add_argument("--as", dest="as_name", required=True, help="the restored company's name")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="take the place of the live company of that name (it is backed up, then deleted)",
        )
        parser.add_argument("--yes", action="store_true", help="with --replace: do not ask for confirmation")

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        name = o["as_name"].strip()
        live = Tenant.objects.filter(name__iexact=name, status__in=["active", "suspended"]).first()
        if live is not None and o["replace"] and not o["yes"]:
            answer = input(
                f"Replace the live company {live.name} ({live.schema_name}) with this backup? "
                "It is backed up, then deleted. Type its schema name: "
            )
            if answer.strip() != live.schema_name:
                raise CommandError("Not confirmed; nothing was changed.")
        try:
            done = restore_backup(o["backup"], as_name=name, replace=o["replace"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        t = done.tenant
        self.stdout.write(self.style.SUCCESS(f"Restored {t.name} as schema {t.schema_name}"))
        self.stdout.write(f"  verified: {done.tables} tables, {done.rows} rows, {done.files} files")
        if done.migrated:
            self.stdout.write(f"  migrated forward: {len(done.migrated)} migration(s)")
        if done.replaced:
            self.stdout.write(f"  the replaced company was backed up to {done.replaced}")
        if done.logins_skipped:
            self.stdout.write(
                "  sign-in not registered (the email belongs to a live company): "
                + ", ".join(done.logins_skipped)
                + " — add an admin with tenant_create_admin"
            )
