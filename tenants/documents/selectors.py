"""Reads: templates, and the company block every document prints."""

from __future__ import annotations

import base64
import logging
from typing import Any

from core.errors import ApiError
from core.scoping import get_or_404
from core.storage import open_tenant_file
from django.db.models import QuerySet

from tenants.company.selectors import company_profile
from tenants.documents.contract import DOCUMENT_LABELS, TABLE_COLUMNS, VARIABLES, Company
from tenants.documents.models import DocumentTemplate

log = logging.getLogger(__name__)
RASTER_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}


def templates(doc_type: str | None = None) -> QuerySet[DocumentTemplate]:
    qs = DocumentTemplate.objects.all()
    return qs.filter(type=doc_type) if doc_type else qs


def get_template(template_id: int) -> DocumentTemplate:
    return get_or_404(DocumentTemplate, template_id)


def logo_data_uri(key: str) -> str:
    """The company logo inlined as a data: URI (the renderer fetches nothing)."""
    if not key:
        return ""
    try:
        data, content_type = open_tenant_file(key)
    except ApiError:
        log.warning("company logo %s is missing from storage", key)
        return ""
    if content_type not in RASTER_TYPES:
        return ""
    return f"data:{content_type};base64,{base64.b64encode(data).decode()}"


def company_block() -> Company:
    """The `company` part of every document's data, from the company settings (with the logo)."""
    profile = company_profile()
    if profile is None:
        return Company(name="Your company name", address=["Set your address in Company settings"])
    return Company(
        name=profile.name,
        address=profile.address,
        phone=profile.phone,
        email=profile.email,
        website=profile.website,
        logo=logo_data_uri(profile.logo_key),
    )


def contract(doc_type: str) -> dict[str, Any]:
    """The variables and table columns a template of this type can use (the designer's palette)."""
    return {
        "type": doc_type,
        "label": DOCUMENT_LABELS[doc_type],
        "variables": [
            {"variableName": name, "label": label, "fieldType": field_type}
            for name, (label, field_type, types) in VARIABLES.items()
            if doc_type in types
        ],
        "tables": {
            table: [{"key": key, "label": label, "fieldType": ft} for key, (label, ft) in columns.items()]
            for table, columns in TABLE_COLUMNS.items()
            if doc_type != "delivery_ticket" or table == "line_items"
        },
    }
