from django.apps import AppConfig


class PurchasingConfig(AppConfig):
    name = "tenants.purchasing"
    label = "purchasing"

    def ready(self) -> None:
        from tenants.purchasing import receivers  # noqa: F401  the pricing engine's tax summary hook
