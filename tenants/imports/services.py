"""Writes of the imports app: queueing the worker's half of a large import, with its job log entry."""

from __future__ import annotations

from core import csv_io
from core.jobs import send_job
from django_tenants.utils import schema_context


def enqueue_import(import_id: int, phase: str, schema: str) -> None:
    """Send the import job for `schema` (called by core.csv_io once the import row is committed):
    the job log shows the import's file as its document and the uploader as who started it."""
    from tenants.imports.models import DataImport
    from tenants.imports.tasks import run_data_import

    with schema_context(schema):  # the commit hook may run after the request left the tenant
        imp = DataImport.objects.select_related("created_by").filter(pk=import_id).first()
        document = csv_io.import_document(imp) if imp is not None else None
        started_by = imp.created_by if imp is not None else None
        send_job(run_data_import, import_id, phase, document=document, started_by=started_by, schema=schema)
