"""The one document renderer: a template (the designer's JSON) + a document's data → HTML → PDF.

The designer's preview, the printable delivery ticket and the emailed invoice all come from
`render_html`, and the PDF is WeasyPrint's rendering of that same HTML, so what is previewed is
what prints.

Layout. Components are placed where the designer put them (absolute, in canvas pixels). One table
may grow with the document: the top-most line-items table flows in the page, so its rows continue
onto the next pages (header row repeated) and everything designed below it moves down with it.
Components above or beside that table form the page head, those below it the page foot.

Safety. Every text is escaped; styles pass an allow-list of properties and a strict value
pattern; images are data: URIs only (the renderer fetches nothing: no remote URL, no file path).
"""

from __future__ import annotations

import datetime as dt
import gc
import html
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from tenants.documents.contract import DOCUMENT_LABELS, TABLE_COLUMNS, VARIABLES, DocumentData
from tenants.documents.schemas import CanvasSettings, Component

PAGE_SIZES = {"A4": (794, 1123), "Letter": (816, 1056)}
FONT_STACK = "'DejaVu Sans', 'Helvetica Neue', Helvetica, Arial, sans-serif"
BODY_FONT_PX = 11
# Where the baseline of a line sits below its top, in em: DejaVu Sans (ascent 0.928, descent 0.236)
# at the body's line-height of 1.3: (1.3 - 1.164) / 2 + 0.928.
BASELINE_EM = 0.996

# camelCase style key → (css property, unit for bare numbers)
STYLE_PROPERTIES: dict[str, tuple[str, str]] = {
    "fontSize": ("font-size", "px"),
    "fontWeight": ("font-weight", ""),
    "fontStyle": ("font-style", ""),
    "fontFamily": ("font-family", ""),
    "color": ("color", ""),
    "backgroundColor": ("background-color", ""),
    "textAlign": ("text-align", ""),
    "textDecoration": ("text-decoration", ""),
    "textTransform": ("text-transform", ""),
    "letterSpacing": ("letter-spacing", "px"),
    "lineHeight": ("line-height", ""),
    "padding": ("padding", "px"),
    "border": ("border", ""),
    "borderTop": ("border-top", ""),
    "borderBottom": ("border-bottom", ""),
    "borderLeft": ("border-left", ""),
    "borderRight": ("border-right", ""),
    "borderColor": ("border-color", ""),
    "borderWidth": ("border-width", "px"),
    "borderStyle": ("border-style", ""),
    "borderRadius": ("border-radius", "px"),
    "verticalAlign": ("vertical-align", ""),
    "whiteSpace": ("white-space", ""),
    "opacity": ("opacity", ""),
}
# Letters, digits, spaces and the punctuation of colours, sizes and font lists; nothing that can
# open a url(), a rule or a comment.
SAFE_VALUE = re.compile(r"^[A-Za-z0-9#%.,()' -]{1,80}$")
FORBIDDEN_WORDS = ("url", "expression", "import", "javascript")
IMAGE_DATA_URI = re.compile(r"^data:image/(png|jpeg|gif|webp|svg\+xml)[;,]", re.IGNORECASE)
# tableType → the list of the document data it prints
TABLE_DATA = {"line_items": "lines", "fees": "fees", "taxes": "taxes"}
Q4 = Decimal("0.0001")
Q2 = Decimal("0.01")


# --- values ------------------------------------------------------------------------------------------
def lookup(data: Mapping[str, Any], path: str) -> Any:
    value: Any = data
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        else:
            return None
    return value


def _decimal(value: Any) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        return value if isinstance(value, Decimal) else Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def _grouped(value: Decimal, places: int) -> str:
    q = Decimal(1).scaleb(-places) if places else Decimal(1)
    return f"{value.quantize(q, rounding=ROUND_HALF_UP):,.{places}f}"


