"""The demo driver's day: whatever the date `make run` is started on, Dave Driver (the demo driver
login) has stops for TODAY on truck T-102, so the driver portal always has something to deliver.

Idempotent per day: the orders carry the PO number `DEMODRV-<yyyymmdd>-<n>` (not `DEMO-…`, the
fixed demo set) and are made only when missing; other days' stay (the daily summary's history)."""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from django.utils import timezone

log = logging.getLogger(__name__)

# customer, [(product code, quantity)]: three stops, the first with two products.
STOPS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Gulf Freight Lines", [("ULSD-CLR", "600"), ("DEF-2X25", "4")]),
    ("Hill Country Landscaping", [("ULSD-CLR", "500")]),
    ("Alamo Aggregates", [("ULSD-CLR", "700")]),
]
# T-102 (4,200 gal) has room for these 1,800 gal of clear diesel beside the fixed demo set's stop on it.
TRUCK = "T-102"
DRIVER = "Dave Driver"


def seed() -> None:
    from tenants.accounts.models import User
    from tenants.catalog.models import Product
    from tenants.fleet.models import CompanyAsset, Driver
    from tenants.parties.models import Customer
    from tenants.sales.models import SalesOrder

    driver = Driver.objects.filter(name=DRIVER, user__isnull=False).first()
    truck = CompanyAsset.objects.filter(asset_number=TRUCK).first()
    admin = User.objects.filter(role__grants_all=True).order_by("id").first()
    if driver is None or truck is None:
        return
    today = timezone.localdate()
    for n, (customer_name, lines) in enumerate(STOPS, start=1):
        po = f"DEMODRV-{today:%Y%m%d}-{n}"
        if SalesOrder.objects.filter(po_number=po).exists():
            continue
        customer = Customer.objects.filter(name=customer_name).first()
        products = {p.code: p for p in Product.objects.filter(code__in=[c for c, _ in lines])}
        if customer is None or len(products) != len(lines):
            continue
        ship_to = customer.ship_tos.order_by("id").first()
        tank = ship_to.assets.order_by("id").first() if ship_to else None
        data: dict[str, Any] = {
            "customer_id": customer.pk,
            "ship_to_id": ship_to.pk if ship_to else None,
            "po_number": po,
            "planned_date": today,
            "line_items": [
                {
                    "product_id": products[code].pk,
                    "quantity": Decimal(qty),
                    "customer_asset_id": tank.pk if tank and i == 0 else None,
                }
                for i, (code, qty) in enumerate(lines)
            ],
        }
        _make(data, truck, driver, admin)


def _make(data: dict[str, Any], truck: Any, driver: Any, by: Any) -> None:
    from core.errors import ApiError
    from django.db import transaction

    from tenants.sales import services, workflow

    try:
        with transaction.atomic():
            order = services.create_order(data, by=by)
            # The demo's customers may be near their credit limit: the demo office overrides it.
            order = workflow.verify(order, by=by, override_credit=True, reason="Demo driver day")
            workflow.assign(order, driver_id=driver.pk, truck_id=truck.pk, by=by)
    except ApiError as exc:  # e.g. no price for a product yet: keep the rest of the demo
        log.warning("demo driver order %s not made: %s", data["po_number"], exc)
