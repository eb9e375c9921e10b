from django.apps import AppConfig


class DriverConfig(AppConfig):
    name = "tenants.driver"
    label = "driver"
