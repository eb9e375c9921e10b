"""The inbox agent against a real IMAP server on loopback (dovecot): messages APPENDed over IMAP are
imported once, classified with a reason, and verified into a quote and then a buying price; a
refused login is shown and backs off."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from tenants.inbox.tests.conftest import MAILBOX_PASSWORD, MAILBOX_USER
from tenants.inbox.tests.mails import email
from tenants.mail.tests.test_rules import a_pdf
from tenants.parties.tests.helpers import created, product, supplier, terminal

MAILBOX = "/api/email-agent/mailbox"
# The day the prices are asked for: after today, so an accepted price starts after today's rack.
QUOTE_DAY = dt.date.today() + dt.timedelta(days=10)
AGENT = "/api/email-agent"


@pytest.fixture
def world(api_a):
    ulsd = product(api_a, "ULSD", name="Ultra Low Sulfur Diesel")
    rul = product(api_a, "RUL", name="Regular Unleaded")
    galena = terminal(api_a, "T-76-TX-2001", "Galena Park")
    pasadena = terminal(api_a, "T-76-TX-2002", "Pasadena")
    gulf = supplier(api_a, "Gulf Coast Fuels", email="Sales@GulfCoast.test", contact_name="Dana")
    bayou = supplier(api_a, "Bayou Petroleum", email="quotes@bayou.test")
    return {"ulsd": ulsd, "rul": rul, "galena": galena, "pasadena": pasadena, "gulf": gulf, "bayou": bayou}


def set_mailbox(api, dovecot, password=MAILBOX_PASSWORD):
    res = api.put(
        MAILBOX,
        {
            "host": "127.0.0.1",
            "port": dovecot.port,
            "security": "none",
            "username": MAILBOX_USER,
            "password": password,
            "poll_every_seconds": 120,
        },
    )
    assert res.status_code == 200, res.json()
    return res.json()["data"]


def ask_for_quotes(api, world, capture, jobs, quote_date=QUOTE_DAY.isoformat()):
    with capture(execute=True):
        res = api.post(
            "/api/price-quote/requests",
            {
                "quote_date": quote_date,
                "quantity": "8000",
                "product_ids": [world["ulsd"]["id"], world["rul"]["id"]],
                "terminal_ids": [world["galena"]["id"], world["pasadena"]["id"]],
                "supplier_ids": [world["gulf"]["id"], world["bayou"]["id"]],
                "notes": "Loads lift between 6 and 10 am.",
            },
        )
    request = created(res)
    assert res.json()["message"] == f"Quote request {request['number']} queued for 2 suppliers"
    jobs()  # the outbox sends both emails
    return request


def poll(api, capture, jobs):
    with capture(execute=True):
        res = api.post(f"{AGENT}/start")
    assert res.status_code == 200, res.json()
    jobs()
    return api.get(MAILBOX).json()["data"]


def test_password_is_stored_encrypted_and_never_returned(api_a, in_tenant, tenant_a, dovecot):
    body = set_mailbox(api_a, dovecot)
    assert body["has_password"] is True and "password" not in body
    assert MAILBOX_PASSWORD not in api_a.get(MAILBOX).content.decode()
    from tenants.inbox import secrets
    from tenants.inbox.models import Mailbox

    with in_tenant(tenant_a):
        stored = Mailbox.objects.get().password_encrypted
    assert MAILBOX_PASSWORD not in stored and secrets.decrypt(stored) == MAILBOX_PASSWORD
    # A blank password keeps the stored one.
    set_mailbox(api_a, dovecot, password="")
    with in_tenant(tenant_a):
        assert Mailbox.objects.get().password_encrypted == stored


def test_connection_test_says_ok_or_why_not(api_a, dovecot):
    set_mailbox(api_a, dovecot)
    good = api_a.post(f"{MAILBOX}/test", {})
    assert good.status_code == 200 and good.json()["data"]["ok"] is True
    assert good.json()["data"]["message"].startswith("Connected to 127.0.0.1:")
    bad = api_a.post(
        f"{MAILBOX}/test",
        {
            "settings": {
                "host": "127.0.0.1",
                "port": dovecot.port,
                "security": "none",
                "username": MAILBOX_USER,
                "password": "wrong",
            }
        },
    ).json()["data"]
    assert bad["ok"] is False
    assert (
        f"refused the login of {MAILBOX_USER}" in bad["message"] and "AUTHENTICATIONFAILED" in bad["message"]
    )


def test_start_needs_a_mailbox(api_a):
    res = api_a.post(f"{AGENT}/start")
    assert res.status_code == 409
    assert res.json()["detail"] == "Set up the mailbox first (IMAP server, user and password)."


def test_reply_and_invoice_imported_once_classified_and_verified_into_a_buying_price(
    api_a, world, dovecot, jobs, django_capture_on_commit_callbacks, in_tenant, tenant_a
):
    capture = django_capture_on_commit_callbacks
    request = ask_for_quotes(api_a, world, capture, jobs)
    detail = api_a.get(f"/api/price-quote/requests/{request['id']}").json()["data"]
    asked = {r["supplier"]["name"]: r for r in detail["recipients"]}
    assert asked["Gulf Coast Fuels"]["email"] == "sales@gulfcoast.test"
    assert asked["Gulf Coast Fuels"]["email_status"] == "sent"
    from django.core import mail

    sent = {m.to[0]: m for m in mail.outbox}
    request_mail = sent["Dana <sales@gulfcoast.test>"]
    assert request_mail.subject == f"Price quote request {request['number']} for {QUOTE_DAY.isoformat()}"
    assert "Regular Unleaded - Pasadena (T-76-TX-2002): $____" in request_mail.body
    assert request_mail.extra_headers["Message-ID"] == asked["Gulf Coast Fuels"]["message_id"]

    # The supplier answers (a reply: In-Reply-To names the request's email), an invoice arrives
    # from the other supplier, and a newsletter.
    base = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
    reply = email(
        sender="Dana <sales@gulfcoast.test>",
        subject=f"Re: {request_mail.subject}",
        in_reply_to=asked["Gulf Coast Fuels"]["message_id"],
        body=(
            "Good morning,\n\nUltra Low Sulfur Diesel - Galena Park: 2.4512\n"
            "Regular Unleaded - Galena Park: $2.1050\nULSD Pasadena 2.4700\n\nDana\n\n"
            "On Mon, Nov 30, 2026 Alpha wrote:\n"
            "> Ultra Low Sulfur Diesel - Galena Park (T-76-TX-2001): $____\n"
        ),
        when=base + dt.timedelta(minutes=5),
    )
    invoice_pdf = a_pdf()
    invoice = email(
        sender="billing@bayou.test",
        subject="Invoice 88231 for BOL 4471",
        body="Please find our invoice attached.",
        attachments=[("INV-88231.pdf", invoice_pdf, "application/pdf")],
        when=base + dt.timedelta(minutes=3),
        message_id="<inv-88231@bayou.test>",
    )
    newsletter = email(
        sender="news@fuelmarkets.test", subject="Weekly market letter", body="Crude was up.", when=base
    )
    for raw in (reply, invoice, newsletter):
        dovecot.append(MAILBOX_USER, raw)
    set_mailbox(api_a, dovecot)
    box = poll(api_a, capture, jobs)
    assert box["enabled"] is True and box["last_error"] == "" and box["last_success_at"]

    listed = api_a.get(AGENT).json()["data"]
    assert listed["total"] == 3
    by_subject = {m["subject"]: m for m in listed["items"]}
    assert [m["subject"] for m in listed["items"]] == [
        f"Re: {request_mail.subject}",
        "Invoice 88231 for BOL 4471",
        "Weekly market letter",
    ]  # newest first
    got_reply = by_subject[f"Re: {request_mail.subject}"]
    assert got_reply["classification"] == "price_quote_reply"
    assert got_reply["classification_reason"] == (
        f"Replies to quote request {request['number']} sent to Gulf Coast Fuels (In-Reply-To header)."
    )
    got_invoice = by_subject["Invoice 88231 for BOL 4471"]
    assert got_invoice["classification"] == "bill"
    assert got_invoice["classification_reason"] == (
        "PDF attachment 'INV-88231.pdf' and the subject says 'Invoice' "
        "(the sender billing@bayou.test is no known supplier)."
    )
    assert by_subject["Weekly market letter"]["classification"] == "other"

    # Polled again, and the same invoice delivered a second time (a new UID): nothing new.
    dovecot.append(MAILBOX_USER, invoice)
    poll(api_a, capture, jobs)
    assert api_a.get(AGENT).json()["data"]["total"] == 3
    from tenants.inbox.models import InboxMessage, Mailbox
    from tenants.jobs.models import JobLog

    with in_tenant(tenant_a):
        assert InboxMessage.objects.count() == 3
        assert Mailbox.objects.get().last_uid == dovecot.last_uid(MAILBOX_USER)
        polls = list(JobLog.objects.filter(kind="inbox_poll").values_list("status", flat=True))
        assert polls == ["succeeded", "succeeded"]
        stored_pdf = InboxMessage.objects.get(message_id="<inv-88231@bayou.test>").attachments[0]
    assert stored_pdf["file_key"].startswith(f"tenants/{tenant_a.schema}/inbox/")
    pdf = api_a.client.get(
        f"{AGENT}/{got_invoice['id']}/attachments/0", HTTP_AUTHORIZATION=f"Bearer {api_a.token}"
    )
    assert pdf.status_code == 200 and pdf.content == invoice_pdf
    assert pdf["Content-Disposition"].startswith("attachment;")

    # The reply's prices, read for the verify screen (the quoted request below is ignored).
    one = api_a.get(f"{AGENT}/{got_reply['id']}").json()["data"]
    proposal = one["quote_proposal"]
    assert proposal["quote_request_id"] == request["id"] and proposal["supplier_name"] == "Gulf Coast Fuels"
    prices = {(ln["product_name"], ln["terminal_name"]): ln["price"] for ln in proposal["lines"]}
    assert prices == {
        ("Ultra Low Sulfur Diesel", "Galena Park"): "2.4512",
        ("Regular Unleaded", "Galena Park"): "2.1050",
        ("Ultra Low Sulfur Diesel", "Pasadena"): "2.4700",
    }
    # The user corrects one price and verifies: a quote.
    lines = [
        {"product_id": ln["product_id"], "terminal_id": ln["terminal_id"], "price": ln["price"]}
        for ln in proposal["lines"]
    ]
    lines[2]["price"] = "2.4600"
    res = api_a.put(
        f"{AGENT}/{got_reply['id']}/verify",
        {
            "verified_as": "price_quote_reply",
            "quote": {"quote_request_id": request["id"], "supplier_id": world["gulf"]["id"], "lines": lines},
        },
    )
    assert res.status_code == 200, res.json()
    assert (
        res.json()["message"] == f"Email verified: Quote of Gulf Coast Fuels for {request['number']} created"
    )
    assert res.json()["data"]["created_record"]["path"] == f"/price-quotes/{request['id']}"
    again = api_a.put(f"{AGENT}/{got_reply['id']}/verify", {"verified_as": "other"})
    assert again.status_code == 409 and again.json()["detail"] == "This email was already verified."
    # The verify queue no longer lists it; include_verified does.
    assert api_a.get(AGENT).json()["data"]["total"] == 2
    assert api_a.get(AGENT, {"include_verified": "true"}).json()["data"]["total"] == 3

    # A phone quote from Bayou, then the comparison grid: the lowest per row marked, gap to the rack.
    phone = api_a.post(
        f"/api/price-quote/requests/{request['id']}/quotes",
        {
            "supplier_id": world["bayou"]["id"],
            "lines": [
                {"product_id": world["ulsd"]["id"], "terminal_id": world["galena"]["id"], "price": "2.4400"}
            ],
        },
    )
    assert phone.status_code == 201, phone.json()
    created(
        api_a.post(
            "/api/buying-price",
            {
                "supplier_id": world["bayou"]["id"],
                "terminal_id": world["galena"]["id"],
                "product_id": world["ulsd"]["id"],
                "price": "2.5000",
                "effective_from": dt.date.today().isoformat(),
            },
        )
    )
    grid = api_a.get(f"/api/price-quote/requests/{request['id']}/comparison").json()["data"]
    assert [s["name"] for s in grid["suppliers"]] == ["Gulf Coast Fuels", "Bayou Petroleum"]
    row = next(
        r
        for r in grid["rows"]
        if r["terminal"]["name"] == "Galena Park" and r["product"]["id"] == world["ulsd"]["id"]
    )
    assert row["rack_price"] == "2.5000"
    gulf_cell, bayou_cell = row["cells"]
    assert (gulf_cell["price"], gulf_cell["is_lowest"], gulf_cell["gap_to_rack"]) == (
        "2.4512",
        False,
        "-0.0488",
    )
    assert (bayou_cell["price"], bayou_cell["is_lowest"], bayou_cell["gap_to_rack"]) == (
        "2.4400",
        True,
        "-0.0600",
    )
    pasadena = next(
        r
        for r in grid["rows"]
        if r["terminal"]["name"] == "Pasadena" and r["product"]["id"] == world["ulsd"]["id"]
    )
    assert pasadena["cells"][0]["price"] == "2.4600" and pasadena["rack_price"] is None

    # Accepting the lowest writes Bayou's buying price from the request's date.
    accepted = api_a.put(f"/api/price-quote/lines/{bayou_cell['quote_line_id']}/accept")
    assert accepted.status_code == 200, accepted.json()
    assert (
        accepted.json()["message"]
        == f"Buying price saved: Ultra Low Sulfur Diesel at Galena Park, 2.4400 from {QUOTE_DAY.isoformat()}"
    )
    from tenants.pricing.models import BuyingPrice

    with in_tenant(tenant_a):
        prices_now = list(
            BuyingPrice.objects.filter(supplier_id=world["bayou"]["id"])
            .order_by("effective_from")
            .values_list("price", "effective_from", "effective_to")
        )
    assert prices_now == [
        (Decimal("2.500000"), dt.date.today(), QUOTE_DAY - dt.timedelta(days=1)),
        (Decimal("2.440000"), QUOTE_DAY, None),
    ]
    twice = api_a.put(f"/api/price-quote/lines/{bayou_cell['quote_line_id']}/accept")
    assert twice.status_code == 409
    assert twice.json()["detail"] == "This quote line was already accepted into buying prices."

    # The newsletter is dismissed.
    news = by_subject["Weekly market letter"]
    assert (
        api_a.put(f"{AGENT}/{news['id']}/verify", {"verified_as": "other"}).json()["data"]["verified"] is True
    )


def test_a_reply_without_headers_is_matched_by_its_sender_and_a_sheet_gives_its_prices(
    api_a, world, dovecot, jobs, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    request = ask_for_quotes(api_a, world, capture, jobs)
    sheet = b"terminal,product,price\nGalena Park,RUL,2.0800\nPasadena,RUL,2.0900\n"
    dovecot.append(
        MAILBOX_USER,
        email(
            sender="quotes@bayou.test",
            subject="our prices",
            body="See the sheet.",
            attachments=[("prices.csv", sheet, "text/csv")],
        ),
    )
    set_mailbox(api_a, dovecot)
    poll(api_a, capture, jobs)
    item = next(m for m in api_a.get(AGENT).json()["data"]["items"] if m["subject"] == "our prices")
    assert item["classification"] == "price_quote_reply"
    assert item["classification_reason"] == (
        f"No reply header matched; the sender quotes@bayou.test was asked in quote request "
        f"{request['number']} (the newest open one)."
    )
    proposal = api_a.get(f"{AGENT}/{item['id']}").json()["data"]["quote_proposal"]
    assert proposal["sources"] == ["the email body", "prices.csv"]
    assert {(ln["terminal_name"], ln["price"]) for ln in proposal["lines"]} == {
        ("Galena Park", "2.0800"),
        ("Pasadena", "2.0900"),
    }


def test_a_refused_login_is_shown_and_backs_off_without_a_hot_loop(
    api_a, dovecot, jobs, django_capture_on_commit_callbacks, in_tenant, tenant_a
):
    capture = django_capture_on_commit_callbacks
    set_mailbox(api_a, dovecot, password="not-the-password")
    box = poll(api_a, capture, jobs)
    assert box["last_error"].startswith(
        f"The mail server 127.0.0.1:{dovecot.port} refused the login of {MAILBOX_USER}"
    )
    assert box["consecutive_failures"] == 1
    from django.utils import timezone

    from tenants.inbox import services
    from tenants.inbox.models import Mailbox
    from tenants.jobs.models import JobLog

    with in_tenant(tenant_a):
        first_next = Mailbox.objects.get().next_poll_at
        assert 110 <= (first_next - timezone.now()).total_seconds() <= 121
        # Before that time the scheduler's poll does nothing (no second login attempt).
        assert services.poll().status == "not_due"
        assert Mailbox.objects.get().consecutive_failures == 1
        # When due, a second refusal doubles the wait: 4 minutes.
        later = first_next + dt.timedelta(seconds=1)
        result = services.poll(now=later)
        assert result.status == "login_refused"
        box2 = Mailbox.objects.get()
        assert box2.consecutive_failures == 2
        assert (box2.next_poll_at - later).total_seconds() == 240
        entry = JobLog.objects.filter(kind="inbox_poll").get()
        assert entry.status == "failed" and "refused the login" in entry.error
    assert services.backoff_seconds(10) == 3600
    # The right password clears the error at once.
    set_mailbox(api_a, dovecot)
    box = poll(api_a, capture, jobs)
    assert box["last_error"] == "" and box["consecutive_failures"] == 0
