from django.apps import AppConfig


class SalesConfig(AppConfig):
    name = "tenants.sales"
    label = "sales"

    def ready(self) -> None:
        from tenants.sales import receivers  # noqa: F401  connects to the pricing engine's signals