def format_value(value: Any, field_type: str) -> str:
    """A value as printed: money with 2 decimals and a $, unit prices with 4, quantities grouped."""
    if value is None or value == "":
        return ""
    if field_type in {"currency", "price", "number", "quantity"}:
        number = _decimal(value)
        if number is None:
            return str(value)
        if field_type == "currency":
            text = _grouped(abs(number), 2)
            return f"-${text}" if number < 0 else f"${text}"
        if field_type == "price":
            return f"${_grouped(number, 4)}"
        if field_type == "quantity":
            exponent = number.as_tuple().exponent
            places = max(0, min(3, -exponent)) if isinstance(exponent, int) else 0
            return _grouped(number, places)
        # format "f": 80 prints "80", never "8E+1" (what str() gives a normalized Decimal)
        return format(number.normalize(), "f") if number == number.to_integral() else str(number)
    if field_type == "date":
        day = value if isinstance(value, dt.date) else _parse_date(value)
        return day.strftime("%b %d, %Y") if day else str(value)
    if field_type == "datetime":
        moment = value if isinstance(value, dt.datetime) else _parse_datetime(value)
        return moment.strftime("%b %d, %Y %H:%M") if moment else str(value)
    if isinstance(value, list):
        return "\n".join(str(v) for v in value)
    return str(value)


def _parse_date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _parse_datetime(value: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None


def _text(value: str) -> str:
    return html.escape(value).replace("\n", "<br>")


def css(style: Mapping[str, Any] | None) -> str:
    """Inline CSS from a component style object, keeping only allowed properties and safe values."""
    out = []
    for key, raw in (style or {}).items():
        prop = STYLE_PROPERTIES.get(key)
        if prop is None or isinstance(raw, bool):
            continue
        name, unit = prop
        if isinstance(raw, int | float):
            if raw != raw or abs(raw) > 10_000:  # NaN, absurd sizes
                continue
            value = f"{raw:g}{unit}"
        else:
            value = str(raw).strip()
            if not SAFE_VALUE.match(value) or any(w in value.lower() for w in FORBIDDEN_WORDS):
                continue
        out.append(f"{name}:{value}")
    return ";".join(out)


# --- layout ------------------------------------------------------------------------------------------
def _box(c: Component, left: float, top: float, extra: str = "") -> str:
    style = (
        f"left:{left:g}px;top:{top:g}px;width:{c.size.width:g}px;height:{c.size.height:g}px;"
        f"z-index:{c.zIndex}"
    )
    own = css(c.style)
    return f'style="{style};{own}{";" if own and extra else ""}{extra}"'


def _image_src(c: Component, data: Mapping[str, Any]) -> str:
    src = c.content
    if c.variableName:
        src = str(lookup(data, c.variableName) or "")
    return src if IMAGE_DATA_URI.match(src) else ""


def _field(c: Component, data: Mapping[str, Any]) -> tuple[str, str]:
    """A field's content and the classes its positioned box takes (`field`, `field vertical`): the
    key and the value sit directly in the component's box, one box fewer to lay out per field."""
    known = VARIABLES.get(c.variableName)
    field_type = c.fieldType if c.fieldType and c.fieldType != "text" else (known[1] if known else "text")
    if field_type == "image":
        return "", _image(c, data)
    label = c.label or (known[0] if known else c.variableName)
    value = format_value(lookup(data, c.variableName), field_type) if c.variableName else ""
    key = ""
    key_css, value_css = css(c.keyStyle), css(c.valueStyle)
    if c.keyVisible and label:
        if c.layout != "vertical":
            key_css, value_css = _baseline_aligned(c, key_css, value_css)
        key = f'<span class="k" style="{key_css}">{_text(label)}</span>'
    cls = "field vertical" if c.layout == "vertical" else "field"
    value_html = f'<span class="v" style="{value_css}">{_text(value)}</span>'
    return cls, f"{key}{value_html}"


def _font_px(style: Mapping[str, Any] | None) -> float | None:
    raw = (style or {}).get("fontSize", BODY_FONT_PX)
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float):
        return float(raw)
    text = str(raw).strip().removesuffix("px")
    try:
        return float(text)
    except ValueError:
        return None


def _baseline_aligned(c: Component, key_css: str, value_css: str) -> tuple[str, str]:
    """A horizontal field is a floated key beside its value (cheaper to lay out than a flexbox,
    about a third of a render's time). The float sits at the top of the line, so when the key and
    the value have different font sizes the smaller one is moved down to share the baseline, as
    `align-items: baseline` did: the baseline of a line of size s is BASELINE_EM * s below its top."""
    if any("lineHeight" in (s or {}) for s in (c.keyStyle, c.valueStyle)):
        return key_css, value_css
    k, v = _font_px(c.keyStyle), _font_px(c.valueStyle)
    if k is None or v is None or k == v:
        return key_css, value_css
    shift = f"{abs(v - k) * BASELINE_EM:.2f}px"
    if v > k:
        return f"{key_css};margin-top:{shift}" if key_css else f"margin-top:{shift}", value_css
    return key_css, f"{value_css};padding-top:{shift}" if value_css else f"padding-top:{shift}"


