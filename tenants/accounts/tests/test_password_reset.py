import re
import time

from django.core import mail
from django.test import override_settings

from conftest import Api


def request_reset(anon: Api, email: str):
    return anon.post("/api/password-reset/request", {"email": email})


def test_reset_link_arrives_by_smtp_and_sets_a_new_password(
    tenant_a, anon, jobs, smtp, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        res = request_reset(anon, tenant_a.admin_email)
    assert res.status_code == 200
    assert jobs() == 1
    for _ in range(50):
        if smtp.messages:
            break
        time.sleep(0.05)
    assert len(smtp.messages) == 1
    msg = smtp.messages[0]
    assert msg["To"] == tenant_a.admin_email and msg["Subject"] == "Reset your FuelDesk password"
    body = msg.get_payload()[0].get_payload(decode=True).decode()
    token = re.search(r"/reset-password/([A-Za-z0-9_-]+)", body).group(1)

    res = anon.post("/api/password-reset/confirm", {"token": token, "password": "Brand-new-pass-7"})
    assert res.status_code == 200, res.json()
    assert (
        anon.post("/api/login", {"email": tenant_a.admin_email, "password": "Brand-new-pass-7"}).status_code
        == 200
    )
    again = anon.post("/api/password-reset/confirm", {"token": token, "password": "Another-pass-8"})
    assert again.status_code == 400 and "invalid or has expired" in again.json()["detail"]
    from conftest import PASSWORD

    anon.post("/api/password-reset/request", {"email": "x@y.test"})
    # put the shared admin's password back for the other tests of the session
    from django.db import connection

    from tenants.accounts.models import User

    connection.set_tenant(tenant_a.tenant)
    user = User.objects.get(email=tenant_a.admin_email)
    user.set_password(PASSWORD)
    user.token_version = 0
    user.save()


def test_unknown_email_gets_the_same_answer_and_no_mail(anon, db, jobs, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        res = request_reset(anon, "nobody@nowhere.test")
    assert res.status_code == 200
    assert (
        res.json()["message"]
        == "If an account exists for this email, a link to reset the password is on its way."
    )
    assert jobs() == 0 and mail.outbox == []


def test_expired_reset_token_is_refused(tenant_a, anon, jobs, django_capture_on_commit_callbacks):
    with override_settings(PASSWORD_RESET_TTL_SECONDS=-1), django_capture_on_commit_callbacks(execute=True):
        request_reset(anon, tenant_a.admin_email)
    jobs()
    token = re.search(r"/reset-password/([A-Za-z0-9_-]+)", mail.outbox[0].body).group(1)
    res = anon.post("/api/password-reset/confirm", {"token": token, "password": "Brand-new-pass-7"})
    assert res.status_code == 400
