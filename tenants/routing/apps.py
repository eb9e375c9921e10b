from django.apps import AppConfig


class RoutingConfig(AppConfig):
    name = "tenants.routing"
    label = "routing"
    verbose_name = "Route planning"
