"""Connections to other domains: the pricing app's `GET /api/tax/purchase-orders/taxes/{id}` asks this
app for a purchase order's priced document."""

from __future__ import annotations

from typing import Any

from tenants.pricing import services as pricing_services


def purchase_order_taxes(po_id: int) -> Any:
    from tenants.purchasing import selectors, services

    po = selectors.purchase_orders().filter(pk=po_id).first()
    if po is None:
        return None
    doc = services.price_purchase_order(po)
    if doc is None:
        from tenants.pricing.services import PricedDocument

        return PricedDocument(
            lines=(),
            fees=(),
            taxes=(),
            subtotal=services.ZERO,
            fee_total=services.ZERO,
            tax_total=services.money(services.ZERO),
            total=services.ZERO,
            pricing_date=po.order_date,
        )
    return doc


pricing_services.register_tax_document_source("purchase-orders", purchase_order_taxes)
