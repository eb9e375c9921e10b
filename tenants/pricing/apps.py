from django.apps import AppConfig


class PricingConfig(AppConfig):
    name = "tenants.pricing"
    label = "pricing"
