"""Outside development the server refuses to start without its own keys; the production settings
pass Django's deploy checks; the token key can be rotated with a grace period for the old one."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import jwt
import pytest
from django.test import override_settings

from conftest import Api

ROOT = Path(__file__).resolve().parents[3]
KEYS = (
    "SECRET_KEY",
    "JWT_SIGNING_KEY",
    "JWT_PREVIOUS_SIGNING_KEYS",
    "JWT_PREVIOUS_KEYS_UNTIL",
    "SECRET_KEY_FALLBACKS",
)


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v for k, v in os.environ.items() if k not in KEYS and not k.startswith(("FUELDESK_ENV", "DJANGO_"))
    }
    base["DJANGO_SETTINGS_MODULE"] = "fueldesk.settings"
    base.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
    )


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run(["manage.py", *args], **env)


def key(n: int = 48) -> str:
    return secrets.token_urlsafe(n)[:n]


def test_production_refuses_to_start_without_its_keys():
    res = manage("check", FUELDESK_ENV="production")
    assert res.returncode != 0
    assert "SECRET_KEY is not set" in res.stderr
    res = manage("check", FUELDESK_ENV="production", SECRET_KEY=key(64))
    assert res.returncode != 0 and "JWT_SIGNING_KEY is not set" in res.stderr
    # The WSGI application (what gunicorn loads) does not come up either.
    res = run(
        ["-c", "import sys; sys.path[:0] = ['platform', '.']; import fueldesk.wsgi"],
        FUELDESK_ENV="staging",
    )
    assert res.returncode != 0 and "SECRET_KEY is not set" in res.stderr


def test_production_refuses_short_or_public_keys():
    res = manage("check", FUELDESK_ENV="production", SECRET_KEY=key(64), JWT_SIGNING_KEY=key(31))
    assert res.returncode != 0 and "JWT_SIGNING_KEY is too short" in res.stderr
    res = manage("check", FUELDESK_ENV="production", SECRET_KEY=key(31), JWT_SIGNING_KEY=key(64))
    assert res.returncode != 0 and "SECRET_KEY is too short" in res.stderr
    from django.conf import settings

    res = manage(
        "check", FUELDESK_ENV="production", SECRET_KEY=key(64), JWT_SIGNING_KEY=settings.DEV_JWT_SIGNING_KEY
    )
    assert res.returncode != 0 and "public development key" in res.stderr
    res = manage(
        "check",
        FUELDESK_ENV="production",
        SECRET_KEY=key(64),
        JWT_SIGNING_KEY=key(64),
        JWT_PREVIOUS_SIGNING_KEYS=key(64),
    )
    assert res.returncode != 0 and "JWT_PREVIOUS_KEYS_UNTIL" in res.stderr


def test_production_settings_pass_the_deploy_checks():
    res = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        FUELDESK_ENV="production",
        SECRET_KEY=key(64),
        JWT_SIGNING_KEY=key(64),
        TRUSTED_PROXY_COUNT="1",
    )
    assert res.returncode == 0, res.stderr + res.stdout
    assert "no issues" in res.stdout


def test_development_still_starts_without_keys():
    res = manage("check", FUELDESK_ENV="dev")
    assert res.returncode == 0, res.stderr
    res = manage("check")  # FUELDESK_ENV unset means dev: `make run` works from a fresh clone
    assert res.returncode == 0, res.stderr


def sign(key: str, tenant_schema: str, kid: str | None = None, **claims: object) -> str:
    payload = {"sub": "1", "tid": tenant_schema, "jti": secrets.token_hex(8), "exp": int(time.time()) + 60}
    payload.update(claims)
    return jwt.encode(payload, key, algorithm="HS256", headers={"kid": kid} if kid else None)


def test_a_token_signed_with_the_development_key_is_refused_once_real_keys_are_set(tenant_a):
    from django.conf import settings

    assert Api(sign(settings.JWT_SIGNING_KEY, tenant_a.schema)).get("/api/profile").status_code == 200
    with override_settings(JWT_SIGNING_KEY=key(64)):
        res = Api(sign(settings.DEV_JWT_SIGNING_KEY, tenant_a.schema)).get("/api/profile")
    assert res.status_code == 401 and res.json()["detail"] == "Invalid authentication token."


def test_key_rotation_accepts_the_previous_key_for_its_grace_period_only(tenant_a, anon):
    from conftest import PASSWORD

    old, new = key(64), key(64)
    with override_settings(JWT_SIGNING_KEY=old):
        old_token = anon.post("/api/login", {"email": tenant_a.admin_email, "password": PASSWORD}).json()[
            "data"
        ]["access_token"]
        assert Api(old_token).get("/api/profile").status_code == 200
    later = datetime.now(UTC) + timedelta(hours=12)
    with override_settings(
        JWT_SIGNING_KEY=new, JWT_PREVIOUS_SIGNING_KEYS=[old], JWT_PREVIOUS_KEYS_UNTIL=later
    ):
        assert Api(old_token).get("/api/profile").status_code == 200
        new_token = anon.post("/api/login", {"email": tenant_a.admin_email, "password": PASSWORD}).json()[
            "data"
        ]["access_token"]
        assert jwt.get_unverified_header(new_token)["kid"] != jwt.get_unverified_header(old_token)["kid"]
        assert Api(new_token).get("/api/profile").status_code == 200
        # A key that is neither current nor previous signs nothing, with or without a kid.
        stranger = key(64)
        assert Api(sign(stranger, tenant_a.schema)).get("/api/profile").status_code == 401
        from core.tokens import key_id

        assert Api(sign(stranger, tenant_a.schema, kid=key_id(old))).get("/api/profile").status_code == 401
    past = datetime.now(UTC) - timedelta(seconds=1)
    with override_settings(
        JWT_SIGNING_KEY=new, JWT_PREVIOUS_SIGNING_KEYS=[old], JWT_PREVIOUS_KEYS_UNTIL=past
    ):
        res = Api(old_token).get("/api/profile")
        assert res.status_code == 401 and res.json()["detail"] == "Invalid authentication token."
        assert Api(new_token).get("/api/profile").status_code == 200


def test_a_token_verified_once_is_still_refused_when_it_expires(tenant_a):
    # Verified tokens are remembered per process; the memory must not outlive the token.
    from django.conf import settings

    token = sign(settings.JWT_SIGNING_KEY, tenant_a.schema, exp=int(time.time()) + 2)
    assert Api(token).get("/api/profile").status_code == 200
    assert Api(token).get("/api/profile").status_code == 200  # from the memory
    time.sleep(2.2)
    res = Api(token).get("/api/profile")
    assert res.status_code == 401 and res.json()["detail"] == "Session expired. Please log in again."


@pytest.mark.parametrize("env", ["dev", "test"])
def test_the_test_and_dev_environments_use_the_builtin_keys(env):
    res = run(
        [
            "-c",
            "import sys; sys.path[:0] = ['platform', '.']; "
            "from fueldesk import settings as s; print(len(s.JWT_SIGNING_KEY))",
        ],
        FUELDESK_ENV=env,
    )
    assert res.returncode == 0, res.stderr
    assert int(res.stdout.strip()) >= 32
