"""A company's Google account for sending, against the fake Google (infra/fakes/google.py): the
consent request, the state check, invoice emails through Gmail, a revoked grant holding the outbox
and the reconnection releasing it (nothing twice, nothing dropped), refresh, disconnect."""

from __future__ import annotations

import base64
import email
import email.policy
from datetime import timedelta
from typing import Any

import httpx
import pytest
from django.test import override_settings

from conftest import Api, token_for
from infra.fakes.google import FakeGoogle
from tenants.google.tests.conftest import connect
from tenants.mail.tests.test_document_email_api import PDF, post_pdf

REASON = "Google account disconnected — reconnect at Google Authentication"


def send_plain(api: Api, capture: Any, to: str, subject: str) -> dict[str, Any]:
    with capture(execute=True):
        res = api.post("/api/email/", [{"recipient_email": to, "subject": subject, "body": "Hello"}])
    assert res.status_code == 201, res.json()
    row: dict[str, Any] = res.json()["data"][0]
    return row


def status(api: Api) -> dict[str, Any]:
    res = api.get("/api/google-authentication")
    assert res.status_code == 200, res.json()
    data: dict[str, Any] = res.json()["data"]
    return data


def test_connect_asks_to_send_mail_offline_with_consent_and_keeps_the_tokens_secret(
    api_a: Api, google: FakeGoogle, tenant_a: Any, in_tenant: Any
) -> None:
    before = status(api_a)
    assert before["state"] == "disconnected" and before["configured"] is True
    data = connect(api_a, google)
    assert data["state"] == "connected"
    assert data["email"] == "office@fueldesk-demo.test"
    assert data["connected_by"] and data["connected_at"] and data["held"] == 0
    [auth] = google.state.authorizations
    assert auth["scope"].split() == ["openid", "email", "https://www.googleapis.com/auth/gmail.send"]
    assert auth["access_type"] == "offline" and auth["prompt"] == "consent"
    assert auth["redirect_uri"] == "http://fueldesk.test/google-authentication"
    assert auth["client_id"] == "fueldesk-test-client" and len(auth["state"]) >= 40 and auth["nonce"]
    [refresh_token] = google.state.refresh
    # Never in an answer to the browser, never stored in the clear.
    res = api_a.get("/api/google-authentication")
    assert refresh_token not in res.content.decode() and "access-" not in res.content.decode()
    from core import secretbox

    from tenants.google.models import GoogleConnection

    with in_tenant(tenant_a):
        row = GoogleConnection.objects.get()
        assert refresh_token not in row.refresh_token
        assert secretbox.decrypt(row.refresh_token, purpose="google/tokens") == refresh_token
        assert secretbox.decrypt(row.refresh_token, purpose="inbox/mailbox") is None


def test_a_forged_or_replayed_state_is_refused_and_connects_nothing(api_a: Api, google: FakeGoogle) -> None:
    url = api_a.post("/api/google-authentication/connect").json()["data"]["authorization_url"]
    location = httpx.URL(httpx.get(url).headers["location"])
    forged = api_a.post(
        "/api/google-authentication/callback", {"code": location.params["code"], "state": "forged-state"}
    )
    assert forged.status_code == 400
    assert forged.json()["detail"] == (
        "This Google authorization is not one this company started, or it expired: connect again."
    )
    assert status(api_a)["state"] == "disconnected"
    # The real state works once; played again it is refused.
    good = {"code": location.params["code"], "state": location.params["state"]}
    assert api_a.post("/api/google-authentication/callback", good).status_code == 200
    again = api_a.post("/api/google-authentication/callback", good)
    assert again.status_code == 400


def test_another_company_cannot_use_this_companys_state(api_a: Api, api_b: Api, google: FakeGoogle) -> None:
    url = api_a.post("/api/google-authentication/connect").json()["data"]["authorization_url"]
    location = httpx.URL(httpx.get(url).headers["location"])
    res = api_b.post(
        "/api/google-authentication/callback",
        {"code": location.params["code"], "state": location.params["state"]},
    )
    assert res.status_code == 400
    assert status(api_b)["state"] == "disconnected" and status(api_a)["state"] == "disconnected"


