from django.core.management.base import BaseCommand

from tenancy.services import refill_spares


class Command(BaseCommand):
    help = "Clone spare tenant schemas from the template until the pool holds SPARE_SCHEMA_POOL_SIZE."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--size", type=int, default=None)

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        made = refill_spares(options["size"])
        self.stdout.write(f"Spare schemas created: {made}")
