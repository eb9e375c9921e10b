from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "tenants.catalog"
    label = "catalog"

    def ready(self) -> None:
        # The CSV import actor must be known to every worker; fueldesk.tasks imports the others.
        from tenants.catalog import tasks  # noqa: F401
