"""Route planning's demo data (issue 27): each demo driver's shift on his usual truck (every day, so
"Plan the day" has a real day whatever today is), the trucks' routing data, and a few more verified
orders today at customers with coordinates, so the planner has a day to plan beside the assigned ones."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

# driver, truck, shift start, shift end, skills of the truck, cost per mile
SHIFTS: list[tuple[str, str, dt.time, dt.time, list[str], str]] = [
    ("Dave Driver", "T-101", dt.time(6), dt.time(17), ["hose_100ft"], "2.40"),
    ("Maria Lopez", "T-102", dt.time(5, 30), dt.time(16, 30), ["hose_150ft"], "2.60"),
    ("James Carter", "T-103", dt.time(6), dt.time(18), [], "2.60"),
    ("Tom Nguyen", "B-202", dt.time(7), dt.time(17), ["hose_150ft"], "1.90"),
]
# customer, product code, gallons (verified orders today, unassigned)
EXTRA_ORDERS: list[tuple[str, str, str]] = [
    ("Galveston Bay Shrimp Co", "ULSD-CLR", "900"),
    ("Bayou City Builders", "ULSD-CLR", "650"),
    ("Lone Star Paving", "ULSD-DYED", "700"),
    ("Brazos Valley Farms", "ULSD-DYED", "1100"),
    ("Cajun Marine Services", "ULSD-CLR", "800"),
    ("Alamo Aggregates", "ULSD-CLR", "500"),
]


def seed() -> None:
    from tenants.fleet.models import CompanyAsset, Driver
    from tenants.routing.models import DriverShift, TruckRouting

    for driver_name, truck_no, start, end, skills, per_mile in SHIFTS:
        driver = Driver.objects.filter(name=driver_name).first()
        truck = CompanyAsset.objects.filter(asset_number=truck_no).first()
        if driver is None or truck is None:
            continue
        DriverShift.objects.get_or_create(
            driver=driver,
            defaults={"truck": truck, "start": start, "end": end, "days": [1, 2, 3, 4, 5, 6, 7]},
        )
        TruckRouting.objects.get_or_create(
            truck=truck, defaults={"skills": skills, "cost_per_mile": Decimal(per_mile)}
        )
    _orders()
    _keep_full_tank()


def _orders() -> None:
    from tenants.accounts.models import User
    from tenants.catalog.models import Product
    from tenants.demo.sales import _make
    from tenants.parties.models import Customer
    from tenants.sales.models import SalesOrder

    admin = User.objects.filter(role__grants_all=True).order_by("id").first()
    today = timezone.localdate()
    for n, (customer_name, code, gallons) in enumerate(EXTRA_ORDERS, start=1):
        po = f"DEMO-RT-{n:02d}"
        if SalesOrder.objects.filter(po_number=po).exists():
            continue
        customer = Customer.objects.filter(name=customer_name).first()
        product = Product.objects.filter(code=code).first()
        if customer is None or product is None:
            continue
        ship_to = customer.ship_tos.filter(latitude__isnull=False).order_by("id").first()
        data: dict[str, Any] = {
            "customer_id": customer.pk,
            "ship_to_id": ship_to.pk if ship_to else None,
            "po_number": po,
            "planned_date": today,
            "line_items": [{"product_id": product.pk, "quantity": Decimal(gallons)}],
        }
        if n % 3 == 0:  # a third with a window
            data.update(planned_time_from=dt.time(9), planned_time_to=dt.time(13))
        _make(data, "verified", None, None, admin)


# A keep-full tank due today next to the DEMO-RT orders (west Houston), so "Plan the day" on the demo
# has a keep-full top-up on the way: customer, ship-to name, lat, lng, product, capacity, level today.
KEEP_FULL_TANK = ("Gulf Freight Lines", "DEMO-KF west yard", "29.7850", "-95.4600", "ULSD-CLR", "1000", "230")


def _keep_full_tank() -> None:
    """A diesel tank on keep-full at its own ship-to, a calendar use of 40 gal a day read by a monitor
    daily for a week down to ~230 gal today (below its 25 % reorder point): the forecast says it is
    due today (its suggested gallons fill it to 90 %). Once (by serial number)."""
    from tenants.catalog.models import Product
    from tenants.forecast import forecasting
    from tenants.forecast.models import TankReading, TankSettings, WeatherZone
    from tenants.parties.models import Customer, CustomerAsset, ShipTo

    customer_name, site_name, lat, lng, code, capacity, level = KEEP_FULL_TANK
    if CustomerAsset.objects.filter(serial_number="DEMO-KF-1").exists():
        return
    customer = Customer.objects.filter(name=customer_name).first()
    product = Product.objects.filter(code=code).first()
    if customer is None or product is None:
        return
    site = ShipTo.objects.create(
        customer=customer, name=site_name, latitude=Decimal(lat), longitude=Decimal(lng)
    )
    tank = CustomerAsset.objects.create(
        customer=customer,
        ship_to=site,
        asset_name="DEMO-KF tank",
        serial_number="DEMO-KF-1",
        capacity=Decimal(capacity),
        product=product,
    )
    TankSettings.objects.create(
        asset=tank,
        program=TankSettings.Program.KEEP_FULL,
        usage_model="calendar",
        usage_type="fleet_diesel",
        max_fill_percent=Decimal("90"),
        reorder_percent=Decimal("25"),
        daily_rate_override=Decimal("40"),
        zone=WeatherZone.objects.order_by("id").first(),
    )
    now = timezone.localtime().replace(hour=6, minute=0, second=0, microsecond=0)
    cap = Decimal(capacity)
    for days in range(7, 0, -1):
        gallons = Decimal(level) + 40 * days
        TankReading.objects.create(
            asset=tank,
            taken_at=now - dt.timedelta(days=days),
            level_gallons=gallons,
            level_percent=(gallons * 100 / cap).quantize(Decimal("0.01")),
            source="monitor",
        )
    forecasting.run_forecast(asset_ids=[tank.pk])
