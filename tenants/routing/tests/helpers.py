"""Builders of the routing tests: a small day around Houston that the planner can plan."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

PLANS = "/api/route-plan"
SETTINGS = "/api/routing-settings"
TRUCK_ROUTING = "/api/truck-routing"
DRIVER_SHIFT = "/api/driver-shift"
SITE = "/api/site-constraint"
DAY = dt.date(2026, 12, 1)  # a Tuesday

# Ship-tos a few miles around the yard (lat, lng).
PLACES = [
    (29.80, -95.40),
    (29.72, -95.35),
    (29.85, -95.30),
    (29.70, -95.45),
    (29.78, -95.25),
    (29.90, -95.42),
]


def planning_day(*, orders: int = 4, trucks: int = 2, window_first: bool = False) -> dict[str, Any]:
    """A yard and a terminal with coordinates and rack prices for diesel and gasoline; `trucks` trucks
    (3000 + 2000 gal) with a driver each on a 06:00-18:00 weekday shift; `orders` verified orders of
    800 gal diesel at ship-tos with coordinates on DAY. Runs in the active tenant."""
    from tenants.fleet.models import AssetType, CompanyAsset, Driver
    from tenants.geo.models import Yard
    from tenants.parties.models import ShipTo, Supplier, Terminal
    from tenants.pricing.models import BuyingPrice
    from tenants.routing.models import DriverShift
    from tenants.sales.tests.helpers import master_data

    md = master_data()
    yard = Yard.objects.create(
        name="Houston yard", code="HOU", latitude=Decimal("29.76"), longitude=Decimal("-95.37")
    )
    terminal = Terminal.objects.create(
        name="Pasadena rack",
        terminal_code="T-76-TX-2000",
        latitude=Decimal("29.70"),
        longitude=Decimal("-95.20"),
    )
    supplier = Supplier.objects.create(name="Gulf Supply")
    for product in (md["diesel"], md["gas"]):
        BuyingPrice.objects.create(
            supplier=supplier, terminal=terminal, product=product, price=Decimal("2.1"), effective_from=DAY
        )
    truck_type = AssetType.objects.get(name="Tank truck T")
    units = [md["truck"]]
    for n in range(2, trucks + 1):
        units.append(
            CompanyAsset.objects.create(
                asset_number=f"T-10{n}",
                name="Tank truck",
                asset_type=truck_type,
                capacity=5000,
                compartments=[{"number": 1, "capacity": 3000}, {"number": 2, "capacity": 2000}],
            )
        )
    drivers = [md["driver"]] + [Driver.objects.create(name=f"Driver {n}") for n in range(2, trucks + 1)]
    for unit, driver in zip(units, drivers, strict=True):
        CompanyAsset.objects.filter(pk=unit.pk).update(home_yard=yard)
        DriverShift.objects.create(driver=driver, truck=unit, start=dt.time(6), end=dt.time(18))
    made = []
    for i in range(orders):
        lat, lng = PLACES[i % len(PLACES)]
        site = ShipTo.objects.create(
            customer=md["customer"],
            name=f"Site {i + 1}",
            latitude=Decimal(str(lat)),
            longitude=Decimal(str(lng)),
        )
        window = (
            {"planned_time_from": dt.time(8), "planned_time_to": dt.time(10)}
            if window_first and i == 0
            else {}
        )
        made.append(order_at(md, site, "800", **window))
    md.update(yard=yard, terminal=terminal, trucks=units, drivers=drivers, orders=made)
    return md


def order_at(md: dict[str, Any], site: Any, gallons: str, product: str = "diesel", **fields: Any) -> Any:
    """A verified order of `gallons` of `product` at the ship-to `site` on DAY."""
    from tenants.sales.tests.helpers import order_in_db

    fields.setdefault("status", "verified")
    return order_in_db({**md, "ship_to": site}, lines=((product, gallons, "3.0000"),), **fields)


def run_plan(api: Any, jobs: Any, capture: Any, day: dt.date = DAY, seconds: int = 2) -> dict[str, Any]:
    """Start "Plan the day", run the worker's job, answer the plan as the API shows it."""
    with capture(execute=True):
        res = api.post(PLANS, {"planned_date": day.isoformat(), "seconds": seconds})
    assert res.status_code == 201, res.json()
    assert res.json()["data"]["status"] == "queued"
    assert jobs() == 1
    got = api.get(f"{PLANS}/{res.json()['data']['id']}")
    assert got.status_code == 200, got.json()
    return dict(got.json()["data"])
