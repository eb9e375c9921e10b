"""Routes of taxes: the catalogue, their dated rates, and a document's tax summary."""

from core.crud import Crud
from core.envelope import Answer, Envelope, Message, ok
from core.listing import ListSpec
from core.permissions import perm
from django.db import transaction
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from tenants.pricing import selectors, services
from tenants.pricing.models import (
    Tax,
)
from tenants.pricing.schemas import (
    MAX_ID,
    TaxIn,
    TaxOut,
    TaxQuery,
    TaxRateIn,
    TaxRateOut,
    TaxSummaryMissing,
    TaxSummaryOut,
)

# --- taxes ---------------------------------------------------------------------------------------
tax_router = Router(tags=["tax"])
tax_crud = Crud(
    router=tax_router,
    resource="tax",
    label="Tax",
    plural="Taxes",
    model=Tax,
    out=TaxOut,
    create_in=TaxIn,
    ops=("list", "get", "create", "update", "delete"),
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("state_ids", "city_ids", "product_ids", "category_ids", "rates", "current_rate"),
    fill_rows=selectors.fill_tax_rows,  # today's rate: the clock is read here, not in the statements
    queryset=selectors.taxes,
    filters=TaxQuery,
    apply_filters=selectors.filter_taxes,
    create=services.create_tax,
    update=services.save_tax,
    spec=ListSpec(
        search=("name", "code", "description"),
        sort={
            "name": "name",
            "code": "code",
            "kind": "kind",
            "sequence": "sequence",
            "created_at": "created_at",
        },
        filters={"name": ("name", "str"), "code": ("code", "str"), "kind": ("kind", "str")},
        default_sort="sequence",
    ),
)


class TaxRateQuery(Schema):
    tax_id: int = Field(..., ge=1, le=MAX_ID)


@tax_router.post(
    "/tax-rate",
    response={201: Envelope[TaxRateOut]},
    auth=perm("tax.change"),
    operation_id="tax_rate_create",
    summary="Add a rate to a tax (from a date; an open rate before it ends the day before)",
)
def add_tax_rate(request: HttpRequest, q: Query[TaxRateQuery], payload: TaxRateIn) -> Answer:
    with transaction.atomic():
        rate = services.add_tax_rate(q.tax_id, payload.dict())
    return ok(rate, "Tax rate added successfully", status=201)


@tax_router.delete(
    "/tax-rate/{int:id}",
    response=Message,
    auth=perm("tax.change"),
    operation_id="tax_rate_delete",
    summary="Delete a tax rate",
)
def delete_tax_rate(request: HttpRequest, id: int) -> Answer:
    services.delete_tax_rate(id)
    return ok(None, "Tax rate deleted successfully")


def _summary_route(kind: str, label: str, permission: str) -> None:
    """A document's tax summary needs the document's own view permission (it shows its quantities,
    amounts and taxes), not the tax catalogue's."""

    def summary(request: HttpRequest, id: int) -> Answer:
        summary = services.document_tax_summary(kind, id, label.capitalize())
        return ok(summary, f"Taxes of the {label} retrieved successfully")

    tax_router.get(
        f"/{kind}/taxes/{{int:id}}",
        response={200: Envelope[TaxSummaryOut], 404: TaxSummaryMissing},
        auth=perm(permission),
        operation_id=f"tax_summary_{kind.replace('-', '_')}",
        summary=f"Tax summary of a {label}",
        description="{total_tax_amount, taxable_items}. An unknown id: 404 whose body also carries the "
        "empty default (total_tax_amount 0, taxable_items []).",
    )(summary)


_summary_route("purchase-orders", "purchase order", "purchase_order.view")
_summary_route("invoices", "invoice", "invoice.view")
