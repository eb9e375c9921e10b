from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "tenants.accounts"
    label = "accounts"

    def ready(self) -> None:
        from core.authcache import register_user_source

        from tenants.accounts.authsource import USER_SOURCE

        register_user_source(USER_SOURCE)
