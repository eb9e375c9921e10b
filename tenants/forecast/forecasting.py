"""The forecast run: from the database to the engine (tenants/forecast/engine, pure math) and back.

For every keep-full tank (or the tanks asked for): its history (deliveries and readings) becomes
usage intervals, the engine fits its usage (from its customer type's typical values, toward its own
history), projects its level for the horizon and says whether it is due. The result replaces the
tank's `TankForecast` row. A tank that cannot be forecast gets `cannot_forecast` ("no capacity",
"no weather zone", ...) and the run goes on: nothing about one tank stops the others.

Quantities: the engine works in float gallons; what is stored is rounded here (levels to 0.01 gal,
the suggested quantity to whole gallons, half up: tenants.pricing.money.round_to_step).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import logging
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone

from tenants.delivery.models import DeliveryTicket, DeliveryTicketLine
from tenants.forecast.engine import due as due_mod
from tenants.forecast.engine import projection as proj_mod
from tenants.forecast.engine import usage as usage_mod
from tenants.forecast.engine import weather as weather_mod
from tenants.forecast.models import DailyTemperature, ForecastRun, TankForecast, TankReading, TankSettings
from tenants.pricing.money import round_to_step

log = logging.getLogger(__name__)

HORIZON_DAYS = 14
DEFAULT_REORDER_PERCENT = Decimal("25")
# History the fit reads (fills older than this say little about the tank as it is now).
HISTORY_DAYS = 3 * 365
# A known level older than this is carried forward no further: the tank is then treated as unknown.
MAX_CARRY_DAYS = 120
OVERRIDE_BAND = 0.10  # an office override: 10 % (one sd) of uncertainty around its values
CENT = Decimal("0.01")
GALLON = Decimal("1")
BATCH = 500


def _dec(value: float | None, step: Decimal = CENT) -> Decimal | None:
    if value is None or not math.isfinite(value):
        return None
    return round_to_step(Decimal(str(value)), step)


def usable_gallons(capacity: Decimal | None, settings: TankSettings) -> Decimal | None:
    if capacity is None or capacity <= 0:
        return None
    return round_to_step(capacity * settings.max_fill_percent / 100, CENT)


def reorder_gallons(capacity: Decimal | None, settings: TankSettings) -> Decimal | None:
    if settings.reorder_gallons is not None:
        return settings.reorder_gallons
    if capacity is None or capacity <= 0:
        return None
    pct = settings.reorder_percent if settings.reorder_percent is not None else DEFAULT_REORDER_PERCENT
    return round_to_step(capacity * pct / 100, CENT)


def usage_type_of(settings: TankSettings) -> str:
    """The typical-use key of a tank: its own setting, else its customer's company type, else its
    usage model's usual case."""
    if settings.usage_type:
        return settings.usage_type
    company_type = settings.asset.customer.company_type
    if company_type is not None and company_type.company_type:
        return str(company_type.company_type)
    return "residential_heating" if settings.usage_model == "weather" else "process"


def prior_for(settings: TankSettings) -> usage_mod.UsageParams:
    prior = usage_mod.typical_params(usage_type_of(settings))
    if prior.model != settings.usage_model:
        prior = usage_mod.typical_params(
            "residential_heating" if settings.usage_model == "weather" else "process"
        )
    return prior


def apply_overrides(fit: usage_mod.UsageFit, settings: TankSettings) -> tuple[usage_mod.UsageFit, bool]:
    """The fit with the office's overrides of K, baseload or the daily rate (engine.usage.override_fit:
    the given values with a ±10 % band; the fit's noise and interval count kept)."""
    p = fit.params
    if settings.usage_model == "weather":
        if settings.k_factor_override is None and settings.baseload_override is None:
            return fit, False
        k = float(settings.k_factor_override) if settings.k_factor_override is not None else p.k_factor
        b = float(settings.baseload_override) if settings.baseload_override is not None else p.baseload
        params = dataclasses.replace(p, model="weather", k_factor=k, baseload=b, daily_rate=None)
    else:
        if settings.daily_rate_override is None:
            return fit, False
        params = dataclasses.replace(
            p, model="calendar", k_factor=None, baseload=0.0, daily_rate=float(settings.daily_rate_override)
        )
    return usage_mod.override_fit(params, fit if fit.ok else None, OVERRIDE_BAND), True


# --- history -------------------------------------------------------------------------------------
@dataclass
class Event:
    """A known level: a reading (before = after) or a delivery (before the drop, after it)."""

    day: dt.date
    at: dt.datetime
    before: float
    after: float
    kind: str


@dataclass
class TankHistory:
    events: list[Event] = field(default_factory=list)


