"""Connections to other domains: the pricing engine's rack price changes reprice open orders (in the
worker), and the pricing app's `GET /customer-price?sales_order_id=` is answered here."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tenants.pricing import services as pricing_services


def on_rack_price_changed(
    sender: Any,
    *,
    supplier_id: int | None = None,
    terminal_id: int | None = None,
    product_id: int | None = None,
    effective_from: dt.date | str | None = None,
    **_: Any,
) -> None:
    from tenants.sales.tasks import reprice_after_rack_change

    if product_id is None:
        return
    day = effective_from.isoformat() if isinstance(effective_from, dt.date) else effective_from
    reprice_after_rack_change.send(product_id=product_id, terminal_id=terminal_id, effective_from=day)


pricing_services.rack_price_changed.connect(on_rack_price_changed, dispatch_uid="sales-rack-reprice")

# The pricing app's index route delegates `?sales_order_id=` to the sales app (when it offers the hook).
_register = getattr(pricing_services, "register_sales_order_prices", None)
if _register is not None:
    from tenants.sales.api import sales_order_prices

    _register(sales_order_prices)
