"""Reading an uploaded file: its encoding, its header, its rows."""

from __future__ import annotations

import csv
import io
import re
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ninja import Schema

from core.csv_io.targets import CsvImport
from core.errors import ApiError

if TYPE_CHECKING:
    pass


def normalize_header(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().strip("*").strip().lower())


def decode(data: bytes) -> str:
    if b"\x00" in data[:4096]:
        raise ApiError(
            422, "The file is not a CSV file (it looks binary). Save it as CSV and upload it again."
        )
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ApiError(422, "The file's text encoding is not readable. Save it as CSV UTF-8 and upload it again.")


@dataclass
class Table:
    columns: list[str]  # the accepted columns found in the header
    ignored: list[str]
    rows: list[dict[str, str]]  # accepted columns only, values stripped


def _is_list(annotation: Any) -> bool:
    origins = {typing.get_origin(annotation), *(typing.get_origin(a) for a in typing.get_args(annotation))}
    return bool(origins & {list, tuple, set})


def accepted_columns(importer: CsvImport, create_in: type[Schema]) -> set[str]:
    """The template's columns, the lookups, and every plain field of the create schema (lists such as
    many-to-many ids are not importable from one cell)."""
    fields = {name for name, f in create_in.model_fields.items() if not _is_list(f.annotation)}
    return set(importer.columns) | fields | {lk.column for lk in importer.lookups}


def read_table(data: bytes, importer: CsvImport, create_in: type[Schema]) -> Table:
    text = decode(data)
    if not text.strip():
        raise ApiError(422, "The file is empty.")
    first_line = text.lstrip().splitlines()[0]
    try:
        dialect: Any = csv.Sniffer().sniff(first_line, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text.lstrip()), dialect)
    try:
        header = [normalize_header(h) for h in next(reader)]
    except (StopIteration, csv.Error) as exc:
        raise ApiError(422, "The file has no header row.") from exc
    accepted = accepted_columns(importer, create_in)
    columns = [h for h in dict.fromkeys(header) if h in accepted]
    ignored = [h for h in dict.fromkeys(header) if h and h not in accepted]
    missing = []
    for need in importer.required:
        options = (need,) if isinstance(need, str) else need
        if not any(opt in columns for opt in options):
            missing.append(" or ".join(options))
    if missing:
        raise ApiError(
            422,
            f"The file has no column for: {', '.join(missing)}. "
            f"Importable columns: {', '.join(importer.columns)}.",
            fields=missing,
        )
    rows: list[dict[str, str]] = []
    try:
        for values in reader:
            if not any(v.strip() for v in values):
                continue
            if len(rows) >= importer.max_rows:
                raise ApiError(
                    422,
                    f"The file has more than {importer.max_rows:,} rows. Split it into "
                    "smaller files and import them one by one.",
                )
            row: dict[str, str] = {}
            for name, value in zip(header, values, strict=False):
                if name in accepted and name not in row:
                    row[name] = _unquote(value.strip())
            rows.append(row)
    except csv.Error as exc:
        raise ApiError(422, f"The file is not valid CSV near line {reader.line_num}: {exc}.") from exc
    if not rows:
        raise ApiError(422, "The file has no rows under its header.")
    return Table(columns=columns, ignored=ignored, rows=rows)


def _unquote(value: str) -> str:
    # Our exports quote text that starts like a formula ('=…); take the quote off again.
    if len(value) > 1 and value[0] == "'" and value[1] in "=+-@":
        return value[1:]
    return value
