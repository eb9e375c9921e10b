"""Prices out of a supplier's reply: the body's lines, or a CSV/XLSX sheet (pure functions).

A line (or a sheet row) gives a price when it names a product and a terminal of the request (by
name, code or the supplier's alias for it) and carries a price-looking number (a decimal with 2 to
6 places, a `$` before it allowed). A request with one product or one terminal lets a line leave it
out. A line with several prices is read as one piece per price. Every price found is either placed
or unmatched (shown to the user), never dropped. The quoted original below a reply (`>` lines,
"On … wrote:", "Original Message") is ignored.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from xml.etree import ElementTree

PRICE_PLACES = Decimal("0.0001")
# A price: 1-5 digits, a point, 2-6 digits; not part of a date, a code or a longer number.
_PRICE = re.compile(r"(?<![\w.,/-])(\$\s?)?(\d{1,3}(?:,\d{3})*\.\d{2,6}|\d{1,5}\.\d{2,6})(?![\d.]*\d|[\w-])")
# A number followed by gallons is a quantity, not a price.
_QUANTITY_AFTER = re.compile(r"\s*(gal|gals|gallons|g)\b", re.I)
_QUOTED_START = re.compile(r"^\s*(>|on .+wrote:\s*$|-{2,}\s*original message|from:\s)", re.I)
_PRICE_HEADERS = ("price", "rate", "cost", "net", "quote", "$/gal", "per gallon")
MAX_LINES = 2000


@dataclass(frozen=True)
class Named:
    """A product or terminal of the request and the words that name it."""

    id: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class ParsedLine:
    product_id: int
    terminal_id: int
    price: Decimal
    source: str  # the text the price came from


@dataclass
class ParseResult:
    lines: list[ParsedLine] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)  # lines with a price but no product/terminal


def _norm(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9#]+", " ", text.lower()).strip() + " "


def _find(line: str, options: Iterable[Named]) -> Named | None:
    """The option whose longest name appears as whole words in the line."""
    text = _norm(line)
    best: tuple[int, Named] | None = None
    for option in options:
        for name in option.names:
            words = _norm(name)
            if words.strip() and words in text and (best is None or len(words) > best[0]):
                best = (len(words), option)
    return best[1] if best else None


def _prices(text: str) -> list[tuple[int, int, Decimal]]:
    """Every price-looking number of a line as (start, end, value); a number followed by gallons is
    a quantity, not a price."""
    found = []
    for m in _PRICE.finditer(text):
        if not m.group(1) and _QUANTITY_AFTER.match(text, m.end()):
            continue
        value = _quantize(m.group(2))
        if value is not None:
            found.append((m.start(), m.end(), value))
    return found


def _quantize(raw: str) -> Decimal | None:
    try:
        value = Decimal(raw.replace("$", "").replace(",", "").strip())
    except InvalidOperation:
        return None
    if not value.is_finite() or value < 0 or value >= Decimal("100000"):
        return None
    return value.quantize(PRICE_PLACES, rounding=ROUND_HALF_UP)


def reply_text(body: str) -> str:
    """The reply's own text: everything above the quoted original."""
    kept = []
    for line in body.splitlines()[:MAX_LINES]:
        if _QUOTED_START.match(line):
            break
        kept.append(line)
    return "\n".join(kept)


def parse_text(
    text: str, products: list[Named], terminals: list[Named], *, quoted_cut: bool = True
) -> ParseResult:
    """Every price found is either placed (a line of the result) or unmatched, never dropped: a line
    with several prices ("ULSD at 2.3390/gal. Also dyed at 2.4100") is read as one piece per price
    (the text up to it), a later piece naming what the earlier one named for the rest; a second,
    different price for a cell already placed is unmatched (the user decides)."""
    result = ParseResult()
    body = reply_text(text) if quoted_cut else text
    placed: dict[tuple[int, int], Decimal] = {}
    for raw in body.splitlines()[:MAX_LINES]:
        line = raw.strip()
        if not line:
            continue
        found = _prices(line)
        if not found:
            continue
        pieces = [(line, found[0][2])] if len(found) == 1 else _pieces(line, found)
        product_before: Named | None = None
        terminal_before: Named | None = None
        for index, (piece, price) in enumerate(pieces):
            named_product = _find(piece, products)
            named_terminal = _find(piece, terminals)
            source = (piece if len(pieces) > 1 else line)[:200]
            if index > 0 and named_product is None and named_terminal is None:
                # A later price that names nothing of the request ("Also dyed at 2.41"): not guessed.
                result.unmatched.append(source)
                continue
            product = (
                named_product
                or (product_before if index > 0 else None)
                or (products[0] if len(products) == 1 else None)
            )
            terminal = (
                named_terminal
                or (terminal_before if index > 0 else None)
                or (terminals[0] if len(terminals) == 1 else None)
            )
            product_before, terminal_before = product or product_before, terminal or terminal_before
            if product is None or terminal is None:
                result.unmatched.append(source)
                continue
            _place(result, placed, product.id, terminal.id, price, source)
    return result


