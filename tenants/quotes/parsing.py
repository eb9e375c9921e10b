"""Prices out of a supplier's reply: the body's lines, or a CSV/XLSX sheet (pure functions).

A line (or a sheet row) gives one price when it names a product and a terminal of the request (by
name, code or the supplier's alias for it) and carries one price-looking number (a decimal with 2 to
6 places, a `$` before it helps). A request with one product or one terminal lets a line leave it
out. The quoted original below a reply (`>` lines, "On … wrote:", "Original Message") is ignored.
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


def _price(text: str) -> Decimal | None:
    found = [
        (bool(m.group(1)), m.group(2))
        for m in _PRICE.finditer(text)
        if m.group(1) or not _QUANTITY_AFTER.match(text, m.end())
    ]
    if not found:
        return None
    dollars = [v for has_dollar, v in found if has_dollar]
    raw = dollars[-1] if dollars else found[-1][1]
    return _quantize(raw)


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
    result = ParseResult()
    body = reply_text(text) if quoted_cut else text
    seen: set[tuple[int, int]] = set()
    for raw in body.splitlines()[:MAX_LINES]:
        line = raw.strip()
        if not line:
            continue
        # Names first, then the price in what is left (a product like "No. 2.00 Diesel" is rare).
        product = _find(line, products) or (products[0] if len(products) == 1 else None)
        terminal = _find(line, terminals) or (terminals[0] if len(terminals) == 1 else None)
        price = _price(line)
        if price is None:
            continue
        if product is None or terminal is None:
            result.unmatched.append(line[:200])
            continue
        key = (product.id, terminal.id)
        if key in seen:  # the first price given for a cell wins
            continue
        seen.add(key)
        result.lines.append(ParsedLine(product.id, terminal.id, price, line[:200]))
    return result


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
    seen: set[tuple[int, int]] = set()
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
        if (product.id, terminal.id) in seen:
            continue
        seen.add((product.id, terminal.id))
        result.lines.append(ParsedLine(product.id, terminal.id, price, source))
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
