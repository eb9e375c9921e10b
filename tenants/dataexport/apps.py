from django.apps import AppConfig


class DataExportConfig(AppConfig):
    name = "tenants.dataexport"
    label = "dataexport"
