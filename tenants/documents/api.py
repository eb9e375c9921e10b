"""Templates of printable documents (the designer), their previews, and the data contract.

`/api/template`: list/get/create/update/delete, duplicate, set as default, preview (a saved
template) and render (the designer's unsaved template), both with sample data of the template's
type, as HTML (JSON) or as the PDF (`Accept: application/pdf`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.envelope import Answer, Envelope, Message, Page, ok
from core.listing import ListParams, ListSpec, apply_list, paginate
from core.permissions import perm, register_resource
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from ninja import Query, Router
from ninja.errors import HttpError

from tenants.documents import selectors, services
from tenants.documents.contract import DOCUMENT_LABELS
from tenants.documents.models import DocumentTemplate
from tenants.documents.render import render_html, render_pdf
from tenants.documents.schemas import (
    ContractOut,
    DocumentSourceOut,
    DocumentSourceQuery,
    PrintQuery,
    RenderedHtml,
    RenderIn,
    RenderQuery,
    TemplateIn,
    TemplateOut,
    TemplateQuery,
    TemplateUpdate,
)

router = Router(tags=["template"])
register_resource("document_template", "Document templates")

LIST_SPEC = ListSpec(
    search=("name",),
    sort={"name": "name", "type": "type", "created_at": "created_at", "updated_at": "updated_at"},
    filters={"name": ("name", "str"), "type": ("type", "str")},
    default_sort="type",
)
PDF_OR_HTML = {
    "200": {
        "description": "The rendered document: `{data: {html}}`, or the PDF with `Accept: application/pdf`",
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Envelope_RenderedHtml_"}},
            "application/pdf": {"schema": {"type": "string", "format": "binary"}},
        },
    }
}


# sort_by and filter_field as enums of LIST_SPEC's names (core.listing.ListSpec.query_schema).
if TYPE_CHECKING:  # statically, the class query_schema makes: ListParams and the list's own filters

    class TemplateListQuery(ListParams, TemplateQuery): ...

else:
    TemplateListQuery = LIST_SPEC.query_schema("TemplateListQuery", extra=TemplateQuery)


def _wants_pdf(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return "application/pdf" in accept


def _rendered(
    request: HttpRequest, template: Any, doc_type: str, name: str, source_id: int | None = None
) -> Any:
    data = services.document_data(doc_type, source_id) if source_id else services.preview_data(doc_type)
    html = render_html(template, data)
    if _wants_pdf(request):
        response = HttpResponse(render_pdf(html), content_type="application/pdf")
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name).strip("-")[:80] or "document"
        response["Content-Disposition"] = f'attachment; filename="{safe}-preview.pdf"'
        response["X-Content-Type-Options"] = "nosniff"
        return response
    return ok({"html": html}, f"{DOCUMENT_LABELS[doc_type]} preview rendered")


@router.get("", response=Envelope[Page[TemplateOut]], auth=perm("document_template.view"))
def list_templates(request: HttpRequest, params: Query[TemplateListQuery]) -> Answer:
    """Templates of this company; the shipped defaults are created the first time."""
    with transaction.atomic():
        services.ensure_defaults()
    qs = apply_list(selectors.templates(params.type), params, LIST_SPEC)
    return ok(paginate(qs, params, 50), "Templates retrieved successfully")


@router.get("/contract/{doc_type}", response=Envelope[ContractOut], auth=perm("document_template.view"))
def get_contract(request: HttpRequest, doc_type: DocumentTemplate.Type) -> Answer:
    """The fields and table columns a template of this document type can print."""
    return ok(selectors.contract(str(doc_type.value)), "Document fields retrieved successfully")


@router.post(
    "/render",
    response=Envelope[RenderedHtml],
    auth=perm("document_template.view"),
    openapi_extra={"responses": PDF_OR_HTML},
)
def render_unsaved(request: HttpRequest, payload: RenderIn, query: Query[RenderQuery]) -> Answer:
    """The designer's current (unsaved) template with sample data, or with a real document's
    (`source_id`): exactly what it will print."""
    services.check_components(payload.components)
    return _rendered(request, payload, payload.type, f"{payload.type}-template", query.source_id)


@router.get(
    "/sources/{doc_type}", response=Envelope[list[DocumentSourceOut]], auth=perm("document_template.view")
)
def list_sources(
    request: HttpRequest, doc_type: DocumentTemplate.Type, query: Query[DocumentSourceQuery]
) -> Answer:
    """Recent real documents of a type (newest first) to preview a template with."""
    rows = services.recent_documents(str(doc_type.value), query.search.strip(), query.limit)
    return ok([{"id": i, "label": label} for i, label in rows], "Documents retrieved successfully")


@router.get(
    "/print/{doc_type}/{int:source_id}",
    response=Envelope[RenderedHtml],
    auth=perm("document_template.view"),
    openapi_extra={"responses": PDF_OR_HTML},
)
def print_document(
    request: HttpRequest, doc_type: DocumentTemplate.Type, source_id: int, query: Query[PrintQuery]
) -> Answer | HttpResponse:
    """A real document (an invoice, a delivery ticket) printed with the company's default template
    of its type (or `template_id`): the HTML, or the PDF with `Accept: application/pdf`."""
    kind = str(doc_type.value)
    template = (
        selectors.get_template(query.template_id) if query.template_id else services.default_template(kind)
    )
    if template.type != kind:
        raise HttpError(422, f"Template {template.id} is not a {DOCUMENT_LABELS[kind].lower()} template.")
    data = services.document_data(kind, source_id)
    number = data.document.number or f"{kind}-{source_id}"
    html = render_html(template, data)
    if _wants_pdf(request):
        response = HttpResponse(render_pdf(html), content_type="application/pdf")
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in number).strip("-")[:80]
        response["Content-Disposition"] = f'attachment; filename="{safe or kind}.pdf"'
        response["X-Content-Type-Options"] = "nosniff"
        response["Cache-Control"] = "private, no-store"
        return response
    return ok({"html": html}, f"{DOCUMENT_LABELS[kind]} rendered")


@router.get("/{int:id}", response=Envelope[TemplateOut], auth=perm("document_template.view"))
def get_template(request: HttpRequest, id: int) -> Answer:
    return ok(selectors.get_template(id), "Template retrieved successfully")


@router.post("", response={201: Envelope[TemplateOut]}, auth=perm("document_template.add"))
def create_template(request: HttpRequest, payload: TemplateIn) -> Answer:
    with transaction.atomic():
        template = services.create_template(payload.dict())
    return ok(template, "Template created successfully", status=201)


@router.put("/{int:id}", response=Envelope[TemplateOut], auth=perm("document_template.change"))
def update_template(request: HttpRequest, id: int, payload: TemplateUpdate) -> Answer:
    with transaction.atomic():
        template = services.update_template(selectors.get_template(id), payload.dict(exclude_unset=True))
    return ok(template, "Template updated successfully")


@router.delete("/{int:id}", response=Message, auth=perm("document_template.delete"))
def delete_template(request: HttpRequest, id: int) -> Answer:
    with transaction.atomic():
        services.delete_template(selectors.get_template(id))
    return ok(None, "Template deleted successfully")


@router.post("/{int:id}/duplicate", response={201: Envelope[TemplateOut]}, auth=perm("document_template.add"))
def duplicate_template(request: HttpRequest, id: int) -> Answer:
    template = services.duplicate_template(selectors.get_template(id))
    return ok(template, "Template duplicated successfully", status=201)


@router.post("/{int:id}/default", response=Envelope[TemplateOut], auth=perm("document_template.change"))
def set_default(request: HttpRequest, id: int) -> Answer:
    """Make this template the one its document type prints with."""
    template = services.set_default(selectors.get_template(id))
    label = DOCUMENT_LABELS[template.type].lower()
    return ok(template, f"'{template.name}' is now the default {label} template")


@router.post(
    "/{int:id}/preview",
    response=Envelope[RenderedHtml],
    auth=perm("document_template.view"),
    openapi_extra={"responses": PDF_OR_HTML},
)
def preview_template(request: HttpRequest, id: int, query: Query[RenderQuery]) -> Answer:
    """A saved template with sample data of its type, or with a real document's (`source_id`: the
    invoice or the delivery ticket), as HTML or PDF."""
    template = selectors.get_template(id)
    try:
        return _rendered(request, template, template.type, template.name, query.source_id)
    except ValueError as exc:  # a row saved before a schema change that no longer validates
        raise HttpError(422, f"This template cannot be rendered: {exc}") from exc


routes = [("/template", router)]
