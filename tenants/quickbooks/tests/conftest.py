"""The fake QuickBooks Online server (infra/fakes/qbo.py) in a thread, with the settings pointed at it."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from infra.fakes.qbo import FakeQbo

CLIENT_ID = "test-client"
CLIENT_SECRET = "test-secret"
VERIFIER = "test-verifier-token"


@pytest.fixture
def fake_qbo(settings: Any) -> Iterator[FakeQbo]:
    fake = FakeQbo(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, verifier_token=VERIFIER).start()
    settings.QBO_DISCOVERY_URL = fake.discovery_url
    settings.QBO_API_BASE = fake.api_base
    settings.QBO_CLIENT_ID = CLIENT_ID
    settings.QBO_CLIENT_SECRET = CLIENT_SECRET
    settings.QBO_WEBHOOK_VERIFIER_TOKEN = VERIFIER
    settings.QBO_REDIRECT_URI = "http://testserver/quickbook/login"
    settings.QBO_MAX_WAIT_SECONDS = 5
    try:
        yield fake
    finally:
        fake.stop()


def follow_authorization(url: str) -> dict[str, str]:
    """What a browser does at the fake's authorize endpoint: the redirect's query parameters."""
    response = httpx.get(url, follow_redirects=False, timeout=5)
    assert response.status_code == 302, response.text
    location = response.headers["location"]
    assert location.startswith("http://testserver/quickbook/login?")
    return {k: v[-1] for k, v in urllib.parse.parse_qs(urllib.parse.urlsplit(location).query).items()}


def connect(api: Any, fake: FakeQbo, realm_id: str | None = None) -> dict[str, Any]:
    """Connect the api's company through the real flow (connect, authorize, callback)."""
    if realm_id:
        fake.next_authorize_realm = fake.add_realm(realm_id, f"Books {realm_id}").realm_id
    r = api.post("/api/quickbook/connect")
    assert r.status_code == 200, r.content
    params = follow_authorization(r.json()["data"]["authorization_url"])
    r = api.post("/api/quickbook/callback", params)
    assert r.status_code == 200, r.content
    return dict(r.json()["data"])
