"""What the platform needs from the accounts app, behind a hook the app registers.

Signup creates a company and its first admin in one transaction (tenancy/services.py), but users,
roles and password rules belong to a domain app above the platform (tenants.accounts). That app
registers its `AccountsHook` from AppConfig.ready(); the platform never imports it.
"""

from __future__ import annotations

from typing import Any, Protocol


class AccountsHook(Protocol):
    def validate_password(self, password: str) -> None:
        """Raise ApiError(422) when the password is too weak (before anything is created)."""

    def create_first_admin(self, *, email: str, name: str, password: str) -> Any:
        """In the new tenant's schema (active): seed its roles and create its first admin user."""


_accounts: AccountsHook | None = None


def register_accounts(hook: AccountsHook) -> None:
    global _accounts
    _accounts = hook


def accounts() -> AccountsHook:
    if _accounts is None:
        raise RuntimeError("no accounts app registered with tenancy.hooks (is tenants.accounts installed?)")
    return _accounts
