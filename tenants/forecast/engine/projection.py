"""The projected level of every tank, day by day, with a band; vectorised over the whole fleet.

Levels are taken in the morning, before the day's usage: `level[d]` is the level at the start of
`start + d`, for d = 0 .. horizon_days (so the arrays have horizon_days + 1 values and the last is
the level after the horizon's last day). A tank's known level (`as_of`, a fill or a reading) is
carried to `start` with the same model and temperatures (pass `temps_start` <= the oldest as_of).

The band (90 %) adds two things in quadrature: the fit's uncertainty (the usage of its low and
high parameters, fully correlated over the days) and the day-to-day noise of the usage
(`residual_sd` per day, independent days, so it grows with the square root of the days).

`reorder_date` / `runout_date` are the days during which the expected level crosses the reorder
point / zero (the start day itself when it is already there); `runout_early` / `runout_late` the
same for the low / high edge of the band. None: not within the horizon.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

import numpy as np

from .usage import TEMP_MAX_F, TEMP_MIN_F, Z90, UsageFit

# A level a little above the usable capacity is a gauge's rounding, not an error.
LEVEL_TOLERANCE = 0.02


@dataclass
class TankState:
    tank_id: int
    usable_gallons: float
    reorder_gallons: float
    level_gallons: float  # NaN: unknown (no reading or fill yet)
    as_of: date  # the morning the level was known
    fit: UsageFit
    zone: str


@dataclass
class Projection:
    tank_id: int
    start: date
    level: np.ndarray
    low: np.ndarray
    high: np.ndarray
    reorder_date: date | None
    runout_date: date | None
    runout_early: date | None
    runout_late: date | None
    cannot_project: str | None = None  # why there is no projection (then the arrays are empty)
    usable_gallons: float = 0.0
    reorder_gallons: float = 0.0
    daily_usage: np.ndarray = field(default_factory=lambda: np.zeros(0))  # expected gal/day per day

    @property
    def ok(self) -> bool:
        return self.cannot_project is None

    def dates(self) -> list[date]:
        return [self.start + timedelta(d) for d in range(len(self.level))]


def _reason(t: TankState, weather: bool, zone_ok: bool) -> str | None:
    if not t.fit.ok:
        return f"cannot fit the usage: {t.fit.cannot_fit}"
    if not (t.usable_gallons > 0 and math.isfinite(t.usable_gallons)):
        return "the tank has no usable capacity"
    if t.level_gallons is None or not math.isfinite(t.level_gallons):
        return "the level is unknown: no reading or delivery yet"
    if t.level_gallons < 0 or t.level_gallons > t.usable_gallons * (1 + LEVEL_TOLERANCE):
        return (
            f"the level {t.level_gallons:.0f} gal is outside 0..{t.usable_gallons:.0f} gal (usable capacity)"
        )
    if not (math.isfinite(t.reorder_gallons) and 0 <= t.reorder_gallons < t.usable_gallons):
        return f"the reorder point {t.reorder_gallons:.0f} gal is outside 0..usable capacity"
    p = t.fit.params
    if weather:
        if p.k_factor is None or not p.k_factor > 0:
            return "the weather model needs a positive K"
        if not zone_ok:
            return f"no valid temperatures for zone {t.zone!r} over the projection's days"
    elif p.daily_rate is None or not p.daily_rate >= 0:
        return "the calendar model needs a daily rate"
    return None


def _first_crossing(arr: np.ndarray, thr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: does the (morning) level reach `thr` within the horizon, and on which day index
    (the day during which it crosses; 0 when it is already there at the start)."""
    below = arr <= thr[:, None]
    has = np.asarray(below.any(axis=1))
    first = np.argmax(below, axis=1)
    return has, np.maximum(first - 1, 0)


