"""'Export all our data' (docs/operations.md "A company takes its data"): one zip with every list as
CSV (the lists' own export, core/csv_io), every document as PDF (the renderer, tenants/documents) and
every file the company uploaded, built by the worker with progress, kept in the company's storage
and downloadable by an admin once ready. A company that leaves takes its data with it."""

from __future__ import annotations

import csv
import io
import logging
import re
import tempfile
import uuid
import zipfile
from collections.abc import Iterator
from typing import Any

from core import csv_io
from core.crud import REGISTRY
from core.errors import ApiError
from core.jobs import Document, report_progress, send_job
from core.storage import safe_filename, tenant_prefix
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import connection, transaction
from django.utils import timezone
from psycopg import sql

from tenants.dataexport.models import DataExport
from tenants.documents import services as documents
from tenants.documents.services import DOCUMENT_LABELS

log = logging.getLogger(__name__)
PURPOSE = "export"  # tenants/<schema>/export/…: the zips themselves, never exported again
PROGRESS_EVERY = 10
MAX_DOCUMENTS = 100_000


def start_export(user: Any) -> DataExport:
    from tenants.dataexport import tasks

    if DataExport.objects.filter(status__in=[DataExport.Status.QUEUED, DataExport.Status.RUNNING]).exists():
        raise ApiError(409, "An export is already being built: wait for it to be ready.")
    export = DataExport.objects.create(created_by=user)
    schema = connection.schema_name
    transaction.on_commit(
        lambda: send_job(
            tasks.build_data_export,
            export_id=export.pk,
            schema=schema,
            document=Document(
                "data_export", export.pk, f"Data export {export.pk}", "/company-settings/export"
            ),
        )
    )
    return export


def _lists() -> list[Any]:
    seen: set[str] = set()
    lists = []
    for crud in REGISTRY:
        if "export" in crud.ops and crud.resource not in seen:
            seen.add(crud.resource)
            lists.append(crud)
    return sorted(lists, key=lambda c: c.resource)


def _documents() -> list[tuple[str, int, str]]:
    found = []
    for doc_type in sorted(DOCUMENT_LABELS):
        found += [
            (doc_type, doc_id, label)
            for doc_id, label in documents.recent_documents(doc_type, "", MAX_DOCUMENTS)
        ]
    return found


def _files() -> list[str]:
    prefix = tenant_prefix()
    keys: list[str] = []

    def walk(folder: str) -> Iterator[str]:
        try:
            dirs, files = default_storage.listdir(folder)
        except (FileNotFoundError, NotADirectoryError):
            return
        yield from (f"{folder}{name}" for name in files)
        for sub in dirs:
            yield from walk(f"{folder}{sub}/")

    keys = [k for k in walk(prefix) if not k.startswith(f"{prefix}{PURPOSE}/")]
    return sorted(keys)


# Columns never exported: credentials and their hashes (a user's password, OAuth tokens, reset tokens).
SECRET_COLUMN = re.compile(r"(password|token|secret|_hash$|^hash$)")


