"""A tank's usage: the model (weather or calendar), its parameters, and their robust fit.

Weather (heating): gallons/day = baseload + HDD / K, HDD = max(0, 65 °F - the day's mean).
Calendar (diesel, generators, process): gallons/day = daily_rate * weekday_profile[weekday]
(Monday = 0; the profile's mean is 1, so `daily_rate` is the average over a week).

Both are linear in their unknowns, so one fit serves both: every usage interval (fill to fill, or
reading to reading) gives one equation `gallons_used = x . theta`, where
- weather: x = (days, sum of the interval's HDD), theta = (baseload, 1/K);
- calendar: x = (number of Mondays, ..., number of Sundays), theta = rate * profile.

The fit is a Bayesian ridge regression toward the prior (the tank's typical values), with Huber
weights (iteratively reweighted) so that one odd interval (a missed delivery record, a leak, a
thief) does not drag the estimate. Interval noise is `sigma_day**2 * days` (daily noise adds up),
sigma_day itself estimated from the robust residuals with a prior guess (15 % of the usage).
With no interval the answer is the prior with its wide interval; every interval pulls it toward
the data, in proportion to what it says (a long cold interval says more about K than a mild one).

An interval covers the days `start <= day < end` (end exclusive): a fill on `start` and the next
fill on `end` bound the usage of the days start .. end - 1. Levels and fills are taken at the
start of their day (before that day's usage).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Literal

import numpy as np

Model = Literal["weather", "calendar"]

TEMP_MIN_F = -60.0
TEMP_MAX_F = 130.0
HDD_BASE_F = 65.0
# The interval the fit reports: 90 % (z of a two-sided 90 % normal interval).
Z90 = 1.645
# A missing day inside an interval is filled with the interval's mean temperature when at most this
# share of its days is missing; beyond, the interval is not used for a weather fit.
MAX_MISSING_TEMP_SHARE = 0.2
HUBER_C = 1.345
# Prior guess of the daily noise, as a share of the daily usage, and its weight (pseudo intervals).
NOISE_PRIOR_SHARE = 0.15
NOISE_PRIOR_DOF = 3.0
# Spread of the typical values between tanks of one type (share of the typical value, 1 sd).
PRIOR_K_SHARE = 0.35
PRIOR_RATE_SHARE = 0.6
PRIOR_SHAPE_SHARE = 0.25
MIN_K = 0.05  # degree days per gallon: a K below this is not a tank (20 gal per degree day)


def hdd(mean_temp_f: float, base_f: float = HDD_BASE_F) -> float:
    """Heating degree days of one day: max(0, base - mean temperature)."""
    return max(0.0, base_f - float(mean_temp_f))


def valid_temp(t: float | None) -> bool:
    return t is not None and not math.isnan(t) and TEMP_MIN_F <= t <= TEMP_MAX_F


@dataclass(frozen=True)
class UsageParams:
    model: Model
    k_factor: float | None  # degree days per gallon (weather)
    baseload: float  # gallons/day used whatever the weather (weather model; 0 for calendar)
    daily_rate: float | None  # gallons/day, the week's average (calendar)
    weekday_profile: tuple[float, ...] = (1.0,) * 7  # Monday first, mean 1

    def gallons_per_day(self, day: date, mean_temp_f: float | None = None) -> float:
        if self.model == "weather":
            if self.k_factor is None or mean_temp_f is None:
                raise ValueError("the weather model needs K and the day's temperature")
            return self.baseload + hdd(mean_temp_f) / self.k_factor
        return (self.daily_rate or 0.0) * self.weekday_profile[day.weekday()]


@dataclass(frozen=True)
class UsageInterval:
    start: date  # first day of usage (the day of the fill or reading that opens it)
    end: date  # exclusive: the day of the fill or reading that closes it
    gallons_used: float
    source: str  # "fill", "reading", ... (free text, for the app's display)

    @property
    def days(self) -> int:
        return (self.end - self.start).days


@dataclass(frozen=True)
class UsageFit:
    params: UsageParams  # the estimate
    low: UsageParams  # the low-usage end of the 90 % interval (weather: the higher K)
    high: UsageParams  # the high-usage end of the 90 % interval
    n_intervals: int  # intervals the fit rests on (after dropping the unusable ones)
    residual_sd: float  # gallons/day: the day-to-day noise of the usage around the model
    method: str  # "prior" (no usable interval) or "robust-bayes"
    cannot_fit: str | None  # why there is no usable estimate (then params are the prior's, unusable)
    notes: tuple[str, ...] = ()  # intervals or days left out, and why
    # Marginal 90 % intervals of the parameters the office sees (K, baseload, rate).
    k_range: tuple[float, float] | None = None
    baseload_range: tuple[float, float] | None = None
    rate_range: tuple[float, float] | None = None
    cov: tuple[tuple[float, ...], ...] = field(default=(), repr=False)  # posterior covariance of theta

    @property
    def ok(self) -> bool:
        return self.cannot_fit is None

    @functools.cached_property
    def projection_problem(self) -> str | None:
        """Why these parameters cannot be projected (None: they can)."""
        if self.cannot_fit is not None:
            return self.cannot_fit
        p = self.params
        if p.model == "weather":
            if p.k_factor is None or not p.k_factor > 0:
                return "the weather model needs a positive K"
        elif p.daily_rate is None or not p.daily_rate >= 0:
            return "the calendar model needs a daily rate"
        return None

    @functools.cached_property
    def projection_terms(self) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...]]:
        """(baseload, 1/K, rate) of params, low and high in a row, and their three weekday profiles:
        what the vectorised projection reads (computed once per fit)."""
        row: list[float] = []
        profs: list[tuple[float, ...]] = []
        for p in (self.params, self.low, self.high):
            if p.model == "weather":
                row += (p.baseload, 1.0 / (p.k_factor or 1e9), 0.0)
                profs.append((1.0,) * 7)
            else:
                row += (0.0, 0.0, p.daily_rate or 0.0)
                profs.append(tuple(p.weekday_profile))
        return tuple(row), tuple(profs)


# Typical values of a new tank, by its customer type or use. Weekday profiles are normalised to mean 1.
def _profile(*w: float) -> tuple[float, ...]:
    m = sum(w) / 7.0
    return tuple(round(x / m, 6) for x in w)


TYPICAL: dict[str, UsageParams] = {
    # A house heated with oil or propane: about 800 gal over a 4,500 HDD season, hot water beside.
    "residential_heating": UsageParams("weather", 5.5, 0.5, None),
    "commercial_heating": UsageParams("weather", 1.5, 2.0, None),
    "farm_diesel": UsageParams("calendar", None, 0.0, 15.0, _profile(1.1, 1.1, 1.1, 1.1, 1.1, 1.0, 0.4)),
    "fleet_diesel": UsageParams("calendar", None, 0.0, 60.0, _profile(1, 1, 1, 1, 1, 0.3, 0.2)),
    "generator": UsageParams("calendar", None, 0.0, 2.0, _profile(1, 1, 1, 1, 1, 1, 1)),
    "process": UsageParams("calendar", None, 0.0, 10.0, _profile(1, 1, 1, 1, 1, 0.5, 0.5)),
}
_ALIASES = {
    "residential": "residential_heating",
    "heating": "residential_heating",
    "heating_oil": "residential_heating",
    "propane": "residential_heating",
    "commercial": "commercial_heating",
    "farm": "farm_diesel",
    "agriculture": "farm_diesel",
    "fleet": "fleet_diesel",
    "diesel": "fleet_diesel",
    "generators": "generator",
    "standby": "generator",
    "industrial": "process",
}


def typical_params(customer_type_or_use: str) -> UsageParams:
    """Typical values for a new tank. Matches the keys of TYPICAL, their aliases, then any word of
    them in the text ("Farm - diesel" -> farm_diesel); anything else is residential heating."""
    key = "_".join(str(customer_type_or_use or "").lower().replace("-", " ").split())
    if key in TYPICAL:
        return TYPICAL[key]
    if key in _ALIASES:
        return TYPICAL[_ALIASES[key]]
    words = key.split("_")
    for name in TYPICAL:
        if name.split("_")[0] in words:
            return TYPICAL[name]
    for alias, name in _ALIASES.items():
        if alias in words:
            return TYPICAL[name]
    return TYPICAL["residential_heating"]


# ---- the fit ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _prior_theta(prior: UsageParams) -> tuple[np.ndarray, np.ndarray] | str:
    """theta0 and its prior covariance, or why the prior is unusable."""
    if prior.model == "weather":
        if prior.k_factor is None or not prior.k_factor > MIN_K or not math.isfinite(prior.k_factor):
            return f"the typical K ({prior.k_factor}) is not a positive number of degree days per gallon"
        if not (prior.baseload >= 0 and math.isfinite(prior.baseload)):
            return f"the typical baseload ({prior.baseload}) is negative"
        c0 = 1.0 / prior.k_factor
        b0 = prior.baseload
        # K varies by about a third between houses of one type; baseload is small and uncertain.
        return np.array([b0, c0]), np.diag(np.array([max(0.6 * b0, 0.3), PRIOR_K_SHARE * c0]) ** 2)
    if prior.daily_rate is None or not prior.daily_rate > 0 or not math.isfinite(prior.daily_rate):
        return f"the typical daily rate ({prior.daily_rate}) is not a positive number of gallons"
    prof = np.asarray(prior.weekday_profile, dtype=float)
    if prof.shape != (7,) or (prof < 0).any() or prof.sum() <= 0:
        return "the weekday profile needs 7 non-negative weights"
    theta0 = prior.daily_rate * prof / prof.mean()
    # Rates vary a lot between customers (x/÷ 2): the prior says little about the level, the first
    # fill says much. The weekday shape varies less: a common scale plus a smaller shape term.
    shape = np.maximum(PRIOR_SHAPE_SHARE * theta0, 0.02 * prior.daily_rate)
    return theta0, PRIOR_RATE_SHARE**2 * np.outer(theta0, theta0) + np.diag(shape**2)


@functools.lru_cache(maxsize=256)
def _precision(prior: UsageParams) -> np.ndarray:
    p0 = _prior_theta(prior)
    assert not isinstance(p0, str)
    return np.linalg.inv(p0[1])


def _features(
    intervals: Sequence[UsageInterval], temps: Mapping[date, float], model: Model
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Rows x, targets y, days n of the usable intervals, and notes on those left out."""
    rows: list[list[float]] = []
    ys: list[float] = []
    ns: list[float] = []
    notes: list[str] = []
    for iv in intervals:
        days = iv.days
        used = iv.gallons_used
        label = f"{iv.start.isoformat()}..{iv.end.isoformat()}"
        if days <= 0:
            notes.append(f"interval {label} left out: it ends before it starts")
            continue
        if used is None or not math.isfinite(used):
            notes.append(f"interval {label} left out: no usage")
            continue
        if used < 0:
            notes.append(f"interval {label} left out: negative usage ({used:.0f} gal)")
            continue
        if model == "weather":
            ts = [temps.get(iv.start + timedelta(d)) for d in range(days)]
            bad = [t for t in ts if t is not None and not valid_temp(t)]
            good = [float(t) for t in ts if t is not None and valid_temp(t)]
            if bad:
                notes.append(
                    f"interval {label}: {len(bad)} temperature(s) outside "
                    f"{TEMP_MIN_F:.0f}..{TEMP_MAX_F:.0f} °F ignored"
                )
            missing = days - len(good)
            if not good or missing > MAX_MISSING_TEMP_SHARE * days:
                notes.append(f"interval {label} left out: {missing} of {days} days have no temperature")
                continue
            total_hdd = sum(hdd(t) for t in good)
            if missing:
                total_hdd *= days / len(good)
            rows.append([float(days), total_hdd])
        else:
            counts = [0.0] * 7
            first = iv.start.weekday()
            full, rest = divmod(days, 7)
            for w in range(7):
                counts[w] = float(full)
            for d in range(rest):
                counts[(first + d) % 7] += 1.0
            rows.append(counts)
        ys.append(float(used))
        ns.append(float(days))
    p = 2 if model == "weather" else 7
    return (
        np.asarray(rows, dtype=float).reshape(-1, p),
        np.asarray(ys, dtype=float),
        np.asarray(ns, dtype=float),
        notes,
    )


