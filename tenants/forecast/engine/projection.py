"""The projected level of every tank, day by day, with a band; vectorised over the whole fleet.

Levels are taken in the morning, before the day's usage: `level[d]` is the level at the start of
`start + d`, for d = 0 .. horizon_days (so the arrays have horizon_days + 1 values and the last is
the level after the horizon's last day). A tank's known level (`as_of`, a fill or a reading) is
carried to `start` with the same model and temperatures (pass `temps_start` <= the oldest as_of).

The band (98 % by default, `band_z`) adds two things in quadrature: the fit's uncertainty (the
usage of its low and high parameters, fully correlated over the days) and the day-to-day noise of
the usage (`residual_sd` per day, independent days, so it grows with the square root of the days).

`reorder_date` / `runout_date` are the days during which the expected level crosses the reorder
point / zero (the start day itself when it is already there); `runout_early` / `runout_late` the
same for the low / high edge of the band. None: not within the horizon.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

import numpy as np

from .usage import TEMP_MAX_F, TEMP_MIN_F, Z90, UsageFit

# The band: 98 % (1 % of the days' usage above its high edge). Run-outs cost far more than a
# smaller drop, so the due list pulls a delivery earlier on this band's run-out (docs/forecast-model.md).
DEFAULT_BAND_Z = 2.326
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
    band_z: float = DEFAULT_BAND_Z  # the band's half-width in standard deviations

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


def _float(v: object) -> float:
    try:
        return float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan


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
    band_z: float = DEFAULT_BAND_Z,
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
    # Cumulative HDD per zone and cumulative count of each weekday, from the frame's first day: the
    # usage between two mornings is then a difference, O(tanks x horizon) whatever the carry span.
    CH = np.concatenate([np.zeros((len(zone_names), 1)), np.cumsum(np.nan_to_num(hdd), axis=1)], axis=1)
    CW = np.concatenate(
        [np.zeros((7, 1)), np.cumsum(weekday[None, :] == np.arange(7)[:, None], axis=1)], axis=1
    )
    isw = np.zeros(n, dtype=bool)
    zi = np.zeros(n, dtype=int)
    off = np.zeros(n, dtype=int)
    raw: list[tuple] = []
    terms_rows: list[tuple[float, ...]] = []
    profs: list[tuple[float, ...]] = []
    fit_ok = np.zeros(n, dtype=bool)
    for j, t in enumerate(tanks):
        f = t.fit
        isw[j] = f.params.model == "weather"
        zi[j] = zi_of[t.zone]
        as_of = t.as_of.date() if isinstance(t.as_of, datetime) else t.as_of
        o = (as_of - ts).days if isinstance(as_of, date) else s0
        off[j] = min(max(o, 0), s0)
        fit_ok[j] = f.projection_problem is None
        terms, tprofs = f.projection_terms
        terms_rows.append(terms)
        profs.extend(tprofs)
        raw.append((t.level_gallons, t.usable_gallons, t.reorder_gallons, f.residual_sd))
    zone_ok = bad_prefix[zi, T] - bad_prefix[zi, off] == 0
    try:
        R = np.asarray(raw, dtype=float)  # None -> NaN
    except (TypeError, ValueError):  # text where a number belongs: that tank's values are NaN
        R = np.array([[_float(v) for v in row] for row in raw])
    with np.errstate(invalid="ignore"):
        lv, us, ro = R[:, 0], R[:, 1], R[:, 2]
        ok = (
            fit_ok
            & np.isfinite(us)
            & (us > 0)
            & np.isfinite(lv)
            & (lv >= 0)
            & (lv <= us * (1 + LEVEL_TOLERANCE))
            & np.isfinite(ro)
            & (ro >= 0)
            & (ro < us)
            & (~isw | zone_ok)
        )
    reasons: list[str | None] = [None] * n
    for j in np.flatnonzero(~ok).tolist():
        t = tanks[j]
        try:
            why = _reason(t, bool(isw[j]), bool(zone_ok[j]))
        except (TypeError, ValueError, AttributeError) as exc:  # None or text where a number belongs
            why = f"the tank's data is not usable: {exc}"
        reasons[j] = why or "the tank's data is not usable"
    okc = ok[:, None]
    L0 = np.where(ok, np.minimum(lv, us), 0.0)
    usable = np.where(ok, us, 0.0)
    reorder = np.where(ok, ro, 0.0)
    sigma = np.where(ok, np.maximum(np.nan_to_num(R[:, 3]), 0.0), 0.0)
    T9 = np.where(okc, np.asarray(terms_rows, dtype=float), 0.0)
    coef = T9.reshape(n, 3, 3).transpose(1, 0, 2)  # (variant, tank, (baseload, 1/K, rate))
    prof = np.asarray(profs, dtype=float).reshape(n, 3, 7).transpose(1, 0, 2)

    idx = s0 + np.arange(H + 1)  # frame indices of the mornings start .. start + H
    days_from = (idx[None, :] - off[:, None]).astype(float)  # (n, H+1)
    hdd_from = CH[zi[:, None], idx[None, :]] - CH[zi, off][:, None]
    wd_from = CW[:, idx][None, :, :] - CW[:, off].T[:, :, None]  # (n, 7, H+1)
    hdd_h = np.nan_to_num(hdd[zi[:, None], np.arange(s0, T)[None, :]])
    used = []
    for v in range(3):
        u_w = coef[v, :, 0:1] * days_from + coef[v, :, 1:2] * hdd_from
        u_c = coef[v, :, 2:3] * np.einsum("nw,nwd->nd", prof[v], wd_from)
        used.append(np.where(isw[:, None], u_w, u_c))
        if v == 0:
            daily = np.where(
                isw[:, None],
                coef[0, :, 0:1] + coef[0, :, 1:2] * hdd_h,
                coef[0, :, 2:3] * prof[0][:, weekday[s0:T]],
            )
    mean_used, low_used, high_used = used
    if band_z != Z90:
        # The fit's ends are at Z90 in log space: the same interval at band_z is a power of the ratio.
        with np.errstate(divide="ignore", invalid="ignore"):
            safe = np.where(mean_used > 0, mean_used, 1.0)
            high_used = np.where(mean_used > 0, mean_used * (high_used / safe) ** (band_z / Z90), 0.0)
            low_used = np.where(mean_used > 0, mean_used * (low_used / safe) ** (band_z / Z90), 0.0)
    nd = days_from
    noise = (band_z * sigma)[:, None] ** 2 * nd
    level = L0[:, None] - mean_used
    lo = level - np.sqrt((high_used - mean_used) ** 2 + noise)
    hi = level + np.sqrt((mean_used - low_used) ** 2 + noise)

    has_r, day_r = _first_crossing(level, reorder)
    zero = np.zeros(n)
    has_o, day_o = _first_crossing(level, zero)
    has_e, day_e = _first_crossing(lo, zero)
    has_l, day_l = _first_crossing(hi, zero)

    dates = [start + timedelta(d) for d in range(H + 1)]
    cap = usable[:, None]
    level_c = np.clip(level, 0.0, cap)
    lo_c = np.clip(lo, 0.0, cap)
    # Without a delivery a tank's level only falls: the band's high edge never rises above the level
    # it was last known at (the noise term alone would lift it on the first days).
    hi_c = np.clip(hi, 0.0, L0[:, None])
    r_day = [dates[d] if h else None for d, h in zip(day_r.tolist(), has_r.tolist(), strict=True)]
    o_day = [dates[d] if h else None for d, h in zip(day_o.tolist(), has_o.tolist(), strict=True)]
    e_day = [dates[d] if h else None for d, h in zip(day_e.tolist(), has_e.tolist(), strict=True)]
    l_day = [dates[d] if h else None for d, h in zip(day_l.tolist(), has_l.tolist(), strict=True)]
    out: list[Projection] = []
    for j, t in enumerate(tanks):
        if reasons[j] is not None:
            out.append(
                Projection(
                    t.tank_id, start, empty, empty, empty, None, None, None, None, reasons[j],
                    float(t.usable_gallons or 0.0), float(t.reorder_gallons or 0.0), empty, band_z,
                )
            )  # fmt: skip
            continue
        out.append(
            Projection(
                t.tank_id, start, level_c[j], lo_c[j], hi_c[j], r_day[j], o_day[j], e_day[j], l_day[j], None,
                float(usable[j]), float(reorder[j]), daily[j], band_z,
            )
        )  # fmt: skip
    return out
