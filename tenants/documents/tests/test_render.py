"""The renderer: the HTML and the PDF carry the document's data where the template puts it."""

from __future__ import annotations

import io
from decimal import Decimal

import pdfplumber
import pytest
from PIL import Image

from tenants.documents.render import css, format_value, render_html, render_pdf
from tenants.documents.samples import sample_data
from tenants.documents.services import shipped_default


def pdf_text(pdf: bytes) -> list[str]:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [page.extract_text() or "" for page in doc.pages]


@pytest.mark.parametrize(
    ("value", "kind", "printed"),
    [
        (Decimal("16795.333"), "currency", "$16,795.33"),
        (Decimal("0.005"), "currency", "$0.01"),  # half-up
        (Decimal("-12.5"), "currency", "-$12.50"),
        (Decimal("3.41255"), "price", "$3.4126"),
        (Decimal("2987.4"), "quantity", "2,987.4"),
        (Decimal("3000"), "quantity", "3,000"),
        ("2026-03-02", "date", "Mar 02, 2026"),
        (None, "currency", ""),
        (["1 Main St", "Houston, TX"], "multiline", "1 Main St\nHouston, TX"),
    ],
)
def test_values_are_printed_as_documents_print_them(value, kind, printed):
    assert format_value(value, kind) == printed


def test_styles_keep_only_safe_properties():
    assert (
        css({"fontSize": 14, "color": "#123456", "fontWeight": 700})
        == "font-size:14px;color:#123456;font-weight:700"
    )
    assert css({"backgroundImage": "url(http://evil/x)"}) == ""
    assert css({"color": "red;position:fixed"}) == ""
    assert css({"color": "url(x)"}) == ""
    assert (
        css({"fontFamily": "Georgia, 'Times New Roman', serif"})
        == "font-family:Georgia, 'Times New Roman', serif"
    )


def test_the_sample_invoice_adds_up_to_the_cent():
    data = sample_data("invoice")
    amounts = sum(line.amount or 0 for line in data.lines)
    assert data.totals.subtotal == amounts
    assert data.totals.total == data.totals.subtotal + data.totals.fees + data.totals.tax
    assert data.totals.balance_due == data.totals.total - data.totals.amount_paid
    for line in data.lines:
        assert line.amount == (line.quantity_billed * line.unit_price).quantize(Decimal("0.01"))


def test_the_default_invoice_prints_the_document():
    data = sample_data("invoice")
    html = render_html(shipped_default("invoice"), data)
    text = "\n".join(pdf_text(render_pdf(html)))
    for expected in (
        "INVOICE",
        data.document.number,
        data.customer.name,
        data.ship_to.name,
        "Diesel #2 ULSD",
        "Unleaded 87 E10",
        format_value(data.totals.total, "currency"),
        format_value(data.totals.balance_due, "currency"),
        "Delivery fee",
        "Sales tax",
        "Apr 01, 2026",  # the due date
    ):
        assert expected in text, expected


def test_the_default_ticket_prints_volumes_and_the_signature():
    data = sample_data("delivery_ticket")
    html = render_html(shipped_default("delivery_ticket"), data)
    assert data.signature.image[:30] in html  # the signature drawing is inlined
    text = "\n".join(pdf_text(render_pdf(html)))
    for expected in (
        "DELIVERY TICKET",
        data.document.number,
        "Tank 1 (10k)",
        "2,969.1",
        "J. Carter",
        "Maria Lopez",
    ):
        assert expected in text, expected
    assert format_value(data.totals.net_volume, "quantity") in text


def test_long_documents_continue_on_the_next_page_with_the_header_row():
    data = sample_data("invoice")
    base = data.lines[0]
    data.lines = [
        base.model_copy(update={"line_no": i, "product_name": f"Product {i:03d}"}) for i in range(1, 71)
    ]
    pages = pdf_text(render_pdf(render_html(shipped_default("invoice"), data)))
    assert len(pages) >= 2
    assert "Product 001" in pages[0] and "Product 070" not in pages[0]
    assert any("Product 070" in page for page in pages[1:])
    assert "UNIT PRICE" in pages[1]  # the header row repeats
    # What was designed below the table follows it, on the last page.
    assert "Balance due" in pages[-1] and "Balance due" not in pages[0]


