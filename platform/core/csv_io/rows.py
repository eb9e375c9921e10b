"""Checking and writing the rows of a file with the resource's own create schema and service."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    DataError,
    IntegrityError,
    connection,
    connections,
    transaction,
)
from django.db.models import ProtectedError, RestrictedError
from ninja import Schema
from ninja.errors import HttpError
from pydantic import ValidationError as PydanticValidationError

from core.csv_io.targets import ImportTarget, Lookup, store

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


MAX_STORED_ERRORS = 500
SAMPLE_ROWS = 10
PROGRESS_EVERY = 100


@dataclass
class RowError:
    row: int
    field: str | None
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"row": self.row, "field": self.field, "message": self.message}


class Resolver:
    """Turns lookup columns into ids, remembering every value it has resolved."""

    def __init__(self, lookups: Iterable[Lookup]) -> None:
        self.lookups = tuple(lookups)
        self.memo: dict[tuple[str, Any, str], tuple[int | None, str | None]] = {}

    def apply(self, raw: dict[str, str], data: dict[str, Any]) -> list[tuple[str | None, str]]:
        errors: list[tuple[str | None, str]] = []
        for lk in self.lookups:
            value = raw.get(lk.column, "")
            if not value:
                continue  # the id column (if any) is used as it is; a name, when given, wins over it
            scope = data.get(lk.within[1]) if lk.within else None
            key = (lk.column, scope, value.lower())
            if key not in self.memo:
                self.memo[key] = self._resolve(lk, value, scope)
            found, error = self.memo[key]
            if error:
                errors.append((lk.column, error))
            else:
                data[lk.field] = found
        return errors

    @staticmethod
    def _resolve(lk: Lookup, value: str, scope: Any) -> tuple[int | None, str | None]:
        label = str(lk.model._meta.verbose_name)
        base = lk.model._default_manager.all()
        if lk.within and scope is not None:
            base = base.filter(**{lk.within[0]: scope})
        for fname in lk.match:
            ids = list(base.filter(**{f"{fname}__iexact": value}).values_list("pk", flat=True)[:2])
            if len(ids) == 1:
                return ids[0], None
            if len(ids) > 1:
                return None, (
                    f"More than one {label} matches '{value}'. Use a value that names one, or "
                    f"leave {lk.column} empty and give {lk.field}."
                )
        return None, f"No {label} matches '{value}'."


FIELD_PREFIX = re.compile(r"^([a-z_][a-z0-9_]*): (.+)$", re.S)


def _error_of(exc: Exception, known: set[str]) -> tuple[str | None, str]:
    if isinstance(exc, HttpError):
        message = str(exc)
        fields = getattr(exc, "extra", {}).get("fields")
        if fields:
            return ", ".join(fields), message
    elif isinstance(exc, DjangoValidationError):
        message = "; ".join(exc.messages)
    elif isinstance(exc, IntegrityError):
        message = "This conflicts with an existing record (a value that must be unique is taken)."
    elif isinstance(exc, DataError):
        message = "A value is out of range or badly formed."
    else:
        message = str(exc)
    match = FIELD_PREFIX.match(message)
    if match and match.group(1) in known:
        return match.group(1), match.group(2)
    return None, message


Problems = list[tuple[str | None, str]]


def build_row(
    raw: dict[str, str], create_in: type[Schema], resolver: Resolver
) -> tuple[dict[str, Any], Problems]:
    """The create payload of one CSV row, or its errors as (field, message) pairs."""
    data: dict[str, Any] = {k: v for k, v in raw.items() if v != "" and k in create_in.model_fields}
    errors = resolver.apply(raw, data)
    if errors:
        return {}, errors
    try:
        payload = create_in.model_validate(data)
    except PydanticValidationError as exc:
        for err in exc.errors()[:5]:
            loc = [str(p) for p in err.get("loc", ())]
            errors.append((loc[0] if loc else None, str(err.get("msg", "is invalid"))))
        return {}, errors
    return payload.dict(), []


class ProgressWriter:
    """Writes `processed` of a running import on its own connection, so pollers see it while the
    import's own transaction (which holds every written row) is still open. Best effort."""

    def __init__(self, import_id: int, enabled: bool) -> None:
        self.import_id = import_id
        self.enabled = enabled
        self.conn: Any = None

    def update(self, processed: int) -> None:
        if not self.enabled or processed % PROGRESS_EVERY:
            return
        from core.jobs import report_progress

        report_progress()  # the stuck-job reaper watches this
        try:
            if self.conn is None:
                self.conn = connections.create_connection(DEFAULT_DB_ALIAS)
                self.conn.set_schema(connection.schema_name)  # type: ignore[attr-defined]
                with self.conn.cursor() as cur:
                    cur.execute("SET lock_timeout = '1s'")
            with self.conn.cursor() as cur:
                cur.execute(
                    f'UPDATE "{store().model._meta.db_table}" SET processed = %s WHERE id = %s',  # noqa: S608
                    [processed, self.import_id],
                )
        except DatabaseError:
            log.warning("could not record progress of import %s", self.import_id, exc_info=True)
            self.enabled = False

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


@dataclass
class Outcome:
    valid: int = 0
    errors: list[RowError] = field(default_factory=list)
    error_rows: int = 0
    sample: list[dict[str, str]] = field(default_factory=list)


ROW_ERRORS = (HttpError, DjangoValidationError, IntegrityError, DataError, ProtectedError, RestrictedError)


def process_rows(
    rows: list[dict[str, str]],
    target: ImportTarget,
    *,
    write: bool,
    progress: Callable[[int], None] | None = None,
) -> Outcome:
    """Create every row in one transaction; keep it only if `write` and no row failed."""
    assert target.importer is not None
    resolver = Resolver(target.importer.lookups)
    known = set(target.create_in.model_fields) | {lk.column for lk in target.importer.lookups}
    outcome = Outcome()
    with transaction.atomic():
        for index, raw in enumerate(rows):
            line = index + 2  # spreadsheet row: the header is row 1
            data, problems = build_row(raw, target.create_in, resolver)
            if not problems:
                try:
                    with transaction.atomic():
                        target.create_row(data)
                except ROW_ERRORS as exc:
                    problems = [_error_of(exc, known)]
            if problems:
                outcome.error_rows += 1
                for fname, message in problems:
                    if len(outcome.errors) < MAX_STORED_ERRORS:
                        outcome.errors.append(RowError(line, fname, message))
            else:
                outcome.valid += 1
                if len(outcome.sample) < SAMPLE_ROWS:
                    outcome.sample.append({"row": str(line), **raw})
            if progress is not None:
                progress(index + 1)
        if not write or outcome.error_rows:
            transaction.set_rollback(True)
    return outcome
