"""Routes of customer pricing and the price check: a customer's price items with their final
prices, the final price of one product, and the explained price of a quantity (all answered by
`services.customer_price` / `selectors.customer_price_page`; the api only maps them to HTTP)."""

import datetime as dt
from typing import Any

from core.envelope import Answer, Envelope, Message, ok
from core.errors import ApiError
from core.permissions import perm, register_resource
from django.db import transaction
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from tenants.pricing import selectors, services
from tenants.pricing.schemas import (
    MAX_ID,
    CustomerPricingIn,
    CustomerPricingOut,
    Day,
    ExplainQuery,
    FinalPriceOut,
    PricedDocumentOut,
)
from tenants.pricing.services import PricingError, as_http_error

# --- customer pricing and the price check --------------------------------------------------------
customer_price_router = Router(tags=["customer-price"])
register_resource("customer_price", "Customer pricing", ("view", "add", "change", "delete"))


class CustomerPriceIndexQuery(Schema):
    customer_id: int | None = Field(None, ge=1, le=MAX_ID)
    sales_order_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="The sales order's price list (simple_prices)"
    )
    page: int = Field(1, ge=1, le=1_000_000)
    size: int = Field(50, ge=1, le=500)
    pricing_date: Day | None = Field(None, description="Date of the final prices, default today")


@customer_price_router.get(
    "",
    response=Envelope[CustomerPricingOut],
    auth=perm("customer_price.view"),
    operation_id="customer_price_index",
    summary="A customer's pricing type and price items (paged, default 50) with today's final prices",
    description="With `sales_order_id` instead: the order's price list (`simple_prices`), answered by "
    "the sales app through `services.register_sales_order_prices`.",
)
def customer_price_index(request: HttpRequest, q: Query[CustomerPriceIndexQuery]) -> Answer:
    if q.sales_order_id is not None:
        return services.sales_order_prices(q.sales_order_id)
    if q.customer_id is None:
        raise ApiError(422, "customer_id is required.")
    data = selectors.customer_price_page(q.customer_id, q.page, q.size, q.pricing_date or dt.date.today())
    if data is None:
        raise ApiError(404, "Customer not found")
    return ok(data, "Customer pricing retrieved successfully")


def _pricing_message(data: dict[str, Any], created: int, updated: int, verb: str) -> str:
    parts = []
    if data.get("customer_pricing_type"):
        parts.append("pricing type")
    if created or updated:
        parts.append(f"{created + updated} pricing item{'s' if created + updated != 1 else ''}")
    return f"Customer pricing {verb} successfully" + (f" ({', '.join(parts)})" if parts else "")


@customer_price_router.post(
    "/{int:customer_id}",
    response={201: Message},
    auth=perm("customer_price.add"),
    operation_id="customer_price_add",
    summary="Add pricing items to a customer (and set its pricing type)",
)
def add_customer_pricing(request: HttpRequest, customer_id: int, payload: CustomerPricingIn) -> Answer:
    data = payload.dict()
    with transaction.atomic():
        created, updated = services.save_customer_pricing(customer_id, data)
    return ok(None, _pricing_message(data, created, updated, "added"), status=201)


@customer_price_router.put(
    "/{int:customer_id}",
    response=Message,
    auth=perm("customer_price.change"),
    operation_id="customer_price_update",
    summary="Change a customer's pricing type and items (an empty pricings list changes the type only)",
)
def update_customer_pricing(request: HttpRequest, customer_id: int, payload: CustomerPricingIn) -> Answer:
    data = payload.dict()
    with transaction.atomic():
        created, updated = services.save_customer_pricing(customer_id, data)
    return ok(None, _pricing_message(data, created, updated, "updated"))


class DeletePricingQuery(Schema):
    id: int | None = Field(
        None, ge=1, le=MAX_ID, description="The pricing item to delete; empty: all of them"
    )


@customer_price_router.delete(
    "/{int:customer_id}",
    response=Message,
    auth=perm("customer_price.delete"),
    operation_id="customer_price_delete",
    summary="Delete a customer's pricing item (id), or all its items (the type goes back to standard)",
)
def delete_customer_pricing(request: HttpRequest, customer_id: int, q: Query[DeletePricingQuery]) -> Answer:
    with transaction.atomic():
        services.delete_customer_pricing(customer_id, q.id)
    what = "Pricing item" if q.id else "Customer pricing"
    return ok(None, f"{what} deleted successfully")


class FinalPriceQuery(Schema):
    product_id: int = Field(..., ge=1, le=MAX_ID)
    customer_id: int = Field(..., ge=1, le=MAX_ID)
    pricing_date: Day | None = Field(None, description="Default today")
    ship_to_id: int | None = Field(None, ge=1, le=MAX_ID)


@customer_price_router.get(
    "/specific/fields",
    response=Envelope[FinalPriceOut],
    auth=perm("customer_price.view"),
    operation_id="customer_price_final",
    summary="What a customer pays per unit for a product on a date (final_price), with its breakdown",
)
def final_price(request: HttpRequest, q: Query[FinalPriceQuery]) -> Answer:
    on = q.pricing_date or dt.date.today()
    try:
        quoted = services.customer_price(
            customer_id=q.customer_id, product_id=q.product_id, pricing_date=on, ship_to_id=q.ship_to_id
        )
    except PricingError as exc:
        raise as_http_error(exc) from exc
    data = {
        "product_id": q.product_id,
        "customer_id": q.customer_id,
        "pricing_date": on,
        "final_price": quoted.line.unit_price,
        "breakdown": quoted.line.breakdown,
        "assumed": quoted.assumed,
    }
    return ok(data, "Final price retrieved successfully")


@customer_price_router.get(
    "/explain",
    response=Envelope[PricedDocumentOut],
    auth=perm("customer_price.view"),
    operation_id="customer_price_explain",
    summary="Price check: what a customer pays for a quantity of a product at a ship-to on a date, explained",
)
def explain(request: HttpRequest, q: Query[ExplainQuery]) -> Answer:
    try:
        quoted = services.customer_price(
            customer_id=q.customer_id,
            product_id=q.product_id,
            pricing_date=q.pricing_date or dt.date.today(),
            ship_to_id=q.ship_to_id,
            quantity=q.quantity,
            fee_ids=q.fee_id_list(),
            unit_price_override=q.unit_price_override,
        )
    except PricingError as exc:
        raise as_http_error(exc) from exc
    return ok(quoted.explained(), "Price explained")
