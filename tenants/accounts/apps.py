from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "tenants.accounts"
    label = "accounts"

    def ready(self) -> None:
        from core.authcache import connect_signals

        connect_signals()
