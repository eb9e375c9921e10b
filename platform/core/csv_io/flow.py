"""The import flow: upload (a dry run: the preview), confirm (all or nothing), and the worker's job for
large files (locked, re-armed after a crash)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.db import (
    connection,
    transaction,
)
from django.utils import timezone

from core.csv_io.reading import read_table
from core.csv_io.rows import ProgressWriter, process_rows
from core.csv_io.targets import ImportJob, ImportStatus, ImportTarget, _jobs, store, target_for
from core.errors import ApiError

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile


log = logging.getLogger(__name__)


SYNC_ROW_LIMIT = 300  # larger files are checked and written by the worker, with progress


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
    schema = connection.schema_name  # type: ignore[attr-defined]
    enqueue = store().enqueue
    transaction.on_commit(lambda: enqueue(import_id, phase, schema))


def job_lock_key(import_id: int) -> str:
    return f"{connection.schema_name}:data-import:{import_id}"  # type: ignore[attr-defined]


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
