from django.core.management.base import BaseCommand
from django.db import connection

from tenancy.models import LoginDirectory, Tenant


class Command(BaseCommand):
    help = "List companies: name, schema, created, users, status."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--all", action="store_true", help="Include the template and spare schemas")

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        connection.set_schema_to_public()
        qs = Tenant.objects.order_by("created_at")
        if not o["all"]:
            qs = qs.filter(status__in=[Tenant.Status.ACTIVE, Tenant.Status.SUSPENDED])
        rows = [("NAME", "SCHEMA", "CREATED", "USERS", "STATUS")]
        for t in qs:
            users = LoginDirectory.objects.filter(tenant=t).count()
            rows.append((t.name, t.schema_name, f"{t.created_at:%Y-%m-%d %H:%M}", str(users), t.status))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        for r in rows:
            self.stdout.write("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