def project(
    tanks: Sequence[TankState],
    temps_by_zone: Mapping[str, np.ndarray],
    start: date,
    horizon_days: int = 14,
    temps_start: date | None = None,
) -> list[Projection]:
    """Project every tank. `temps_by_zone[zone]` holds daily means from `temps_start` (default
    `start`) to at least the horizon's last day. Never raises on a tank's data: a tank it cannot
    project gets `cannot_project` (why) and empty arrays."""
    H = max(int(horizon_days), 1)
    ts = temps_start if temps_start is not None and temps_start <= start else start
    s0 = (start - ts).days
    T = s0 + H
    n = len(tanks)
    empty = np.zeros(0)
    if n == 0:
        return []

    # Zones: HDD matrix (Z, T), NaN where missing or invalid; a prefix count of the bad days lets
    # every tank check only the days it needs.
    zone_names = sorted({t.zone for t in tanks})
    zi_of = {z: i for i, z in enumerate(zone_names)}
    hdd = np.full((len(zone_names), T), np.nan)
    for z, i in zi_of.items():
        arr = temps_by_zone.get(z)
        if arr is None:
            continue
        a = np.asarray(arr, dtype=float)[:T]
        a = np.where((a >= TEMP_MIN_F) & (a <= TEMP_MAX_F), a, np.nan)
        hdd[i, : len(a)] = np.maximum(0.0, 65.0 - a)
    bad_prefix = np.concatenate([np.zeros((len(zone_names), 1)), np.cumsum(np.isnan(hdd), axis=1)], axis=1)

    weekday = np.array([(ts + timedelta(d)).weekday() for d in range(T)])
    isw = np.zeros(n, dtype=bool)
    zi = np.zeros(n, dtype=int)
    off = np.zeros(n, dtype=int)
    L0 = np.zeros(n)
    usable = np.zeros(n)
    reorder = np.zeros(n)
    sigma = np.zeros(n)
    # (mean, low, high) x (baseload, 1/K, rate) and profiles
    coef = np.zeros((3, n, 3))
    prof = np.ones((3, n, 7))
    reasons: list[str | None] = []
    for j, t in enumerate(tanks):
        w = t.fit.params.model == "weather"
        isw[j] = w
        zi[j] = zi_of[t.zone]
        o = (t.as_of - ts).days if isinstance(t.as_of, date) else s0
        off[j] = min(max(o, 0), s0)
        zone_ok = bool(bad_prefix[zi[j], T] - bad_prefix[zi[j], off[j]] == 0)
        why = _reason(t, w, zone_ok)
        reasons.append(why)
        if why is not None:
            continue
        L0[j] = min(t.level_gallons, t.usable_gallons)
        usable[j] = t.usable_gallons
        reorder[j] = t.reorder_gallons
        sigma[j] = max(t.fit.residual_sd, 0.0)
        for v, p in enumerate((t.fit.params, t.fit.low, t.fit.high)):
            if w:
                k = p.k_factor or 1e9
                coef[v, j] = (p.baseload, 1.0 / k, 0.0)
            else:
                coef[v, j] = (0.0, 0.0, p.daily_rate or 0.0)
                prof[v, j] = p.weekday_profile
    ok = np.array([r is None for r in reasons])

    H_t = np.nan_to_num(hdd[zi], nan=0.0)  # (n, T)
    idx = s0 + np.arange(H + 1)  # frame indices of the mornings start .. start + H
    rows = np.arange(n)
    used = []
    for v in range(3):
        u_w = coef[v, :, 0:1] + coef[v, :, 1:2] * H_t
        u_c = coef[v, :, 2:3] * prof[v][:, weekday]
        u = np.where(isw[:, None], u_w, u_c)
        if v == 0:
            daily = u[:, s0:]
        C = np.concatenate([np.zeros((n, 1)), np.cumsum(u, axis=1)], axis=1)
        used.append(C[:, idx] - C[rows, off][:, None])
    mean_used, low_used, high_used = used
    nd = (idx[None, :] - off[:, None]).astype(float)
    noise = (Z90 * sigma)[:, None] ** 2 * nd
    level = L0[:, None] - mean_used
    lo = level - np.sqrt((high_used - mean_used) ** 2 + noise)
    hi = level + np.sqrt((mean_used - low_used) ** 2 + noise)

    has_r, day_r = _first_crossing(level, reorder)
    zero = np.zeros(n)
    has_o, day_o = _first_crossing(level, zero)
    has_e, day_e = _first_crossing(lo, zero)
    has_l, day_l = _first_crossing(hi, zero)

    dates = [start + timedelta(d) for d in range(H + 1)]
    out: list[Projection] = []
    for j, t in enumerate(tanks):
        if not ok[j]:
            out.append(
                Projection(
                    t.tank_id, start, empty, empty, empty, None, None, None, None, reasons[j],
                    float(t.usable_gallons or 0.0), float(t.reorder_gallons or 0.0), empty,
                )
            )  # fmt: skip
            continue
        cap = usable[j]
        out.append(
            Projection(
                tank_id=t.tank_id,
                start=start,
                level=np.clip(level[j], 0.0, cap),
                low=np.clip(lo[j], 0.0, cap),
                high=np.clip(hi[j], 0.0, cap),
                reorder_date=dates[day_r[j]] if has_r[j] else None,
                runout_date=dates[day_o[j]] if has_o[j] else None,
                runout_early=dates[day_e[j]] if has_e[j] else None,
                runout_late=dates[day_l[j]] if has_l[j] else None,
                usable_gallons=float(cap),
                reorder_gallons=float(reorder[j]),
                daily_usage=daily[j],
            )
        )
    return out
