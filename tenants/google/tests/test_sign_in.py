""" "Sign in with Google" for staff, against the fake Google: an existing user whose verified email
matches signs in, is linked by Google's `sub` and then keyed on it; forged or replayed states, an
unverified email, a missing nonce, an unknown email and another Google account are refused."""

from __future__ import annotations

from typing import Any

import httpx

from conftest import Api
from infra.fakes.google import FakeGoogle


def google_answer(anon: Api, google: FakeGoogle) -> dict[str, str]:
    res = anon.post("/api/login/google/start")
    assert res.status_code == 200, res.json()
    location = httpx.URL(httpx.get(res.json()["data"]["authorization_url"]).headers["location"])
    assert str(location).startswith("http://fueldesk.test/login?")
    return {"code": location.params["code"], "state": location.params["state"]}


def set_identity(google: FakeGoogle, **identity: Any) -> None:
    assert httpx.post(f"{google.base_url}/_control/identity", json=identity).status_code == 200


def test_an_existing_user_signs_in_with_google_then_by_sub(
    anon: Api, google: FakeGoogle, tenant_a: Any, in_tenant: Any
) -> None:
    set_identity(google, email="Admin@Alpha.test", sub="g-alpha-1", email_verified=True)
    answer = google_answer(anon, google)
    [auth] = google.state.authorizations
    assert auth["scope"] == "openid email" and auth["nonce"] and auth["prompt"] == "select_account"
    assert auth["redirect_uri"] == "http://fueldesk.test/login"
    res = anon.post("/api/login/google", answer)
    assert res.status_code == 200, res.json()
    assert res.json()["message"] == "Login successful"
    session = res.json()["data"]
    assert session["user"]["email"] == "admin@alpha.test"
    assert session["user"]["tenant"]["schema_name"] == tenant_a.schema
    assert Api(session["access_token"]).get("/api/profile").status_code == 200
    from tenants.google.models import GoogleIdentity

    with in_tenant(tenant_a):
        assert GoogleIdentity.objects.get(sub="g-alpha-1").user.email == "admin@alpha.test"
    # The same answer played again is refused.
    again = anon.post("/api/login/google", answer)
    assert again.status_code == 400
    # Next time: the same Google account (sub) signs in again.
    assert anon.post("/api/login/google", google_answer(anon, google)).status_code == 200
    # Another Google account with the same email is not this user.
    set_identity(google, sub="g-someone-else")
    res = anon.post("/api/login/google", google_answer(anon, google))
    assert res.status_code == 401
    assert (
        res.json()["detail"]
        == "This FuelDesk user is linked to another Google account: sign in with that one."
    )


def test_refusals(anon: Api, google: FakeGoogle, tenant_a: Any) -> None:
    set_identity(google, email="nobody@nowhere.test", sub="g-nobody", email_verified=True)
    res = anon.post("/api/login/google", google_answer(anon, google))
    assert res.status_code == 401
    assert res.json()["detail"].startswith("No FuelDesk user has this account's email address")

    set_identity(google, email="admin@alpha.test", sub="g-unverified", email_verified=False)
    res = anon.post("/api/login/google", google_answer(anon, google))
    assert res.status_code == 401
    assert res.json()["detail"] == "This Google account's email address is not verified."

    set_identity(google, email_verified=True, echo_nonce=False)
    res = anon.post("/api/login/google", google_answer(anon, google))
    assert res.status_code == 401 and "nonce" in res.json()["detail"]

    set_identity(google, echo_nonce=True)
    answer = google_answer(anon, google)
    res = anon.post("/api/login/google", {"code": answer["code"], "state": "forged"})
    assert res.status_code == 400
    assert (
        res.json()["detail"]
        == "This Google sign-in is not one FuelDesk started, or it expired: sign in again."
    )
