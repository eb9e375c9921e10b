from django.apps import AppConfig


class QuickbooksConfig(AppConfig):
    name = "tenants.quickbooks"
    label = "quickbooks"
    verbose_name = "QuickBooks Online"