def _image(c: Component, data: Mapping[str, Any]) -> str:
    src = _image_src(c, data)
    if not src:
        return ""
    return f'<img src="{html.escape(src, quote=True)}" alt="{html.escape(c.label or "image")}">'


def _table(c: Component, data: Mapping[str, Any]) -> str:
    catalogue = TABLE_COLUMNS.get(c.tableType, {})
    columns = c.columns
    if not columns and c.tableType != "static":
        from tenants.documents.schemas import TableColumn

        columns = [TableColumn(key=k, label=v[0], width=None) for k, v in catalogue.items()][:6]
    head = ""
    widths = [col.width for col in columns]
    colgroup = (
        "<colgroup>"
        + "".join(f'<col style="width:{w:g}%">' if w else "<col>" for w in widths)
        + "</colgroup>"
        if any(widths)
        else ""
    )
    aligns = []
    for col in columns:
        kind = catalogue.get(col.key, ("", "text"))[1]
        aligns.append(
            col.align or ("right" if kind in {"currency", "price", "quantity", "number"} else "left")
        )
    if c.showHeaders and columns:
        cells = "".join(
            f'<th style="text-align:{a};{css(c.keyStyle)}">'
            f"{_text(col.label or catalogue.get(col.key, (col.key,))[0])}</th>"
            for col, a in zip(columns, aligns, strict=True)
        )
        head = f"<thead><tr>{cells}</tr></thead>"
    body_rows: list[str] = []
    if c.tableType == "static":
        for row in c.rows:
            cells = "".join(f'<td style="{css(c.valueStyle)}">{_text(cell)}</td>' for cell in row)
            body_rows.append(f"<tr>{cells}</tr>")
    else:
        items = lookup(data, TABLE_DATA.get(c.tableType, c.tableType)) or []
        for item in items if isinstance(items, list) else []:
            fields = item if isinstance(item, Mapping) else {}
            cells = "".join(
                f'<td style="text-align:{a};{css(c.valueStyle)}">'
                f"{_text(format_value(fields.get(col.key), catalogue.get(col.key, ('', 'text'))[1]))}</td>"
                for col, a in zip(columns, aligns, strict=True)
            )
            body_rows.append(f"<tr>{cells}</tr>")
    # With every column's width given, the fixed table layout gives the same columns without
    # measuring every cell's content first (WeasyPrint's auto layout lays each cell out twice more).
    cls = "t fixed" if widths and all(widths) else "t"
    return f'<table class="{cls}">{colgroup}{head}<tbody>{"".join(body_rows)}</tbody></table>'


def _content(c: Component, data: Mapping[str, Any]) -> str:
    if c.type == "text":
        return f'<div class="text" style="{css(c.valueStyle)}">{_text(c.content)}</div>'
    if c.type == "image":
        return _image(c, data)
    if c.type == "sales-order-table":
        return _table(c, data)
    if c.type == "line":
        return '<div class="rule"></div>'
    return ""


def _render(
    c: Component, by_id: Mapping[str, Component], data: Mapping[str, Any], ox: float, oy: float
) -> str:
    left, top = c.position.x - ox, c.position.y - oy
    extra = ""
    if c.type == "sales-order-field":
        extra, inner = _field(c, data)
    elif c.type == "container":
        kids = sorted((by_id[k] for k in c.children if k in by_id), key=lambda k: k.zIndex)
        inner = "".join(_render(k, by_id, data, c.position.x, c.position.y) for k in kids)
    else:
        inner = _content(c, data)
    cls = f"c {html.escape(c.type)} {extra}" if extra else f"c {html.escape(c.type)}"
    return f'<div class="{cls}" {_box(c, left, top)}>{inner}</div>'


def _top_level(components: Iterable[Component]) -> list[Component]:
    comps = list(components)
    ids = {c.id for c in comps}
    contained = {k for c in comps if c.type == "container" for k in c.children if k in ids}
    return sorted((c for c in comps if c.id not in contained), key=lambda c: (c.zIndex, c.position.y))