def _params_from_theta(model: Model, theta: np.ndarray, prior: UsageParams) -> UsageParams:
    if model == "weather":
        b = max(0.0, float(theta[0]))
        c = max(float(theta[1]), 1.0 / 1000.0)
        return UsageParams("weather", 1.0 / c, b, None, prior.weekday_profile)
    th = np.maximum(theta, 0.0)
    rate = float(th.mean())
    prof = tuple(float(x) for x in (th / rate if rate > 0 else np.ones(7)))
    return UsageParams("calendar", None, 0.0, rate, prof)


def _scaled(model: Model, p: UsageParams, factor: float) -> UsageParams:
    """The same tank using `factor` times as much (both weather terms scale together)."""
    factor = max(factor, 0.05)
    if model == "weather":
        assert p.k_factor is not None
        return UsageParams("weather", p.k_factor / factor, p.baseload * factor, None, p.weekday_profile)
    return UsageParams("calendar", None, 0.0, (p.daily_rate or 0.0) * factor, p.weekday_profile)


def fit_usage(
    intervals: Sequence[UsageInterval],
    temps: Mapping[date, float],
    model: Model,
    prior: UsageParams,
) -> UsageFit:
    """Robust fit of the tank's usage parameters with their 90 % interval; never raises on data."""
    if model not in ("weather", "calendar"):
        return _cannot(prior, f"unknown usage model {model!r} (weather or calendar)")
    if prior.model != model:
        prior = TYPICAL["residential_heating"] if model == "weather" else TYPICAL["process"]
    p0 = _prior_theta(prior)
    if isinstance(p0, str):
        return _cannot(prior, p0)
    theta0, cov0 = p0
    P = _precision(prior)
    X, y, n, notes = _features(intervals, temps, model)
    m = len(y)
    # A typical day's features: the fit's relative uncertainty of the usage on such a day sets the
    # width of the low/high band (both terms scaled together, so the band is coherent).
    if model == "weather":
        xbar = X.sum(axis=0) / n.sum() if m else np.array([1.0, 25.0])
    else:
        xbar = np.full(7, 1.0)
    prior_daily = float(xbar @ theta0)
    s0 = max(NOISE_PRIOR_SHARE * prior_daily, 0.05)

    theta = theta0.copy()
    sigma = s0
    w = np.ones(m)
    A = P
    Ptheta0 = P @ theta0
    for _ in range(12 if m else 0):
        var = sigma**2 * n  # interval noise variance
        XW = X * (w / var)[:, None]
        A = XW.T @ X + P
        new = np.linalg.solve(A, XW.T @ y + Ptheta0)
        if m:
            r = y - X @ new
            z = r / np.sqrt(var)
            w = np.where(np.abs(z) <= HUBER_C, 1.0, HUBER_C / np.maximum(np.abs(z), 1e-12))
            # sigma_day from the weighted residuals per day, shrunk to the prior guess.
            ss = float(np.sum(w * r**2 / n))
            sigma = math.sqrt((NOISE_PRIOR_DOF * s0**2 + ss) / (NOISE_PRIOR_DOF + m))
        if float(np.max(np.abs(new - theta))) <= 1e-9 + 1e-5 * float(np.max(np.abs(theta))):
            theta = new
            break
        theta = new

    cov = np.linalg.inv(A) if m else cov0
    params = _params_from_theta(model, theta, prior)
    sd = np.sqrt(np.diag(cov))
    daily = float(xbar @ theta)
    rel = float(math.sqrt(max(xbar @ cov @ xbar, 0.0))) / max(daily, 1e-9)
    # Usage is positive and its uncertainty multiplicative: the interval is symmetric in log space.
    low = _scaled(model, params, math.exp(-Z90 * rel))
    high = _scaled(model, params, math.exp(Z90 * rel))
    k_range = baseload_range = rate_range = None
    if model == "weather":
        c = max(float(theta[1]), 1.0 / 1000.0)
        c_lo = c * math.exp(-Z90 * float(sd[1]) / c)
        c_hi = c * math.exp(Z90 * float(sd[1]) / c)
        k_range = (1.0 / c_hi, 1.0 / c_lo)
        baseload_range = (max(0.0, float(theta[0] - Z90 * sd[0])), max(0.0, float(theta[0] + Z90 * sd[0])))
    else:
        ones = np.full(7, 1.0 / 7.0)
        rsd = float(math.sqrt(max(ones @ cov @ ones, 0.0)))
        rate_range = (
            max(0.0, (params.daily_rate or 0.0) - Z90 * rsd),
            (params.daily_rate or 0.0) + Z90 * rsd,
        )
    return UsageFit(
        params=params,
        low=low,
        high=high,
        n_intervals=m,
        residual_sd=float(sigma),
        method="robust-bayes" if m else "prior",
        cannot_fit=None,
        notes=tuple(notes),
        k_range=k_range,
        baseload_range=baseload_range,
        rate_range=rate_range,
        cov=tuple(tuple(float(v) for v in row) for row in cov),
    )


