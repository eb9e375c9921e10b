"""A keep-full fleet, simulated day by day with the real engine (the benchmark's and a test's core).

The world: tanks with hidden true usage (weather: K and baseload; calendar: a rate and a weekday
profile) and day-to-day noise, one weather station (a synthetic year with seasonal shape and cold
snaps, or a real year), a fleet that makes at most `stops_per_day` deliveries a day.

Every simulated morning runs what production runs: fit (after each fill) -> project every tank ->
due list -> the dispatcher takes the due tanks, riskiest first, up to the day's stops (and pulls
tanks of the next days forward when the coming days hold more than the fleet can do) -> each
delivery fills the tank and tells the engine the true usage since the last fill (with the small
errors of a real fill: the "full" level is known to about 1 % of the tank). Then the day's usage
happens. The engine starts cold: every tank begins with its customer type's typical values and one
reading of its level.

The baseline delivers every N days, N per tank the longest interval that would never have run the
tank dry over last season's usage (a different weather year, same tanks), uncapped by the fleet.
Both policies see the same usage, day by day (same seeds).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Literal

import numpy as np

from .due import due_list
from .projection import DEFAULT_BAND_Z, TankState, project
from .usage import TYPICAL, UsageFit, UsageInterval, UsageParams, fit_usage
from .weather import series

Scenario = Literal["heating", "diesel"]


# ---- weather ------------------------------------------------------------------------------------


def climatology(day: date, mean_f: float = 55.0, amp_f: float = 22.0, coldest_doy: int = 20) -> float:
    doy = day.timetuple().tm_yday
    return mean_f - amp_f * math.cos(2 * math.pi * (doy - coldest_doy) / 365.25)


def climatology_normals(mean_f: float = 55.0, amp_f: float = 22.0) -> dict[tuple[int, int], float]:
    out = {}
    d = date(2024, 1, 1)
    while d.year == 2024:
        out[(d.month, d.day)] = climatology(d, mean_f, amp_f)
        d += timedelta(1)
    return out


def synthetic_temps(
    start: date,
    days: int,
    rng: np.random.Generator,
    mean_f: float = 55.0,
    amp_f: float = 22.0,
    anomaly_sd: float = 6.0,
    snaps_per_winter_month: float = 1.0,
    normals: Mapping[tuple[int, int], float] | None = None,
) -> np.ndarray:
    """Seasonal shape (a cosine, or `normals`) + AR(1) weather anomalies + cold snaps (3-7 days,
    12-25 °F colder) in Dec-Feb."""
    rho = 0.7
    out = np.empty(days)
    a = 0.0
    snap_left = 0
    snap_depth = 0.0
    for i in range(days):
        d = start + timedelta(i)
        a = rho * a + math.sqrt(1 - rho**2) * anomaly_sd * float(rng.standard_normal())
        if snap_left == 0 and d.month in (12, 1, 2) and rng.random() < snaps_per_winter_month / 30.0:
            snap_left = int(rng.integers(3, 8))
            snap_depth = float(rng.uniform(12, 25))
        cold = 0.0
        if snap_left:
            cold = snap_depth
            snap_left -= 1
        base = normals[(d.month, d.day)] if normals is not None else climatology(d, mean_f, amp_f)
        out[i] = base + a - cold
    return np.clip(out, -40.0, 110.0)


def harmonic_normals(days: list[date], temps: np.ndarray) -> dict[tuple[int, int], float]:
    """Normals of a single year (a TMY): its annual and semi-annual harmonics, a climate and not the
    year's own weather."""
    doy = np.array([d.timetuple().tm_yday for d in days], dtype=float)
    w = 2 * np.pi * doy / 365.25
    X = np.column_stack([np.ones_like(w), np.cos(w), np.sin(w), np.cos(2 * w), np.sin(2 * w)])
    beta, *_ = np.linalg.lstsq(X, temps, rcond=None)
    out: dict[tuple[int, int], float] = {}
    d = date(2024, 1, 1)
    while d.year == 2024:
        ww = 2 * np.pi * d.timetuple().tm_yday / 365.25
        out[(d.month, d.day)] = float(
            beta @ np.array([1, np.cos(ww), np.sin(ww), np.cos(2 * ww), np.sin(2 * ww)])
        )
        d += timedelta(1)
    return out


