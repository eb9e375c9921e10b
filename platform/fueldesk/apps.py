from django.apps import AppConfig


class FueldeskConfig(AppConfig):
    """The composition root as an app: listed last, so its ready() runs after every other app's."""

    name = "fueldesk"
    verbose_name = "FuelDesk (composition root)"

    def ready(self) -> None:
        # Every domain API module registers its resources (permission codes, CSV import targets) when
        # it loads. Load them all here, in every process (web, worker, management commands), so the
        # kit's registries are whole without the kit importing the apps above it.
        from core.permissions import mark_registry_complete

        import fueldesk.api  # noqa: F401

        mark_registry_complete()
