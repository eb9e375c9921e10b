"""The platform reaches the accounts app (a domain app above it) only through tenancy.hooks."""

from typing import Any

import pytest


def test_the_accounts_app_registers_what_signup_needs_of_it() -> None:
    from tenancy import hooks
    from tenants.accounts.hooks import TenancyAccounts

    assert isinstance(hooks.accounts(), TenancyAccounts)


def test_without_an_accounts_app_signup_says_what_is_missing(monkeypatch: Any) -> None:
    from tenancy import hooks

    monkeypatch.setattr(hooks, "_accounts", None)
    with pytest.raises(RuntimeError, match="no accounts app registered"):
        hooks.accounts()
