"""Extraction per layout against the generator's truth (a fast sample: the full corpus is the bench),
the messages for files that are not readable invoices, and learning a supplier's layout."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from PIL import Image
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from tenants.billparse.extract import LOW_CONFIDENCE, learn_layout, parse_date, parse_number, parse_pdf
from tenants.billparse.tests.invoicegen import (
    HELD_OUT,
    HELD_OUT_SET,
    LAYOUTS,
    OUR_COMPANY,
    TERMINALS,
    TUNED,
    Doc,
    _caption_box,
    make_invoice,
)
from tenants.billparse.tests.scoring import bench_hints, score, summarize

# The layouts the tests hold the parser to: the tuned ones and F (held out in the first round, read
# right since). J and K stay out of every test: they are the held-out part of the corpus, measured
# only by the bench (tests/bench/test_bench_billparse.py, docs/benchmarks.md).
TESTED = (*TUNED, HELD_OUT)
SAMPLE = [(layout, seed) for layout in TESTED for seed in (1000, 1001)]  # not the bench's seeds


@pytest.mark.parametrize(("layout", "seed"), SAMPLE)
def test_each_layout_is_read_field_by_field(layout: str, seed: int) -> None:
    data, truth = make_invoice(layout, seed)
    result = parse_pdf(data, hints=bench_hints())
    assert result.ok, result.error
    s = score(result, truth)
    assert s.errors == [], f"layout {layout} seed {seed}: wrong {s.errors}"
    assert result.field("supplier").value == truth.supplier
    assert result.field("bill_number").value == truth.bill_number
    assert result.field("total").value == truth.total
    assert [ln.product.value for ln in result.lines] == [ln["product"] for ln in truth.lines]
    assert [ln.amount.value for ln in result.lines] == [ln["amount"] for ln in truth.lines]
    # every value found says where it was read
    for name in ("bill_number", "bill_date", "total"):
        f = result.field(name)
        assert f.page is not None and f.bbox is not None and f.confidence > 0


def test_the_sample_meets_the_target_and_reports_per_field() -> None:
    scores = [
        score(parse_pdf(*_doc(lay, seed)[:1], hints=bench_hints()), _doc(lay, seed)[1])
        for lay, seed in SAMPLE
    ]
    summary = summarize(scores)
    assert summary["overall"]["precision"] >= 0.97 and summary["overall"]["recall"] >= 0.97
    assert set(summary["per_layout"]) == set(TESTED)
    assert set(LAYOUTS) - set(TESTED) == set(HELD_OUT_SET) - {HELD_OUT}
    assert "line.amount" in summary["per_field"] and "taxes" in summary["per_field"]


def _doc(layout: str, seed: int) -> tuple[bytes, object]:
    return make_invoice(layout, seed)


def test_a_multi_page_invoice_keeps_every_line_and_each_bol() -> None:
    data, truth = make_invoice("D", 1002)
    result = parse_pdf(data, hints=bench_hints())
    assert result.pages >= 2
    assert len(result.lines) == len(truth.lines)
    assert {ln.page for ln in (x.amount for x in result.lines)} == set(range(1, result.pages + 1))
    assert sorted(result.field("bol_numbers").value) == sorted(truth.bol_numbers)


def test_amounts_that_agree_are_confident_and_a_wrong_one_is_marked() -> None:
    data, truth = make_invoice("A", 1003)
    result = parse_pdf(data, hints=bench_hints())
    assert result.checks["total_matches_lines"] is True
    assert result.field("total").confidence >= 0.97
    assert all(ln.amount.confidence >= LOW_CONFIDENCE for ln in result.lines)
    # the same invoice with one amount changed on the page: that line (and the total) are marked
    first = truth.lines[0]["amount"]
    printed = f"{first:,.2f}"
    wrong = printed[:-1] + str((int(printed[-1]) + 5) % 10)  # same length: the PDF's offsets hold
    bad = data.replace(f"(${printed})".encode(), f"(${wrong})".encode(), 1)  # uncompressed text streams
    assert bad != data
    marked = parse_pdf(bad, hints=bench_hints())
    assert marked.lines[0].amount.value == Decimal(wrong.replace(",", ""))
    assert marked.lines[0].amount.confidence < LOW_CONFIDENCE
    assert marked.checks["total_matches_lines"] is False


def test_not_a_pdf_says_so() -> None:
    result = parse_pdf(b"Invoice 123, total 45.00", hints=bench_hints())
    assert not result.ok and result.error_code == "not_pdf"
    assert result.error == "This file is not a PDF: upload the supplier's invoice as a PDF file."


def test_a_damaged_pdf_says_so() -> None:
    result = parse_pdf(b"%PDF-1.7\n garbage without objects", hints=bench_hints())
    assert not result.ok and result.error_code == "unreadable"
    assert "cannot be read" in result.error


def scanned_pdf() -> bytes:
    img = Image.new("RGB", (400, 300), "white")
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=LETTER)
    c.drawImage(ImageReader(img), 50, 300, 400, 300)
    c.save()
    return buf.getvalue()


def blank_pdf() -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=LETTER)
    c.showPage()
    c.save()
    return buf.getvalue()


def test_a_scanned_pdf_says_it_has_no_text_layer() -> None:
    result = parse_pdf(scanned_pdf(), hints=bench_hints())
    assert not result.ok and result.error_code == "no_text"
    assert "scanned document" in result.error and "OCR" in result.error


def test_a_blank_pdf_says_it_has_no_text() -> None:
    result = parse_pdf(blank_pdf(), hints=bench_hints())
    assert not result.ok and result.error_code == "no_text" and "blank" in result.error


def test_dates_and_numbers_in_several_formats() -> None:
    assert str(parse_date("03/05/2026")) == "2026-03-05"
    assert str(parse_date("2026-03-05")) == "2026-03-05"
    assert str(parse_date("05-MAR-2026")) == "2026-03-05"
    assert str(parse_date("Mar 05, 2026")) == "2026-03-05"
    assert str(parse_date("March 5, 2026")) == "2026-03-05"
    assert str(parse_date("03/05/26")) == "2026-03-05"
    assert str(parse_date("25/03/2026")) == "2026-03-25"
    assert parse_date("13/45/2026") is None
    assert parse_number("$1,234.50") == Decimal("1234.50")
    assert parse_number("(12.00)") == Decimal("-12.00")
    assert parse_number("1.234567") == Decimal("1.234567")
    assert parse_number("PO-123") is None


def test_a_confirmed_layout_is_recognised_next_time_with_more_confidence() -> None:
    data, truth = make_invoice(HELD_OUT, 1004)
    before = parse_pdf(data, hints=bench_hints())
    # the held-out layout's labels are not in the dictionary: found by their shape, with less confidence
    assert before.field("bill_number").value == truth.bill_number
    assert before.field("bill_number").confidence < LOW_CONFIDENCE
    confirmed = {
        "bill_number": truth.bill_number,
        "bill_date": truth.bill_date.isoformat(),
        "due_date": truth.due_date.isoformat(),
        "bol_numbers": ", ".join(truth.bol_numbers),
        "total": str(truth.total),
    }
    layout = learn_layout(data, confirmed=confirmed)
    assert layout["bill_number"] == {"label": "reference", "dir": "right"}
    assert layout["due_date"]["label"] == "settle by"
    # another bill of the same supplier in the same layout
    other, other_truth = make_invoice(HELD_OUT, 1005)
    after = parse_pdf(other, hints=bench_hints({other_truth.supplier: layout}))
    no_layout = parse_pdf(other, hints=bench_hints())
    # (the layouts are keyed by the supplier recognised on the bill)
    assert no_layout.layout_matched is False and after.layout_matched is True
    assert after.field("bill_number").value == other_truth.bill_number
    assert after.field("bill_number").confidence >= 0.95 > no_layout.field("bill_number").confidence
    assert after.field("due_date").confidence > no_layout.field("due_date").confidence


# --------------------------------------------------------------------------- issue 23: more layouts


def _caption_invoice() -> bytes:
    """Issue 23's boxed captions with their exact values: "INV NO." over "000917-C", "B/L NO." over
    "7731-A", TERMINAL followed by the TERMS caption, the values low in tall boxes, ZIP codes in the
    letterhead and the Sold-To."""
    d = Doc()
    d.text(40, 40, "SABINE PASS MARKETING", 13, bold=True)
    d.text(40, 54, "9 Terminal Drive - Port Arthur, TX 77640", 8)
    row = [
        ("INV NO.", "000917-C", 84),
        ("INV DATE", "04/23/26", 70),
        ("DUE DATE", "05/03/26", 70),
        ("B/L NO.", "7731-A", 96),
        ("TERMINAL", TERMINALS[0]["name"], 150),
        ("TERMS", "NET 10", 62),
    ]
    x = 40.0
    for caption, value, w in row:
        _caption_box(d, x, 84, w, caption, value)
        x += w
    d.text(40, 150, "SOLD TO:", 7.5, bold=True)
    for i, line in enumerate(OUR_COMPANY):
        d.text(40, 161 + 11 * i, line.upper(), 8.5)
    return d.pdf()


def _grid_invoice() -> bytes:
    """Issue 23's key/value grid: ruled cells, "Bill of Lading | BL-88123-7"."""
    d = Doc()
    d.text(40, 40, "Gulf Coast Petroleum LLC", 14, bold=True)
    d.text(40, 54, "1200 Refinery Road, Houston, TX 77002", 8.5)
    grid = [
        ("Invoice Number", "INV-6396030"),
        ("Bill of Lading", "BL-88123-7"),
        ("Invoice Date", "02/07/2026"),
    ]
    for i, (label, value) in enumerate(grid):
        y = 92 + 16 * i
        d.rect(306, y, 266, 16)
        d.text(310, y + 11, label, 8, bold=True)
        d.text(404, y + 11, value, 8.5)
    d.vline(400, 92, 92 + 16 * len(grid))
    return d.pdf()


