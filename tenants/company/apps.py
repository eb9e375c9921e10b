from django.apps import AppConfig


class CompanyConfig(AppConfig):
    name = "tenants.company"
    label = "company"