def render_html(
    template: Any,
    data: DocumentData | Mapping[str, Any],
    *,
    title: str | None = None,
) -> str:
    """HTML of one document: `template` is a DocumentTemplate row or an object with `components`
    and `canvasSettings` (the designer's JSON); `data` follows the contract (contract.py)."""
    components, canvas = _template_parts(template)
    doc = data if isinstance(data, DocumentData) else DocumentData.model_validate(data)
    values = doc.model_dump(mode="python")
    by_id = {c.id: c for c in components}
    top = _top_level(components)
    page_w = PAGE_SIZES[canvas.pageSize][0]
    pad = canvas.padding
    flow = next(
        iter(
            sorted(
                (c for c in top if c.type == "sales-order-table" and c.tableType == "line_items"),
                key=lambda c: c.position.y,
            )
        ),
        None,
    )
    parts: list[str] = []
    if flow is None:
        parts.append(_band(top, by_id, values, pad.left, pad.top, canvas.height - pad.top - pad.bottom))
    else:
        t_top, t_bottom = flow.position.y, flow.position.y + flow.size.height
        head = [c for c in top if c is not flow and c.position.y < t_bottom]
        foot = [c for c in top if c is not flow and c.position.y >= t_bottom]
        parts.append(_band(head, by_id, values, pad.left, pad.top, max(0.0, t_top - pad.top)))
        parts.append(
            f'<div class="flow" style="margin-left:{flow.position.x - pad.left:g}px;'
            f'width:{flow.size.width:g}px;min-height:{flow.size.height:g}px;{css(flow.style)}">'
            f"{_table(flow, values)}</div>"
        )
        foot_h = max((c.position.y + c.size.height for c in foot), default=t_bottom) - t_bottom
        parts.append(_band(foot, by_id, values, pad.left, t_bottom, foot_h))
    doc_title = (
        title
        or f"{doc.document.title or DOCUMENT_LABELS.get(doc.type, 'Document')} {doc.document.number}".strip()
    )
    shadow = canvas.shadow
    screen_shadow = (
        f"box-shadow:{shadow.x:g}px {shadow.y:g}px {shadow.blur:g}px {shadow.spread:g}px "
        f"{_color(shadow.color, 'rgba(0,0,0,.15)')};"
        if shadow.enabled
        else "box-shadow:0 1px 4px rgba(0,0,0,.2);"
    )
    bg = _color(canvas.backgroundColor, "#ffffff")
    border = (
        f"{canvas.border.width:g}px solid {_color(canvas.border.color, '#e0e0e0')}"
        if canvas.border.width
        else "none"
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(doc_title)}</title>
<style>
@page {{ size: {canvas.pageSize}; background: {bg};
  margin: {pad.top:g}px {pad.right:g}px {pad.bottom:g}px {pad.left:g}px; }}
