"""The due list: the tanks to deliver to within N days, the riskiest first.

A tank is due when its expected level reaches the reorder point, or the low edge of its band
runs out, within `within_days` of today. Its suggested date is the day it reaches the reorder
point, pulled to the day before the low band's run-out when that comes first (never before
today); the quantity fills it to usable capacity at that date (its expected morning level).

Risk is the probability (normal approximation of the band) that the tank runs empty before the
end of the second day after the suggested date, that is if the delivery slips by two days; 1 when
the expected level reaches zero by then. Ties (most tanks are far from empty) go by the earliest
possible run-out, then the suggested date.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from .projection import Projection, TankState

SLIP_DAYS = 2


@dataclass
class DueTank:
    tank_id: int
    suggested_date: date
    suggested_gallons: float
    risk: float
    confidence: Literal["high", "medium", "low"]
    reason: str
    reorder_date: date | None = None
    runout_date: date | None = None
    runout_early: date | None = None
    level_now: float = 0.0


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _confidence(state: TankState | None, p: Projection, i: int) -> Literal["high", "medium", "low"]:
    if state is None or state.fit.method == "prior" or state.fit.n_intervals < 2:
        return "low"
    half = float(p.level[i] - p.low[i]) if len(p.level) > i else 0.0
    share = half / p.usable_gallons if p.usable_gallons > 0 else 1.0
    if state.fit.n_intervals >= 3 and share <= 0.15:
        return "high"
    return "medium" if share <= 0.35 else "low"


_MONTHS = ("", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _fmt(d: date) -> str:
    return f"{_MONTHS[d.month]} {d.day}"


def due_list(
    projections: Sequence[Projection],
    states: Sequence[TankState],
    today: date,
    within_days: int,
) -> list[DueTank]:
    by_id = {s.tank_id: s for s in states}
    end = today + timedelta(max(int(within_days), 0))
    rows: list[tuple[tuple, DueTank]] = []
    for p in projections:
        if not p.ok or len(p.level) == 0:
            continue
        hits = [d for d in (p.reorder_date, p.runout_early) if d is not None and d <= end]
        if not hits:
            continue
        floor = max(today, p.start)
        suggested = p.reorder_date if p.reorder_date is not None else (p.runout_early or end)
        pulled = False
        if p.runout_early is not None and p.runout_early - timedelta(1) < suggested:
            suggested = p.runout_early - timedelta(1)
            pulled = True
        suggested = max(suggested, floor)
        last = len(p.level) - 1
        i = min((suggested - p.start).days, last)
        level_then = float(p.level[i])
        gallons = max(0.0, p.usable_gallons - level_then)
        # Risk: P(empty by the end of the day SLIP_DAYS after the suggested date).
        k = min(i + SLIP_DAYS + 1, last)
        mean = float(p.level[k]) if p.level[k] > 0 else 0.0
        sd = max(float(p.level[k] - p.low[k]) / p.band_z, 1e-6)
        risk = 1.0 if mean <= 0 else 1.0 - _phi(mean / sd)
        state = by_id.get(p.tank_id)
        conf = _confidence(state, p, i)
        parts = []
        if p.reorder_date is not None:
            if p.reorder_date <= today:
                parts.append(f"at or below its reorder point ({p.reorder_gallons:.0f} gal)")
            else:
                parts.append(
                    f"reaches its reorder point ({p.reorder_gallons:.0f} gal) on {_fmt(p.reorder_date)}"
                )
        if p.runout_date is not None:
            parts.append(f"expected to run out on {_fmt(p.runout_date)}")
        if p.runout_early is not None:
            parts.append(f"could run out as early as {_fmt(p.runout_early)}")
        if pulled:
            parts.append("delivery moved earlier for the uncertainty")
        if state is not None and state.fit.method == "prior":
            parts.append("usage from typical values (no fill history yet)")
        reason = "; ".join(parts)
        row = DueTank(
            tank_id=p.tank_id,
            suggested_date=suggested,
            suggested_gallons=gallons,
            risk=round(risk, 6),
            confidence=conf,
            reason=reason[:1].upper() + reason[1:],
            reorder_date=p.reorder_date,
            runout_date=p.runout_date,
            runout_early=p.runout_early,
            level_now=float(p.level[0]),
        )
        far = date.max
        key = (-row.risk, p.runout_early or p.runout_date or far, suggested, p.tank_id)
        rows.append((key, row))
    rows.sort(key=lambda kr: kr[0])
    return [r for _, r in rows]
