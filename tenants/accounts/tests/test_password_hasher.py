"""Passwords are hashed with Argon2id at OWASP's 19 MiB / t=2 / p=1 (tenants/accounts/hashers.py), and a
hash of Django's heavier defaults still signs in and is replaced by the lighter one."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher, make_password
from django.test import override_settings

from tenants.accounts.models import User

SERVER = ["tenants.accounts.hashers.ServerArgon2PasswordHasher"]
PASSWORD = "correct horse battery"


def params(encoded: str) -> str:
    # $argon2id$v=19$m=19456,t=2,p=1$salt$hash
    return encoded.split("$")[3]


def test_the_production_setting_names_the_server_hasher() -> None:
    from fueldesk import settings as production

    assert production.PASSWORD_HASHERS[0] == SERVER[0]


@override_settings(PASSWORD_HASHERS=SERVER)
def test_new_passwords_get_owasp_parameters() -> None:
    encoded = make_password(PASSWORD)
    assert encoded.startswith("argon2$argon2id$")
    assert params(encoded) == "m=19456,t=2,p=1"


@pytest.mark.django_db
@override_settings(PASSWORD_HASHERS=SERVER)
def test_a_hash_of_djangos_defaults_signs_in_and_is_rehashed(api_a, tenant_a, in_tenant) -> None:
    old = Argon2PasswordHasher().encode(PASSWORD, Argon2PasswordHasher().salt())
    assert params(old) == "m=102400,t=2,p=8"
    with in_tenant(tenant_a):
        user = User.objects.filter(is_active=True).order_by("id").first()
        assert user is not None
        User.objects.filter(pk=user.pk).update(password=old)
        user.refresh_from_db()
        assert user.check_password(PASSWORD)
        user.refresh_from_db()
        assert params(user.password) == "m=19456,t=2,p=1"  # stored with the current parameters
        assert user.check_password(PASSWORD)
        assert not user.check_password("wrong password 1")
