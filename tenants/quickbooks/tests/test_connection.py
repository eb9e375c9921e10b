"""Connecting a company to QuickBooks Online (OAuth against the fake), a forged state refused,
disconnect revoking, single-flight refresh of an expired token by four workers, a revoked
authorization turning into "reconnect", and 429s honoured."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection

from conftest import Api, token_for
from infra.fakes.qbo import FakeQbo
from tenants.quickbooks.tests.conftest import connect, follow_authorization
from tenants.sales.tests.test_concurrency import in_threads, race_tenant  # noqa: F401  (fixture)


def test_connect_keeps_the_realm_and_never_shows_the_tokens(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any
) -> None:
    r = api_a.get("/api/quickbook/connection")
    assert r.status_code == 200
    assert r.json()["data"]["state"] == "disconnected"

    r = api_a.post("/api/quickbook/connect")
    assert r.status_code == 200, r.content
    url = r.json()["data"]["authorization_url"]
    assert url.startswith(f"{fake_qbo.url}/oauth2/authorize?")
    assert "scope=com.intuit.quickbooks.accounting" in url and "state=" in url
    params = follow_authorization(url)
    r = api_a.post("/api/quickbook/callback", params)
    assert r.status_code == 200, r.content
    assert r.json()["message"] == "Connected to QuickBooks Online"
    data = r.json()["data"]
    assert data["state"] == "connected"
    assert data["realm_id"] == params["realmId"]
    assert data["company_name"] == "Sandbox Company_US_1"
    assert data["connected_at"]

    # The tokens are encrypted at rest and in no answer.
    from tenants.quickbooks.models import QboConnection

    with in_tenant(tenant_a):
        row = QboConnection.objects.get()
        assert row.access_token and row.refresh_token
        assert not row.access_token.startswith("eyJ") and not row.refresh_token.startswith("AB")
        from tenants.quickbooks.connection import access_token

        live = access_token()
    page = api_a.get("/api/quickbook/connection").content.decode()
    assert live not in page and "token" not in json.loads(page)["data"]

    # The same state cannot be used twice.
    r = api_a.post("/api/quickbook/callback", params)
    assert r.status_code == 400
    assert r.json()["detail"].startswith("The QuickBooks authorization could not be verified")


def test_a_forged_state_is_refused_and_changes_nothing(api_a: Api, fake_qbo: FakeQbo) -> None:
    r = api_a.post("/api/quickbook/connect")
    params = follow_authorization(r.json()["data"]["authorization_url"])
    for forged in ("forged", params["state"][:-2] + "xx"):
        r = api_a.post("/api/quickbook/callback", {**params, "state": forged})
        assert r.status_code == 400, r.content
        assert r.json()["detail"] == (
            "The QuickBooks authorization could not be verified (its state does not match). Connect again."
        )
    assert api_a.get("/api/quickbook/connection").json()["data"]["state"] == "disconnected"
    assert fake_qbo.calls.get("token:authorization_code", 0) == 0


def test_a_state_issued_to_another_company_is_refused(api_a: Api, api_b: Api, fake_qbo: FakeQbo) -> None:
    r = api_a.post("/api/quickbook/connect")
    params = follow_authorization(r.json()["data"]["authorization_url"])
    r = api_b.post("/api/quickbook/callback", params)
    assert r.status_code == 400
    assert api_b.get("/api/quickbook/connection").json()["data"]["state"] == "disconnected"


def test_disconnect_revokes(api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any) -> None:
    connect(api_a, fake_qbo)
    assert len(fake_qbo.grants) == 1
    r = api_a.post("/api/quickbook/disconnect")
    assert r.status_code == 200
    assert r.json()["data"]["state"] == "disconnected"
    assert fake_qbo.calls["revoke"] == 1
    assert fake_qbo.grants == []
    from tenancy.models import IntegrationAccount

    assert not IntegrationAccount.objects.filter(provider="quickbooks").exists()


def test_a_viewer_cannot_connect(tenant_a: Any, fake_qbo: FakeQbo) -> None:
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    assert dispatcher.post("/api/quickbook/connect").status_code == 403
    assert dispatcher.get("/api/quickbook/connection").status_code == 403


def test_one_realm_one_company(api_a: Api, api_b: Api, fake_qbo: FakeQbo) -> None:
    connect(api_a, fake_qbo, realm_id="4620816365000001")
    fake_qbo.next_authorize_realm = "4620816365000001"
    r = api_b.post("/api/quickbook/connect")
    params = follow_authorization(r.json()["data"]["authorization_url"])
    r = api_b.post("/api/quickbook/callback", params)
    assert r.status_code == 409
    assert r.json()["detail"] == "This QuickBooks company is already connected to another FuelDesk company."


def _connect_in_thread(tenant: Any, fake: FakeQbo) -> None:
    fake.next_authorize_realm = fake.add_realm("5550000000000077", "Race books").realm_id

    def setup(_: int) -> str:
        from tenants.quickbooks import connection as qconn

        params = follow_authorization(qconn.start_connect())
        return qconn.complete_connect(
            code=params["code"], state=params["state"], realm_id=params["realmId"]
        ).state

    assert in_threads(1, tenant, setup) == ["connected"]


@pytest.mark.django_db
def test_four_workers_meeting_an_expired_token_refresh_once(
    race_tenant: Any,  # noqa: F811
    fake_qbo: FakeQbo,
) -> None:
    _connect_in_thread(race_tenant.tenant, fake_qbo)

    def expire(_: int) -> None:
        from django.utils import timezone

        from tenants.quickbooks.models import QboConnection

        QboConnection.objects.update(access_expires_at=timezone.now())

    in_threads(1, race_tenant.tenant, expire)
    fake_qbo.advance(3601)  # the fake agrees: the hour is up

    def call(_: int) -> int:
        from tenants.quickbooks.connection import api

        return int(api().query("SELECT COUNT(*) FROM Customer")["totalCount"])

    assert in_threads(4, race_tenant.tenant, call) == [0, 0, 0, 0]
    assert fake_qbo.calls["token:refresh_token"] == 1

    # A token that dies early (401 from QBO) is refreshed once too, and the rotated refresh token works.
    fake_qbo.expire_access_tokens()
    assert in_threads(4, race_tenant.tenant, call) == [0, 0, 0, 0]
    assert fake_qbo.calls["token:refresh_token"] == 2

    def row(_: int) -> tuple[str, int, str]:
        from tenants.quickbooks.models import QboConnection

        c = QboConnection.objects.get()
        return c.state, c.refreshes, c.last_error

    assert in_threads(1, race_tenant.tenant, row) == [("connected", 2, "")]
    connection.set_schema_to_public()


def test_a_revoked_authorization_asks_to_reconnect(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any
) -> None:
    data = connect(api_a, fake_qbo)
    fake_qbo.revoke_realm(data["realm_id"])
    from tenants.quickbooks.client import QboError
    from tenants.quickbooks.connection import api

    with in_tenant(tenant_a), pytest.raises(QboError) as caught:
        api().query("SELECT COUNT(*) FROM Customer")
    assert caught.value.status == 401
    r = api_a.get("/api/quickbook/connection").json()["data"]
    assert r["state"] == "reconnect"
    assert (
        r["last_error"] == "QuickBooks Online needs reconnecting: the authorization was revoked or expired."
    )
    # Connecting again brings it back.
    assert connect(api_a, fake_qbo)["state"] == "connected"


def test_429_waits_what_retry_after_says(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, monkeypatch: Any
) -> None:
    from tenants.quickbooks import client

    data = connect(api_a, fake_qbo)
    before = fake_qbo.realms[data["realm_id"]].requests
    waited: list[float] = []
    monkeypatch.setattr(client, "sleep", waited.append)
    fake_qbo.inject(
        kind="status", status=429, code="3001", message="ThrottleExceeded", retry_after=2, times=2
    )
    with in_tenant(tenant_a):
        from tenants.quickbooks.connection import api

        assert api().query("SELECT COUNT(*) FROM Customer") == {"totalCount": 0}
    assert waited == [2.0, 2.0]
    assert fake_qbo.realms[data["realm_id"]].requests == before + 1  # the two 429s, then one answered call

    # The fake's own per-minute limit answers 429 with Retry-After too; past the wait budget it fails.
    fake_qbo.per_minute = 1
    with in_tenant(tenant_a), pytest.raises(client.QboError) as caught:
        api().query("SELECT COUNT(*) FROM Customer")
    assert caught.value.status == 429 and caught.value.code == "3001"
    assert caught.value.intuit_tid


def test_onboarding_shows_the_connection_and_the_items_to_map(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any
) -> None:
    def steps() -> dict[str, Any]:
        r = api_a.get("/api/onboarding")
        assert r.status_code == 200, r.content
        return {s["key"]: s for s in r.json()["data"]["steps"]}

    s = steps()
    assert s["quickbooks"]["state"] == "todo" and s["quickbooks"]["link"] == "/quickbook-online"
    assert s["quickbooks_items"]["detail"] == "Connect QuickBooks Online first"
    data = connect(api_a, fake_qbo)
    from tenants.pricing.models import Fee

    with in_tenant(tenant_a):
        Fee.objects.create(name="Hazmat fee")
        Fee.objects.create(name="Delivery fee")
    s = steps()
    assert s["quickbooks"]["state"] == "done" and s["quickbooks"]["detail"] == "Sandbox Company_US_1"
    assert s["quickbooks_items"]["state"] == "todo"
    assert s["quickbooks_items"]["detail"] == "2 items still to map"
    assert s["quickbooks_items"]["link"] == "/quickbook-online/map-items"
    fake_qbo.revoke_realm(data["realm_id"])
    fake_qbo.expire_access_tokens()
    with in_tenant(tenant_a):
        from tenants.quickbooks.client import QboError
        from tenants.quickbooks.connection import api

        with pytest.raises(QboError):
            api().query("SELECT COUNT(*) FROM Customer")
    assert steps()["quickbooks"]["state"] == "attention"


@pytest.mark.django_db
def test_at_most_the_in_flight_limit_of_requests_at_once(
    race_tenant: Any,  # noqa: F811
    fake_qbo: FakeQbo,
    settings: Any,
) -> None:
    _connect_in_thread(race_tenant.tenant, fake_qbo)
    realm = fake_qbo.realms["5550000000000077"]

    def call(_: int) -> int:
        from tenants.quickbooks.connection import api

        return int(api().query("SELECT COUNT(*) FROM Customer")["totalCount"])

    # Six workers at once, each answer slow: without a tighter cap they overlap...
    fake_qbo.inject(kind="delay", seconds=1.0, entity="query", times=6)
    assert in_threads(6, race_tenant.tenant, call) == [0] * 6
    assert realm.max_in_flight >= 3
    # ...with QBO_MAX_IN_FLIGHT=2 no more than two are at QBO at any moment, and all are answered.
    settings.QBO_MAX_IN_FLIGHT = 2
    realm.max_in_flight = 0
    fake_qbo.inject(kind="delay", seconds=1.0, entity="query", times=6)
    assert in_threads(6, race_tenant.tenant, call) == [0] * 6
    assert 1 <= realm.max_in_flight <= 2
    connection.set_schema_to_public()


def test_the_per_minute_limit_waits_for_the_next_minute(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, settings: Any, monkeypatch: Any
) -> None:
    import time
    from types import SimpleNamespace

    from tenants.quickbooks import client
    from tenants.quickbooks.connection import api

    data = connect(api_a, fake_qbo)
    realm = fake_qbo.realms[data["realm_id"]]
    settings.QBO_PER_MINUTE = 3
    clock = [1_800_000_000 // 60 * 60 + 58.0]  # two seconds before a minute ends

    def wait(seconds: float) -> None:
        waited.append(round(seconds, 2))
        clock[0] += seconds

    waited: list[float] = []
    monkeypatch.setattr(client, "time", SimpleNamespace(time=lambda: clock[0], monotonic=time.monotonic))
    monkeypatch.setattr(client, "sleep", wait)
    before = realm.requests
    with in_tenant(tenant_a):
        for _ in range(4):
            api().query("SELECT COUNT(*) FROM Customer")
    assert waited == [2.01]  # the fourth call of the minute waited for the next one
    assert realm.requests - before == 4

    # Far from the minute's end, the wait would pass QBO_MAX_WAIT_SECONDS: a retryable 429 instead.
    clock[0] = 1_800_000_000 // 60 * 60 + 60 * 5 + 1.0
    with in_tenant(tenant_a):
        for _ in range(3):
            api().query("SELECT COUNT(*) FROM Customer")
        with pytest.raises(client.QboError) as caught:
            api().query("SELECT COUNT(*) FROM Customer")
    assert caught.value.status == 429 and caught.value.retryable
    assert realm.requests - before == 7