def tank_events(
    asset_ids: Sequence[int], *, since: dt.datetime, usable: dict[int, float]
) -> dict[int, list[Event]]:
    """Each tank's known levels in time order. A delivery fills the tank: its level after is the
    usable capacity, or the driver's level before plus the drop when that is less; its level before
    is the driver's reading, else the usable capacity less the drop."""
    events: dict[int, list[Event]] = defaultdict(list)
    readings = (
        TankReading.objects.filter(asset_id__in=asset_ids, taken_at__gte=since)
        .order_by("taken_at", "id")
        .values_list("asset_id", "taken_at", "level_gallons", "ticket_line_id")
    )
    from_lines: set[int] = set()
    for asset_id, at, level, line_id in readings:
        if line_id is not None:
            from_lines.add(line_id)
            continue  # a driver's level before: read with its delivery below
        g = float(level)
        events[asset_id].append(Event(timezone.localdate(at), at, g, g, "reading"))
    lines = (
        DeliveryTicketLine.objects.filter(
            tank_id__in=asset_ids,
            ticket__status=DeliveryTicket.Status.DELIVERED,
            ticket__delivered_at__gte=since,
        )
        .order_by("ticket__delivered_at", "id")
        .values_list(
            "id",
            "tank_id",
            "ticket__delivered_at",
            "delivered_quantity",
            "gross_volume",
            "level_before_percent",
            "tank__capacity",
        )
    )
    for _line_id, tank_id, delivered_at, delivered, gross, before_pct, capacity in lines:
        qty = gross if gross is not None else delivered
        if qty is None or delivered_at is None:
            continue
        full = usable.get(tank_id)
        if full is None:
            continue
        drop = float(qty)
        if before_pct is not None and capacity:
            before = float(capacity) * float(before_pct) / 100.0
            after = min(full, before + drop)
        else:
            after = full
            before = max(0.0, full - drop)
        events[tank_id].append(
            Event(timezone.localdate(delivered_at), delivered_at, before, after, "delivery")
        )
    for evs in events.values():
        evs.sort(key=lambda e: e.at)
    return events


def intervals(events: Sequence[Event]) -> list[usage_mod.UsageInterval]:
    """Usage between consecutive known levels (end exclusive: engine.usage)."""
    out = []
    for prev, nxt in itertools.pairwise(events):
        if nxt.day <= prev.day:
            continue
        used = prev.after - nxt.before
        source = "fill" if nxt.kind == "delivery" and prev.kind == "delivery" else "reading"
        out.append(usage_mod.UsageInterval(prev.day, nxt.day, used, source))
    return out


# --- temperatures --------------------------------------------------------------------------------
def zone_series(zone_ids: Iterable[int], start: dt.date, days: int) -> dict[int, np.ndarray]:
    """Daily means per zone from `start` for `days` days: observed, else forecast, else the zone's
    normals (the average of its past years for that date). NaN where a zone has none of them."""
    zone_ids = list(zone_ids)
    observed: dict[int, dict[dt.date, float]] = defaultdict(dict)
    forecast: dict[int, dict[dt.date, float]] = defaultdict(dict)
    for zone_id, day, mean_f, kind in DailyTemperature.objects.filter(zone_id__in=zone_ids).values_list(
        "zone_id", "day", "mean_f", "kind"
    ):
        (observed if kind == DailyTemperature.Kind.OBSERVED else forecast)[zone_id][day] = float(mean_f)
    out = {}
    for zone_id in zone_ids:
        normals = weather_mod.normals(observed[zone_id])
        out[zone_id] = weather_mod.series(start, days, observed[zone_id], forecast[zone_id], normals)
    return out


# --- the run -------------------------------------------------------------------------------------
@dataclass
class RunResult:
    tanks: int = 0
    forecast: int = 0
    failed: int = 0
    due: int = 0


def keep_full_settings(asset_ids: Sequence[int] | None = None) -> list[TankSettings]:
    qs = TankSettings.objects.select_related(
        "asset", "asset__customer", "asset__customer__company_type", "zone"
    ).filter(program=TankSettings.Program.KEEP_FULL, asset__is_active=True)
    if asset_ids is not None:
        qs = qs.filter(asset_id__in=list(asset_ids))
    return list(qs.order_by("asset_id"))


