"""CSV export of any list and CSV import (preview, then confirm, all or nothing) of chosen lists.

The CRUD helper wires these to `<list path>/export` and `<list path>/import…`; a resource only says
which columns it imports (`CsvImport`). Rows are checked with the resource's own create schema and
create service, so an imported row obeys exactly the rules of the API's POST.

Import flow (state in the tenant's import rows: the model and the worker actor belong to an app,
tenants/imports, which plugs them in with `register_store`, so the kit imports no domain app):
1. upload: the file is parsed, stored under the tenant's prefix, and every row is checked by a dry
   run (written inside a transaction that is rolled back): nothing is kept. The answer is the preview.
2. confirm: the same rows are written in one transaction; any failing row rolls back every row.
Files over `SYNC_ROW_LIMIT` rows are checked and written by the worker; the client polls the import.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import logging
import re
import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

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
from django.db import models as dj_models
from django.db.models import ProtectedError, QuerySet, RestrictedError, TextChoices
from django.http import HttpResponse, StreamingHttpResponse
from django.utils import timezone
from ninja import Schema
from ninja.errors import HttpError
from pydantic import ValidationError as PydanticValidationError

from core.errors import ApiError

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile

log = logging.getLogger(__name__)

EXPORT_LIMIT = 50_000
EXPORT_CHUNK = 1_000
SYNC_ROW_LIMIT = 300  # larger files are checked and written by the worker, with progress
MAX_IMPORT_ROWS = 20_000
MAX_STORED_ERRORS = 500
SAMPLE_ROWS = 10
PROGRESS_EVERY = 100
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
LABEL_KEYS = ("name", "company_type", "alias_name", "code")
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


# --- export ------------------------------------------------------------------------------------
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
    tenant = connection.tenant
    total = qs.count()
    writer = csv.writer(_Echo())

    def body() -> Iterator[str]:
        connection.set_tenant(tenant)
        try:
            yield "\ufeff"  # so spreadsheet programs read the file as UTF-8
            for line in export_lines(qs, out):
                yield writer.writerow(line)
        finally:
            connection.set_schema_to_public()

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


# --- import: where jobs are kept (plugged in by the imports app) ---------------------------------
class ImportStatus(TextChoices):
    VALIDATING = "validating"  # being checked by the worker
    READY = "ready"  # checked, every row valid: can be confirmed
    INVALID = "invalid"  # checked, some rows have errors: fix the file and upload it again
    IMPORTING = "importing"  # confirmed, being written
    COMPLETED = "completed"  # every row written
    FAILED = "failed"  # confirmed but nothing written (a row failed at write time, or an error)


# An import job row: a model with the fields of `DataImportOut` (+ file_key, in_worker, created_by).
ImportJob = Any


@dataclass(frozen=True)
class ImportStore:
    """The model that keeps import jobs and how to queue the worker's half of one (phase
    "validate" or "import", for a tenant schema). An app registers it when Django starts."""

    model: type[dj_models.Model]
    enqueue: Callable[[int, str, str], None]


_STORE: list[ImportStore] = []


def register_store(store: ImportStore) -> None:
    _STORE[:] = [store]


def store() -> ImportStore:
    if not _STORE:
        raise RuntimeError("No import store is registered: add tenants.imports to TENANT_APPS.")
    return _STORE[0]


def _jobs() -> Any:
    return store().model._default_manager


# --- import: what a resource imports ------------------------------------------------------------
@dataclass(frozen=True)
class Lookup:
    """A column that names a related row (`state` = "TX" or "Texas") and fills its id field. When a
    row has both, the name wins: an exported file (which carries both) then imports into any company."""

    column: str
    field: str  # the create schema's field it fills, e.g. "state_id"
    model: type[dj_models.Model]
    match: tuple[str, ...]  # model fields compared case-insensitively, in this order
    within: tuple[str, str] | None = None  # (model field, data field): a city within the row's state
    description: str = ""


@dataclass(frozen=True)
class CsvImport:
    """The columns a resource imports. `columns` are the template's columns, in order, with a
    description each; every field of the create schema is accepted too (e.g. `state_id`)."""

    columns: dict[str, str]
    required: tuple[str | tuple[str, ...], ...] = ()  # a tuple: any one of these columns
    lookups: tuple[Lookup, ...] = ()
    max_rows: int = MAX_IMPORT_ROWS


class ImportTarget(Protocol):
    resource: str
    label: str
    create_in: type[Schema]
    importer: CsvImport | None

    def create_row(self, data: dict[str, Any]) -> Any: ...


_TARGETS: dict[str, ImportTarget] = {}


def register_target(target: ImportTarget) -> None:
    _TARGETS[target.resource] = target


def target_for(resource: str) -> ImportTarget:
    if resource not in _TARGETS:
        import_module("fueldesk.api")  # in the worker the API (and so the resources) is not loaded yet
    try:
        return _TARGETS[resource]
    except KeyError as exc:
        raise ApiError(404, f"Nothing can be imported into {resource}.") from exc


def describe_columns(importer: CsvImport) -> str:
    lines = [f"- `{name}`: {text}" for name, text in importer.columns.items()]
    return "Importable columns (a header row is required; other columns are ignored):\n" + "\n".join(lines)


# --- import: reading a file ----------------------------------------------------------------------
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


# --- import: checking and writing rows -----------------------------------------------------------
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
                self.conn.set_schema(connection.schema_name)
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


# --- import: the flow ------------------------------------------------------------------------------
def _load_rows(imp: ImportJob, target: ImportTarget) -> list[dict[str, str]]:
    from core.storage import open_tenant_file

    assert target.importer is not None
    data, _ = open_tenant_file(imp.file_key)
    return read_table(data, target.importer, target.create_in).rows


def _run(imp: ImportJob, target: ImportTarget, *, write: bool) -> ImportJob:
    rows = _load_rows(imp, target)
    writer = ProgressWriter(imp.pk, enabled=imp.in_worker)
    try:
        outcome = process_rows(rows, target, write=write, progress=writer.update)
    finally:
        writer.close()
    imp.total_rows = len(rows)
    imp.processed = len(rows)
    imp.valid_rows = outcome.valid
    imp.error_rows = outcome.error_rows
    imp.errors = [e.as_dict() for e in outcome.errors]
    imp.finished_at = timezone.now()
    label = target.label.lower()
    if not write:
        imp.sample = outcome.sample
        if outcome.error_rows:
            imp.status = ImportStatus.INVALID
            imp.message = (
                f"{outcome.error_rows} of {len(rows)} rows have errors. Fix them and upload the "
                "file again; nothing has been imported."
            )
        else:
            imp.status = ImportStatus.READY
            imp.message = f"All {len(rows)} rows are valid. Confirm to import them."
    elif outcome.error_rows:
        imp.status = ImportStatus.FAILED
        imp.created_rows = 0
        imp.message = (
            f"Nothing was imported: {outcome.error_rows} of {len(rows)} rows failed. Fix them and "
            "upload the file again."
        )
    else:
        imp.status = ImportStatus.COMPLETED
        imp.created_rows = outcome.valid
        imp.message = f"Imported {outcome.valid} {label} row{'s' if outcome.valid != 1 else ''}."
    imp.save()
    return imp


def start_import(target: ImportTarget, upload: UploadedFile, user: Any) -> ImportJob:
    """Check an uploaded file (the preview). Small files are checked now, large ones by the worker."""
    from core.storage import save_upload

    assert target.importer is not None
    from core.uploads import read_upload

    data = read_upload(upload)
    table = read_table(data, target.importer, target.create_in)
    upload.seek(0)
    stored = save_upload(upload, "import")
    imp = _jobs().create(
        resource=target.resource,
        file_key=stored.file_key,
        file_name=stored.file_name,
        status=ImportStatus.VALIDATING,
        in_worker=len(table.rows) > SYNC_ROW_LIMIT,
        total_rows=len(table.rows),
        columns=table.columns,
        ignored_columns=table.ignored,
        created_by=user if getattr(user, "pk", None) else None,
        message=f"Checking {len(table.rows)} rows…",
    )
    if imp.in_worker:
        _enqueue(imp.pk, "validate")
        return imp
    return _run(imp, target, write=False)


def get_import(target: ImportTarget, import_id: int, *, lock: bool = False) -> ImportJob:
    qs = _jobs().filter(pk=import_id, resource=target.resource)
    imp = (qs.select_for_update() if lock else qs).first()
    if imp is None:
        raise ApiError(404, "Import not found")
    return imp


def confirm_import(target: ImportTarget, import_id: int) -> ImportJob:
    """Write a checked file: all rows in one transaction, or none."""
    status = ImportStatus
    with transaction.atomic():
        imp = get_import(target, import_id, lock=True)
        if imp.status == status.INVALID:
            raise ApiError(
                422,
                f"Nothing was imported: {imp.error_rows} of {imp.total_rows} rows have "
                "errors. Fix them and upload the file again.",
                errors=imp.errors,
            )
        if imp.status == status.VALIDATING:
            raise ApiError(409, "The file is still being checked. Confirm it when the preview is ready.")
        if imp.status == status.IMPORTING:
            raise ApiError(409, "This file is already being imported.")
        if imp.status == status.COMPLETED:
            raise ApiError(409, "This file has already been imported.")
        if imp.in_worker:
            imp.status = status.IMPORTING
            imp.processed = 0
            imp.message = f"Importing {imp.total_rows} rows…"
            imp.save()
            _enqueue(imp.pk, "import")
            return imp
        imp = _run(imp, target, write=True)
    if imp.status == status.FAILED:
        raise ApiError(422, imp.message, errors=imp.errors)
    return imp


def _enqueue(import_id: int, phase: str) -> None:
    """Queue the job once the import row is committed. The tenant is stamped now, while it is active
    (the commit hook may run after the request has put the connection back on the public schema)."""
    schema = connection.schema_name
    enqueue = store().enqueue
    transaction.on_commit(lambda: enqueue(import_id, phase, schema))


def job_lock_key(import_id: int) -> str:
    return f"{connection.schema_name}:data-import:{import_id}"


def _take_job_lock(import_id: int, *, wait: bool) -> bool:
    """A transaction-level advisory lock held by whoever is checking or writing this import. A worker
    killed mid-run loses it with its connection (and its transaction is rolled back: all or nothing);
    a redelivered message waits for a run still holding it, and the reaper knows such a run is alive."""
    fn = "pg_advisory_xact_lock" if wait else "pg_try_advisory_xact_lock"
    with connection.cursor() as cur:
        cur.execute(f"SELECT {fn}(hashtextextended(%s, 0))", [job_lock_key(import_id)])
        row = cur.fetchone()
    return True if wait else bool(row and row[0])


def run_job(import_id: int, phase: str) -> None:
    """The worker's half: check ("validate") or write ("import") a large file.

    Idempotent, so a redelivered message (a worker killed mid-import: Dramatiq requeues its message)
    is safe: under the import's lock, a job that is no longer in the expected state does nothing, and
    one that is starts again from the first row (the killed run's transaction wrote nothing)."""
    from core.jobs import report_outcome

    expected = ImportStatus.VALIDATING if phase == "validate" else ImportStatus.IMPORTING
    failure: Exception | None = None
    with transaction.atomic():
        _take_job_lock(import_id, wait=True)
        imp = _jobs().filter(pk=import_id).first()
        if imp is None or imp.status != expected:
            return  # already done (a redelivered message), failed by the reaper, or gone
        try:
            # Resolving the target imports the resource's module: inside the try, so that even a
            # failure there marks the import as stopped instead of leaving it "validating" forever.
            with transaction.atomic():
                _run(imp, target_for(imp.resource), write=phase == "import")
        except Exception as exc:
            log.exception("import %s (%s) stopped", import_id, phase)
            failure = exc
            imp.status = ImportStatus.INVALID if phase == "validate" else ImportStatus.FAILED
            imp.error_rows = 0
            imp.message = "The import stopped because of an unexpected error. Nothing was imported."
            imp.finished_at = timezone.now()
            imp.save()
    if failure is not None:
        raise failure
    if imp.status in (ImportStatus.INVALID, ImportStatus.FAILED):
        # The file was refused by its data: a retry would answer the same (fix the file instead).
        report_outcome(failed=True, reason=imp.message, retryable=False)


def _retryable(imp: ImportJob) -> bool:
    """Stopped by a crash, the reaper or a lost message (no row was at fault): running it again is safe."""
    return imp.status in (ImportStatus.INVALID, ImportStatus.FAILED) and not imp.error_rows


def import_stuck(import_id: int, phase: str, reason: str) -> bool:
    """The reaper's question for a silent import job: False while a worker still holds its lock
    (alive, just slow); else the import is marked stopped with ``reason`` and True is answered."""
    with transaction.atomic():
        if not _take_job_lock(import_id, wait=False):
            return False
        imp = _jobs().select_for_update().filter(pk=import_id).first()
        expected = ImportStatus.VALIDATING if phase == "validate" else ImportStatus.IMPORTING
        if imp is None or imp.status != expected:
            return True  # it finished (or went) meanwhile: only the job log entry is left to close
        imp.status = ImportStatus.INVALID if phase == "validate" else ImportStatus.FAILED
        imp.error_rows = 0
        imp.message = reason
        imp.finished_at = timezone.now()
        imp.save()
    return True


def rearm_import(import_id: int, phase: str) -> None:
    """Before a retry from the job log: put a stopped import back to where its job starts."""
    imp = _jobs().select_for_update().filter(pk=import_id).first()
    if imp is None:
        raise ApiError(404, "Import not found")
    if not _retryable(imp):
        raise ApiError(409, f"This import cannot be retried: it is {imp.status}. {imp.message}".strip())
    validate = phase == "validate"
    imp.status = ImportStatus.VALIDATING if validate else ImportStatus.IMPORTING
    imp.processed = 0
    imp.finished_at = None
    imp.message = f"{'Checking' if validate else 'Importing'} {imp.total_rows} rows… (retry)"
    imp.save()


def import_document(imp: ImportJob) -> Any:
    """The job log's document of an import: the list it fills (the SPA path of its resource)."""
    from core.jobs import Document
    from core.permissions import resource_label

    label = f"{resource_label(imp.resource)} import: {imp.file_name}"
    return Document("data_import", int(imp.pk), label[:200], "/" + imp.resource.replace("_", "-"))


# --- the answer's shape ------------------------------------------------------------------------------
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
