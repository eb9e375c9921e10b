"""A forced error in a request and in a job reaches a (local) Sentry with the tenant, role, release
and request id as tags, and without the secrets the request carried."""

import pytest
import sentry_sdk
from core.jobs import send_job
from core.observability import init_sentry
from sentry_sdk.integrations.dramatiq import SentryMiddleware

from tests.observability.probe import obs_probe
from tests.observability.sentry_receiver import SentryReceiver

RELEASE = "fueldesk@test-1a2b3c4"
# What must never leave, built at run time: the events carry source lines of this file (a frame's
# context), so a literal here would be "found" in them.
PASSWORD = "-".join(("Sup3r", "Secret", "Passw0rd"))
QUERY_SECRET = "-".join(("query", "secret", "value"))


@pytest.fixture
def sentry():
    import dramatiq

    with SentryReceiver() as receiver:
        init_sentry(receiver.dsn, "test", RELEASE)
        # In a deployment Sentry starts (settings) before the broker is built, and its Dramatiq
        # integration adds its middleware then; the tests' broker exists already.
        broker = dramatiq.get_broker()
        added = SentryMiddleware()
        broker.middleware.insert(0, added)
        try:
            with sentry_sdk.isolation_scope():
                yield receiver
        finally:
            broker.middleware.remove(added)
            sentry_sdk.flush(timeout=5)
            sentry_sdk.get_client().close()
            sentry_sdk.init(dsn=None)


def _events(receiver: SentryReceiver, count: int) -> list[dict]:
    sentry_sdk.flush(timeout=5)
    assert len(receiver.events) == count, receiver.events
    return receiver.events


def test_a_request_error_reaches_sentry_tagged_and_without_secrets(sentry, api_a, tenant_a, monkeypatch, db):
    from tenants.accounts import auth

    def broken(*args, **kwargs):
        raise RuntimeError("the profile failed on purpose")

    monkeypatch.setattr(auth, "profile_of", broken)
    answer = api_a.get(f"/api/profile?access_token={QUERY_SECRET}", HTTP_X_REQUEST_ID="req-sentry-0001")
    assert answer.status_code == 500 and answer["X-Request-ID"] == "req-sentry-0001"
    (event,) = _events(sentry, 1)
    assert event["release"] == RELEASE
    assert event["tags"]["tenant"] == tenant_a.schema
    assert event["tags"]["role"] == "Admin"
    assert event["tags"]["request_id"] == "req-sentry-0001"
    assert "the profile failed on purpose" in str(event.get("exception") or event.get("logentry"))
    raw = b"".join(sentry.raw)
    assert api_a.token.encode() not in raw  # the bearer token
    assert QUERY_SECRET.encode() not in raw


def test_a_login_error_never_sends_the_password(sentry, anon, tenant_a, monkeypatch, db):
    from tenants.accounts import auth

    def broken(*args, **kwargs):
        raise RuntimeError("the login failed on purpose")

    monkeypatch.setattr(auth, "login", broken)
    answer = anon.post("/api/login", {"email": tenant_a.admin_email, "password": PASSWORD})
    assert answer.status_code == 500
    (event,) = _events(sentry, 1)
    assert event["tags"]["request_id"] == answer["X-Request-ID"] and event["release"] == RELEASE
    assert PASSWORD.encode() not in b"".join(sentry.raw)


def test_a_job_error_reaches_sentry_with_the_tags_of_the_request_that_queued_it(
    sentry, api_a, tenant_a, in_tenant, jobs, db
):
    from core import observability

    context = observability.Context("req-job-sentry-0003", tenant_a.schema, "Dispatcher")
    try:
        with in_tenant(tenant_a):
            send_job(obs_probe, fail=True)
    finally:
        context.close()
    with pytest.raises(RuntimeError):
        jobs()
    events = _events(sentry, 1)
    (event,) = events
    assert event["release"] == RELEASE
    assert event["tags"]["tenant"] == tenant_a.schema
    assert event["tags"]["role"] == "Dispatcher"
    assert event["tags"]["request_id"] == "req-job-sentry-0003"
    assert event["tags"]["actor"] == "obs_probe"
    assert "the probe job failed on purpose" in str(event["exception"])
