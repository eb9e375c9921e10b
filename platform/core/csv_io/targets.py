"""Where import jobs are kept (plugged in by the imports app) and what a resource imports."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django.db import models as dj_models
from django.db.models import TextChoices
from ninja import Schema

from core.errors import ApiError

if TYPE_CHECKING:
    pass


MAX_IMPORT_ROWS = 20_000


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
    # Filled when the API modules load, in every process (fueldesk's AppConfig.ready), the worker too.
    try:
        return _TARGETS[resource]
    except KeyError as exc:
        raise ApiError(404, f"Nothing can be imported into {resource}.") from exc


def describe_columns(importer: CsvImport) -> str:
    lines = [f"- `{name}`: {text}" for name, text in importer.columns.items()]
    return "Importable columns (a header row is required; other columns are ignored):\n" + "\n".join(lines)