# ---- the population -----------------------------------------------------------------------------


@dataclass
class Population:
    kind: list[str]  # a key of TYPICAL
    weather: np.ndarray  # bool
    usable: np.ndarray
    reorder: np.ndarray
    k: np.ndarray  # true K (weather), NaN otherwise
    base: np.ndarray  # true baseload (weather)
    rate: np.ndarray  # true mean daily rate (calendar)
    profile: np.ndarray  # (n, 7) true weekday profile, mean 1
    holdout: np.ndarray  # bool: never looked at while tuning
    start_level: np.ndarray
    noise_sd: np.ndarray  # day-to-day multiplicative noise of the usage

    @property
    def n(self) -> int:
        return len(self.kind)


def make_population(
    scenario: Scenario, n: int, rng: np.random.Generator, reorder_share: float = 0.25
) -> Population:
    kinds: list[str] = []
    if scenario == "heating":
        kinds = list(rng.choice(["residential_heating", "commercial_heating"], size=n, p=[0.85, 0.15]))
    else:
        kinds = list(rng.choice(["fleet_diesel", "farm_diesel", "generator"], size=n, p=[0.45, 0.45, 0.10]))
    weather = np.array([TYPICAL[k].model == "weather" for k in kinds])
    usable = np.empty(n)
    k = np.full(n, np.nan)
    base = np.zeros(n)
    rate = np.zeros(n)
    profile = np.ones((n, 7))
    noise = np.empty(n)
    for i, kind in enumerate(kinds):
        t = TYPICAL[kind]
        if kind == "residential_heating":
            usable[i] = rng.choice([250.0, 400.0, 500.0], p=[0.6, 0.3, 0.1])
        elif kind == "commercial_heating":
            usable[i] = rng.choice([1000.0, 2000.0], p=[0.6, 0.4])
        elif kind == "fleet_diesel":
            usable[i] = rng.choice([2000.0, 4000.0], p=[0.6, 0.4])
        elif kind == "farm_diesel":
            usable[i] = rng.choice([500.0, 1000.0], p=[0.5, 0.5])
        else:
            usable[i] = 250.0
        if t.model == "weather":
            assert t.k_factor is not None
            k[i] = t.k_factor * math.exp(0.35 * float(rng.standard_normal()))
            base[i] = t.baseload * float(rng.uniform(0.2, 2.0))
            noise[i] = 0.15
        else:
            assert t.daily_rate is not None
            rate[i] = t.daily_rate * math.exp(0.45 * float(rng.standard_normal()))
            p = np.asarray(t.weekday_profile) * np.exp(0.15 * rng.standard_normal(7))
            profile[i] = p / p.mean()
            noise[i] = 0.3 if kind != "generator" else 0.5
    holdout = rng.random(n) < 0.5
    start_level = usable * rng.uniform(0.35, 1.0, size=n)
    return Population(
        kinds, weather, usable, usable * reorder_share, k, base, rate, profile, holdout, start_level, noise
    )


