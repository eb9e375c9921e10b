from django.apps import AppConfig


class ForecastConfig(AppConfig):
    name = "tenants.forecast"
    label = "forecast"
    verbose_name = "Keep-full forecast"

    def ready(self) -> None:
        from tenants.forecast import receivers  # noqa: F401  refits a tank when a delivery is recorded
