"""Spec §5 rules: recipients, cc/bcc, names, the attachment name and the PDF check."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from core.errors import ApiError
from reportlab.pdfgen import canvas

from tenants.mail import rules


def a_pdf() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf)
    c.drawString(100, 750, "Invoice")
    c.save()
    return buf.getvalue()


def test_recipients_are_split_on_commas_trimmed_and_empties_dropped():
    assert rules.parse_recipients(" ann@x.test, ,bob@y.test ,, ") == ["ann@x.test", "bob@y.test"]
    assert rules.parse_recipients("Ann <ann@x.test>, ann@x.test") == ["ann@x.test"]
    assert rules.parse_recipients("") == []
    with pytest.raises(ApiError) as err:
        rules.parse_recipients("ann@x.test, not-an-address")
    assert err.value.status_code == 422 and "'not-an-address' is not a valid email address." in str(err.value)


@pytest.mark.parametrize(
    ("entry", "email", "name"),
    [
        ({"email": "ap@lonestar.test", "name": "Accounts Payable"}, "ap@lonestar.test", "Accounts Payable"),
        ({"email": "ap@lonestar.test"}, "ap@lonestar.test", "ap"),
        ("jane.doe@lonestar.test", "jane.doe@lonestar.test", "jane.doe"),
        ("Jane Doe <jane@lonestar.test>", "jane@lonestar.test", "Jane Doe"),
        ("  <jane@lonestar.test>  ", "jane@lonestar.test", "jane"),
    ],
)
def test_cc_and_bcc_entries(entry, email, name):
    address = rules.parse_address(entry)
    assert address is not None and (address.email, address.name) == (email, name)


def test_cc_lists_drop_blanks_and_duplicates_and_refuse_garbage():
    got = rules.parse_address_list(["a@x.test", "", {"email": ""}, "A <a@x.test>", "Bee <b@x.test>"])
    assert [(a.email, a.name) for a in got] == [("a@x.test", "a"), ("b@x.test", "Bee")]
    joined = rules.parse_address_list('"Doe, Jane" <jane@x.test>, bob@x.test')
    assert [(a.email, a.name) for a in joined] == [("jane@x.test", "Doe, Jane"), ("bob@x.test", "bob")]
    with pytest.raises(ApiError):
        rules.parse_address_list(["Jane <jane@x.test"])
    with pytest.raises(ApiError):
        rules.parse_address_list([42])


def test_one_email_per_recipient_or_one_for_all():
    rs = ["a@x.test", "b@x.test", "c@x.test"]
    assert rules.split_recipients(rs, True) == [["a@x.test"], ["b@x.test"], ["c@x.test"]]
    assert rules.split_recipients(rs, False) == [rs]


def test_recipient_name_from_drafts_else_before_the_at():
    drafts = {"Ap@LoneStar.test": "Accounts Payable"}
    assert rules.recipient_name("ap@lonestar.test", drafts) == "Accounts Payable"
    assert rules.recipient_name("ops@lonestar.test", drafts) == "ops"


def test_attachment_name_rule():
    day = dt.date(2026, 3, 2)
    assert rules.attachment_name("Lone Star Construction, LLC.", "INV-001042", day) == (
        "Lone-Star-Construction-LLC-INV-001042-2026-03-02.pdf"
    )
    assert rules.attachment_name("Café  Ünïon & Sons", "17", day) == "Cafe-Union-Sons-17-2026-03-02.pdf"
    assert rules.preparation_attachment_name(42, day) == "invoice-42-2026-03-02.pdf"


def test_a_pdf_is_a_non_empty_file_that_is_really_a_pdf():
    pdf = a_pdf()
    assert rules.check_pdf(pdf) == pdf
    with pytest.raises(ApiError, match="PDF file is required for invoice email"):
        rules.check_pdf(None)
    for bad in (b"", b"hello", b"%PDF-1.7\nnot really", b"\x89PNG\r\n\x1a\n" + b"0" * 100):
        with pytest.raises(ApiError, match="Invalid PDF file provided"):
            rules.check_pdf(bad)
