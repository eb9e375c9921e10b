"""Writes on templates, and the one entry point other domains use to print a document."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from core.errors import ApiError
from django.db import IntegrityError, transaction

from tenants.documents import selectors
from tenants.documents.contract import DOCUMENT_LABELS, DOCUMENT_TYPES, DocumentData
from tenants.documents.models import DocumentTemplate
from tenants.documents.render import render_html, render_pdf
from tenants.documents.samples import sample_data
from tenants.documents.schemas import CanvasSettings, Component

DEFAULTS_DIR = Path(__file__).parent / "defaults"


@cache
def shipped_default(doc_type: str) -> dict[str, Any]:
    """The default template shipped with the product for a document type (defaults/<type>.json)."""
    with (DEFAULTS_DIR / f"{doc_type}.json").open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def check_components(components: list[Component]) -> list[dict[str, Any]]:
    """The component graph is coherent: unique ids, containers hold existing non-container
    components, each component in at most one container and its parentId saying which."""
    ids = [c.id for c in components]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ApiError(422, f"components: the id {dupes[0]} is used twice.")
    by_id = {c.id: c for c in components}
    owner: dict[str, str] = {}
    for c in components:
        if c.children and c.type != "container":
            raise ApiError(422, f"components: {c.id} is not a container and cannot hold components.")
        for child_id in c.children:
            child = by_id.get(child_id)
            if child is None:
                raise ApiError(422, f"components: container {c.id} holds {child_id}, which does not exist.")
            if child.type == "container":
                raise ApiError(422, f"components: a container cannot hold another container ({child_id}).")
            if child_id in owner:
                raise ApiError(
                    422, f"components: {child_id} is in two containers; a component has at most one."
                )
            owner[child_id] = c.id
    for c in components:
        if c.parentId is not None and owner.get(c.id) != c.parentId:
            raise ApiError(422, f"components: {c.id} says it is in {c.parentId}, which does not hold it.")
    return [c.model_dump() for c in components]


def _canvas(value: CanvasSettings | dict[str, Any] | None) -> dict[str, Any]:
    canvas = value if isinstance(value, CanvasSettings) else CanvasSettings.model_validate(value or {})
    return canvas.model_dump()


def create_template(data: dict[str, Any]) -> DocumentTemplate:
    components = [Component.model_validate(c) for c in data.get("components") or []]
    return DocumentTemplate.objects.create(
        name=data["name"],
        type=data["type"],
        components=check_components(components),
        canvas_settings=_canvas(data.get("canvasSettings")),
    )


def update_template(template: DocumentTemplate, data: dict[str, Any]) -> DocumentTemplate:
    template = DocumentTemplate.objects.select_for_update().get(pk=template.pk)
    if data.get("name") is not None:
        template.name = data["name"]
    if data.get("components") is not None:
        components = [Component.model_validate(c) for c in data["components"]]
        template.components = check_components(components)
    if data.get("canvasSettings") is not None:
        template.canvas_settings = _canvas(data["canvasSettings"])
    template.save()
    return template


def delete_template(template: DocumentTemplate) -> None:
    if template.is_default:
        label = DOCUMENT_LABELS[template.type].lower()
        raise ApiError(409, f"This is the default {label} template: make another one the default first.")
    template.delete()


def duplicate_template(template: DocumentTemplate) -> DocumentTemplate:
    with transaction.atomic():
        return DocumentTemplate.objects.create(
            name=f"{template.name} (copy)"[:120],
            type=template.type,
            components=template.components,
            canvas_settings=template.canvas_settings,
        )


def set_default(template: DocumentTemplate) -> DocumentTemplate:
    """Make this template the one its document type prints with (the previous default steps down)."""
    with transaction.atomic():
        # Lock the type's templates so two concurrent choices cannot both win.
        list(
            DocumentTemplate.objects.select_for_update()
            .filter(type=template.type)
            .values_list("id", flat=True)
        )
        DocumentTemplate.objects.filter(type=template.type, is_default=True).exclude(pk=template.pk).update(
            is_default=False
        )
        DocumentTemplate.objects.filter(pk=template.pk).update(is_default=True)
    template.refresh_from_db()
    return template


def ensure_defaults() -> None:
    """Create the shipped default template of each type that has no default yet."""
    have = set(DocumentTemplate.objects.filter(is_default=True).values_list("type", flat=True))
    for doc_type in DOCUMENT_TYPES:
        if doc_type in have:
            continue
        shipped = shipped_default(doc_type)
        try:
            with transaction.atomic():
                DocumentTemplate.objects.create(
                    name=shipped["name"],
                    type=doc_type,
                    components=shipped["components"],
                    canvas_settings=shipped["canvasSettings"],
                    is_default=True,
                )
        except IntegrityError:  # another request created it meanwhile
            pass


def default_template(doc_type: str) -> DocumentTemplate:
    """The template a document type prints with (the shipped one is created when missing)."""
    template = DocumentTemplate.objects.filter(type=doc_type, is_default=True).first()
    if template is None:
        ensure_defaults()
        template = DocumentTemplate.objects.get(type=doc_type, is_default=True)
    return template


def render_document(
    doc_type: str, data: DocumentData | dict[str, Any], *, template: DocumentTemplate | None = None
) -> tuple[str, bytes]:
    """HTML and PDF of one document with the tenant's default template (or the one given).
    The invoice and delivery-ticket domains call this; `data` follows contract.py."""
    html = render_html(template or default_template(doc_type), data)
    return html, render_pdf(html)


def preview_data(doc_type: str) -> DocumentData:
    """Sample data of a type with this company's real name, address and logo."""
    return sample_data(doc_type, company=selectors.company_block())


# --- real documents for the designer's preview -------------------------------------------------------
@dataclass(frozen=True)
class DataSource:
    """Where the documents of a type come from: `load(id)` answers one's data (contract.py) or
    None when it does not exist; `recent(search, limit)` lists `(id, label)` for the picker."""

    load: Callable[[int], DocumentData | dict[str, Any] | None]
    recent: Callable[[str, int], list[tuple[int, str]]]


_SOURCES: dict[str, DataSource] = {}


def register_data_source(doc_type: str, source: DataSource) -> None:
    """Domains (or their wiring) say how to read a real document of a type, so the designer can
    render a template with it (`POST /api/template/render?source_id=`)."""
    _SOURCES[doc_type] = source


def data_source(doc_type: str) -> DataSource:
    source = _SOURCES.get(doc_type)
    if source is None:
        label = DOCUMENT_LABELS.get(doc_type, doc_type).lower()
        raise ApiError(422, f"There are no {label}s to preview with yet: use the sample data.")
    return source


def document_data(doc_type: str, source_id: int) -> DocumentData:
    """A real document's data (an invoice's, a ticket's) for the renderer."""
    data = data_source(doc_type).load(source_id)
    if data is None:
        label = DOCUMENT_LABELS.get(doc_type, doc_type)
        raise ApiError(404, f"{label} not found")
    return data if isinstance(data, DocumentData) else DocumentData.model_validate(data)


def recent_documents(doc_type: str, search: str, limit: int) -> list[tuple[int, str]]:
    """Real documents of a type for the designer's picker; none while no domain provides them."""
    source = _SOURCES.get(doc_type)
    return source.recent(search, limit) if source else []