def test_letter_and_a4_page_sizes():
    template = shipped_default("delivery_ticket")
    a4 = render_pdf(render_html(template, sample_data("delivery_ticket")))
    letter_tpl = {**template, "canvasSettings": {**template["canvasSettings"], "pageSize": "Letter"}}
    letter = render_pdf(render_html(letter_tpl, sample_data("delivery_ticket")))
    with pdfplumber.open(io.BytesIO(a4)) as doc:
        assert (round(doc.pages[0].width), round(doc.pages[0].height)) == (595, 842)
    with pdfplumber.open(io.BytesIO(letter)) as doc:
        assert (round(doc.pages[0].width), round(doc.pages[0].height)) == (612, 792)


def test_text_is_escaped_and_nothing_is_fetched():
    template = {
        "components": [
            {"id": "t", "type": "text", "content": "<script>alert(1)</script> & co"},
            {"id": "i", "type": "image", "content": "http://169.254.169.254/latest/meta-data"},
            {"id": "f", "type": "image", "content": "file:///etc/passwd"},
        ]
    }
    html = render_html(template, sample_data("invoice"))
    assert "<script>" not in html and "&lt;script&gt;" in html and "&amp; co" in html
    assert "169.254" not in html and "/etc/passwd" not in html


def test_the_logo_is_drawn_in_the_pdf():
    buf = io.BytesIO()
    Image.new("RGB", (120, 40), "#0b4f6c").save(buf, "PNG")
    import base64

    data = sample_data("invoice")
    data.company.logo = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()
    pdf = render_pdf(render_html(shipped_default("invoice"), data))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        images = doc.pages[0].images
    assert len(images) == 1
    # Top-left, where the designer put it (x 20, y 20 in canvas px = 15 pt).
    assert images[0]["x0"] == pytest.approx(15, abs=1) and images[0]["top"] == pytest.approx(15, abs=1)


def _chars_of(pdf: bytes, word: str) -> list[dict]:
    """The characters of the first occurrence of `word` on page 1 (pdfplumber, PDF points)."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        chars = doc.pages[0].chars
    text = "".join(c["text"] for c in chars)
    at = text.index(word)
    return chars[at : at + len(word)]


def test_keys_and_values_share_a_line_and_amounts_line_up_on_the_right():
    # The invoice's totals box: "Balance due" and its amount on one baseline, the amounts of the
    # box right-aligned on the same edge; the ticket's "Total net gallons"
    # key (12 px) sits on the baseline of its 13 px value.
    data = sample_data("invoice")
    pdf = render_pdf(render_html(shipped_default("invoice"), data))
    # (Total and Balance due have a padding of their own in the template: not on this edge.)
    amounts = [data.totals.subtotal, data.totals.fees, data.totals.tax, data.totals.amount_paid]
    rights = [_chars_of(pdf, format_value(amount, "currency"))[-1]["x1"] for amount in amounts]
    assert max(rights) - min(rights) < 0.5, rights
    assert _chars_of(pdf, "Balance due")[0]["matrix"][5] == pytest.approx(
        _chars_of(pdf, format_value(data.totals.balance_due, "currency"))[0]["matrix"][5], abs=0.3
    )
    ticket = sample_data("delivery_ticket")
    pdf = render_pdf(render_html(shipped_default("delivery_ticket"), ticket))
    key = _chars_of(pdf, "Total net gallons")[0]
    value = _chars_of(pdf, format_value(ticket.totals.net_volume, "quantity"))[0]
    assert key["size"] < value["size"]
    assert key["matrix"][5] == pytest.approx(value["matrix"][5], abs=0.3)  # one baseline
    assert key["x0"] < value["x0"]


def test_a_render_leaves_the_garbage_collector_as_it_found_it():
    import gc

    html = render_html(shipped_default("invoice"), sample_data("invoice"))
    assert gc.isenabled()
    render_pdf(html)
    assert gc.isenabled()
    with pytest.raises(Exception):  # whatever WeasyPrint raises, the collector is back
        render_pdf(None)  # type: ignore[arg-type]
    assert gc.isenabled()
    gc.disable()
    try:
        render_pdf(html)
        assert not gc.isenabled()  # a caller that turned it off keeps it off
    finally:
        gc.enable()
