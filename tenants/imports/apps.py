from django.apps import AppConfig


class ImportsConfig(AppConfig):
    """CSV import jobs of every importable list. The import flow itself is the kit's (core/csv_io.py);
    this app owns its table and its worker actor, and plugs them into the kit when Django starts."""

    name = "tenants.imports"
    label = "imports"

    def ready(self) -> None:
        from core import csv_io

        from tenants.imports import services
        from tenants.imports.models import DataImport

        csv_io.register_store(csv_io.ImportStore(model=DataImport, enqueue=services.enqueue_import))
        # The actor must be known to every worker; fueldesk.tasks imports the others.
        from tenants.imports import tasks  # noqa: F401
