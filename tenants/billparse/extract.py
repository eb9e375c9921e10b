"""The bill parser's extraction: a supplier invoice PDF in, fields with a confidence and a place out.

Pure: no database, no request. ``parse_pdf(data, hints=...)`` reads the text layer and word positions
with pdfplumber, then finds

- the supplier (its name, address and product aliases against the hints' directory),
- the bill number, bill date, due date, BOL numbers, terminal and total, from label → value pairs
  (the value right of the label, inline after a colon, or under it) with a dictionary of label
  words, then generic fallbacks (unknown labels, dates by order, terminals by name),
- the lines of the item table (its header words give the columns; numeric columns without a known
  header are named by arithmetic: quantity x price = amount), products through the supplier's
  aliases, and the taxes and fees (as table lines or as a block under the table).

Each field carries ``value``, ``confidence`` (0-1), ``page`` (1-based) and ``bbox`` (x0, top, x1,
bottom in PDF points from the page's top-left). A supplier's confirmed layout (``hints.layouts``:
the label words that preceded each field) is tried first and raises the confidence.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from difflib import SequenceMatcher
from typing import Any

from tenants.pricing.money import money

LOW_CONFIDENCE = 0.8  # the review screen marks fields below this
MAX_PAGES = 50

# --------------------------------------------------------------------------- hints (what the tenant knows)


@dataclass(frozen=True)
class AliasHint:
    name: str
    code: str
    product: Any  # the product's id (or code in the bench)


@dataclass(frozen=True)
class SupplierHint:
    id: Any
    name: str
    code: str = ""
    address: str = ""
    aliases: tuple[AliasHint, ...] = ()


@dataclass(frozen=True)
class TerminalHint:
    id: Any
    name: str
    code: str = ""


@dataclass(frozen=True)
class ParseHints:
    suppliers: tuple[SupplierHint, ...] = ()
    terminals: tuple[TerminalHint, ...] = ()
    # supplier id -> {field: {"label": normalized label words, "dir": "right"|"below"|"inline"}}
    layouts: dict[Any, dict[str, dict[str, str]]] = field(default_factory=dict)


# --------------------------------------------------------------------------- results


@dataclass
class ParsedField:
    value: Any = None
    confidence: float = 0.0
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    raw: str = ""
    source: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "value": _jsonable(self.value),
            "confidence": round(self.confidence, 3),
            "page": self.page,
            "bbox": [round(v, 1) for v in self.bbox] if self.bbox else None,
            "raw": self.raw,
            "source": self.source,
        }


@dataclass
class ParsedLine:
    kind: str  # "product" | "tax"
    description: ParsedField
    product: ParsedField
    gross: ParsedField
    net: ParsedField
    unit_price: ParsedField
    amount: ParsedField
    bol: ParsedField

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind} | {
            name: getattr(self, name).as_json()
            for name in ("description", "product", "gross", "net", "unit_price", "amount", "bol")
        }


SCALARS = ("supplier", "bill_number", "bill_date", "due_date", "bol_numbers", "terminal", "total")


@dataclass
class ParseResult:
    ok: bool
    error: str = ""
    error_code: str = ""  # not_pdf | unreadable | no_text | empty
    pages: int = 0
    page_sizes: list[tuple[float, float]] = field(default_factory=list)
    fields: dict[str, ParsedField] = field(default_factory=dict)
    lines: list[ParsedLine] = field(default_factory=list)
    taxes: list[ParsedLine] = field(default_factory=list)
    layout: dict[str, dict[str, str]] = field(default_factory=dict)  # labels seen, for learning
    layout_matched: bool = False
    checks: dict[str, bool] = field(default_factory=dict)

    def field(self, name: str) -> ParsedField:
        return self.fields.get(name) or ParsedField()

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "error": self.error,
            "error_code": self.error_code,
            "pages": self.pages,
            "page_sizes": [list(s) for s in self.page_sizes],
            "fields": {name: self.field(name).as_json() for name in SCALARS},
            "lines": [ln.as_json() for ln in self.lines],
            "taxes": [t.as_json() for t in self.taxes],
            "layout": self.layout,
            "layout_matched": self.layout_matched,
            "checks": self.checks,
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


# --------------------------------------------------------------------------- text and layout


@dataclass
class Seg:
    """A run of words on one line with no wide gap: a label, a value, a table cell."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    page: int
    size: float

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return (self.x0, self.top, self.x1, self.bottom)

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass
class Line:
    segs: list[Seg]
    top: float
    page: int

    @property
    def text(self) -> str:
        return "  ".join(s.text for s in self.segs)


def _lines_of(words: list[dict[str, Any]], page: int) -> list[Line]:
    words = sorted(words, key=lambda w: (round(float(w["top"])), float(w["x0"])))
    rows: list[list[dict[str, Any]]] = []
    for w in sorted(words, key=lambda w: float(w["top"])):
        for row in rows:
            if abs(float(row[0]["top"]) - float(w["top"])) <= 2.5:
                row.append(w)
                break
        else:
            rows.append([w])
    lines: list[Line] = []
    for row in rows:
        row.sort(key=lambda w: float(w["x0"]))
        segs: list[Seg] = []
        for w in row:
            size = float(w.get("bottom", 0)) - float(w.get("top", 0)) or 9.0
            if segs and float(w["x0"]) - segs[-1].x1 <= max(3.2, size * 0.45):
                s = segs[-1]
                s.text += " " + str(w["text"])
                s.x1 = float(w["x1"])
                s.bottom = max(s.bottom, float(w["bottom"]))
            else:
                segs.append(
                    Seg(
                        str(w["text"]),
                        float(w["x0"]),
                        float(w["x1"]),
                        float(w["top"]),
                        float(w["bottom"]),
                        page,
                        size,
                    )
                )
        lines.append(Line(segs, min(s.top for s in segs), page))
    lines.sort(key=lambda ln: ln.top)
    return lines


