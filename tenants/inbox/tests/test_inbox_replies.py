"""Issue 23 §4b, against the real IMAP server (dovecot) and a real SMTP server (aiosmtpd): quote
requests ask for replies at the connected mailbox (Reply-To), a reply's every price is placed or
unmatched, an email that could not be read says so, and an email classified "other" can be read
and verified as a quote or a bill."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tenants.inbox.tests.conftest import MAILBOX_USER
from tenants.inbox.tests.mails import email
from tenants.inbox.tests.test_inbox_imap import AGENT, QUOTE_DAY, poll, set_mailbox
from tenants.parties.tests.helpers import created, product, supplier, terminal

REPLY_ADDRESS = "/api/price-quote/reply-address"


@pytest.fixture
def small(api_a: Any) -> dict[str, Any]:
    """One product at one terminal, asked of one supplier."""
    return {
        "ulsd": product(api_a, "ULSD", name="Ultra Low Sulfur Diesel"),
        "galena": terminal(api_a, "T-76-TX-2001", "Galena Park"),
        "gulf": supplier(api_a, "Gulf Coast Fuels", email="sales@gulfcoast.test", contact_name="Dana"),
    }


def ask(api: Any, small: dict[str, Any], capture: Any, jobs: Any) -> dict[str, Any]:
    with capture(execute=True):
        res = api.post(
            "/api/price-quote/requests",
            {
                "quote_date": QUOTE_DAY.isoformat(),
                "quantity": "8000",
                "product_ids": [small["ulsd"]["id"]],
                "terminal_ids": [small["galena"]["id"]],
                "supplier_ids": [small["gulf"]["id"]],
            },
        )
    request = created(res)
    jobs()
    return request


def test_a_quote_request_asks_for_replies_at_the_connected_mailbox_and_the_reply_comes_back(
    api_a, small, smtp, dovecot, jobs, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    # No mailbox yet: the screen is warned, the request goes out without a Reply-To.
    before = api_a.get(REPLY_ADDRESS).json()["data"]
    assert before["read_by_inbox"] is False and before["address"] == ""
    assert before["note"].startswith("No mailbox is connected to the inbox agent")
    first = ask(api_a, small, capture, jobs)
    assert first["reply_to"] == ""
    assert smtp.messages[0]["Reply-To"] is None

    # A mailbox saved but not polled: replies go there, with a warning that nobody reads them yet.
    set_mailbox(api_a, dovecot)
    idle = api_a.get(REPLY_ADDRESS).json()["data"]
    assert idle["address"] == MAILBOX_USER and idle["read_by_inbox"] is False
    assert "inbox polling is off" in idle["note"]

    poll(api_a, capture, jobs)
    ready = api_a.get(REPLY_ADDRESS).json()["data"]
    assert ready == {
        "address": MAILBOX_USER,
        "read_by_inbox": True,
        "note": f"Replies go to {MAILBOX_USER}, the mailbox the inbox agent reads: they are matched "
        "to this request in Email › Inbox.",
    }
    request = ask(api_a, small, capture, jobs)
    assert request["reply_to"] == MAILBOX_USER
    sent = smtp.messages[-1]
    assert sent["Reply-To"] == MAILBOX_USER and sent["To"] == "Dana <sales@gulfcoast.test>"
    assert f"Your reply goes to {MAILBOX_USER}." in sent.get_payload(decode=True).decode()

    # The supplier's mail client answers to the Reply-To; the inbox reads it from that mailbox.
    # Two priced lines: the one the request asked about is placed, the other is shown unmatched.
    dovecot.append(
        MAILBOX_USER,
        email(
            sender="Dana <sales@gulfcoast.test>",
            to=sent["Reply-To"],
            subject=f"Re: {sent['Subject']}",
            in_reply_to=sent["Message-ID"],
            body="ULSD at 2.3390/gal. Also dyed at 2.4100\n\nDana",
        ),
    )
    poll(api_a, capture, jobs)
    item = next(m for m in api_a.get(AGENT).json()["data"]["items"] if m["subject"].startswith("Re: "))
    assert item["classification"] == "price_quote_reply" and item["quote_request_id"] == request["id"]
    proposal = api_a.get(f"{AGENT}/{item['id']}").json()["data"]["quote_proposal"]
    assert [(ln["product_name"], ln["price"]) for ln in proposal["lines"]] == [
        ("Ultra Low Sulfur Diesel", "2.3390")
    ]
    assert proposal["unmatched"] == ["Also dyed at 2.4100"]


def raw_broken_mime() -> bytes:
    """A multipart message whose declared boundary never appears (a mail client's truncated send)."""
    return (
        b"From: billing@bayou.test\r\nTo: ap@alpha.test\r\nSubject: Invoice 9931\r\n"
        b"Message-ID: <broken-9931@bayou.test>\r\nDate: Mon, 30 Nov 2026 09:00:00 +0000\r\n"
        b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="XYZ"\r\n\r\n'
        b"--ABC\r\nContent-Type: text/plain\r\n\r\nInvoice attached.\r\n"
        b'--ABC\r\nContent-Type: application/pdf; name="inv-9931.pdf"\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n--ABC--\r\n"
    )


def test_an_empty_pdf_or_a_broken_message_is_classified_with_what_could_not_be_read(
    api_a, dovecot, jobs, django_capture_on_commit_callbacks
):
    supplier(api_a, "Bayou Petroleum", email="billing@bayou.test")
    dovecot.append(
        MAILBOX_USER,
        email(
            sender="billing@bayou.test",
            subject="Invoice 9930",
            body="Our invoice is attached.",
            attachments=[("inv-9930.pdf", b"", "application/pdf")],
        ),
    )
    dovecot.append(MAILBOX_USER, raw_broken_mime())
    set_mailbox(api_a, dovecot)
    poll(api_a, django_capture_on_commit_callbacks, jobs)
    items = {m["subject"]: m for m in api_a.get(AGENT).json()["data"]["items"]}

    empty = items["Invoice 9930"]
    assert empty["classification"] == "other"
    assert empty["classification_reason"] == (
        "The PDF attachment 'inv-9930.pdf' from supplier Bayou Petroleum could not be read: it is empty "
        "(0 bytes). Ask the sender to send it again, or enter the bill by hand."
    )
    assert empty["read_problems"] == [
        "The attachment 'inv-9930.pdf' could not be read: it is empty (0 bytes)."
    ]
    detail = api_a.get(f"{AGENT}/{empty['id']}").json()["data"]
    assert detail["attachments"] == [
        {
            "file_name": "inv-9930.pdf",
            "content_type": "application/pdf",
            "size": 0,
            "problem": "it is empty (0 bytes)",
        }
    ]
    download = api_a.get(f"{AGENT}/{empty['id']}/attachments/0")
    assert download.status_code == 404
    assert download.json()["detail"] == "The attachment inv-9930.pdf was not kept: it is empty (0 bytes)."
    # Reading it as a bill is refused with the reason, not a parser error.
    res = api_a.put(f"{AGENT}/{empty['id']}/read-as", {"kind": "bill"})
    assert res.status_code == 409
    assert (
        res.json()["detail"] == "This email has no PDF attachment that can be read: enter the bill by hand."
    )

    broken = items["Invoice 9931"]
    assert broken["classification"] == "other"
    problem = (
        "The message's MIME structure is broken (the boundary that separates its parts is never found; "
        "it says it has parts but has none): parts of it could not be read."
    )
    assert broken["read_problems"] == [problem]
    assert broken["classification_reason"].endswith(problem)


def test_an_email_classified_other_is_read_and_verified_as_a_quote(
    api_a, small, dovecot, jobs, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    request = ask(api_a, small, capture, jobs)
    # Dana answers from her phone's address, with no reply headers: nothing matches it.
    dovecot.append(
        MAILBOX_USER,
        email(
            sender="dana.mobile@phone.test",
            subject="diesel",
            body="Galena Park ULSD 2.3310 for tomorrow",
            when=dt.datetime.now(dt.UTC),
        ),
    )
    set_mailbox(api_a, dovecot)
    poll(api_a, capture, jobs)
    item = next(m for m in api_a.get(AGENT).json()["data"]["items"] if m["subject"] == "diesel")
    assert item["classification"] == "other"
    # The user says which request and supplier it answers; the prices are read for the verify form.
    stranger = supplier(api_a, "Stranger Oil", email="s@stranger.test")
    refused = api_a.put(
        f"{AGENT}/{item['id']}/read-as",
        {"kind": "price_quote_reply", "quote_request_id": request["id"], "supplier_id": stranger["id"]},
    )
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        f"supplier_id: Stranger Oil was not asked in quote request {request['number']}."
    )
    res = api_a.put(
        f"{AGENT}/{item['id']}/read-as",
        {"kind": "price_quote_reply", "quote_request_id": request["id"], "supplier_id": small["gulf"]["id"]},
    )
    assert res.status_code == 200, res.json()
    assert res.json()["message"] == "Email read as a quote reply: check it and verify"
    proposal = res.json()["data"]["quote_proposal"]
    assert [(ln["terminal_name"], ln["price"]) for ln in proposal["lines"]] == [("Galena Park", "2.3310")]
    verified = api_a.put(
        f"{AGENT}/{item['id']}/verify",
        {
            "verified_as": "price_quote_reply",
            "quote": {
                "quote_request_id": request["id"],
                "supplier_id": small["gulf"]["id"],
                "lines": [
                    {"product_id": ln["product_id"], "terminal_id": ln["terminal_id"], "price": ln["price"]}
                    for ln in proposal["lines"]
                ],
            },
        },
    )
    assert verified.status_code == 200, verified.json()
    assert verified.json()["data"]["verified_as"] == "price_quote_reply"
    quotes = api_a.get(f"/api/price-quote/requests/{request['id']}").json()["data"]["quotes"]
    assert [(q["supplier"]["name"], q["lines"][0]["price"]) for q in quotes] == [
        ("Gulf Coast Fuels", "2.3310")
    ]