def test_boxed_captions_are_read_from_the_value_under_each() -> None:
    result = parse_pdf(_caption_invoice(), hints=bench_hints())
    assert result.ok, result.error
    # not the letterhead's ZIP (77640), not the Sold-To's (78701)
    assert result.field("bill_number").value == "000917-C"
    assert result.field("bill_number").source == "label"
    assert result.field("bol_numbers").value == ["7731-A"]
    assert str(result.field("bill_date").value) == "2026-04-23"
    assert str(result.field("due_date").value) == "2026-05-03"
    # the terminal is the value under TERMINAL, not the next caption "TERMS"
    terminal = result.field("terminal")
    assert terminal.value == TERMINALS[0]["name"] and terminal.source == "label"
    assert terminal.raw == TERMINALS[0]["name"] and terminal.confidence >= LOW_CONFIDENCE


def test_a_bol_in_a_key_value_grid_is_read() -> None:
    result = parse_pdf(_grid_invoice(), hints=bench_hints())
    assert result.ok, result.error
    assert result.field("bol_numbers").value == ["BL-88123-7"]
    assert result.field("bill_number").value == "INV-6396030"
    assert str(result.field("bill_date").value) == "2026-02-07"


@pytest.mark.parametrize("seed", [2000, 2001, 2002])
def test_tax_lines_printed_under_the_line_table_are_read(seed: int) -> None:
    """Layout G prints each tax right-aligned under the last product row (no subtotal line), its name
    under the price column: they were read as nothing, and the bill came out short of its total."""
    data, truth = make_invoice("G", seed)
    result = parse_pdf(data, hints=bench_hints())
    assert [(t.description.value, t.amount.value) for t in result.taxes] == [
        (t["name"], t["amount"]) for t in truth.taxes
    ]
    assert result.checks["total_matches_lines"] is True
    assert result.field("bol_numbers").value == truth.bol_numbers  # "BL-88123-7" style, in a grid