def run_forecast(
    *,
    today: dt.date | None = None,
    asset_ids: Sequence[int] | None = None,
    run: ForecastRun | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RunResult:
    """Forecast the keep-full tanks (all, or `asset_ids`) as of `today`; store each tank's result."""
    today = today or timezone.localdate()
    settings = keep_full_settings(asset_ids)
    result = RunResult(tanks=len(settings))
    for start in range(0, len(settings), BATCH):
        batch = settings[start : start + BATCH]
        stored = _forecast_batch(batch, today=today, run=run)
        result.forecast += sum(1 for f in stored if not f.cannot_forecast)
        result.failed += sum(1 for f in stored if f.cannot_forecast)
        result.due += sum(1 for f in stored if f.suggested_date is not None)
        if progress is not None:
            progress(min(start + BATCH, len(settings)), len(settings))
    if asset_ids is not None:
        # A tank asked for that is no longer keep-full keeps no stale due row.
        TankForecast.objects.filter(asset_id__in=list(asset_ids)).exclude(
            asset_id__in=[s.asset_id for s in settings]
        ).delete()
    else:
        TankForecast.objects.exclude(asset_id__in=[s.asset_id for s in settings]).delete()
    return result


def _forecast_batch(
    batch: list[TankSettings], *, today: dt.date, run: ForecastRun | None
) -> list[TankForecast]:
    now = timezone.now()
    rows: dict[int, TankForecast] = {}
    usable: dict[int, float] = {}
    reorder: dict[int, float] = {}
    for s in batch:
        asset = s.asset
        why = _cannot_why(s)
        rows[s.asset_id] = TankForecast(
            asset_id=s.asset_id, run=run, computed_at=now, cannot_forecast=why or ""
        )
        if why:
            continue
        u, r = usable_gallons(asset.capacity, s), reorder_gallons(asset.capacity, s)
        assert u is not None and r is not None
        usable[s.asset_id], reorder[s.asset_id] = float(u), float(r)
        rows[s.asset_id].usable_gallons, rows[s.asset_id].reorder_gallons = u, r

    ok = [s for s in batch if not rows[s.asset_id].cannot_forecast]
    since = timezone.make_aware(dt.datetime.combine(today - dt.timedelta(HISTORY_DAYS), dt.time()))
    events = tank_events([s.asset_id for s in ok], since=since, usable=usable)
    # Temperatures from the oldest day any tank needs (its history or its last known level).
    first_needed = today
    for s in ok:
        evs = events.get(s.asset_id) or []
        if evs:
            first_needed = min(first_needed, evs[0].day)
    first_needed = max(first_needed, today - dt.timedelta(HISTORY_DAYS))
    span = (today - first_needed).days + HORIZON_DAYS + 1
    zones = {s.zone_id for s in ok if s.zone_id is not None}
    series = zone_series(zones, first_needed, span)
    temps_start = max(first_needed, today - dt.timedelta(MAX_CARRY_DAYS))

    states: list[proj_mod.TankState] = []
    fits: dict[int, tuple[usage_mod.UsageFit, bool]] = {}
    for s in ok:
        row = rows[s.asset_id]
        try:
            evs = events.get(s.asset_id) or []
            temps: dict[dt.date, float] = {}
            if s.zone_id is not None:
                arr = series[s.zone_id]
                temps = {
                    first_needed + dt.timedelta(i): float(v) for i, v in enumerate(arr) if not math.isnan(v)
                }
            fit = usage_mod.fit_usage(intervals(evs), temps, s.usage_model, prior_for(s))  # type: ignore[arg-type]
            fit, overridden = apply_overrides(fit, s)
            fits[s.asset_id] = (fit, overridden)
            if fit.cannot_fit:
                row.cannot_forecast = f"cannot fit the usage: {fit.cannot_fit}"
                continue
            last = evs[-1] if evs else None
            if last is None:
                row.cannot_forecast = "no history: record a reading or a delivery of this tank"
                continue
            if last.day < temps_start:
                row.cannot_forecast = (
                    f"the last known level is from {last.day.isoformat()} (over {MAX_CARRY_DAYS} days ago): "
                    "record a reading"
                )
                continue
            row.level_as_of = last.day
            states.append(
                proj_mod.TankState(
                    tank_id=s.asset_id,
                    usable_gallons=usable[s.asset_id],
                    reorder_gallons=reorder[s.asset_id],
                    level_gallons=last.after,
                    as_of=last.day,
                    fit=fit,
                    zone=str(s.zone_id or ""),
                )
            )
        except Exception as exc:  # one bad tank: its reason, and the run goes on
            log.exception("forecast of tank %s failed", s.asset_id)
            row.cannot_forecast = f"the forecast failed: {exc}"[:300]

    offset = (temps_start - first_needed).days
    temps_by_zone = {str(z): arr[offset:] for z, arr in series.items()}
    projections = _project(states, temps_by_zone, today, temps_start)
    due_rows = {d.tank_id: d for d in due_mod.due_list(projections, states, today, HORIZON_DAYS)}
    for p in projections:
        row = rows[p.tank_id]
        fit, overridden = fits[p.tank_id]
        row.fit = fit_json(fit, overridden)
        if not p.ok:
            row.cannot_forecast = (p.cannot_project or "cannot project")[:300]
            continue
        row.start = p.start
        row.projection = {
            "level": [round(float(v), 1) for v in p.level],
            "low": [round(float(v), 1) for v in p.low],
            "high": [round(float(v), 1) for v in p.high],
        }
        row.level_gallons = _dec(float(p.level[0]))
        row.reorder_date, row.runout_date = p.reorder_date, p.runout_date
        row.runout_early, row.runout_late = p.runout_early, p.runout_late
        d = due_rows.get(p.tank_id)
        if d is not None:
            row.suggested_date = d.suggested_date
            row.suggested_gallons = _dec(d.suggested_gallons, GALLON)
            row.risk, row.confidence, row.reason = float(d.risk), d.confidence, d.reason[:300]
    for asset_id, (fit, overridden) in fits.items():
        if not rows[asset_id].fit:
            rows[asset_id].fit = fit_json(fit, overridden)
    for row in rows.values():
        if row.cannot_forecast:
            _clear(row)
    with transaction.atomic():
        TankForecast.objects.filter(asset_id__in=list(rows)).delete()
        TankForecast.objects.bulk_create(rows.values())
    return list(rows.values())


def _clear(row: TankForecast) -> None:
    row.projection = {}
    row.start = row.level_gallons = row.reorder_date = row.runout_date = None
    row.runout_early = row.runout_late = row.suggested_date = row.suggested_gallons = None
    row.risk, row.confidence, row.reason = None, "", ""


def _project(
    states: list[proj_mod.TankState],
    temps_by_zone: dict[str, np.ndarray],
    today: dt.date,
    temps_start: dt.date,
) -> list[proj_mod.Projection]:
    """The engine's vectorised projection; should it raise, each tank alone, so that one bad tank
    gets its reason and the others their projection."""
    try:
        return proj_mod.project(states, temps_by_zone, today, HORIZON_DAYS, temps_start=temps_start)
    except Exception:
        log.exception("the vectorised projection failed: projecting tank by tank")
    out = []
    for s in states:
        try:
            out += proj_mod.project([s], temps_by_zone, today, HORIZON_DAYS, temps_start=temps_start)
        except Exception as exc:
            empty = np.zeros(0)
            out.append(
                proj_mod.Projection(
                    s.tank_id,
                    today,
                    empty,
                    empty,
                    empty,
                    None,
                    None,
                    None,
                    None,
                    f"the projection failed: {exc}",
                )
            )
    return out


def _cannot_why(s: TankSettings) -> str | None:
    asset = s.asset
    if asset.capacity is None or asset.capacity <= 0:
        return "the tank has no capacity: set its capacity (gallons)"
    if s.usage_model == TankSettings.UsageModel.WEATHER and s.zone_id is None:
        return "the weather usage model needs a weather zone"
    r, u = reorder_gallons(asset.capacity, s), usable_gallons(asset.capacity, s)
    if r is None or u is None or r >= u:
        return f"the reorder point ({r} gal) is not below the usable capacity ({u} gal)"
    return None


def _finite(v: float | None) -> float | None:
    return None if v is None or not math.isfinite(v) else round(float(v), 4)


def _params(p: usage_mod.UsageParams) -> dict[str, Any]:
    return {
        "k_factor": _finite(p.k_factor),
        "baseload": _finite(p.baseload) or 0.0,
        "daily_rate": _finite(p.daily_rate),
    }


def fit_json(fit: usage_mod.UsageFit, overridden: bool) -> dict[str, Any]:
    return {
        "model": fit.params.model,
        **_params(fit.params),
        "low": _params(fit.low),
        "high": _params(fit.high),
        "n_intervals": fit.n_intervals,
        "residual_sd": _finite(fit.residual_sd),
        "method": "override" if overridden else fit.method,
        "overridden": overridden,
        "cannot_fit": fit.cannot_fit,
        "k_range": _range(fit.k_range),
        "baseload_range": _range(fit.baseload_range),
        "rate_range": _range(fit.rate_range),
        "notes": list(fit.notes)[:20],
    }


def _range(r: tuple[float, float] | None) -> list[float] | None:
    if r is None or not all(math.isfinite(v) for v in r):
        return None
    return [round(float(r[0]), 4), round(float(r[1]), 4)]
