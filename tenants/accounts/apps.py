from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "tenants.accounts"
    label = "accounts"
