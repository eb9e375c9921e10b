"""The settings an operator sets through the environment (platform/fueldesk/settings.py): the
database URL as hosts write it, HTTPS defaults that follow the environment, and the guards that keep
a misconfigured server from starting. (The keys' guards: platform/core/tests/test_secrets.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fueldesk.settings import database_from_url

ROOT = Path(__file__).resolve().parents[3]
PROBE = (
    "import json, sys; sys.path[:0] = ['platform', '.']; import fueldesk.settings as s; "
    "print(json.dumps({k: getattr(s, k) for k in sys.argv[1:]}, default=str))"
)


def settings_with(*names: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with `env`, printing the settings `names`."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("FUELDESK_", "DJANGO_", "SECURE_"))}
    base.pop("TRUSTED_PROXY_COUNT", None)
    base.update(env)
    return subprocess.run(
        [sys.executable, "-c", PROBE, *names], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
    )


def values(*names: str, **env: str) -> dict[str, object]:
    res = settings_with(*names, **env)
    assert res.returncode == 0, res.stderr
    return dict(json.loads(res.stdout))


def test_the_database_url_is_read_as_hosts_write_it() -> None:
    db = database_from_url("postgres://fd%40app:p%3Ass%2Fw@db.internal:6432/fd%20prod?host=/run/pg")
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "fd prod",
        "fd@app",
        "p:ss/w",
        "/run/pg",  # a socket directory given as ?host= wins over the URL's host
        "6432",
    )
    assert db["ENGINE"] == "django_tenants.postgresql_backend"  # the schema-per-tenant backend
    bare = database_from_url("postgres://db.internal")
    assert (bare["NAME"], bare["HOST"], bare["PORT"]) == ("fueldesk", "db.internal", "")


def test_https_is_on_outside_development_and_off_in_it() -> None:
    names = ("SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SESSION_COOKIE_SECURE", "DEBUG")
    keys = {"SECRET_KEY": "k" * 20 + "ABCDEFGHIJ" * 4, "JWT_SIGNING_KEY": "j" * 10 + "0123456789" * 3}
    prod = values(*names, FUELDESK_ENV="production", **keys)
    assert prod == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 365 * 24 * 3600,
        "SESSION_COOKIE_SECURE": True,
        "DEBUG": False,
    }
    dev = values(*names, FUELDESK_ENV="dev")
    assert dev == {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SESSION_COOKIE_SECURE": False,
        "DEBUG": False,
    }


def test_a_misconfigured_server_does_not_start() -> None:
    res = settings_with(TRUSTED_PROXY_COUNT="-1")
    assert res.returncode != 0 and "TRUSTED_PROXY_COUNT must be 0 or more" in res.stderr
    assert values("SECURE_PROXY_SSL_HEADER", TRUSTED_PROXY_COUNT="1") == {
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"]
    }
    old = "o" * 16 + "0123456789abcdef" * 2
    res = settings_with(JWT_PREVIOUS_SIGNING_KEYS=old, JWT_PREVIOUS_KEYS_UNTIL="2026-01-31T12:00:00")
    assert res.returncode != 0 and "JWT_PREVIOUS_KEYS_UNTIL needs a time zone" in res.stderr
    res = settings_with(JWT_PREVIOUS_SIGNING_KEYS=old, JWT_PREVIOUS_KEYS_UNTIL="end of January")
    assert res.returncode != 0 and "not an ISO 8601 date and time" in res.stderr
    assert values(
        "JWT_PREVIOUS_KEYS_UNTIL",
        JWT_PREVIOUS_SIGNING_KEYS=old,
        JWT_PREVIOUS_KEYS_UNTIL="2026-01-31T12:00:00Z",
    ) == {"JWT_PREVIOUS_KEYS_UNTIL": "2026-01-31 12:00:00+00:00"}
