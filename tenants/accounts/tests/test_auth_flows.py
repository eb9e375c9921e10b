"""Password changes end old reset links and sessions; wrong passwords slow an account down but never
lock its owner out; client addresses come through trusted proxies only; oversized or malformed
bodies are clear 4xx answers on every route."""

from __future__ import annotations

import json
import re
import time

import pytest
from django.core import mail
from django.test import override_settings

from conftest import PASSWORD, Api, token_for


def login(email: str, password: str = PASSWORD, ip: str = "198.51.100.7", **headers: str):
    return Api(None).post("/api/login", {"email": email, "password": password}, REMOTE_ADDR=ip, **headers)


def reset_link(anon: Api, email: str, jobs, capture) -> str:
    mail.outbox.clear()
    with capture(execute=True):
        assert anon.post("/api/password-reset/request", {"email": email}).status_code == 200
    jobs()
    return re.search(r"/reset-password/([A-Za-z0-9_-]+)", mail.outbox[-1].body).group(1)


def test_using_a_newer_reset_link_kills_the_older_one(
    tenant_a, anon, jobs, django_capture_on_commit_callbacks
):
    older = reset_link(anon, tenant_a.admin_email, jobs, django_capture_on_commit_callbacks)
    newer = reset_link(anon, tenant_a.admin_email, jobs, django_capture_on_commit_callbacks)
    assert older != newer
    res = anon.post("/api/password-reset/confirm", {"token": newer, "password": "Newer-pass-2026"})
    assert res.status_code == 200
    res = anon.post("/api/password-reset/confirm", {"token": older, "password": "Older-pass-2026"})
    assert res.status_code == 400 and "invalid or has expired" in res.json()["detail"]
    assert login(tenant_a.admin_email, "Older-pass-2026").status_code == 401
    assert login(tenant_a.admin_email, "Newer-pass-2026").status_code == 200


def test_any_password_change_ends_reset_links_and_earlier_sessions(
    tenant_a, api_a, anon, in_tenant, jobs, django_capture_on_commit_callbacks
):
    from tenants.accounts.models import User

    driver_session = Api(token_for(tenant_a, role="Driver", email="flows-driver@alpha.test"))
    link = reset_link(anon, "flows-driver@alpha.test", jobs, django_capture_on_commit_callbacks)
    with in_tenant(tenant_a):
        driver = User.objects.get(email="flows-driver@alpha.test")
    # The admin sets a new password (as after a phone call): the pending link and the session die.
    res = api_a.put(f"/api/user-account/{driver.pk}", {"password": "Set-by-admin-2026"})
    assert res.status_code == 200
    assert driver_session.get("/api/profile").status_code == 401
    res = anon.post("/api/password-reset/confirm", {"token": link, "password": "Attacker-pass-99"})
    assert res.status_code == 400
    assert login("flows-driver@alpha.test", "Set-by-admin-2026").status_code == 200
    # And a reset ends the sessions issued before it.
    fresh = Api(login("flows-driver@alpha.test", "Set-by-admin-2026").json()["data"]["access_token"])
    assert fresh.get("/api/profile").status_code == 200
    link = reset_link(anon, "flows-driver@alpha.test", jobs, django_capture_on_commit_callbacks)
    assert (
        anon.post("/api/password-reset/confirm", {"token": link, "password": "Reset-again-2026"}).status_code
        == 200
    )
    assert fresh.get("/api/profile").status_code == 401


@override_settings(LOGIN_FAILURES_PER_ACCOUNT_AND_IP=3, LOGIN_SLOWDOWN_AFTER_FAILURES=100)
def test_wrong_passwords_from_one_address_do_not_lock_the_owner_out(tenant_a):
    attacker = "203.0.113.66"
    codes = [login(tenant_a.admin_email, "Guess-1234567", ip=attacker).status_code for _ in range(4)]
    assert codes == [401, 401, 401, 429]
    # Even the right password is refused to that pair for now...
    assert login(tenant_a.admin_email, ip=attacker).status_code == 429
    # ...but the owner, from their own address, signs in at once.
    assert login(tenant_a.admin_email, ip="198.51.100.7").status_code == 200