def _pieces(line: str, found: list[tuple[int, int, Decimal]]) -> list[tuple[str, Decimal]]:
    """The line cut after each price: each piece is the text from the previous price up to this one."""
    pieces = []
    start = 0
    for _begin, end, value in found:
        unit = _PER_UNIT.match(line, end)  # "/gal", "per gallon" belong to the price before
        end = unit.end() if unit else end
        pieces.append((line[start:end].strip(" .,;-/"), value))
        start = end
    return pieces


_PER_UNIT = re.compile(r"\s*(?:/|per\s)\s*(?:gal|gals|gallon|gallons|g)\b\.?", re.I)


def _place(
    result: ParseResult,
    placed: dict[tuple[int, int], Decimal],
    product_id: int,
    terminal_id: int,
    price: Decimal,
    source: str,
) -> None:
    key = (product_id, terminal_id)
    if key in placed:
        if placed[key] != price:  # a second, different price for the same cell: shown, not chosen
            result.unmatched.append(source)
        return
    placed[key] = price
    result.lines.append(ParsedLine(product_id, terminal_id, price, source))


def parse_rows(rows: list[list[str]], products: list[Named], terminals: list[Named]) -> ParseResult:
    """A sheet: the column headed price/rate/cost gives the price when there is one."""
    price_col: int | None = None
    data = rows
    for i, row in enumerate(rows[:5]):
        heads = [c.strip().lower() for c in row]
        for j, head in enumerate(heads):
            if head and any(head.startswith(h) or head == h for h in _PRICE_HEADERS):
                price_col = j
                data = rows[i + 1 :]
                break
        if price_col is not None:
            break
    if price_col is None:
        return parse_text("\n".join(" | ".join(r) for r in rows), products, terminals, quoted_cut=False)
    result = ParseResult()
    placed: dict[tuple[int, int], Decimal] = {}
    for row in data[:MAX_LINES]:
        if price_col >= len(row):
            continue
        others = " | ".join(c for j, c in enumerate(row) if j != price_col)
        price = _quantize(row[price_col]) if row[price_col].strip() else None
        if price is None:
            continue
        product = _find(others, products) or (products[0] if len(products) == 1 else None)
        terminal = _find(others, terminals) or (terminals[0] if len(terminals) == 1 else None)
        source = " | ".join(row)[:200]
        if product is None or terminal is None:
            result.unmatched.append(source)
            continue
        _place(result, placed, product.id, terminal.id, price, source)
    return result


def csv_rows(data: bytes) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    return [row for row in csv.reader(io.StringIO(text), dialect) if any(c.strip() for c in row)][:MAX_LINES]


_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
MAX_XLSX_BYTES = 5 * 1024 * 1024


def _col(ref: str) -> int:
    n = 0
    for ch in ref:
        if not ch.isalpha():
            break
        n = n * 26 + (ord(ch.upper()) - 64)
    return max(n - 1, 0)


def _xml(data: bytes) -> ElementTree.Element:
    # Workbook XML never declares a DTD: refusing one rules out entity expansion and external
    # entities (the attacks defusedxml guards against) without another dependency.
    if b"<!DOCTYPE" in data[:4096].upper() or b"<!ENTITY" in data.upper():
        raise ValueError("the sheet declares a DTD")
    return ElementTree.fromstring(data)  # noqa: S314  (no DTD, checked above)


def xlsx_rows(data: bytes) -> list[list[str]]:
    """The first worksheet of an XLSX file as rows of text (no dependency: the format is zipped XML).
    Raises ValueError on anything that is not a readable workbook."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = zf.namelist()
            if any(zf.getinfo(n).file_size > MAX_XLSX_BYTES for n in names):
                raise ValueError("the sheet is too large")
            shared: list[str] = []
            if "xl/sharedStrings.xml" in names:
                root = _xml(zf.read("xl/sharedStrings.xml"))
                for si in root.iter(f"{_NS}si"):
                    shared.append("".join(t.text or "" for t in si.iter(f"{_NS}t")))
            sheets = sorted(n for n in names if re.fullmatch(r"xl/worksheets/sheet\d+\.xml", n))
            if not sheets:
                raise ValueError("no worksheet")
            sheets.sort(key=lambda n: int(re.sub(r"\D", "", n.rsplit("/", 1)[-1]) or 0))
            root = _xml(zf.read(sheets[0]))
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError) as exc:
        raise ValueError(f"not a readable XLSX file ({exc})") from exc
    rows: list[list[str]] = []
    for row in root.iter(f"{_NS}row"):
        cells: dict[int, str] = {}
        for i, c in enumerate(row.iter(f"{_NS}c")):
            kind = c.get("t", "")
            col = _col(c.get("r", "")) if c.get("r") else i
            if kind == "inlineStr":
                value = "".join(t.text or "" for t in c.iter(f"{_NS}t"))
            else:
                v = c.find(f"{_NS}v")
                value = v.text or "" if v is not None else ""
                if kind == "s" and value.isdigit() and int(value) < len(shared):
                    value = shared[int(value)]
            cells[col] = value
        if cells and any(v.strip() for v in cells.values()):
            rows.append([cells.get(j, "") for j in range(max(cells) + 1)])
        if len(rows) >= MAX_LINES:
            break
    return rows