def norm(text: str) -> str:
    """Label words compared loosely: case, punctuation, '#'/'number'/'no.' all alike."""
    t = text.lower().replace("#", " no ").replace("&", " and ")
    t = re.sub(r"\bnumbers?\b|\bnos?\b\.?|\bnbr\b|\bnum\b", " no ", t)
    t = re.sub(r"[^a-z0-9/ ]+", " ", t)
    return re.sub(r"\s+", " ", t).strip()


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def similarity(a: str, b: str) -> float:
    a2, b2 = _squash(a), _squash(b)
    if not a2 or not b2:
        return 0.0
    if a2 == b2:
        return 1.0
    return SequenceMatcher(None, a2, b2).ratio()


# --------------------------------------------------------------------------- values

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    )
}
_DATE_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), "ymd"),
    (re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})\b"), "mdy"),
    (re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b"), "dmy"),
    (re.compile(r"\b(\d{1,2})[- ]([A-Za-z]{3,9})[- ,]+(\d{4}|\d{2})\b"), "d-mon-y"),
    (re.compile(r"\b([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})\b"), "mon-d-y"),
]


def parse_date(text: str) -> date | None:
    for pattern, kind in _DATE_PATTERNS:
        m = pattern.search(text)
        if not m:
            continue
        a, b, c = m.groups()
        try:
            if kind == "ymd":
                return date(int(a), int(b), int(c))
            if kind in ("mdy", "dmy"):
                year = int(c) + (2000 if len(c) == 2 else 0)
                month, day = (int(a), int(b)) if kind == "mdy" else (int(b), int(a))
                if month > 12 and day <= 12:  # 25/03/2026: day first
                    month, day = day, month
                return date(year, month, day)
            if kind == "d-mon-y":
                mon = _MONTHS.get(b[:3].lower())
                year = int(c) + (2000 if len(c) == 2 else 0)
                return date(year, mon, int(a)) if mon else None
            mon = _MONTHS.get(a[:3].lower())
            return date(int(c), mon, int(b)) if mon else None
        except ValueError:
            continue
    return None


_NUMBER = re.compile(r"^\(?-?\$?\s?-?\d[\d,]*(\.\d+)?\)?-?$|^\(?-?\$?\s?\.\d+\)?$")


def parse_number(text: str) -> Decimal | None:
    t = text.strip().replace("USD", "").replace(" ", "")
    if not t or not _NUMBER.match(t):
        return None
    negative = t.startswith("(") or "-" in t
    t = t.strip("()").replace("$", "").replace(",", "").replace("-", "")
    try:
        value = Decimal(t)
    except InvalidOperation:
        return None
    return -value if negative else value


def _is_identifier(text: str) -> bool:
    t = text.strip()
    return bool(
        3 <= len(t) <= 30
        and re.search(r"\d", t)
        and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9\-/_.]*", t)
        and parse_date(t) is None
    )


BOL_TOKEN = re.compile(
    # 123456, BOL-123456, "BL-88123-7" (a check digit), "7731-A" (a letter suffix)
    r"[A-Za-z]{0,3}-?\d{4,12}(-[A-Za-z0-9]{1,2})?|\d{3,12}-[A-Za-z]{1,2}"
)


def _bol_tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;/|&]+", text) if BOL_TOKEN.fullmatch(t) and parse_date(t) is None]


# --------------------------------------------------------------------------- label dictionary

# Normalized label words (see norm) per field: an exact match is a strong label.
LABELS: dict[str, set[str]] = {
    "bill_number": {"invoice no", "inv no", "bill no", "document no", "doc no", "invoice", "invoice id"},
    "bill_date": {
        "invoice date",
        "inv date",
        "date",
        "document date",
        "bill date",
        "doc date",
        "date of invoice",
    },
    "due_date": {
        "due date",
        "due",
        "payment due",
        "net due",
        "pay by",
        "due on",
        "net due date",
        "payment due date",
    },
    "bol_numbers": {
        "bol no",
        "bol",
        "bill of lading",
        "lading no",
        "b/l",
        "b/l no",
        "bols",
        "bol nos",
        "bill of lading no",
    },
    "terminal": {
        "terminal",
        "loading terminal",
        "origin terminal",
        "load point",
        "rack",
        "origin",
        "lifting terminal",
    },
    "total": {
        "invoice total",
        "total due",
        "total",
        "amount due",
        "total amount due",
        "amount due usd",
        "balance due",
        "please pay",
        "pay this amount",
        "total invoice",
        "invoice amount",
    },
}


def _label_field(label: str) -> tuple[str, float] | None:
    """Which field a label names, and how sure: exact dictionary words, else telling words in it."""
    n = norm(label)
    if not n or len(n) > 40:
        return None
    for name, words in LABELS.items():
        if n in words:
            return name, 0.92
    words = set(n.split())
    if "sub" in n or "subtotal" in words:
        return None
    if "due" in words and ("date" in words or len(words) <= 2):
        return "due_date", 0.8
    if "lading" in words or "bol" in words:
        return "bol_numbers", 0.8
    if "invoice" in words and "no" in words:
        return "bill_number", 0.85
    if "date" in words and not words & {"ship", "load", "delivery", "lift", "print"}:
        return "bill_date", 0.7
    if "terminal" in words:
        return "terminal", 0.8
    if "total" in words or n.endswith("amount due") or n.endswith("balance due"):
        return "total", 0.8
    return None


