"""Builders of the forecast tests: a weather zone with a cold spell of history, a heating-oil tank on
keep-full with readings that say it uses about 18 gallons a day, priced by the pricing world."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

BASE = "/api/forecast"
COLD_F = Decimal("35.0")  # 30 HDD a day


def zone(code: str = "GSO", days: int = 60, mean_f: Decimal = COLD_F) -> Any:
    """A zone with `days` observed days before today at `mean_f` and a week of forecast."""
    from tenants.forecast.models import DailyTemperature, WeatherZone

    z = WeatherZone.objects.create(code=code, name=f"Zone {code}", station="72317")
    today = timezone.localdate()
    DailyTemperature.objects.bulk_create(
        [
            DailyTemperature(zone=z, day=today - dt.timedelta(days=i), mean_f=mean_f)
            for i in range(1, days + 1)
        ]
        + [
            DailyTemperature(zone=z, day=today + dt.timedelta(days=i), mean_f=mean_f, kind="forecast")
            for i in range(0, 8)
        ]
    )
    return z


def tank(
    customer: Any,
    *,
    name: str = "House tank",
    serial: str = "SN-1000",
    capacity: str | None = "1000",
    **kw: Any,
) -> Any:
    from tenants.parties.models import CustomerAsset

    return CustomerAsset.objects.create(
        customer=customer,
        ship_to=kw.pop("ship_to", None),
        asset_name=name,
        serial_number=serial,
        capacity=Decimal(capacity) if capacity is not None else None,
        product=kw.pop("product", None),
        **kw,
    )


def settings_body(zone_id: int | None, **over: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "program": "keep_full",
        "usage_model": "weather",
        "usage_type": "residential_heating",
        "max_fill_percent": "80",
        "reorder_percent": "25",
        "zone_id": zone_id,
    }
    body.update(over)
    return body


def days_ago(n: int, hour: int = 8) -> str:
    at = timezone.localtime() - dt.timedelta(days=n)
    return at.replace(hour=hour, minute=0, second=0, microsecond=0).isoformat()


# Levels (gallons of a 1000 gal tank) falling ~18 gal/day at 30 HDD a day: 780 at day -30 ... 294 at
# day -3, so the tank is about at its reorder point (250 gal) today.
READINGS = ((30, "780"), (20, "600"), (10, "420"), (3, "294"))


def post_readings(api: Any, serial: str, readings: tuple[tuple[int, str], ...] = READINGS) -> None:
    for n, gallons in readings:
        res = api.post(
            f"{BASE}/reading", {"serial_number": serial, "level_gallons": gallons, "taken_at": days_ago(n)}
        )
        assert res.status_code == 201, res.json()
