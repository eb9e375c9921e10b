"""The production weather provider: daily mean temperatures of a zone's station over HTTP.

Used only where the company configured it (`WeatherProvider.kind = "meteostat"`, its `base_url` and
key); otherwise temperatures come from the office (the API or a CSV import). The protocol is
Meteostat's JSON API (`GET {base_url}/stations/daily?station=..&start=YYYY-MM-DD&end=YYYY-MM-DD
&units=imperial&model=1`, header `x-rapidapi-key`), answering `{"data": [{"date", "tavg", "tmin",
"tmax"}, ...]}`. With `model=1` the days not observed yet come from Meteostat's model: the days
before today are stored as observed, today and after as forecast. A day without `tavg` uses the
mean of `tmin` and `tmax`; a value outside -60..130 °F is refused (logged in the answer's errors).
Tested against `infra/fakes/meteostat.py`, a local fake of that protocol.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
from django.utils import timezone

from tenants.forecast.models import DailyTemperature, WeatherProvider, WeatherZone

PAST_DAYS = 7
FORECAST_DAYS = 10
TIMEOUT_SECONDS = 10.0


class ProviderError(Exception):
    pass


@dataclass
class FetchResult:
    zones: int = 0
    observed: int = 0
    forecast: int = 0
    errors: list[str] = field(default_factory=list)


def _mean(row: dict[str, Any]) -> float | None:
    t = row.get("tavg")
    if t is None and row.get("tmin") is not None and row.get("tmax") is not None:
        t = (float(row["tmin"]) + float(row["tmax"])) / 2
    return None if t is None else float(t)


def fetch_station(
    provider: WeatherProvider, station: str, start: dt.date, end: dt.date
) -> list[tuple[dt.date, float]]:
    """(day, mean °F) of a station; raises ProviderError with a sentence for people."""
    url = provider.base_url.rstrip("/") + "/stations/daily"
    params = {
        "station": station,
        "start": start.isoformat(),
        "end": end.isoformat(),
        "units": "imperial",
        "model": "1",
    }
    headers = {"x-rapidapi-key": provider.api_key} if provider.api_key else {}
    try:
        resp = httpx.get(url, params=params, headers=headers, timeout=TIMEOUT_SECONDS)
    except httpx.HTTPError as exc:
        raise ProviderError(f"the weather provider cannot be reached ({type(exc).__name__})") from exc
    if resp.status_code in (401, 403):
        raise ProviderError("the weather provider refused the API key")
    if resp.status_code == 429:
        raise ProviderError("the weather provider's rate limit was reached: try again later")
    if resp.status_code >= 400:
        raise ProviderError(f"the weather provider answered {resp.status_code}")
    try:
        body = resp.json()
        rows = body.get("data") or []
    except (ValueError, AttributeError) as exc:
        raise ProviderError("the weather provider answered something that is not its JSON") from exc
    out = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        try:
            day = dt.date.fromisoformat(str(row.get("date", ""))[:10])
            mean = _mean(row)
        except (TypeError, ValueError):
            continue
        if mean is not None:
            out.append((day, mean))
    return out


def fetch_all(today: dt.date | None = None) -> FetchResult:
    """Fetch every active zone with a station from the configured provider (nothing when none)."""
    provider = WeatherProvider.objects.order_by("id").first()
    result = FetchResult()
    if provider is None or provider.kind == WeatherProvider.Kind.NONE or not provider.base_url:
        return result
    today = today or timezone.localdate()
    start, end = today - dt.timedelta(PAST_DAYS), today + dt.timedelta(FORECAST_DAYS)
    for zone in WeatherZone.objects.filter(is_active=True).exclude(station="").order_by("id"):
        result.zones += 1
        try:
            rows = fetch_station(provider, zone.station, start, end)
        except ProviderError as exc:
            result.errors.append(f"{zone.code}: {exc}")
            continue
        for day, mean in rows:
            if not -60 <= mean <= 130:
                result.errors.append(
                    f"{zone.code}: {day.isoformat()} has {mean:.1f} °F, outside -60..130 °F: ignored"
                )
                continue
            kind = DailyTemperature.Kind.OBSERVED if day < today else DailyTemperature.Kind.FORECAST
            DailyTemperature.objects.update_or_create(
                zone=zone,
                day=day,
                kind=kind,
                defaults={"mean_f": Decimal(str(round(mean, 1))), "source": provider.kind},
            )
            if kind == DailyTemperature.Kind.OBSERVED:
                result.observed += 1
            else:
                result.forecast += 1
    provider.last_fetch_at = timezone.now()
    provider.last_error = "; ".join(result.errors)[:500]
    provider.save(update_fields=["last_fetch_at", "last_error", "updated_at"])
    return result