TAX_WORDS = re.compile(
    r"\b(tax|taxes|fee|fees|excise|surcharge|lust|spill|fet|levy|freight|inspection|environmental|duty)\b",
    re.I,
)


# --------------------------------------------------------------------------- the parser


class _Doc:
    def __init__(self, lines: list[Line], sizes: list[tuple[float, float]]) -> None:
        self.lines = lines
        self.sizes = sizes


def _open(data: bytes) -> tuple[_Doc | None, ParseResult | None]:
    if not data.lstrip()[:1024].startswith(b"%PDF") and b"%PDF-" not in data[:1024]:
        return None, ParseResult(
            ok=False,
            error_code="not_pdf",
            error="This file is not a PDF: upload the supplier's invoice as a PDF file.",
        )
    import pdfplumber

    try:
        pdf = pdfplumber.open(io.BytesIO(data))
    except MemoryError:  # over the parse's memory cap (guard.py): not a damaged file
        raise
    except Exception:  # pdfminer raises many kinds of errors on damaged or encrypted files
        return None, ParseResult(
            ok=False,
            error_code="unreadable",
            error="This PDF cannot be read: it is damaged or protected by a password.",
        )
    try:
        lines: list[Line] = []
        sizes: list[tuple[float, float]] = []
        images = 0
        try:
            pages = pdf.pages[:MAX_PAGES]
        except MemoryError:
            raise
        except Exception:
            return None, ParseResult(
                ok=False, error_code="unreadable", error="This PDF cannot be read: it is damaged."
            )
        for i, page in enumerate(pages, start=1):
            sizes.append((float(page.width), float(page.height)))
            try:
                words = page.extract_words(x_tolerance=1.5, y_tolerance=2)
                images += len(page.images)
            except MemoryError:
                raise
            except Exception:
                words = []
            lines.extend(_lines_of(words, i))
    finally:
        pdf.close()
    if not sizes:
        return None, ParseResult(ok=False, error_code="empty", error="This PDF has no pages.")
    if not lines:
        if images:
            msg = (
                "This PDF has no text layer: it looks like a scanned document. Text recognition (OCR) is "
                "not available, so enter this bill by hand or ask the supplier for a digital PDF."
            )
        else:
            msg = "This PDF has no text to read: it looks blank."
        return None, ParseResult(
            ok=False, error_code="no_text", error=msg, pages=len(sizes), page_sizes=sizes
        )
    return _Doc(lines, sizes), None


def parse_pdf(data: bytes, *, hints: ParseHints | None = None) -> ParseResult:
    """Extract a bill draft from a supplier invoice PDF (see the module doc)."""
    hints = hints or ParseHints()
    doc, failure = _open(data)
    if failure is not None or doc is None:
        return failure or ParseResult(ok=False, error="This PDF cannot be read.")
    result = ParseResult(ok=True, pages=len(doc.sizes), page_sizes=doc.sizes)
    tables = _find_tables(doc)
    table_lines = {id(ln) for t in tables for ln in t.member_lines}
    supplier = _find_supplier(doc, hints, tables)
    result.fields["supplier"] = supplier
    learned = hints.layouts.get(supplier.value, {}) if supplier.value is not None else {}
    pairs = _pairs(doc, table_lines)
    _key_values(result, pairs, learned)
    _fallbacks(result, pairs, hints, tables)
    sup_hint = next((s for s in hints.suppliers if s.id == supplier.value), None)
    _table_rows(result, doc, tables, hints, sup_hint)
    _tax_block(result, doc, tables)
    _terminal(result, doc, hints)
    _checks(result)
    return result


# ---- supplier


def _find_supplier(doc: _Doc, hints: ParseHints, tables: list[_Table]) -> ParsedField:
    if not hints.suppliers:
        return ParsedField()
    first = [ln for ln in doc.lines if ln.page == 1]
    descs = [r for t in tables for r in t.desc_texts]
    best: tuple[float, SupplierHint | None, Seg | None] = (0.0, None, None)
    scores: list[float] = []
    for sup in hints.suppliers:
        name_score, where = 0.0, None
        sq_name = _squash(sup.name)
        for ln in first[:60]:
            for s in ln.segs:
                sq = _squash(s.text)
                if not sq:
                    continue
                if sq_name and sq_name in sq:
                    sc = 1.0
                else:
                    sc = similarity(s.text, sup.name) if abs(len(sq) - len(sq_name)) < 12 else 0.0
                if sc > name_score:
                    name_score, where = sc, s
        addr = 0.0
        if sup.address:
            sq_addr = _squash(sup.address.split(",")[0])
            if sq_addr and any(sq_addr in _squash(ln.text) for ln in first[:60]):
                addr = 1.0
        alias_hits = 0
        if sup.aliases and descs:
            names = {_squash(a.name) for a in sup.aliases} | {_squash(a.code) for a in sup.aliases if a.code}
            alias_hits = sum(1 for d in descs if _squash(d) in names)
        alias_score = alias_hits / len(descs) if descs else 0.0
        score = 0.65 * (name_score if name_score >= 0.75 else 0) + 0.2 * addr + 0.15 * alias_score
        scores.append(score)
        if score > best[0]:
            best = (score, sup, where)
    score, found, where = best
    if found is None or score < 0.15:
        return ParsedField(source="not found")
    others = sorted(scores, reverse=True)
    margin = score - (others[1] if len(others) > 1 else 0)
    confidence = min(0.99, 0.5 + score * 0.45 + min(margin, 0.3))
    return ParsedField(
        value=found.id,
        confidence=confidence,
        page=1 if where else None,
        bbox=where.bbox if where else None,
        raw=where.text if where else found.name,
        source="name" if where else "aliases",
    )


