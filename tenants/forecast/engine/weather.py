"""Daily mean temperatures: normals and the series a projection uses.

`normals` averages the past years by calendar day and smooths them with a circular window of
±7 days (a few years of one station are noisy day by day; a normal is a climate, not a year).
February 29 gets the mean of its neighbours when the history has none. Temperatures outside
-60..130 °F are data errors and are ignored everywhere here.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

import numpy as np

from .usage import valid_temp

SMOOTH_DAYS = 7
# A leap year, so that every (month, day) has its slot.
_REF_YEAR = 2024
_KEYS: list[tuple[int, int]] = [
    ((date(_REF_YEAR, 1, 1) + timedelta(i)).month, (date(_REF_YEAR, 1, 1) + timedelta(i)).day)
    for i in range(366)
]
_INDEX = {k: i for i, k in enumerate(_KEYS)}


def normals(history: Mapping[date, float]) -> dict[tuple[int, int], float]:
    """(month, day) -> mean °F over the years of `history`, smoothed; {} when there is no valid day."""
    sums = np.zeros(366)
    counts = np.zeros(366)
    for day, t in history.items():
        if not valid_temp(t):
            continue
        i = _INDEX[(day.month, day.day)]
        sums[i] += float(t)
        counts[i] += 1
    if not counts.any():
        return {}
    # Circular smoothing of sums and counts together: days with no data borrow from their neighbours.
    k = np.ones(2 * SMOOTH_DAYS + 1)
    pad = SMOOTH_DAYS
    s = np.convolve(np.concatenate([sums[-pad:], sums, sums[:pad]]), k, mode="valid")
    c = np.convolve(np.concatenate([counts[-pad:], counts, counts[:pad]]), k, mode="valid")
    if (c == 0).any():
        # A history with long gaps: fill the empty slots by circular linear interpolation.
        have = np.flatnonzero(c > 0)
        vals = s[have] / c[have]
        xs = np.concatenate([have - 366, have, have + 366])
        out = np.interp(np.arange(366), xs, np.concatenate([vals, vals, vals]))
    else:
        out = s / c
    return {key: round(float(out[i]), 2) for i, key in enumerate(_KEYS)}


def series(
    start: date,
    days: int,
    observed: Mapping[date, float],
    forecast: Mapping[date, float],
    normals: Mapping[tuple[int, int], float],
) -> np.ndarray:
    """Daily means from `start` for `days` days: observed, else forecast, else the normal of that
    calendar day. A day with none of the three is NaN (the projection then says it cannot)."""
    out = np.full(max(days, 0), np.nan)
    for i in range(max(days, 0)):
        d = start + timedelta(i)
        for source in (observed, forecast):
            t = source.get(d)
            if t is not None and valid_temp(t):
                out[i] = float(t)
                break
        else:
            n = normals.get((d.month, d.day))
            if n is None and d.month == 2 and d.day == 29:
                n = normals.get((2, 28))
            if n is not None and valid_temp(n):
                out[i] = float(n)
    return out


def degree_days(temps: np.ndarray, base_f: float = 65.0) -> np.ndarray:
    """HDD of an array of daily means (NaN stays NaN)."""
    t = np.asarray(temps, dtype=float)
    return np.where(np.isnan(t), np.nan, np.maximum(0.0, base_f - t))


def is_valid_series(temps: np.ndarray) -> bool:
    t = np.asarray(temps, dtype=float)
    return bool(t.size == 0 or (np.isfinite(t).all() and (t >= -60).all() and (t <= 130).all()))