def true_usage(pop: Population, start: date, temps: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(days, tanks) gallons actually used each day."""
    days = len(temps)
    hdd = np.maximum(0.0, 65.0 - temps)
    wd = np.array([(start + timedelta(i)).weekday() for i in range(days)])
    mean_w = pop.base[None, :] + hdd[:, None] / np.where(pop.weather, pop.k, 1.0)[None, :]
    mean_c = pop.rate[None, :] * pop.profile[:, wd].T
    mean = np.where(pop.weather[None, :], mean_w, mean_c)
    noise = 1.0 + pop.noise_sd[None, :] * rng.standard_normal((days, pop.n))
    return np.maximum(mean * noise, 0.0)


# ---- the two policies ---------------------------------------------------------------------------


@dataclass
class Outcome:
    policy: str
    deliveries: int = 0
    gallons: float = 0.0
    runout_days: int = 0  # tank-days that ended empty
    tanks_run_out: int = 0
    drop_share: list[float] = field(default_factory=list)  # per delivery, of usable
    holdout_flags: list[bool] = field(default_factory=list)  # per delivery
    stops_by_day: list[int] = field(default_factory=list)
    overloaded_days: int = 0  # days the due tanks exceeded the fleet's stops
    runout_by_tank: np.ndarray = field(default_factory=lambda: np.zeros(0))
    # fills -> list of (relative error of K or rate, holdout?)
    param_error: dict[int, list[tuple[float, bool]]] = field(default_factory=dict)
    engine_seconds: float = 0.0
    runout_events: list[tuple[int, int]] = field(default_factory=list)  # (day, tank) of each empty day

    def summary(self, holdout: np.ndarray, part: bool | None = None) -> dict:
        """Figures over all tanks (part None), the tuning part (False) or the held-out part (True)."""
        sel = np.ones(len(self.drop_share), dtype=bool)
        tanks = np.ones(len(holdout), dtype=bool)
        if part is not None:
            sel = np.array(self.holdout_flags, dtype=bool) == part
            tanks = holdout == part
        drops = np.array(self.drop_share)[sel] if len(self.drop_share) else np.zeros(0)
        ro = self.runout_by_tank[tanks] if len(self.runout_by_tank) else np.zeros(0)
        out: dict[str, Any] = {
            "tanks": int(tanks.sum()),
            "deliveries": int(sel.sum()),
            "avg_drop_pct": round(100 * float(drops.mean()), 1) if len(drops) else None,
            "drops_below_50pct": int((drops < 0.5).sum()),
            "runout_tank_days": int(ro.sum()),
            "tanks_run_out": int((ro > 0).sum()),
        }
        if part is None and self.stops_by_day:
            out["gallons"] = round(self.gallons)
            out["stops_per_1000_gal"] = (
                round(1000 * self.deliveries / self.gallons, 3) if self.gallons else None
            )
            out["stops_per_day_mean"] = round(float(np.mean(self.stops_by_day)), 1)
            out["stops_per_day_max"] = int(np.max(self.stops_by_day))
            out["overloaded_days"] = self.overloaded_days
        errs = {}
        for nf, rows in sorted(self.param_error.items()):
            e = np.array([r[0] for r in rows if part is None or r[1] == part])
            if len(e):
                errs[str(nf)] = {
                    "n": len(e),
                    "median_pct": round(100 * float(np.median(e)), 1),
                    "p90_pct": round(100 * float(np.quantile(e, 0.9)), 1),
                    "within_10pct": round(float((e <= 0.10).mean()), 3),
                }
        if errs:
            out["param_error_after_fills"] = errs
        return out


def tune_intervals(
    pop: Population, history: np.ndarray, max_days: int = 180, reserve_share: float = 0.25
) -> np.ndarray:
    """Per tank, the longest delivery interval N (days) whose every N-day window of the history used
    less than the usable capacity less a reserve (the same share as the forecast's reorder point):
    fill every N days and last season the tank never went below its reserve."""
    C = np.vstack([np.zeros((1, pop.n)), np.cumsum(history, axis=0)])
    best = np.ones(pop.n, dtype=int)
    for n_days in range(1, min(max_days, history.shape[0]) + 1):
        worst = (C[n_days:] - C[:-n_days]).max(axis=0)
        best = np.where(worst < pop.usable * (1 - reserve_share), n_days, best)
    return best


def run_baseline(pop: Population, usage: np.ndarray, interval: np.ndarray) -> Outcome:
    days = usage.shape[0]
    out = Outcome("fixed-interval")
    level = pop.start_level.copy()
    # First visit: a tank at fraction f of full lasts about f*N days at last season's worst pace.
    nxt = np.floor(interval * pop.start_level / pop.usable).astype(int)
    ro = np.zeros(pop.n, dtype=int)
    for t in range(days):
        go = np.flatnonzero(nxt == t)
        for i in go:
            drop = pop.usable[i] - level[i]
            out.deliveries += 1
            out.gallons += drop
            out.drop_share.append(drop / pop.usable[i])
            out.holdout_flags.append(bool(pop.holdout[i]))
            level[i] = pop.usable[i]
        nxt[go] += interval[go]
        out.stops_by_day.append(len(go))
        level -= usage[t]
        empty = level <= 0
        ro += empty
        level[empty] = 0.0
    out.runout_by_tank = ro
    out.runout_days = int(ro.sum())
    out.tanks_run_out = int((ro > 0).sum())
    return out


@dataclass
class Memory:
    """What the engine knows about every tank from before (last season's fills), and the observed
    temperatures those fills need."""

    fits: list[UsageFit]
    intervals: list[list[UsageInterval]]
    fills: np.ndarray
    observed: dict[date, float]


def cold_memory(pop: Population) -> Memory:
    priors = [TYPICAL[k] for k in pop.kind]
    return Memory(
        [fit_usage([], {}, p.model, p) for p in priors],
        [[] for _ in range(pop.n)],
        np.zeros(pop.n, dtype=int),
        {},
    )


@dataclass
class EngineSettings:
    horizon_days: int = 14
    within_days: int = 7
    fill_error: float = 0.01  # sd of the "full" level, share of the usable capacity
    forecast_sd0: float = 2.0  # °F, today's forecast error; grows by forecast_sd_per_day
    forecast_sd_per_day: float = 0.8
    forecast_days: int = 7
    band_z: float = DEFAULT_BAND_Z


def run_engine(
    pop: Population,
    start: date,
    usage: np.ndarray,
    temps: np.ndarray,
    normals: Mapping[tuple[int, int], float],
    stops_per_day: int,
    rng: np.random.Generator,
    settings: EngineSettings | None = None,
    track_fills: tuple[int, ...] = (1, 3, 6),
    memory: Memory | None = None,
) -> tuple[Outcome, Memory]:
    """Run the season; the engine starts from `memory` (default: cold, every tank on its typical
    values) and one reading of every tank's level on the first morning. Returns what it learnt."""
    s = settings or EngineSettings()
    mem = memory or cold_memory(pop)
    days = usage.shape[0]
    n = pop.n
    out = Outcome("forecast")
    out.param_error = {f: [] for f in track_fills}
    level = pop.start_level.copy()
    priors: list[UsageParams] = [TYPICAL[k] for k in pop.kind]
    fits = list(mem.fits)
    intervals = [list(iv) for iv in mem.intervals]
    known = level.copy()  # the opening reading
    known_asof = [start] * n
    fills = mem.fills.copy()
    observed = dict(mem.observed)
    ro = np.zeros(n, dtype=int)
    truth_rate = np.where(pop.weather, pop.k, pop.rate)
    flat = np.full(days + s.horizon_days + 400, 50.0)
    states = [
        TankState(i, float(pop.usable[i]), float(pop.reorder[i]), float(known[i]), start, fits[i], "z")
        for i in range(n)
    ]
    for t in range(days):
        today = start + timedelta(t)
        t0 = time.perf_counter()
        oldest = min(known_asof)
        span = (today - oldest).days + s.horizon_days
        if pop.weather.any():
            forecast = {}
            for lead in range(min(s.forecast_days, days - t)):
                sd = s.forecast_sd0 + s.forecast_sd_per_day * lead
                forecast[today + timedelta(lead)] = float(temps[t + lead] + sd * rng.standard_normal())
            zone_temps = series(oldest, span, observed, forecast, normals)
        else:
            zone_temps = flat[:span]
        prs = project(states, {"z": zone_temps}, today, s.horizon_days, temps_start=oldest, band_z=s.band_z)
        due = due_list(prs, states, today, s.within_days)
        take = _dispatch(due, today, stops_per_day, s.within_days)
        out.engine_seconds += time.perf_counter() - t0
        if sum(1 for d in due if d.suggested_date <= today) > stops_per_day:
            out.overloaded_days += 1
        for i in take:
            before = level[i]
            drop = pop.usable[i] - before
            out.deliveries += 1
            out.gallons += drop
            out.drop_share.append(drop / pop.usable[i])
            out.holdout_flags.append(bool(pop.holdout[i]))
            level[i] = pop.usable[i]
            after_seen = min(pop.usable[i], pop.usable[i] * (1 + s.fill_error * float(rng.standard_normal())))
            before_seen = after_seen - drop  # the meter is exact; "full" is a driver's estimate
            used = known[i] - before_seen
            intervals[i].append(UsageInterval(known_asof[i], today, float(used), "fill"))
            known[i] = after_seen
            known_asof[i] = today
            fills[i] += 1
            t1 = time.perf_counter()
            fits[i] = fit_usage(intervals[i], observed, priors[i].model, priors[i])
            out.engine_seconds += time.perf_counter() - t1
            states[i].level_gallons = float(after_seen)
            states[i].as_of = today
            states[i].fit = fits[i]
            if fills[i] in out.param_error:
                p = fits[i].params
                est = p.k_factor if pop.weather[i] else p.daily_rate
                err = abs((est or 0.0) - truth_rate[i]) / truth_rate[i]
                out.param_error[int(fills[i])].append((float(err), bool(pop.holdout[i])))
        out.stops_by_day.append(len(take))
        level -= usage[t]
        empty = level <= 0
        ro += empty
        level[empty] = 0.0
        out.runout_events += [(t, int(i)) for i in np.flatnonzero(empty)]
        observed[today] = float(temps[t])
    out.runout_by_tank = ro
    out.runout_days = int(ro.sum())
    out.tanks_run_out = int((ro > 0).sum())
    return out, Memory(fits, intervals, fills, observed)


def _dispatch(due: list, today: date, stops: int, within_days: int) -> list[int]:
    """The day's stops: the due tanks (suggested date today or past), riskiest first; then, when the
    coming days hold more due tanks than the fleet can visit by then, the earliest of them today."""
    must = [d for d in due if d.suggested_date <= today]
    take = [d.tank_id for d in must[:stops]]
    backlog = max(0, len(must) - stops)
    room = stops - len(take)
    if room > 0:
        later = sorted(
            (d for d in due if d.suggested_date > today), key=lambda d: (d.suggested_date, -d.risk)
        )
        extra = 0
        for k in range(1, within_days + 1):
            by_then = backlog + sum(1 for d in later if (d.suggested_date - today).days <= k)
            extra = max(extra, by_then - stops * k)
        take += [d.tank_id for d in later[: min(extra, room)]]
    return take


def fleet_stops(pop: Population, usage: np.ndarray, target_drop: float = 0.7, margin: float = 1.25) -> int:
    """A fleet sized for the season's peak week: each tank needs usage / (target_drop x usable)
    visits a day; the sum over the tanks, with a margin."""
    visits = (usage / (target_drop * pop.usable[None, :])).sum(axis=1)
    week = np.convolve(visits, np.ones(7) / 7, mode="valid")
    return max(1, math.ceil(margin * float(week.max())))


# ---- a whole scenario ---------------------------------------------------------------------------


@dataclass
class Season:
    name: str
    start: date
    temps: np.ndarray  # the true daily means, one per simulated day
    normals: Mapping[tuple[int, int], float]  # what the engine uses beyond the forecast's days
    fleet_factor: float = 1.0  # the fleet as a share of what the season's peak week needs


def _merge_errors(*outcomes: Outcome) -> dict[int, list[tuple[float, bool]]]:
    merged: dict[int, list[tuple[float, bool]]] = {}
    for o in outcomes:
        for k, rows in o.param_error.items():
            merged.setdefault(k, []).extend(rows)
    return merged


def run_scenario(
    scenario: Scenario,
    n_tanks: int,
    history: Season,
    seasons: list[Season],
    seed: int,
    warmup_days: int | None = None,
    stops_per_day: int | None = None,
    settings: EngineSettings | None = None,
    fleet_factor: float = 1.0,
) -> dict[str, Any]:
    """Last season (`history`): the baseline tunes its intervals on its usage, and the engine runs
    it from a cold start (its first `warmup_days`, default all) - the figures of a first season on
    typical values. Then each measured season: the engine with what it learnt, and the baseline,
    on the same usage. Figures for all tanks, the tuning part and the held-out part. `fleet_factor`
    scales the measured seasons' fleet (below 1: a fleet too small for the season)."""
    rng = np.random.default_rng(seed)
    pop = make_population(scenario, n_tanks, rng)
    hist_usage = true_usage(pop, history.start, history.temps, np.random.default_rng(seed + 1))
    intervals = tune_intervals(pop, hist_usage, reserve_share=float(pop.reorder[0] / pop.usable[0]))
    w = warmup_days or len(history.temps)
    hist_stops = stops_per_day or fleet_stops(pop, hist_usage[:w])
    t0 = time.perf_counter()
    cold, memory = run_engine(
        pop,
        history.start,
        hist_usage[:w],
        history.temps[:w],
        history.normals,
        hist_stops,
        np.random.default_rng(seed + 2),
        settings,
    )
    result: dict[str, Any] = {
        "tanks": pop.n,
        "held_out_tanks": int(pop.holdout.sum()),
        "first_season_cold_start": {
            "days": w,
            "fleet_stops_per_day": hist_stops,
            "engine": cold.summary(pop.holdout),
            "seconds": round(time.perf_counter() - t0, 1),
        },
        "baseline_interval_days_median": int(np.median(intervals)),
        "seasons": {},
    }
    measured: list[Outcome] = []
    usages: dict[int, np.ndarray] = {}
    for k, season in enumerate(seasons):
        # Seasons of the same weather (fleet variants) share their usage, day by day.
        first = next(j for j, o in enumerate(seasons) if o.start == season.start and o.temps is season.temps)
        if first not in usages:
            usages[first] = true_usage(
                pop, season.start, season.temps, np.random.default_rng(seed + 10 + first)
            )
        usage = usages[first]
        stops = stops_per_day or max(1, round(fleet_factor * season.fleet_factor * fleet_stops(pop, usage)))
        t0 = time.perf_counter()
        eng, _ = run_engine(
            pop,
            season.start,
            usage,
            season.temps,
            season.normals,
            stops,
            np.random.default_rng(seed + 20 + k),
            settings,
            memory=memory,
        )
        seconds = time.perf_counter() - t0
        base = run_baseline(pop, usage, intervals)
        measured.append(eng)
        hdd_total = float(np.maximum(0.0, 65.0 - season.temps).sum())
        result["seasons"][season.name] = {
            "days": len(season.temps),
            "hdd": round(hdd_total),
            "fleet_stops_per_day": stops,
            "engine": {
                "all": eng.summary(pop.holdout),
                "tuning": eng.summary(pop.holdout, False),
                "held_out": eng.summary(pop.holdout, True),
            },
            "baseline": {
                "all": base.summary(pop.holdout),
                "tuning": base.summary(pop.holdout, False),
                "held_out": base.summary(pop.holdout, True),
            },
            "engine_seconds": round(eng.engine_seconds, 1),
            "seconds": round(seconds, 1),
        }
    # Parameter error after 1, 3, 6 fills: the cold start and the first measured season go on
    # counting the same tanks' fills.
    errs = Outcome("errors", param_error=_merge_errors(cold, *measured[:1]))
    errs.runout_by_tank = np.zeros(pop.n)
    result["param_error_after_fills"] = {
        "all": errs.summary(pop.holdout).get("param_error_after_fills", {}),
        "tuning": errs.summary(pop.holdout, False).get("param_error_after_fills", {}),
        "held_out": errs.summary(pop.holdout, True).get("param_error_after_fills", {}),
    }
    return result