def _cannot(prior: UsageParams, why: str) -> UsageFit:
    return UsageFit(prior, prior, prior, 0, 0.0, "none", why)


def intervals_from_fills(
    fills: Sequence[tuple[date, float, float]],
) -> list[UsageInterval]:
    """Usage intervals from a tank's fills: (date, level before, level after) each, in gallons.
    From one fill to the next the tank used `after(prev) - before(next)`. A helper for the app and
    the simulation; a fill whose level before is unknown closes nothing (pass NaN)."""
    out: list[UsageInterval] = []
    ordered = sorted(fills, key=lambda f: f[0])
    for prev, nxt in itertools.pairwise(ordered):
        if math.isnan(nxt[1]) or math.isnan(prev[2]):
            continue
        out.append(UsageInterval(prev[0], nxt[0], prev[2] - nxt[1], "fill"))
    return out


def override_fit(params: UsageParams, fit: UsageFit | None = None, rel_sd: float = 0.1) -> UsageFit:
    """The office's override of a tank's parameters as a fit the projection uses: the given values,
    a band of `rel_sd` (1 sd, share of the usage) around them, the fit's noise and interval count
    kept when there is one. Refuses (cannot_fit) values that cannot be a tank's usage."""
    if params.model == "weather":
        if params.k_factor is None or not params.k_factor > MIN_K or not params.baseload >= 0:
            return _cannot(params, "an overridden K must be a positive number and the baseload not negative")
    elif params.daily_rate is None or not params.daily_rate >= 0 or len(params.weekday_profile) != 7:
        return _cannot(params, "an overridden daily rate must be a number of gallons, not negative")
    factor = math.exp(Z90 * rel_sd)
    noise = fit.residual_sd if fit is not None and fit.ok else 0.0
    if noise <= 0:
        daily = params.baseload + 25.0 / params.k_factor if params.k_factor else params.daily_rate or 0.0
        noise = NOISE_PRIOR_SHARE * daily
    return UsageFit(
        params=params,
        low=_scaled(params.model, params, 1.0 / factor),
        high=_scaled(params.model, params, factor),
        n_intervals=fit.n_intervals if fit is not None else 0,
        residual_sd=noise,
        method="override",
        cannot_fit=None,
        notes=fit.notes if fit is not None else (),
        k_range=(params.k_factor / factor, params.k_factor * factor) if params.k_factor else None,
        baseload_range=(params.baseload, params.baseload) if params.model == "weather" else None,
        rate_range=(
            ((params.daily_rate or 0.0) / factor, (params.daily_rate or 0.0) * factor)
            if params.model == "calendar"
            else None
        ),
    )
