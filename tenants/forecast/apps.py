from django.apps import AppConfig


class ForecastConfig(AppConfig):
    name = "tenants.forecast"
    label = "forecast"
    verbose_name = "Keep-full forecast"
