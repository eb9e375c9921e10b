from django.apps import AppConfig


class FleetConfig(AppConfig):
    name = "tenants.fleet"
    label = "fleet"
