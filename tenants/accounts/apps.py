from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "tenants.accounts"
    label = "accounts"

    def ready(self) -> None:
        from core.authcache import register_user_source
        from tenancy.hooks import register_accounts

        from tenants.accounts.authsource import USER_SOURCE
        from tenants.accounts.hooks import TenancyAccounts

        register_user_source(USER_SOURCE)
        register_accounts(TenancyAccounts())  # signup's first admin (tenancy/services.py)
