"""Demo sales orders: a day of work around today for the demo company, in every status, so the order
list, the board and the dispatch center have something to show. Idempotent: orders are found by their
PO number (`DEMO-…`) and made only when missing. Prices come from the pricing engine."""

from __future__ import annotations

import datetime as dt
import logging
from decimal import Decimal
from typing import Any

from django.utils import timezone

log = logging.getLogger(__name__)

# po number, customer, day offset, [(product code, quantity)], status, truck, driver
ORDERS: list[tuple[str, str, int, list[tuple[str, str]], str, str | None, str | None]] = [
    ("DEMO-1001", "Bayou City Builders", 0, [("ULSD-CLR", "1200"), ("DEF-2X25", "4")], "draft", None, None),
    ("DEMO-1002", "Lone Star Paving", 0, [("ULSD-DYED", "1800")], "verified", None, None),
    ("DEMO-1003", "Gulf Freight Lines", 0, [("ULSD-CLR", "1800"), ("UNL-87", "600")], "verified", None, None),
    ("DEMO-1004", "Hill Country Landscaping", 0, [("ULSD-DYED", "800")], "assigned", "T-101", "Dave Driver"),
    ("DEMO-1005", "Alamo Aggregates", 0, [("ULSD-CLR", "1400")], "assigned", "T-101", "Dave Driver"),
    ("DEMO-1006", "Brazos Valley Farms", 0, [("ULSD-DYED", "1500")], "assigned", "T-102", "Maria Lopez"),
    ("DEMO-1007", "Tulsa Metro Transit", 0, [("ULSD-CLR", "2000")], "in_delivery", "T-103", "James Carter"),
    ("DEMO-1008", "Cajun Marine Services", -1, [("ULSD-CLR", "1000")], "delivered", "T-102", "Maria Lopez"),
    ("DEMO-1009", "Capitol City Sanitation", -2, [("UNL-87", "600")], "completed", "B-202", "Tom Nguyen"),
    ("DEMO-1010", "Red River Ranch", 0, [("ULSD-DYED", "500")], "cancelled", None, None),
    ("DEMO-1011", "Sooner Drilling Services", 1, [("ULSD-CLR", "3000")], "draft", None, None),
    (
        "DEMO-1012",
        "Acadiana Rice Growers",
        1,
        [("ULSD-DYED", "1100"), ("DEF-BULK", "200")],
        "verified",
        None,
        None,
    ),
]
STEPS = {
    "draft": [],
    "verified": ["verify"],
    "assigned": ["verify", "assign"],
    "in_delivery": ["verify", "assign", "start_delivery"],
    "delivered": ["verify", "assign", "start_delivery", "deliver"],
    "completed": ["verify", "assign", "start_delivery", "deliver", "complete"],
    "cancelled": ["cancel"],
}


def seed() -> None:
    from tenants.accounts.models import User
    from tenants.catalog.models import Product
    from tenants.fleet.models import CompanyAsset, Driver
    from tenants.parties.models import Customer
    from tenants.sales.models import SalesOrder

    admin = User.objects.filter(role__grants_all=True).order_by("id").first()
    today = timezone.localdate()
    for po, customer_name, offset, lines, status, truck_no, driver_name in ORDERS:
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
            "planned_date": today + dt.timedelta(days=offset),
            "planned_time_from": dt.time(7 + len(po) % 5, 0),
            "planned_time_to": dt.time(12, 0),
            "line_items": [
                {
                    "product_id": products[code].pk,
                    "quantity": Decimal(qty),
                    "customer_asset_id": tank.pk if tank and products[code].is_fuel and i == 0 else None,
                }
                for i, (code, qty) in enumerate(lines)
            ],
        }
        truck = CompanyAsset.objects.filter(asset_number=truck_no).first() if truck_no else None
        driver = Driver.objects.filter(name=driver_name).first() if driver_name else None
        _make(data, status, truck, driver, admin)


def _make(data: dict[str, Any], status: str, truck: Any, driver: Any, by: Any) -> None:
    from core.errors import ApiError
    from django.db import transaction

    from tenants.sales import services, workflow

    try:
        with transaction.atomic():
            order = services.create_order(data, by=by)
            for step in STEPS[status]:
                if step == "verify":
                    order = workflow.verify(order, by=by)
                elif step == "assign":
                    if truck is None or driver is None:
                        return
                    order = workflow.assign(order, driver_id=driver.pk, truck_id=truck.pk, by=by)
                elif step == "deliver":
                    lines = [(ln.pk, ln.quantity) for ln in order.line_items.all()]
                    order = workflow.deliver(order, lines, by=by)
                else:
                    order = getattr(workflow, step)(order, by=by)
    except ApiError as exc:  # e.g. no price for a product yet: keep the rest of the demo
        log.warning("demo order %s not made: %s", data["po_number"], exc)