def _tables() -> list[tuple[str, list[str]]]:
    """Every table of the company's schema with its columns minus secrets: the records that have no
    list of their own (order lines, invoices, payments, events...) leave with the company too."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT table_name, array_agg(column_name::text ORDER BY ordinal_position) "
            "FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name IN (SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE') "
            "AND table_name <> 'django_migrations' GROUP BY table_name ORDER BY table_name"
        )
        rows = cur.fetchall()
    return [(table, [c for c in columns if not SECRET_COLUMN.search(c)]) for table, columns in rows]


def _table_csv(table: str, columns: list[str]) -> bytes:
    statement = sql.SQL(
        "COPY (SELECT {} FROM {} ORDER BY 1) TO STDOUT WITH (FORMAT csv, HEADER true)"
    ).format(sql.SQL(", ").join(sql.Identifier(c) for c in columns), sql.Identifier(table))
    buffer = io.BytesIO()
    buffer.write("\ufeff".encode())
    with connection.cursor() as cur, cur.copy(statement) as copy:  # type: ignore[attr-defined]
        for chunk in copy:
            buffer.write(bytes(chunk))
    return buffer.getvalue()


def _csv(lines: Iterator[list[str]]) -> bytes:
    buffer = io.StringIO()
    buffer.write("\ufeff")  # spreadsheet programs read the file as UTF-8
    writer = csv.writer(buffer)
    for line in lines:
        writer.writerow(line)
    return buffer.getvalue().encode("utf-8")


def build_export(export_id: int) -> None:
    """Write the zip, part by part, with progress on the export row and in the job log."""
    export = DataExport.objects.get(pk=export_id)
    export.status, export.error = DataExport.Status.RUNNING, ""
    lists, tables, docs, files = _lists(), _tables(), _documents(), _files()
    export.total, export.done = len(lists) + len(tables) + len(docs) + len(files), 0
    export.save(update_fields=["status", "error", "total", "done", "updated_at"])
    problems: list[str] = []
    prefix = tenant_prefix()

    def advance(step: str) -> None:
        export.done += 1
        export.step = step[:200]
        if export.done % PROGRESS_EVERY == 0 or export.done == export.total:
            export.save(update_fields=["done", "step", "updated_at"])
            report_progress()

    with tempfile.TemporaryFile() as tmp:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            for crud in lists:
                lines = csv_io.export_lines(crud.base_queryset().order_by("pk"), crud.out, limit=10**9)
                zf.writestr(f"lists/{crud.resource}.csv", _csv(lines))
                advance(f"List: {crud.plural or crud.label}")
            for table, columns in tables:
                zf.writestr(f"tables/{table}.csv", _table_csv(table, columns))
                advance(f"Table: {table}")
            for doc_type, doc_id, label in docs:
                try:
                    _html, pdf = documents.render_document(
                        doc_type, documents.document_data(doc_type, doc_id)
                    )
                    zf.writestr(
                        f"documents/{doc_type}/{safe_filename(label or str(doc_id))}-{doc_id}.pdf", pdf
                    )
                except Exception as exc:  # one document that cannot print must not lose the rest
                    log.warning("export %s: %s %s did not render", export_id, doc_type, doc_id, exc_info=True)
                    problems.append(f"{DOCUMENT_LABELS[doc_type]} {label or doc_id}: {exc}")
                advance(f"Document: {label}")
            for key in files:
                with default_storage.open(key, "rb") as fh:
                    zf.writestr(f"files/{key.removeprefix(prefix)}", fh.read())
                advance(f"File: {key.rsplit('/', 1)[-1]}")
            zf.writestr("README.txt", _readme(len(lists), len(tables), len(docs), len(files), problems))
        size = tmp.tell()
        tmp.seek(0)
        stamp = timezone.localdate().isoformat()
        key = f"{prefix}{PURPOSE}/{uuid.uuid4().hex}/fueldesk-export-{stamp}.zip"
        saved = default_storage.save(key, File(tmp, name="export.zip"))
    export.status, export.file_key, export.size = DataExport.Status.READY, saved, size
    export.finished_at = timezone.now()
    export.step = "Ready"
    export.save(update_fields=["status", "file_key", "size", "finished_at", "step", "updated_at"])


def fail_export(export_id: int, reason: str) -> None:
    DataExport.objects.filter(pk=export_id).update(
        status=DataExport.Status.FAILED, error=reason[:2000], finished_at=timezone.now()
    )


def _readme(lists: int, tables: int, docs: int, files: int, problems: list[str]) -> str:
    text = (
        "FuelDesk: all of this company's data\n\n"
        f"lists/      {lists} lists as CSV (UTF-8), the columns of each list's own export\n"
        f"tables/     {tables} tables as CSV: every record, as stored (passwords and tokens left out)\n"
        f"documents/  {docs} documents as PDF, printed with the company's default templates\n"
        f"files/      {files} uploaded files (logos, attachments, imports, photos, signatures)\n"
    )
    if problems:
        text += "\nNot included (could not be printed):\n" + "\n".join(f"- {p}" for p in problems) + "\n"
    return text


def open_export(export: DataExport) -> bytes:
    if export.status != DataExport.Status.READY or not export.file_key:
        raise ApiError(409, "This export is not ready yet.")
    with default_storage.open(export.file_key, "rb") as fh:
        data: bytes = fh.read()
    return data
