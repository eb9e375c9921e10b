from django.apps import AppConfig


class BillparseConfig(AppConfig):
    name = "tenants.billparse"
    label = "billparse"
    verbose_name = "Bill parser"
