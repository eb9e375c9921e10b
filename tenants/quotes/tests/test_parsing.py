"""Prices out of supplier replies: body lines, CSV and XLSX sheets (pure functions)."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal

import pytest

from tenants.quotes import parsing
from tenants.quotes.parsing import Named

ULSD = Named(1, ("Ultra Low Sulfur Diesel", "ULSD", "ULS #2"))
RUL = Named(2, ("Regular Unleaded", "RUL"))
GALENA = Named(10, ("Galena Park", "T-76-TX-2001"))
PASADENA = Named(11, ("Pasadena", "T-76-TX-2002"))


def cells(result):
    return {(ln.product_id, ln.terminal_id): ln.price for ln in result.lines}


def test_body_lines_by_name_code_and_alias_and_the_quoted_request_is_ignored():
    body = (
        "Hi, here are our numbers for tomorrow (8,000.000 gallons):\n"
        "ULSD - Galena Park: 2.4512\n"
        "Regular Unleaded @ Pasadena $2.105\n"
        "ULS #2 at T-76-TX-2002 ... 2.50 per gal\n"
        "Thanks, Dana\n"
        "On Mon, Nov 23, 2026 at 9:00 AM Alpha Fuels wrote:\n"
        "> ULSD - Galena Park: 9.9999\n"
    )
    result = parsing.parse_text(body, [ULSD, RUL], [GALENA, PASADENA])
    assert cells(result) == {
        (1, 10): Decimal("2.4512"),
        (2, 11): Decimal("2.1050"),
        (1, 11): Decimal("2.5000"),
    }


def test_one_product_and_one_terminal_may_be_left_out_and_quantities_are_not_prices():
    result = parsing.parse_text("For 7500.000 gal we can do $2.3999 net.", [ULSD], [GALENA])
    assert cells(result) == {(1, 10): Decimal("2.3999")}
    # Two terminals, none named: the line cannot be placed and is reported, not guessed.
    unplaced = parsing.parse_text("ULSD 2.45", [ULSD], [GALENA, PASADENA])
    assert unplaced.lines == [] and unplaced.unmatched == ["ULSD 2.45"]


def test_dates_and_codes_are_not_prices():
    result = parsing.parse_text("Galena Park ULSD valid 11.24.2026 price 2.4411", [ULSD], [GALENA])
    assert cells(result) == {(1, 10): Decimal("2.4411")}


def test_csv_sheet_with_a_price_column():
    data = (
        b"Product;Terminal;Gallons;Price\nULSD;Galena Park;8000;2.4100\n"
        b"RUL;Pasadena;8000;2.0999\nJet;Galena Park;1;3.00\n"
    )
    result = parsing.parse_rows(parsing.csv_rows(data), [ULSD, RUL], [GALENA, PASADENA])
    assert cells(result) == {(1, 10): Decimal("2.4100"), (2, 11): Decimal("2.0999")}
    assert result.unmatched == ["Jet | Galena Park | 1 | 3.00"]


def xlsx(rows: list[list[object]]) -> bytes:
    """A minimal workbook: shared strings for text, numbers inline."""
    strings: list[str] = []
    sheet_rows = []
    for r, row in enumerate(rows, start=1):
        cells_xml = []
        for c, value in enumerate(row):
            ref = f"{chr(65 + c)}{r}"
            if isinstance(value, str):
                strings.append(value)
                cells_xml.append(f'<c r="{ref}" t="s"><v>{len(strings) - 1}</v></c>')
            else:
                cells_xml.append(f'<c r="{ref}"><v>{value}</v></c>')
        sheet_rows.append(f'<row r="{r}">{"".join(cells_xml)}</row>')
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(
            "xl/worksheets/sheet1.xml",
            f"<worksheet {ns}><sheetData>{''.join(sheet_rows)}</sheetData></worksheet>",
        )
        sst = "".join(f"<si><t>{s}</t></si>" for s in strings)
        zf.writestr("xl/sharedStrings.xml", f"<sst {ns}>{sst}</sst>")
    return buf.getvalue()


def test_xlsx_sheet_with_float_noise_rounds_to_four_places():
    data = xlsx(
        [
            ["Terminal", "Product", "Rate"],
            ["Galena Park", "ULSD", 2.4512000000000001],
            ["Pasadena", "RUL", 2.1],
        ]
    )
    rows = parsing.xlsx_rows(data)
    result = parsing.parse_rows(rows, [ULSD, RUL], [GALENA, PASADENA])
    assert cells(result) == {(1, 10): Decimal("2.4512"), (2, 11): Decimal("2.1000")}


def test_a_broken_or_hostile_sheet_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="not a readable XLSX"):
        parsing.xlsx_rows(b"PK\x03\x04 not really")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("xl/worksheets/sheet1.xml", '<!DOCTYPE x [<!ENTITY a "aaaa">]><worksheet/>')
    with pytest.raises(ValueError, match="DTD"):
        parsing.xlsx_rows(buf.getvalue())


def test_two_priced_lines_place_both_or_show_the_unplaced_one():
    # Issue 23 §4b: the second price was dropped and `unmatched` stayed empty.
    one_line = parsing.parse_text("ULSD at 2.3390/gal. Also dyed at 2.4100", [ULSD], [GALENA])
    assert cells(one_line) == {(1, 10): Decimal("2.3390")}
    assert one_line.unmatched == ["Also dyed at 2.4100"]
    two_lines = parsing.parse_text("ULSD at 2.3390/gal.\nAlso dyed at 2.4100\n", [ULSD], [GALENA])
    assert cells(two_lines) == {(1, 10): Decimal("2.3390")}
    assert two_lines.unmatched == ["Also dyed at 2.4100"]
    # When the request asked for the dyed product too, both prices are placed.
    dyed = Named(3, ("Dyed Ultra Low Sulfur Diesel", "dyed"))
    both = parsing.parse_text("ULSD at 2.3390/gal. Also dyed at 2.4100", [ULSD, dyed], [GALENA])
    assert cells(both) == {(1, 10): Decimal("2.3390"), (3, 10): Decimal("2.4100")}
    assert both.unmatched == []
    # A later piece naming only a terminal keeps the product named before it.
    pair = parsing.parse_text("ULSD Galena Park 2.45, Pasadena 2.47", [ULSD, RUL], [GALENA, PASADENA])
    assert cells(pair) == {(1, 10): Decimal("2.4500"), (1, 11): Decimal("2.4700")}


def test_every_price_is_placed_or_unmatched():
    body = "ULSD Galena Park 2.4512\nULSD Galena Park 2.4600 if you lift today\nULSD Galena Park 2.4512\n"
    result = parsing.parse_text(body, [ULSD], [GALENA, PASADENA])
    # The same price twice is the same quote; a different one for the same cell is for the user.
    assert cells(result) == {(1, 10): Decimal("2.4512")}
    assert result.unmatched == ["ULSD Galena Park 2.4600 if you lift today"]
    sheet = parsing.parse_rows(
        [["Product", "Terminal", "Price"], ["ULSD", "Galena Park", "2.41"], ["ULSD", "Galena Park", "2.39"]],
        [ULSD],
        [GALENA],
    )
    assert cells(sheet) == {(1, 10): Decimal("2.4100")}
    assert sheet.unmatched == ["ULSD | Galena Park | 2.39"]
