from django.apps import AppConfig


class PartiesConfig(AppConfig):
    name = "tenants.parties"
    label = "parties"
