from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "tenants.catalog"
    label = "catalog"
