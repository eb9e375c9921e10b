from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connection, connections
from tenancy.models import Tenant
from tenancy.services import ensure_template, refill_spares

from tenants.accounts.services import sync_permissions, top_up_system_roles

# pg_advisory_lock key of `bootstrap --if-needed` (any constant of our own: "FDBOOT" in hex).
BOOTSTRAP_LOCK = 0x464442_4F4F54


class Command(BaseCommand):
    help = (
        "Migrate the public schema, the tenant template, the spare pool and every tenant; sync permissions."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--no-spares", action="store_true", help="Do not fill the spare-schema pool")
        parser.add_argument(
            "--if-needed",
            action="store_true",
            help="Under a database-wide lock, and only when migrations are pending: what each container "
            "runs at start (infra/entrypoint.py), so several starting at once migrate once",
        )

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        if options["if_needed"]:
            from tenancy.health import clear_cache, pending_migrations

            # The lock lives on a connection of its own: the migration commands close and reopen the
            # default one, which would release a session lock taken there. A second container waits
            # here, then finds nothing to do.
            lock = connections.create_connection(DEFAULT_DB_ALIAS)
            try:
                with lock.cursor() as cur:
                    cur.execute("SELECT pg_advisory_lock(%s)", [BOOTSTRAP_LOCK])
                clear_cache()
                if not pending_migrations():
                    self.stdout.write("Database already up to date: nothing to migrate.")
                    return
                self._bootstrap(options)
            finally:
                lock.close()  # ends the session, and the lock with it
            return
        self._bootstrap(options)

    def _bootstrap(self, options):  # type: ignore[no-untyped-def]
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
        self.stdout.write(self.style.SUCCESS("Database ready: migrations applied."))