# ---- label/value pairs


@dataclass
class _Pair:
    label: Seg
    value: Seg
    value_text: str
    direction: str


def _is_labelish(text: str) -> bool:
    t = text.strip()
    if t.endswith(":"):
        return True
    words = norm(t).split()
    return 1 <= len(words) <= 4 and not re.search(r"\d", t) and len(t) <= 32


def _is_known_label(text: str) -> bool:
    known = _label_field(text)
    return text.rstrip().endswith(":") or (known is not None and known[1] >= 0.9)


def _pairs(doc: _Doc, skip: set[int]) -> list[_Pair]:
    pairs: list[_Pair] = []
    by_page: dict[int, list[Line]] = {}
    for ln in doc.lines:
        by_page.setdefault(ln.page, []).append(ln)
    for lines in by_page.values():
        for li, ln in enumerate(lines):
            if id(ln) in skip:
                continue
            for si, s in enumerate(ln.segs):
                text = s.text
                if ":" in text and not text.rstrip().endswith(":"):
                    label, _, value = text.partition(":")
                    if (
                        _is_labelish(label + ":")
                        and value.strip()
                        and not re.fullmatch(r"\d{1,2}", label.strip()[-2:])
                    ):
                        pairs.append(_Pair(s, s, value.strip(), "inline"))
                        continue
                if not _is_labelish(text):
                    continue
                nxt = ln.segs[si + 1] if si + 1 < len(ln.segs) else None
                under = _value_under(s, lines[li + 1 : li + 3], ln, skip)
                # A row of captions (boxed headers: "TERMINAL" then "TERMS"): the next caption is not
                # the value when a value sits under the label.
                caption_row = (
                    under is not None
                    and nxt is not None
                    and not s.text.rstrip().endswith(":")  # "Terminal: Dallas North" is a value right
                    and ":" not in nxt.text
                    and _is_labelish(nxt.text)
                    and _label_field(s.text) is not None
                    and _value_under(nxt, lines[li + 1 : li + 3], ln, skip, like=s) is not None
                )
                if (
                    nxt is not None
                    and nxt.x0 - s.x1 < 160
                    and not _is_known_label(nxt.text)
                    and not caption_row
                ):
                    pairs.append(_Pair(s, nxt, nxt.text, "right"))
                if under is not None:
                    pairs.append(_Pair(s, under, under.text, "below"))
    return pairs


def _value_under(
    s: Seg, below_lines: list[Line], ln: Line, skip: set[int], like: Seg | None = None
) -> Seg | None:
    """The value under a label (header boxes): on the next lines, overlapping the label in x. A known
    label's value may sit low in a tall box (up to 36 pt under the caption); `like`: a caption of the
    same row, whose reach this one shares."""
    reach = 3.2 * max(s.size, 6)
    if _label_field((like or s).text) is not None:
        reach = max(reach, 36.0)
    for below in below_lines:
        if below.top - ln.top > reach or id(below) in skip:
            return None
        hit = [b for b in below.segs if b.x0 < s.x1 + 4 and b.x1 > s.x0 - 4 and abs(b.x0 - s.x0) < 40]
        if hit:
            return hit[0]
    return None


def _label_text(pair: _Pair) -> str:
    text = pair.label.text
    if pair.direction == "inline":
        text = text.partition(":")[0]
    return norm(text)


def _value_for(name: str, text: str) -> tuple[Any, float] | None:
    text = text.strip()
    if not text:
        return None
    if name in ("bill_date", "due_date"):
        d = parse_date(text)
        return (d, 1.0) if d else None
    if name == "bill_number":
        token = text.split()[0] if text.split() else ""
        return (token, 1.0) if _is_identifier(token) else None
    if name == "bol_numbers":
        tokens = _bol_tokens(text)
        return (tokens, 1.0) if tokens else None
    if name == "total":
        n = parse_number(text)
        return (money(n), 1.0) if n is not None else None
    if name == "terminal":
        return (text, 1.0) if re.search(r"[A-Za-z]{3}", text) else None
    return None


