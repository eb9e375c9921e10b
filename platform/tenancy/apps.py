from django.apps import AppConfig


class TenancyConfig(AppConfig):
    name = "tenancy"
    verbose_name = "Tenant registry"
