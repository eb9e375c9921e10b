from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "tenants.documents"
    label = "documents"
    verbose_name = "Documents and templates"