def _key_values(result: ParseResult, pairs: list[_Pair], learned: dict[str, dict[str, str]]) -> None:
    learned_by_label = {v.get("label", ""): k for k, v in learned.items() if v.get("label")}
    hits = 0
    for pair in pairs:
        label = _label_text(pair)
        candidates: list[tuple[str, float, str]] = []
        if label in learned_by_label:
            candidates.append((learned_by_label[label], 0.97, "layout"))
            hits += 1
        known = _label_field(
            pair.label.text if pair.direction != "inline" else pair.label.text.partition(":")[0]
        )
        if known:
            candidates.append((known[0], known[1], "label"))
        for name, conf, source in candidates:
            if pair.direction == "below":
                conf -= 0.04
            parsed = _value_for(name, pair.value_text)
            if parsed is None:
                continue
            value, _ = parsed
            current = result.fields.get(name)
            # the total is the last one on the document; other fields: the most certain, then the first
            better = current is None or conf > current.confidence + 1e-9
            if (
                name == "total"
                and current is not None
                and source == current.source
                and conf >= current.confidence - 0.15
            ):
                better = True
            if not better:
                continue
            result.fields[name] = ParsedField(
                value=value,
                confidence=conf,
                page=pair.value.page,
                bbox=pair.value.bbox,
                raw=pair.value_text,
                source=source,
            )
            result.layout[name] = {"label": label, "dir": pair.direction}
            break
    if learned and hits >= max(1, (len(learned) + 1) // 2):
        result.layout_matched = True
        for name in learned:
            f = result.fields.get(name)
            if f is not None and f.source == "label":
                f.confidence = min(0.99, f.confidence + 0.05)


def _header_zone(doc: _Doc, tables: list[_Table] | None = None) -> list[Line]:
    first_table_top = min((t.header.top for t in tables or [] if t.header.page == 1), default=10_000.0)
    return [ln for ln in doc.lines if ln.page == 1 and ln.top < first_table_top]


# Labels of numbers that are not the bill's: the customer's account, its purchase order, phones.
NOT_OURS = re.compile(
    r"\b(customer|cust|account|acct|po|purchase order|order|phone|tel|fax|page|sold|ship to)\b"
)


def _fallbacks(result: ParseResult, pairs: list[_Pair], hints: ParseHints, tables: list[_Table]) -> None:
    """Fields no known label gave: read the unknown labels' values by their shape."""
    head_pairs = [
        p
        for p in pairs
        if p.label.page == 1 and _label_field(p.label.text) is None and not NOT_OURS.search(_label_text(p))
    ]
    taken = [f.bbox for f in result.fields.values() if f.bbox]

    def free(seg: Seg) -> bool:
        return seg.bbox not in taken

    if "bill_date" not in result.fields or "due_date" not in result.fields:
        dated = [(parse_date(p.value_text), p) for p in head_pairs if free(p.value)]
        dates = [(d, p) for d, p in dated if d is not None]
        dates.sort(key=lambda dp: dp[0])
        if dates and "bill_date" not in result.fields:
            d, p = dates[0]
            result.fields["bill_date"] = ParsedField(
                d, 0.6, p.value.page, p.value.bbox, p.value_text, "first date"
            )
            result.layout["bill_date"] = {"label": _label_text(p), "dir": p.direction}
            taken.append(p.value.bbox)
            dates = dates[1:]
        if dates and "due_date" not in result.fields:
            d, p = dates[-1]
            bill = result.fields.get("bill_date")
            if bill is None or (isinstance(bill.value, date) and d > bill.value):
                result.fields["due_date"] = ParsedField(
                    d, 0.6, p.value.page, p.value.bbox, p.value_text, "last date"
                )
                result.layout["due_date"] = {"label": _label_text(p), "dir": p.direction}
                taken.append(p.value.bbox)
    if "bill_number" not in result.fields:
        for p in sorted(head_pairs, key=lambda p: (p.value.top, p.value.x0)):
            token = p.value_text.split()[0] if p.value_text.split() else ""
            if free(p.value) and _is_identifier(token) and not _bol_list(p.value_text, several=True):
                result.fields["bill_number"] = ParsedField(
                    token, 0.55, 1, p.value.bbox, p.value_text, "first identifier"
                )
                result.layout["bill_number"] = {"label": _label_text(p), "dir": p.direction}
                taken.append(p.value.bbox)
                break
    table_bols = any(c.kind == "bol" for t in tables for c in t.cols)
    if "bol_numbers" not in result.fields and not table_bols:
        for p in sorted(head_pairs, key=lambda p: (p.value.top, p.value.x0)):
            if (
                free(p.value)
                and _bol_list(p.value_text, several=False)
                and not _terminal_like(p.value_text, hints)
            ):
                result.fields["bol_numbers"] = ParsedField(
                    _bol_tokens(p.value_text), 0.5, 1, p.value.bbox, p.value_text, "numbers"
                )
                result.layout["bol_numbers"] = {"label": _label_text(p), "dir": p.direction}
                break


def _bol_list(text: str, *, several: bool) -> bool:
    tokens = _bol_tokens(text)
    plain = [t for t in tokens if t.isdigit()]
    rest = re.sub(r"[\s,;/|&]+", "", text)
    if not plain or len("".join(tokens)) != len(rest):
        return False
    return len(plain) >= 2 if several else True


def _terminal_like(text: str, hints: ParseHints) -> bool:
    return any(t.code and t.code.lower() in text.lower() for t in hints.terminals)


def _terminal(result: ParseResult, doc: _Doc, hints: ParseHints) -> None:
    """The terminal: the labelled text matched to a known terminal, else a known name found anywhere."""
    current = result.fields.get("terminal")
    if not hints.terminals:
        return
    if current is not None:
        raw = str(current.value)
        best, score = None, 0.0
        for t in hints.terminals:
            sc = max(similarity(raw, t.name), 1.0 if t.code and _squash(t.code) in _squash(raw) else 0.0)
            if _squash(t.name) and _squash(t.name) in _squash(raw):
                sc = max(sc, 0.98)
            if sc > score:
                best, score = t, sc
        if best is not None and score >= 0.75:
            current.value = best.id
            current.raw = raw
            current.confidence = min(current.confidence, 0.99) * (0.85 + 0.15 * score)
            return
        current.confidence = 0.3  # a label, but no terminal we know
        current.value = None
        current.source = "unknown terminal: " + raw
    for ln in doc.lines:
        for s in ln.segs:
            for t in hints.terminals:
                if (_squash(t.name) and _squash(t.name) in _squash(s.text)) or (t.code and t.code in s.text):
                    result.fields["terminal"] = ParsedField(t.id, 0.75, ln.page, s.bbox, s.text, "name found")
                    return


# ---- the item table


COLUMN_WORDS: list[tuple[str, re.Pattern[str]]] = [
    ("gross", re.compile(r"\bgross\b")),
    ("net", re.compile(r"\bnet\b")),
    ("code", re.compile(r"\b(item|product) code\b|^code$|^item no$|^sku$")),
    ("bol", re.compile(r"^(bol|b/l|bol no|b/l no|bill of lading|bol/ticket)$")),
    ("date", re.compile(r"\bdate\b")),
    ("amount", re.compile(r"^(extended|ext)\b")),  # "Extended Price" is the line's amount
    ("price", re.compile(r"\bprice\b|\brate\b|^unit\b|per gal|/gal")),
    ("amount", re.compile(r"\bamount\b|\bextended\b|\bext\b|\btotal\b|\bline total\b")),
    ("qty", re.compile(r"\bqty\b|\bquantity\b|\bgallons\b|\bgals\b|\bvolume\b|\bunits\b")),
    ("desc", re.compile(r"\bdescription\b|\bproduct\b|\bitem\b|\bmaterial\b|\bgrade\b")),
]
NUMERIC_COLS = {"gross", "net", "qty", "price", "amount", "num"}


def _col_kind(text: str) -> str | None:
    n = norm(text)
    for kind, pattern in COLUMN_WORDS:
        if pattern.search(n):
            return kind
    return None


@dataclass
class _Col:
    kind: str
    x0: float
    x1: float
    label: str


@dataclass
class _Table:
    header: Line
    cols: list[_Col]
    rows: list[Line] = field(default_factory=list)
    end: Line | None = None

    @property
    def member_lines(self) -> list[Line]:
        return [self.header, *self.rows]

    @property
    def desc_texts(self) -> list[str]:
        out = []
        for row in self.rows:
            cells = _cells(self, row)
            for kind in ("desc", "code"):
                if cells.get(kind):
                    out.append(cells[kind][0].text)
        return out


def _header_cols(line: Line, below: Line | None) -> list[_Col] | None:
    cols: list[_Col] = []
    for s in line.segs:
        if parse_number(s.text) is not None or parse_date(s.text) is not None:
            return None
        cols.append(_Col(_col_kind(s.text) or "?", s.x0, s.x1, s.text))
    if (
        below is not None
        and below.top - line.top < 14
        and all(not re.search(r"\d", s.text) and len(s.text) < 20 for s in below.segs)
    ):
        for s in below.segs:
            col = next((c for c in cols if s.x0 < c.x1 + 6 and s.x1 > c.x0 - 6), None)
            if col is None:
                continue
            col.label = f"{col.label} {s.text}"
            col.kind = _col_kind(col.label) or col.kind
            col.x0, col.x1 = min(col.x0, s.x0), max(col.x1, s.x1)
    kinds = [c.kind for c in cols]
    quantity = sum(1 for k in kinds if k in ("gross", "net", "qty"))
    known = sum(1 for k in kinds if k != "?")
    if len(cols) < 3 or quantity < 1 or known < 3:
        return None
    descs = [c for c in cols if c.kind == "desc"]
    if len(descs) > 1 and re.fullmatch(r"(item|item ?#|item no|no|#)", norm(descs[0].label)):
        descs[0].kind = "code"  # "Item | Product": the item column holds the supplier's code
        kinds = [c.kind for c in cols]
    if "desc" not in kinds:  # the first unnamed column left of the numbers holds the description
        for c in cols:
            if c.kind == "?":
                c.kind = "desc"
                break
    for c in cols:
        if c.kind == "?":
            c.kind = "num"  # named later from the arithmetic of the rows
    return cols


def _find_tables(doc: _Doc) -> list[_Table]:
    tables: list[_Table] = []
    lines = doc.lines
    last_cols: list[_Col] | None = None
    i = 0
    while i < len(lines):
        ln = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) and lines[i + 1].page == ln.page else None
        cols = _header_cols(ln, nxt) if len(ln.segs) >= 3 else None
        if cols is None:
            i += 1
            continue
        last_cols = cols
        table = _Table(ln, cols)
        j = i + 1
        if nxt is not None and nxt.top - ln.top < 14 and all(not re.search(r"\d", s.text) for s in nxt.segs):
            j += 1
            table.header = Line(ln.segs + nxt.segs, ln.top, ln.page)
        prev_top = table.header.top
        while j < len(lines) and lines[j].page == ln.page:
            row = lines[j]
            text = norm(row.text)
            if row.top - prev_top > 40:
                break
            if re.search(
                r"\b(sub ?total|total|continued|taxes and fees|amount due|balance)\b", text
            ) and not any(parse_number(s.text) is not None for s in row.segs[:1]):
                table.end = row
                break
            if not any(parse_number(s.text) is not None for s in row.segs):
                if len(row.segs) == 1 and table.rows:
                    j += 1
                    prev_top = row.top
                    continue
                break
            table.rows.append(row)
            prev_top = row.top
            j += 1
        tables.append(table)
        i = j
    del last_cols
    return tables


