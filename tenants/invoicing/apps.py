from django.apps import AppConfig


class InvoicingConfig(AppConfig):
    name = "tenants.invoicing"
    label = "invoicing"

    def ready(self) -> None:
        # Plugs invoices into the pricing engine's tax summary and the sales orders' credit control.
        from tenants.invoicing import receivers  # noqa: F401