def test_an_invoice_email_goes_through_gmail(
    api_a: Api, google: FakeGoogle, world: dict[str, Any], jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    connect(api_a, google)
    inv = world["invoice"]
    with django_capture_on_commit_callbacks(execute=True):
        res = post_pdf(api_a, f"/api/invoice/{inv['id']}/send-email?idempotency_key=gmail-1")
    assert res.status_code == 200, res.json()
    assert jobs() == 2
    sent = google.messages
    assert sorted(m["to"] for m in sent) == ["Al Owner <al@lonestar.test>", "Zoe Payables <ap@lonestar.test>"]
    expected = f"Lone-Star-Construction-LLC-{inv['invoice_no']}-{inv['invoice_date']}.pdf"
    assert all(m["attachments"] == [expected] for m in sent)
    assert all(m["account"] == "office@fueldesk-demo.test" for m in sent)
    mime = email.message_from_bytes(base64.urlsafe_b64decode(sent[0]["raw"]), policy=email.policy.default)
    [pdf] = [p for p in mime.walk() if p.get_filename()]
    assert pdf.get_payload(decode=True) == PDF
    history = api_a.get("/api/email/", {"category": "invoice", "parent_id": inv["id"]}).json()["data"]
    assert {e["status"] for e in history["items"]} == {"sent"}
    assert {e["message_id"] for e in history["items"]} == {m["message_id"] for m in sent}


def test_bcc_reaches_gmail_as_a_header(
    api_a: Api, google: FakeGoogle, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    connect(api_a, google)
    with django_capture_on_commit_callbacks(execute=True):
        res = api_a.post(
            "/api/email/",
            [
                {
                    "recipient_email": "ap@x.test",
                    "subject": "S",
                    "bcc": ["archive@alpha.test"],
                    "cc": ["c@x.test"],
                }
            ],
        )
    assert res.status_code == 201
    jobs()
    [msg] = google.messages
    assert msg["bcc"] == "archive@alpha.test" and msg["cc"] == "c <c@x.test>"


def test_a_revoked_grant_holds_the_outbox_and_reconnecting_sends_each_held_email_once(
    api_a: Api,
    google: FakeGoogle,
    jobs: Any,
    tenant_a: Any,
    in_tenant: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    connect(api_a, google)
    send_plain(api_a, django_capture_on_commit_callbacks, "one@x.test", "Before")
    assert jobs() == 1 and len(google.messages) == 1
    # The user removes FuelDesk from their Google account: access and refresh tokens die.
    assert httpx.post(f"{google.base_url}/_control/revoke").json()["revoked"] == 1
    held = [
        send_plain(api_a, django_capture_on_commit_callbacks, f"{n}@x.test", f"Held {n}")
        for n in ("two", "three")
    ]
    jobs()
    assert len(google.messages) == 1
    rows = api_a.get("/api/email/", {"status": "held"}).json()["data"]["items"]
    assert sorted(r["id"] for r in rows) == sorted(h["id"] for h in held)
    assert {r["error"] for r in rows} == {REASON}
    now = status(api_a)
    assert now["state"] == "reconnect" and now["held"] == 2 and now["last_error"] == REASON
    # While the account needs reconnecting, new emails are held too, without a call to Google.
    calls = len(google.state.token_requests)
    later = send_plain(api_a, django_capture_on_commit_callbacks, "four@x.test", "Held four")
    jobs()
    assert len(google.state.token_requests) == calls
    assert api_a.get(f"/api/email/{later['id']}").json()["data"]["status"] == "held"
    # A stale re-queue or a duplicated message does not send a held email.
    from tenants.mail import services as mail

    with in_tenant(tenant_a):
        assert mail.requeue_stale(older_than=timedelta(0)) == 0
        assert mail.deliver(later["id"]) == "held"
    assert jobs() == 0

    with django_capture_on_commit_callbacks(execute=True):
        after = connect(api_a, google)
    assert after["state"] == "connected" and after["last_error"] == ""
    assert jobs() == 3
    subjects = sorted(m["subject"] for m in google.messages)
    assert subjects == ["Before", "Held four", "Held three", "Held two"]
    assert len({m["message_id"] for m in google.messages}) == 4
    assert status(api_a)["held"] == 0
    statuses = {e["status"] for e in api_a.get("/api/email/").json()["data"]["items"]}
    assert statuses == {"sent"}


def test_an_expired_access_token_is_refreshed_once_then_used(
    api_a: Api,
    google: FakeGoogle,
    jobs: Any,
    tenant_a: Any,
    in_tenant: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    connect(api_a, google)
    google.expire_access_tokens()
    from tenants.google.models import GoogleConnection

    with in_tenant(tenant_a):
        GoogleConnection.objects.update(access_expires_at=None)
    for n in range(3):
        send_plain(api_a, django_capture_on_commit_callbacks, f"r{n}@x.test", f"Refresh {n}")
    assert jobs() == 3
    assert len(google.messages) == 3
    grants = [r["grant_type"] for r in google.state.token_requests]
    assert grants == ["authorization_code", "refresh_token"]


def test_a_401_with_a_live_grant_refreshes_and_sends(
    api_a: Api, google: FakeGoogle, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    connect(api_a, google)
    google.expire_access_tokens()  # our row still believes the token is good for an hour
    send_plain(api_a, django_capture_on_commit_callbacks, "late@x.test", "After 401")
    assert jobs() == 1
    assert [m["subject"] for m in google.messages] == ["After 401"]
    assert status(api_a)["state"] == "connected"


def test_gmail_unavailable_is_retried_and_sent_once(
    api_a: Api, google: FakeGoogle, tenant_a: Any, in_tenant: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tenants.mail import services as mail
    from tenants.mail.models import SentEmail

    connect(api_a, google)
    row = send_plain(api_a, django_capture_on_commit_callbacks, "busy@x.test", "Busy")
    google.fail_next("gmail_send", 503)
    with in_tenant(tenant_a):
        with pytest.raises(mail.TemporaryFailure):
            mail.deliver(row["id"])
        email_row = SentEmail.objects.get(pk=row["id"])
        assert email_row.status == "queued" and "Gmail answered 503" in email_row.error
        assert mail.deliver(row["id"]) == "sent"
        assert mail.deliver(row["id"]) == "sent"  # a duplicated message sends nothing
    assert [m["subject"] for m in google.messages] == ["Busy"]


def test_a_long_gmail_retry_after_delays_the_email_for_that_long_and_never_fails_it(
    api_a: Api, google: FakeGoogle, tenant_a: Any, in_tenant: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Gmail's 429 says "Retry-After: 3600": the email waits an hour (a delayed message), however
    often Gmail says so (more than the 5 attempts that fail an email), then goes once."""
    import dramatiq

    from tenants.mail import services as mail
    from tenants.mail.models import SentEmail

    connect(api_a, google)
    row = send_plain(api_a, django_capture_on_commit_callbacks, "quota@x.test", "Quota")
    broker = dramatiq.get_broker()
    broker.flush_all()
    google.fail_next("gmail_send", 429, times=mail.MAX_ATTEMPTS + 2, retry_after=3600)
    with in_tenant(tenant_a):
        for _ in range(mail.MAX_ATTEMPTS + 2):
            assert mail.deliver(row["id"]) == "delayed"
            email_row = SentEmail.objects.get(pk=row["id"])
            assert email_row.status == "queued" and email_row.attempts == 0
            assert email_row.error == (
                "Gmail answered 429: User-rate limit exceeded: sending again in 3600 s, as the provider asked"
            )
            (delayed,) = [dramatiq.Message.decode(m) for m in broker.queues["email.DQ"].queue]
            broker.queues["email.DQ"].queue.clear()
            assert delayed.actor_name == "send_email" and delayed.kwargs["email_id"] == row["id"]
            eta_in = delayed.options["eta"] / 1000 - delayed.message_timestamp / 1000
            assert 3590 <= eta_in <= 3610
        assert mail.deliver(row["id"]) == "sent"
        assert SentEmail.objects.get(pk=row["id"]).status == "sent"
    assert [m["subject"] for m in google.messages] == ["Quota"]


def test_a_short_gmail_retry_after_is_waited_out_in_the_same_attempt(
    api_a: Api,
    google: FakeGoogle,
    tenant_a: Any,
    in_tenant: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: Any,
) -> None:
    from tenants.google import gmail
    from tenants.mail import services as mail
    from tenants.mail.models import SentEmail

    waits: list[float] = []
    monkeypatch.setattr(gmail, "sleep", waits.append)
    connect(api_a, google)
    row = send_plain(api_a, django_capture_on_commit_callbacks, "brief@x.test", "Brief")
    google.fail_next("gmail_send", 429, retry_after=3)
    with in_tenant(tenant_a):
        assert mail.deliver(row["id"]) == "sent"
        assert SentEmail.objects.get(pk=row["id"]).attempts == 1
    assert waits == [3.0]
    assert [m["subject"] for m in google.messages] == ["Brief"]


def test_gmail_refusing_the_message_fails_it_with_gmails_reason(
    api_a: Api, google: FakeGoogle, tenant_a: Any, in_tenant: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tenants.mail import services as mail
    from tenants.mail.models import SentEmail

    connect(api_a, google)
    row = send_plain(api_a, django_capture_on_commit_callbacks, "x@x.test", "Refused")
    google.fail_next("gmail_send", 400)
    with in_tenant(tenant_a):
        assert mail.deliver(row["id"]) == "failed"
        assert (
            SentEmail.objects.get(pk=row["id"]).error == "GmailRefused: Gmail answered 400: Injected failure"
        )


def test_disconnect_revokes_and_mail_goes_back_to_smtp(
    api_a: Api, google: FakeGoogle, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.smtp import smtp_delivery

    connect(api_a, google)
    res = api_a.post("/api/google-authentication/disconnect")
    assert res.status_code == 200 and res.json()["data"]["state"] == "disconnected"
    assert res.json()["message"] == "Google account disconnected"
    assert all(g.revoked for g in google.state.refresh.values())
    with smtp_delivery() as recorder:
        send_plain(api_a, django_capture_on_commit_callbacks, "smtp@x.test", "Through SMTP")
        assert jobs() == 1
    assert [m["Subject"] for m in recorder.messages] == ["Through SMTP"]
    assert google.messages == []
    # Disconnecting again changes nothing.
    assert api_a.post("/api/google-authentication/disconnect").status_code == 200


def test_connect_refused_when_google_is_not_configured(api_a: Api, google: FakeGoogle) -> None:
    with override_settings(GOOGLE_CLIENT_ID=""):
        res = api_a.post("/api/google-authentication/connect")
        assert res.status_code == 409
        assert "GOOGLE_CLIENT_ID" in res.json()["detail"]
        assert status(api_a)["configured"] is False


def test_google_must_grant_the_send_scope(api_a: Api, google: FakeGoogle) -> None:
    url = api_a.post("/api/google-authentication/connect").json()["data"]["authorization_url"]
    # The user unticks "Send email on your behalf" on Google's screen.
    narrowed = str(httpx.URL(url).copy_set_param("scope", "openid email"))
    location = httpx.URL(httpx.get(narrowed).headers["location"])
    res = api_a.post(
        "/api/google-authentication/callback",
        {"code": location.params["code"], "state": location.params["state"]},
    )
    assert res.status_code == 400 and "permission to send email" in res.json()["detail"]
    assert status(api_a)["state"] == "disconnected"


def test_roles(tenant_a: Any, google: FakeGoogle) -> None:
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    assert dispatcher.get("/api/google-authentication").status_code == 403
    accounting = Api(token_for(tenant_a, role="Accounting"))
    assert accounting.get("/api/google-authentication").status_code == 200
    res = accounting.post("/api/google-authentication/connect")
    assert res.status_code == 403
    assert google.state.authorizations == []


def test_the_onboarding_mail_step_follows_the_connection(
    api_a: Api, google: FakeGoogle, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.smtp import smtp_settings

    def step() -> dict[str, Any]:
        res = api_a.get("/api/onboarding")
        assert res.status_code == 200, res.json()
        [mail] = [s for s in res.json()["data"]["steps"] if s["key"] == "mail"]
        return dict(mail)

    first = step()
    assert first["state"] == "todo" and first["link"] == "/google-authentication"
    with override_settings(**smtp_settings(2525)):
        assert (
            step()["state"] == "done" and step()["detail"] == "Sending through the server's mail (127.0.0.1)"
        )
    connect(api_a, google)
    assert step() == {
        **first,
        "state": "done",
        "detail": "Sending through Gmail as office@fueldesk-demo.test",
    }
    google.revoke_all()
    send_plain(api_a, django_capture_on_commit_callbacks, "x@x.test", "Held")
    jobs()
    now = step()
    assert now["state"] == "attention" and now["detail"] == "Reconnect Google: emails are held until you do"
