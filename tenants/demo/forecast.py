"""Demo keep-full forecasting: a Houston weather zone with a year of daily temperatures and a week of
forecast, eight customer tanks on keep-full (heating on the weather model, diesel on the calendar
model), each with four months of simulated use: deliveries through the real order and delivery flow
(with the driver's level before) and weekly monitor readings. Then the forecast runs, so the due list
and the tank pages show something. Idempotent: nothing is made when the zone exists."""

from __future__ import annotations

import datetime as dt
import logging
import math
import random
from decimal import Decimal
from typing import Any

from django.utils import timezone

log = logging.getLogger(__name__)
ZONE = ("HOU", "Houston (KIAH)", "72243")
TANKS = 8
HISTORY_DAYS = 120


def _temp(day: dt.date, rng: random.Random) -> float:
    # Houston: about 53 °F mean in mid-January, 84 °F in late July, with cold fronts.
    season = 68.5 - 15.5 * math.cos(2 * math.pi * (day.timetuple().tm_yday - 20) / 365.25)
    front = -12.0 if rng.random() < 0.06 else 0.0
    return round(season + rng.gauss(0, 4) + front, 1)


def seed() -> None:
    from tenants.forecast import forecasting
    from tenants.forecast.models import DailyTemperature, TankSettings, WeatherZone
    from tenants.parties.models import CustomerAsset

    if WeatherZone.objects.filter(code=ZONE[0]).exists():
        return
    rng = random.Random(20261206)  # noqa: S311  (demo data, the same every time)
    today = timezone.localdate()
    zone = WeatherZone.objects.create(code=ZONE[0], name=ZONE[1], station=ZONE[2])
    temps = {today - dt.timedelta(days=i): _temp(today - dt.timedelta(days=i), rng) for i in range(1, 400)}
    forecast = {today + dt.timedelta(days=i): _temp(today + dt.timedelta(days=i), rng) for i in range(0, 10)}
    DailyTemperature.objects.bulk_create(
        [DailyTemperature(zone=zone, day=d, mean_f=Decimal(str(t)), source="demo") for d, t in temps.items()]
        + [
            DailyTemperature(zone=zone, day=d, mean_f=Decimal(str(t)), kind="forecast", source="demo")
            for d, t in forecast.items()
        ]
    )
    tanks = list(
        CustomerAsset.objects.filter(
            is_active=True, capacity__gt=0, product__is_fuel=True, ship_to__isnull=False
        )
        .select_related("customer", "product")
        .order_by("id")[:TANKS]
    )
    for i, tank in enumerate(tanks):
        weather = i % 2 == 0
        settings = TankSettings.objects.create(
            asset=tank,
            program=TankSettings.Program.KEEP_FULL,
            usage_model="weather" if weather else "calendar",
            usage_type="commercial_heating" if weather else "fleet_diesel",
            max_fill_percent=Decimal("90"),
            reorder_percent=Decimal("25"),
            zone=zone,
        )
        _simulate(tank, settings, weather, {**temps, **forecast}, rng, today, i)
    forecasting.run_forecast()


def _simulate(
    tank: Any,
    settings: Any,
    weather: bool,
    temps: dict[dt.date, float],
    rng: random.Random,
    today: dt.date,
    i: int,
) -> None:
    from tenants.forecast.models import TankReading

    capacity = float(tank.capacity)
    usable = capacity * 0.9
    # A fill lasts 3 to 6 weeks; tanks are offset so that some are due this week.
    days_per_fill = rng.uniform(21, 42)
    rate = usable * 0.65 / days_per_fill
    k = 15.0 / rate if weather else None  # winter days here have ~15 HDD
    level = usable * rng.uniform(0.35, 0.95)
    day = today - dt.timedelta(days=HISTORY_DAYS)
    while day < today:
        if weather:
            assert k is not None
            used = 0.15 * rate + max(0.0, 65.0 - temps.get(day, 60.0)) / k
        else:
            used = rate * (0.3 if day.weekday() >= 5 else 1.2)
        level = max(0.0, level - used * rng.uniform(0.85, 1.15))
        if day.weekday() == 0 and i % 3 != 2:  # a monitor on most tanks reads every Monday
            at = timezone.make_aware(dt.datetime.combine(day, dt.time(6, 0)))
            TankReading.objects.create(
                asset=tank,
                taken_at=at,
                level_gallons=Decimal(f"{level:.2f}"),
                level_percent=Decimal(f"{100 * level / capacity:.2f}"),
                source="monitor",
            )
        if level < usable * 0.3 and day < today - dt.timedelta(days=2) and day.weekday() < 5:
            drop = usable - level
            if _deliver(tank, day, Decimal(f"{drop:.0f}"), Decimal(f"{100 * level / capacity:.1f}")):
                level = usable
        day += dt.timedelta(days=1)


def _past_price(tank: Any, day: dt.date) -> Decimal | None:
    """The demo's rack prices cover only the last week (tenants.demo.pricing.RACK_DAYS): an older
    delivery is charged the product's list price, as a typed price, so the tank's history has its
    fills (without it every older delivery was refused with "no price"). None: the engine prices it."""
    from tenants.demo.pricing import RACK_DAYS

    if day > timezone.localdate() - dt.timedelta(days=RACK_DAYS - 1):
        return None
    return tank.product.unit_price


def _deliver(tank: Any, day: dt.date, gallons: Decimal, level_before: Decimal) -> bool:
    """A past delivery through the real flow: order (priced), verify, assign, record the delivery."""
    from core.errors import ApiError
    from django.db import transaction

    from tenants.accounts.models import User
    from tenants.delivery import services as delivery
    from tenants.fleet.models import CompanyAsset, Driver
    from tenants.sales import services, workflow

    admin = User.objects.filter(role__grants_all=True).order_by("id").first()
    truck = CompanyAsset.objects.filter(asset_number="T-101").first()
    driver = Driver.objects.order_by("id").first()
    if truck is None or driver is None:
        return False
    try:
        with transaction.atomic():
            order = services.create_order(
                {
                    "customer_id": tank.customer_id,
                    "ship_to_id": tank.ship_to_id,
                    "planned_date": day,
                    "po_number": f"KF-{tank.pk}-{day:%m%d}",
                    "line_items": [
                        {
                            "product_id": tank.product_id,
                            "quantity": gallons,
                            "customer_asset_id": tank.pk,
                            "unit_price_override": _past_price(tank, day),
                        }
                    ],
                },
                by=admin,
            )
            order = workflow.verify(order, by=admin)
            order = workflow.assign(order, driver_id=driver.pk, truck_id=truck.pk, by=admin)
            line = order.line_items.get()
            delivery.record_delivery(
                order=order,
                lines=[
                    {
                        "line_item_id": line.pk,
                        "delivered_quantity": gallons,
                        "tank_id": tank.pk,
                        "level_before_percent": level_before,
                    }
                ],
                signer_name="Demo customer",
                signature_key=None,
                photo_keys=None,
                latitude=None,
                longitude=None,
                delivered_at=timezone.make_aware(dt.datetime.combine(day, dt.time(10, 30))),
                by=admin,
            )
    except ApiError as exc:  # no price for the day, a refused move: the demo goes on without it
        log.warning("demo keep-full delivery of tank %s on %s not made: %s", tank.pk, day, exc)
        return False
    return True
