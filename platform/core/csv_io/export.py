"""CSV export of any list (streamed, at most EXPORT_LIMIT rows), cells made safe for spreadsheets."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db import (
    connection,
)
from django.db.models import QuerySet
from django.http import HttpResponse, StreamingHttpResponse
from django.utils import timezone
from ninja import Schema

if TYPE_CHECKING:
    pass


EXPORT_LIMIT = 50_000
EXPORT_CHUNK = 1_000


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
LABEL_KEYS = ("name", "company_type", "alias_name", "code")
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def cell(value: Any) -> str:
    """One value as spreadsheet text. Text that a spreadsheet would run as a formula is quoted."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        for key in LABEL_KEYS:
            if value.get(key):
                return cell(value[key])
        return cell(value.get("id"))
    if isinstance(value, list | tuple):
        return "; ".join(cell(v) for v in value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    text = str(value)
    if text.startswith(FORMULA_START) and not NUMBER.match(text):
        return "'" + text
    return text


class _Echo:
    def write(self, value: str) -> str:
        return value


def export_header(out: type[Schema]) -> list[str]:
    return list(out.model_fields)


def export_lines(qs: QuerySet[Any], out: type[Schema], limit: int = EXPORT_LIMIT) -> Iterator[list[str]]:
    header = export_header(out)
    yield header
    for obj in qs[:limit].iterator(chunk_size=EXPORT_CHUNK):
        row = out.from_orm(obj).model_dump()
        yield [cell(row.get(name)) for name in header]


def export_response(qs: QuerySet[Any], out: type[Schema], basename: str) -> StreamingHttpResponse:
    """Stream the rows as CSV. The tenant is re-activated while streaming: the response body is
    produced after the request's middleware has put the connection back on the public schema."""
    tenant = connection.tenant  # type: ignore[attr-defined]
    total = qs.count()
    writer = csv.writer(_Echo())

    def body() -> Iterator[str]:
        connection.set_tenant(tenant)  # type: ignore[attr-defined]
        try:
            yield "\ufeff"  # so spreadsheet programs read the file as UTF-8
            for line in export_lines(qs, out):
                yield writer.writerow(line)
        finally:
            connection.set_schema_to_public()  # type: ignore[attr-defined]

    response = StreamingHttpResponse(body(), content_type="text/csv; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="{basename}-{stamp}.csv"'
    response["X-Total-Count"] = str(total)
    response["X-Export-Truncated"] = "true" if total > EXPORT_LIMIT else "false"
    response["Cache-Control"] = "no-store"
    return response


def csv_text_response(lines: Iterable[list[str]], filename: str) -> HttpResponse:
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer)
    for line in lines:
        writer.writerow(line)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


CSV_RESPONSE = {"200": {"description": "A CSV file", "content": {"text/csv": {"schema": {"type": "string"}}}}}
