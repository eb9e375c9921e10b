from django.apps import AppConfig


class QuotesConfig(AppConfig):
    name = "tenants.quotes"
    label = "quotes"
    verbose_name = "Price quotes"
