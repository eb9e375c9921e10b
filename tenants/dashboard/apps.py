from django.apps import AppConfig


class DashboardConfig(AppConfig):
    name = "tenants.dashboard"
    label = "dashboard"

    def ready(self) -> None:
        from tenants.dashboard import receivers  # noqa: F401  keeps the rollup in step with sales orders