def _cells(table: _Table, row: Line) -> dict[str, list[Seg]]:
    cells: dict[str, list[Seg]] = {}
    for s in row.segs:
        best, dist = None, 1e9
        for c in table.cols:
            d = min(abs(s.x0 - c.x0), abs(s.x1 - c.x1), abs(s.cx - (c.x0 + c.x1) / 2))
            if s.x1 < c.x0 - 120 or s.x0 > c.x1 + 120:
                continue
            if d < dist:
                best, dist = c, d
        if best is not None:
            key = best.kind if best.kind != "num" else f"num{table.cols.index(best)}"
            cells.setdefault(key, []).append(s)
    return cells


def _num_field(segs: list[Seg] | None, places: int | None, conf: float) -> ParsedField:
    if not segs:
        return ParsedField()
    s = segs[0]
    n = parse_number(s.text)
    if n is None:
        return ParsedField(raw=s.text, page=s.page, bbox=s.bbox, source="not a number")
    if places is not None:
        n = n.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return ParsedField(n, conf, s.page, s.bbox, s.text, "table")


def _text_field(segs: list[Seg] | None, conf: float) -> ParsedField:
    if not segs:
        return ParsedField()
    s = segs[0]
    return ParsedField(" ".join(x.text for x in segs), conf, s.page, s.bbox, s.text, "table")


