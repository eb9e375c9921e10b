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
from tenants.billparse.tests.invoicegen import HELD_OUT, LAYOUTS, make_invoice
from tenants.billparse.tests.scoring import bench_hints, score, summarize

SAMPLE = [(layout, seed) for layout in LAYOUTS for seed in (1000, 1001)]  # not the bench's seeds


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
    assert set(summary["per_layout"]) == set(LAYOUTS)
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
