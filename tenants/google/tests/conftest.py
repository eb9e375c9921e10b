"""The fake Google (infra/fakes/google.py) on a free loopback port, and the settings pointing at it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import override_settings

from infra.fakes.google import FakeGoogle
from tenants.mail.tests.test_document_email_api import world  # noqa: F401  (a fixture: an invoice to email)


@pytest.fixture(scope="session")
def _google_server() -> Iterator[FakeGoogle]:
    with FakeGoogle(client_id="fueldesk-test-client", client_secret="fueldesk-test-secret") as fake:
        yield fake


@pytest.fixture
def google(_google_server: FakeGoogle) -> Iterator[FakeGoogle]:
    from tenants.google import oauth

    _google_server.reset()
    oauth.clear_cache()
    with override_settings(**_google_server.settings(), PUBLIC_BASE_URL="http://fueldesk.test"):
        yield _google_server
    oauth.clear_cache()


def connect(api: Any, google: FakeGoogle) -> dict[str, Any]:
    """Connect through the fake as a browser would: the consent URL, the redirect, the callback."""
    import httpx

    res = api.post("/api/google-authentication/connect")
    assert res.status_code == 200, res.json()
    url = res.json()["data"]["authorization_url"]
    answer = httpx.get(url, follow_redirects=False)
    assert answer.status_code == 302
    location = httpx.URL(answer.headers["location"])
    assert str(location).startswith("http://fueldesk.test/google-authentication?")
    res = api.post(
        "/api/google-authentication/callback",
        {"code": location.params["code"], "state": location.params["state"]},
    )
    assert res.status_code == 200, res.json()
    data: dict[str, Any] = res.json()["data"]
    return data