def _name_unknown_columns(table: _Table, rows: list[dict[str, list[Seg]]]) -> dict[str, str]:
    """Numeric columns without a known header: find which is the price and which the amount, from
    quantity x price = amount over the rows."""
    unknown = sorted({k for r in rows for k in r if k.startswith("num")})
    kinds = {c.kind for c in table.cols}
    if not unknown:
        return {}
    qty_key = "net" if "net" in kinds else ("qty" if "qty" in kinds else "gross")
    names: dict[str, str] = {}
    best = (0, "", "")
    candidates = unknown + [k for k in ("price", "amount") if k in kinds]
    for p in candidates:
        for a in candidates:
            if p == a:
                continue
            hits = 0
            for r in rows:
                q = parse_number(r[qty_key][0].text) if r.get(qty_key) else None
                pv = parse_number(r[p][0].text) if r.get(p) else None
                av = parse_number(r[a][0].text) if r.get(a) else None
                if (
                    q is not None
                    and pv is not None
                    and av is not None
                    and abs(money(q * pv) - av) <= Decimal("0.02")
                ):
                    hits += 1
            if hits > best[0]:
                best = (hits, p, a)
    if best[0]:
        names[best[1]] = "price"
        names[best[2]] = "amount"
    elif len(unknown) >= 2:
        names[unknown[-2]] = "price"
        names[unknown[-1]] = "amount"
    elif len(unknown) == 1:
        names[unknown[0]] = "amount" if "amount" not in kinds else "price"
    return names


def _match_product(desc: str, code: str, sup: SupplierHint | None, hints: ParseHints) -> ParsedField:
    pools = [sup.aliases] if sup is not None else []
    pools.append(tuple(a for s in hints.suppliers for a in s.aliases))
    for pi, pool in enumerate(pools):
        best, score = None, 0.0
        for a in pool:
            sc = similarity(desc, a.name) if desc else 0.0
            if code and a.code and _squash(code) == _squash(a.code):
                sc = max(sc, 1.0)
            if a.code and desc and _squash(a.code) == _squash(desc):
                sc = max(sc, 1.0)
            if sc > score:
                best, score = a, sc
        if best is not None and score >= 0.8:
            conf = (0.97 if score == 1.0 else 0.6 + 0.3 * score) * (1.0 if pi == 0 else 0.8)
            return ParsedField(best.product, conf, raw=desc or code, source="alias")
    return ParsedField(None, 0.0, raw=desc or code, source="no alias")


def _table_rows(
    result: ParseResult, doc: _Doc, tables: list[_Table], hints: ParseHints, sup: SupplierHint | None
) -> None:
    bols: list[str] = []
    for table in tables:
        rows = [_cells(table, r) for r in table.rows]
        names = _name_unknown_columns(table, rows)
        for row, cells in zip(table.rows, rows, strict=True):
            for k, v in names.items():
                if k in cells:
                    cells.setdefault(v, cells.pop(k))
            desc_segs = cells.get("desc")
            code_segs = cells.get("code")
            desc = " ".join(s.text for s in desc_segs) if desc_segs else ""
            code = code_segs[0].text if code_segs else ""
            if not desc and not code:
                tax = _tax_row(row)
                if tax is not None:
                    result.taxes.append(tax)
                continue
            amount = _num_field(cells.get("amount"), 2, 0.9)
            price = _num_field(cells.get("price"), 6, 0.9)
            net = _num_field(cells.get("net") or cells.get("qty"), 3, 0.9)
            gross = _num_field(cells.get("gross") or cells.get("qty"), 3, 0.9)
            bol = _text_field(cells.get("bol"), 0.9)
            if bol.value and _bol_tokens(str(bol.value)):
                bol.value = _bol_tokens(str(bol.value))[0]
                bols.append(bol.value)
            product = _match_product(desc, code, sup, hints)
            is_tax = product.value is None and (TAX_WORDS.search(desc) is not None or code.upper() == "TAX")
            description = _text_field(desc_segs or code_segs, 0.95)
            line = ParsedLine(
                kind="tax" if is_tax else "product",
                description=description,
                product=product if not is_tax else ParsedField(),
                gross=gross if not is_tax else ParsedField(),
                net=net,
                unit_price=price,
                amount=amount,
                bol=bol,
            )
            _check_line(line)
            (result.taxes if is_tax else result.lines).append(line)
    if bols and "bol_numbers" not in result.fields:
        result.fields["bol_numbers"] = ParsedField(list(dict.fromkeys(bols)), 0.9, None, None, "", "table")
    elif bols:
        f = result.fields["bol_numbers"]
        merged = list(dict.fromkeys([*f.value, *bols]))
        f.value = merged


