"""What the pricing screens and calls show of an order, computed by the pricing engine
(`tenants.pricing.services.price_document`): a fee's amount on it, its tax summary, a product's unit
price on it, and its price list (`simple_prices`)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from core.errors import ApiError

from tenants.sales import services
from tenants.sales.models import LineItem, SalesOrder


def fee_on_order(order: SalesOrder, fee_id: int, quantity: Decimal | None = None) -> dict[str, Any]:
    from tenants.pricing.models import Fee
    from tenants.pricing.services import FeeRequest, PricingError, as_http_error, price_document

    if not Fee.objects.filter(pk=fee_id).exists():
        raise ApiError(404, "Fee not found")
    lines = [ln for ln in order.line_items.all() if ln.unit_price is not None]
    if quantity is None:
        on_order = next((f for f in order.fees.all() if f.fee_id == fee_id), None)
        quantity = on_order.quantity if on_order else None
    try:
        doc = price_document(
            customer_id=order.customer_id,
            ship_to_id=order.ship_to_id,
            lines=services.line_requests(lines, use_current=True),
            pricing_date=order.planned_date,
            fees=[FeeRequest("calc", fee_id, quantity)],
        )
    except PricingError as exc:
        raise as_http_error(exc) from exc
    fa = doc.fees[0]
    return {
        "fee_id": fa.fee_id,
        "name": fa.name,
        "fee_type": fa.fee_type,
        "rate": fa.rate,
        "quantity": fa.quantity,
        "subtotal": fa.subtotal,
    }


def tax_summary_of(order: SalesOrder) -> dict[str, Any]:
    from tenants.pricing.services import PricingError, as_http_error, tax_summary

    lines = [ln for ln in order.line_items.all() if ln.unit_price is not None]
    if not lines:
        return tax_summary(None)
    try:
        doc = services.price_request(order, lines, list(order.fees.all()), use_current=True)
    except PricingError as exc:
        raise as_http_error(exc) from exc
    summary = tax_summary(doc)
    ids = {str(ln.pk): ln for ln in lines}
    for item in summary["taxable_items"]:
        line = ids.get(str(item.get("key")))
        if line is not None:
            item["line_item_id"] = line.pk
            item["product_name"] = line.product.name
    return summary


def unit_price_on_order(order: SalesOrder, product_id: int) -> dict[str, Any]:
    from tenants.pricing.services import LineRequest, PricingError, price_document

    line = next((ln for ln in order.line_items.all() if ln.product_id == product_id), None)
    if line is not None and (line.price_fixed or line.unit_price is not None):
        return {
            "sales_order_id": order.pk,
            "product_id": product_id,
            "unit_price": line.unit_price,
            "price_fixed": line.price_fixed,
            "breakdown": line.price_breakdown,
        }
    try:
        doc = price_document(
            customer_id=order.customer_id,
            ship_to_id=order.ship_to_id,
            lines=[LineRequest("1", product_id, Decimal("1"))],
            pricing_date=order.planned_date,
        )
    except PricingError as exc:
        if exc.code == "unknown_product":
            raise ApiError(404, "Product not found") from exc
        return {
            "sales_order_id": order.pk,
            "product_id": product_id,
            "unit_price": None,
            "price_fixed": False,
            "breakdown": {},
            "detail": exc.message,
        }
    pl = doc.lines[0]
    return {
        "sales_order_id": order.pk,
        "product_id": product_id,
        "unit_price": pl.unit_price,
        "price_fixed": False,
        "breakdown": pl.breakdown,
    }


def simple_prices(order: SalesOrder) -> dict[str, Any]:
    lines: list[LineItem] = list(order.line_items.all())
    return {
        "sales_order_id": order.pk,
        "customer_id": order.customer_id,
        "pricing_date": order.planned_date,
        "simple_prices": [
            {
                "line_item_id": ln.pk,
                "product_id": ln.product_id,
                "product_name": ln.product.name,
                "quantity": ln.quantity,
                "unit_price": ln.unit_price,
                "amount": ln.amount,
                "price_fixed": ln.price_fixed,
            }
            for ln in lines
        ],
    }