@override_settings(LOGIN_SLOWDOWN_AFTER_FAILURES=2, LOGIN_SLOWDOWN_MAX_SECONDS=2)
def test_failures_from_many_addresses_slow_the_account_down_with_a_growing_delay(tenant_a):
    email = tenant_a.admin_email
    assert login(email, "Guess-1234567", ip="203.0.113.1").status_code == 401
    assert login(email, "Guess-1234567", ip="203.0.113.2").status_code == 401  # 2 failures: 1 s
    res = login(email, "Guess-1234567", ip="203.0.113.3")
    assert res.status_code == 429 and res.json()["detail"].endswith("Wait 1 second and try again.")
    time.sleep(1.1)
    assert login(email, "Guess-1234567", ip="203.0.113.4").status_code == 401  # 3 failures: 2 s
    res = login(email, ip="198.51.100.7")
    assert res.status_code == 429 and "Wait 2 seconds" in res.json()["detail"]
    time.sleep(2.1)
    # The delay never exceeds the maximum, and the owner gets in once it has passed.
    assert login(email, ip="198.51.100.7").status_code == 200
    assert login(email, "Guess-1234567", ip="203.0.113.5").status_code == 401  # counter was reset


@override_settings(LOGIN_RATE_LIMIT_PER_IP=2)
def test_a_forged_forwarded_for_header_does_not_escape_the_per_address_limit(tenant_a):
    codes = [
        login("nobody@alpha.test", "x", ip="203.0.113.20", HTTP_X_FORWARDED_FOR=f"10.9.9.{n}").status_code
        for n in range(3)
    ]
    assert codes == [401, 401, 429]


@override_settings(LOGIN_RATE_LIMIT_PER_IP=2, TRUSTED_PROXY_COUNT=1)
def test_behind_a_trusted_proxy_each_client_has_its_own_address(tenant_a, in_tenant):
    balancer = "10.0.0.2"

    def attempt(forwarded: str) -> int:
        return login(
            tenant_a.admin_email, "Wrong-pass-123", ip=balancer, HTTP_X_FORWARDED_FOR=forwarded
        ).status_code

    assert [attempt("192.0.2.10") for _ in range(3)] == [401, 401, 429]
    # Another client behind the same balancer is not affected...
    assert attempt("192.0.2.11") == 401
    # ...and what a client writes to the left of the proxy's entry is not believed.
    assert attempt("1.2.3.4, 192.0.2.10") == 429
    from tenants.accounts.models import AuthEvent

    with in_tenant(tenant_a):
        addresses = set(AuthEvent.objects.filter(kind="failed").values_list("ip_address", flat=True))
    assert "192.0.2.11" in addresses and balancer not in addresses


# --- bodies: too large is 413, unreadable multipart is 400, on every route ---------------------------
def big_json(size: int) -> str:
    return json.dumps({"email": "x" * size, "password": "y", "company_name": "z", "name": "n"})


@pytest.mark.parametrize("path", ["/api/login", "/api/tenant", "/api/role", "/api/password-reset/request"])
def test_a_json_body_over_the_limit_is_a_413(api_a, path):
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000):
        res = api_a.client.post(
            path, big_json(3000), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {api_a.token}"
        )
    assert res.status_code == 413, res.content
    assert res["Content-Type"].startswith("application/json")
    assert res.json() == {"detail": "The request body is too large: the limit is 1,000 bytes."}


def test_the_real_upload_limit_answers_413_for_json_too(anon, db):
    from django.conf import settings

    res = anon.client.post(
        "/api/login", big_json(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10), content_type="application/json"
    )
    assert res.status_code == 413 and "too large" in res.json()["detail"]


def import_paths() -> list[str]:
    from fueldesk.api import api

    schema = api.get_openapi_schema(path_prefix="/api")
    found = []
    for path, methods in schema["paths"].items():
        post = methods.get("post")
        if post and "multipart/form-data" in (post.get("requestBody") or {}).get("content", {}):
            found.append(path)
    return found


def test_multipart_without_a_boundary_is_a_400_on_every_upload_route(api_a):
    paths = import_paths()
    assert "/api/storage/upload-file" in paths and len(paths) >= 3
    # Routes that take JSON refuse a multipart body by its type (415), before reading it.
    for path, status in [*((p, 400) for p in paths), ("/api/login", 415), ("/api/tenant", 415)]:
        res = api_a.client.post(
            # Ids are numbers, of no row: the body is refused before a row is read.
            re.sub(r"\{[^}]+\}", "999999", path),
            b"--x\r\nnot really\r\n",
            content_type="multipart/form-data",
            HTTP_AUTHORIZATION=f"Bearer {api_a.token}",
        )
        assert res.status_code == status, (path, res.status_code, res.content[:200])
        assert isinstance(res.json()["detail"], str)
