"""ID token checks (tenants/google/oauth.py) against the fake's JWKS: signature by `kid`, `iss`,
`aud`, `exp`, `nonce`; each forgery refused with its reason."""

from __future__ import annotations

import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from infra.fakes.google import FakeGoogle
from tenants.google import oauth


def claims(google: FakeGoogle, **over: Any) -> dict[str, Any]:
    now = int(time.time())
    base = {
        "iss": google.base_url,
        "aud": "fueldesk-test-client",
        "sub": "1080001",
        "email": "a@x.test",
        "email_verified": True,
        "iat": now,
        "exp": now + 600,
        "nonce": "n-1",
    }
    base.update(over)
    return {k: v for k, v in base.items() if v is not None}


def test_a_genuine_token_is_accepted(google: FakeGoogle) -> None:
    got = oauth.verify_id_token(google.id_token(claims(google)), nonce="n-1")
    assert got["sub"] == "1080001" and got["email"] == "a@x.test"


@pytest.mark.parametrize(
    ("over", "reason"),
    [
        ({"aud": "someone-else"}, "the ID token was issued to another client"),
        ({"iss": "https://evil.test"}, "the ID token was not issued by Google"),
        ({"exp": int(time.time()) - 3600, "iat": int(time.time()) - 7200}, "the ID token has expired"),
        ({"nonce": "n-2"}, "the ID token does not belong to this sign-in (nonce)"),
        ({"nonce": None}, "the ID token does not belong to this sign-in (nonce)"),
        ({"sub": None}, "the ID token is invalid"),
    ],
)
def test_forged_claims_are_refused(google: FakeGoogle, over: dict[str, Any], reason: str) -> None:
    with pytest.raises(oauth.IdTokenError) as err:
        oauth.verify_id_token(google.id_token(claims(google, **over)), nonce="n-1")
    assert str(err.value).startswith(reason)


def test_an_unknown_key_or_another_algorithm_is_refused(google: FakeGoogle) -> None:
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    with pytest.raises(oauth.IdTokenError, match="unknown key"):
        oauth.verify_id_token(google.id_token(claims(google), kid="not-ours", key=other), nonce="n-1")
    # Google's kid, another key: the signature does not verify.
    with pytest.raises(oauth.IdTokenError, match="invalid"):
        oauth.verify_id_token(google.id_token(claims(google), key=other), nonce="n-1")
    hs = jwt.encode(claims(google), "secret", algorithm="HS256", headers={"kid": google.kid})
    with pytest.raises(oauth.IdTokenError, match="RS256"):
        oauth.verify_id_token(hs, nonce="n-1")
    with pytest.raises(oauth.IdTokenError, match="malformed"):
        oauth.verify_id_token("not-a-jwt", nonce="n-1")


def test_a_rotated_key_is_fetched_again(google: FakeGoogle) -> None:
    oauth.verify_id_token(google.id_token(claims(google)), nonce="n-1")  # JWKS cached
    google.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    google.kid = "rotated"
    # The cached set lacks the new kid and was fetched more than 30 s ago: fetched again once.
    oauth._cache[f"jwks:{google.base_url}/oauth2/v3/certs"] = (
        time.monotonic() - 31,
        oauth._cache[f"jwks:{google.base_url}/oauth2/v3/certs"][1],
    )
    assert oauth.verify_id_token(google.id_token(claims(google)), nonce="n-1")["sub"] == "1080001"
