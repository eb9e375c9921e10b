"""Builders shared by the sales tests."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

ORDERS = "/api/sales-order/sales-orders"
DAY = dt.date(2026, 12, 1)


def master_data(**customer: Any) -> dict[str, Any]:
    """A customer with a ship-to and a tank, two fuel products and a lube, a driver, a truck with
    compartments (3000 + 2000 gal), a trailer and a tractor. Runs in the active tenant schema."""
    from tenants.catalog.models import Product
    from tenants.fleet.models import AssetType, CompanyAsset, Driver
    from tenants.parties.models import Customer, CustomerAsset, ShipTo

    cust = Customer.objects.create(
        name=customer.pop("name", "Acme Construction"),
        account_number=f"ACME-{Customer.objects.count() + 1}",
        **customer,
    )
    site = ShipTo.objects.create(customer=cust, name="Main yard")
    tank = CustomerAsset.objects.create(customer=cust, ship_to=site, asset_name="Tank 1")
    diesel, _ = Product.objects.get_or_create(
        code="ULSD-T", defaults={"name": "Clear Diesel", "sold_as": "gallon", "is_fuel": True}
    )
    gas, _ = Product.objects.get_or_create(
        code="UNL-T", defaults={"name": "Unleaded 87", "sold_as": "gallon", "is_fuel": True}
    )
    oil, _ = Product.objects.get_or_create(
        code="EO-T", defaults={"name": "Engine oil drum", "sold_as": "drum"}
    )
    truck_type, _ = AssetType.objects.get_or_create(name="Tank truck T", defaults={"category": "truck"})
    trailer_type, _ = AssetType.objects.get_or_create(name="Trailer T", defaults={"category": "trailer"})
    truck, _ = CompanyAsset.objects.get_or_create(
        asset_number="T-101",
        defaults={
            "name": "Tank truck",
            "asset_type": truck_type,
            "capacity": 5000,
            "compartments": [{"number": 1, "capacity": 3000}, {"number": 2, "capacity": 2000}],
        },
    )
    trailer, _ = CompanyAsset.objects.get_or_create(
        asset_number="TR-1",
        defaults={
            "name": "Pup trailer",
            "asset_type": trailer_type,
            "capacity": 4000,
            "compartments": [{"number": 1, "capacity": 4000}],
        },
    )
    driver, _ = Driver.objects.get_or_create(name="Dana Driver")
    return {
        "customer": cust,
        "ship_to": site,
        "tank": tank,
        "diesel": diesel,
        "gas": gas,
        "oil": oil,
        "truck": truck,
        "trailer": trailer,
        "driver": driver,
    }


def order_in_db(
    md: dict[str, Any],
    *,
    status: str = "draft",
    lines: tuple = (("diesel", "1000", "3.0000"),),
    **fields: Any,
) -> Any:
    """An order made directly (priced lines), in any status: for workflow tests."""
    from tenants.pricing.money import money
    from tenants.sales.models import LineItem, SalesOrder

    n = SalesOrder.objects.count() + 1
    order = SalesOrder.objects.create(
        number=f"SO-T{n:05d}",
        customer=md["customer"],
        ship_to=md["ship_to"],
        planned_date=fields.pop("planned_date", DAY),
        status=status,
        **fields,
    )
    total = Decimal("0")
    for i, (product, qty, price) in enumerate(lines, start=1):
        amount = money(Decimal(qty) * Decimal(price))
        LineItem.objects.create(
            sales_order=order,
            position=i,
            product=md[product],
            quantity=Decimal(qty),
            unit_price=Decimal(price),
            unit_price_override=Decimal(price),
            amount=amount,
            price_fixed=status != "draft",
        )
        total += amount
    order.subtotal = order.total = total
    order.save()
    return order