* {{ box-sizing: border-box; }}
html, body {{ margin: 0; padding: 0; }}
body {{ font-family: {FONT_STACK}; font-size: {BODY_FONT_PX}px; color: #1f2933; line-height: 1.3;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
.page {{ width: {page_w - pad.left - pad.right:g}px; }}
.band {{ position: relative; }}
.c {{ position: absolute; overflow: visible; }}
.c.container {{ overflow: hidden; }}
.c img {{ display: block; max-width: 100%; max-height: 100%; object-fit: contain; }}
.field .k {{ float: left; margin-right: 6px; }}
.field .v {{ display: block; }}
.field.vertical .k {{ float: none; display: block; margin: 0 0 2px; }}
.field.vertical .v {{ display: inline; }}
.k {{ color: #52606d; font-weight: 600; white-space: nowrap; }}
.v {{ white-space: pre-wrap; }}
.text {{ white-space: normal; }}
.rule {{ border-top: 1px solid #9aa5b1; position: relative; top: 50%; }}
table.t {{ width: 100%; border-collapse: collapse; }}
table.t.fixed {{ table-layout: fixed; }}
table.t th {{ background: #eef2f6; color: #323f4b; font-weight: 600; text-align: left;
  padding: 5px 6px; border-bottom: 1px solid #9aa5b1; font-size: 10px;
  text-transform: uppercase; letter-spacing: .3px; }}
table.t td {{ padding: 5px 6px; border-bottom: 1px solid #e4e7eb; vertical-align: top; }}
table.t thead {{ display: table-header-group; }}
table.t tr {{ page-break-inside: avoid; break-inside: avoid; }}
@media screen {{
  html {{ background: #eceff1; }}
  body {{ padding: 16px 0; }}
  .page {{ box-sizing: content-box; margin: 0 auto; background: {bg}; border: {border}; {screen_shadow}
    padding: {pad.top:g}px {pad.right:g}px {pad.bottom:g}px {pad.left:g}px;
    min-height: {canvas.height - pad.top - pad.bottom:g}px; }}
}}
@media print {{ html, body {{ background: {bg}; }} }}
</style></head>
<body><div class="page">{"".join(parts)}</div></body></html>
"""


def _band(
    comps: list[Component],
    by_id: Mapping[str, Component],
    values: Mapping[str, Any],
    ox: float,
    oy: float,
    height: float,
) -> str:
    inner = "".join(_render(c, by_id, values, ox, oy) for c in comps)
    return f'<div class="band" style="height:{max(0.0, height):g}px">{inner}</div>'


def _color(value: str, default: str) -> str:
    value = value.strip()
    return (
        value if SAFE_VALUE.match(value) and not any(w in value.lower() for w in FORBIDDEN_WORDS) else default
    )


def _template_parts(template: Any) -> tuple[list[Component], CanvasSettings]:
    if isinstance(template, Mapping):
        raw_components = template.get("components") or []
        raw_canvas = template.get("canvasSettings") or template.get("canvas_settings") or {}
    else:
        raw_components = getattr(template, "components", None) or []
        raw_canvas = (
            getattr(template, "canvasSettings", None) or getattr(template, "canvas_settings", None) or {}
        )
    components = [c if isinstance(c, Component) else Component.model_validate(c) for c in raw_components]
    canvas = (
        raw_canvas if isinstance(raw_canvas, CanvasSettings) else CanvasSettings.model_validate(raw_canvas)
    )
    return components, canvas


# --- PDF ---------------------------------------------------------------------------------------------
def _fetcher() -> Any:
    """WeasyPrint's fetcher: data: URIs only. Nothing on the network or the disk is ever read."""
    from weasyprint.urls import URLFetcher

    return URLFetcher(allowed_protocols={"data"}, allow_redirects=False, fail_on_errors=False)


_fonts = threading.local()


def _font_config() -> Any:
    """One font configuration per thread, reused across renders (about 12 % of a render's CPU)."""
    config = getattr(_fonts, "config", None)
    if config is None:
        from weasyprint.text.fonts import FontConfiguration

        config = _fonts.config = FontConfiguration()
    return config


_gc_lock = threading.Lock()
_gc_paused = 0  # renders in progress that paused the cyclic garbage collector
_gc_was_enabled = False


@contextmanager
def _young_garbage_collected_once() -> Iterator[None]:
    """Run a render with Python's cyclic garbage collector paused, then collect the youngest
    generation once.

    A render allocates a few hundred thousand objects that live until it ends (boxes, styles,
    layouts) and die in reference cycles. With the collector running, the periodic young
    collections find them alive and promote them, and every few renders they trigger a full
    collection of the whole process heap (Django, WeasyPrint, the app: ~150 ms of CPU each time,
    the p95 of a render). Paused, they all stay in the youngest generation and one collection of
    that generation (about 10 ms) frees them at the end. Reference counting still frees everything
    that is not in a cycle during the render. The pause is shared by concurrent renders (a counter
    under a lock): the collector comes back when the last one ends, never left off."""
    global _gc_paused, _gc_was_enabled
    with _gc_lock:
        if _gc_paused == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_paused += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_paused -= 1
            if _gc_paused == 0 and _gc_was_enabled:
                gc.enable()
        gc.collect(0)


def render_pdf(html_text: str) -> bytes:
    """The PDF of an HTML document made by `render_html` (WeasyPrint, print media)."""
    from weasyprint import HTML

    with _young_garbage_collected_once():
        pdf = HTML(string=html_text, url_fetcher=_fetcher(), base_url=None).write_pdf(
            font_config=_font_config()
        )
    assert pdf is not None
    return bytes(pdf)
