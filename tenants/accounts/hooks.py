"""The accounts app's side of tenancy's hook (tenancy/hooks.py), registered from AppConfig.ready()."""

from __future__ import annotations

from tenants.accounts import services
from tenants.accounts.models import User
from tenants.accounts.roles import ADMIN


class TenancyAccounts:
    def validate_password(self, password: str) -> None:
        services.validate_password(password)

    def create_first_admin(self, *, email: str, name: str, password: str) -> User:
        roles = services.seed_roles()
        return services.create_user(email=email, name=name, password=password, role=roles[ADMIN])