def _tax_row(row: Line) -> ParsedLine | None:
    """A tax or fee printed under the line table without a description cell (its name sits under
    another column, e.g. right-aligned against the amount): name = the row's words, amount = its last
    number. None when the words name no tax or fee."""
    words = [s for s in row.segs if parse_number(s.text) is None]
    name = " ".join(s.text for s in words)
    amount_seg = row.segs[-1]
    amount = parse_number(amount_seg.text)
    if not words or amount is None or not TAX_WORDS.search(name):
        return None
    return ParsedLine(
        kind="tax",
        description=ParsedField(name, 0.9, row.page, words[0].bbox, name, "table"),
        product=ParsedField(),
        gross=ParsedField(),
        net=ParsedField(),
        unit_price=ParsedField(),
        amount=ParsedField(money(amount), 0.9, row.page, amount_seg.bbox, amount_seg.text, "table"),
        bol=ParsedField(),
    )


def _check_line(line: ParsedLine) -> None:
    q, p, a = line.net.value, line.unit_price.value, line.amount.value
    if isinstance(q, Decimal) and isinstance(p, Decimal) and isinstance(a, Decimal):
        if abs(money(q * p) - a) <= Decimal("0.02"):
            for f in (line.net, line.unit_price, line.amount):
                f.confidence = 0.99
        else:
            for f in (line.net, line.unit_price, line.amount):
                f.confidence = 0.55
    if line.kind == "product" and isinstance(line.gross.value, Decimal) and isinstance(q, Decimal):
        if line.gross.value < q * Decimal("0.9") or line.gross.value > q * Decimal("1.1"):
            line.gross.confidence = 0.5
        else:
            line.gross.confidence = max(line.gross.confidence, 0.95)


def _tax_block(result: ParseResult, doc: _Doc, tables: list[_Table]) -> None:
    """Taxes and fees listed under the table (name … amount), up to the total."""
    if not tables:
        return
    last = tables[-1]
    start = last.end or (last.rows[-1] if last.rows else last.header)
    after = [ln for ln in doc.lines if (ln.page, ln.top) >= (start.page, start.top)]
    for ln in after:
        text = norm(ln.text)
        if len(ln.segs) < 2:
            continue
        name_seg, amount_seg = ln.segs[0], ln.segs[-1]
        amount = parse_number(amount_seg.text)
        if amount is None:
            continue
        name = " ".join(s.text for s in ln.segs[:-1] if parse_number(s.text) is None)
        if re.search(r"\b(sub ?total|total|amount due|balance due)\b", text) and not TAX_WORDS.search(name):
            continue
        if not TAX_WORDS.search(name):
            continue
        result.taxes.append(
            ParsedLine(
                kind="tax",
                description=ParsedField(name, 0.9, ln.page, name_seg.bbox, name, "tax block"),
                product=ParsedField(),
                gross=ParsedField(),
                net=ParsedField(),
                unit_price=ParsedField(),
                amount=ParsedField(
                    money(amount), 0.9, ln.page, amount_seg.bbox, amount_seg.text, "tax block"
                ),
                bol=ParsedField(),
            )
        )


def _checks(result: ParseResult) -> None:
    """Cross-checks that raise (or lower) confidence: lines + taxes = total."""
    total = result.fields.get("total")
    amounts = [
        ln.amount.value for ln in [*result.lines, *result.taxes] if isinstance(ln.amount.value, Decimal)
    ]
    if total is not None and isinstance(total.value, Decimal) and amounts:
        agrees = abs(sum(amounts, Decimal(0)) - total.value) <= Decimal("0.02")
        result.checks["total_matches_lines"] = agrees
        if agrees:
            total.confidence = 0.99
            for ln in [*result.lines, *result.taxes]:
                if ln.amount.confidence >= LOW_CONFIDENCE:  # a line whose arithmetic fails stays marked
                    ln.amount.confidence = max(ln.amount.confidence, 0.97)
        else:
            total.confidence = min(total.confidence, 0.7)
    bill, due = result.fields.get("bill_date"), result.fields.get("due_date")
    if bill is not None and due is not None and isinstance(bill.value, date) and isinstance(due.value, date):
        ordered = due.value >= bill.value
        result.checks["due_after_bill_date"] = ordered
        if not ordered:
            due.confidence = min(due.confidence, 0.5)


# --------------------------------------------------------------------------- learning from corrections


def learn_layout(
    data: bytes, *, confirmed: dict[str, str], previous: dict[str, dict[str, str]] | None = None
) -> dict[str, dict[str, str]]:
    """The supplier's layout from a confirmed bill: for each confirmed field value, the label seen left
    of it (or above it) on the document. ``confirmed`` maps field names to the text of the confirmed
    value as the user accepted or corrected it (dates as ISO, the terminal's printed name...)."""
    layout = dict(previous or {})
    doc, failure = _open(data)
    if doc is None or failure is not None:
        return layout
    pairs = _pairs(doc, set())
    for name, wanted in confirmed.items():
        if not wanted or name not in LABELS:
            continue
        for pair in pairs:
            parsed = _value_for(name, pair.value_text)
            if parsed is None:
                continue
            if _same_value(name, parsed[0], wanted):
                layout[name] = {"label": _label_text(pair), "dir": pair.direction}
                break
    return layout


def _same_value(name: str, value: Any, wanted: str) -> bool:
    if name in ("bill_date", "due_date"):
        return isinstance(value, date) and value.isoformat() == wanted
    if name == "bol_numbers":
        return sorted(value) == sorted(t for t in re.split(r"[\s,;]+", wanted) if t)
    if name == "total":
        try:
            return bool(value == money(Decimal(wanted)))
        except InvalidOperation:
            return False
    if name == "terminal":
        return similarity(str(value), wanted) >= 0.9 or _squash(wanted) in _squash(str(value))
    return _squash(str(value)) == _squash(wanted)
