from django.apps import AppConfig


class GeoConfig(AppConfig):
    name = "tenants.geo"
    label = "geo"
