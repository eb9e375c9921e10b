"""The import's answer."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from ninja import Schema

if TYPE_CHECKING:
    pass


class ImportRowError(Schema):
    row: int
    field: str | None
    message: str


class DataImportOut(Schema):
    import_id: int
    resource: str
    file_name: str
    status: str
    total_rows: int
    processed: int
    valid_rows: int
    error_rows: int
    created_rows: int
    columns: list[str]
    ignored_columns: list[str]
    errors: list[ImportRowError]
    sample: list[dict[str, str]]
    message: str
    created_at: dt.datetime
    finished_at: dt.datetime | None

    @staticmethod
    def resolve_import_id(obj: Any) -> int:
        return int(obj.pk)
