from django.apps import AppConfig


class QuickbooksConfig(AppConfig):
    name = "tenants.quickbooks"
    label = "quickbooks"
    verbose_name = "QuickBooks Online"

    def ready(self) -> None:
        from tenants.onboarding.registry import register_step
        from tenants.quickbooks import selectors

        register_step(
            key="quickbooks",
            title="Connect QuickBooks Online",
            description="Invoices, customers and payments sync with your books.",
            link="/quickbook-online",
            order=80,
            check=selectors.onboarding_connected,
        )
        register_step(
            key="quickbooks_items",
            title="Map items to QuickBooks",
            description="Each product, fee and excise tax posts to a QuickBooks item.",
            link="/quickbook-online/map-items",
            order=85,
            check=selectors.onboarding_items,
        )
