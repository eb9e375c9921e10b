"""A nearest-neighbour dispatcher, the yardstick of the realistic-day benchmark (and PyVRP's warm
start): one truck after the other (earliest shift first) goes from where it is to the nearest stop
it may still serve on time and be back by the shift's end, on the current load when the
compartments still take it, else by way of the best terminal for a new load. The routes are then
decoded like the solver's (evaluate.decode), so both are measured the same way."""

from __future__ import annotations

import time

from tenants.routing.solver import compartments as comp
from tenants.routing.solver.context import Context, build
from tenants.routing.solver.evaluate import decode, totals
from tenants.routing.solver.plan import Plan, Route, Unplanned
from tenants.routing.solver.problem import Id, Problem, Stop, Truck
from tenants.routing.solver.screening import screen

TOO_LATE = 10**9


def nearest_neighbour(problem: Problem) -> Plan:
    started = time.perf_counter()
    ctx = build(problem)
    trucks = sorted((t for t in problem.trucks if t.driver_id is not None), key=lambda t: t.shift[0])
    unplanned: list[Unplanned] = []
    eligible: dict[Id, set[Id]] = {}
    for stop in problem.stops:
        reason, fleet = screen(ctx, stop, trucks)
        if reason:
            unplanned.append(Unplanned(stop.id, reason))
        elif stop.prize is None:
            eligible[stop.id] = {t.id for t in fleet}
    routes, todo = routes_for(ctx, trucks, eligible)
    unplanned += [
        Unplanned(sid, "the nearest-neighbour dispatcher found no room") for sid in sorted(todo, key=str)
    ]
    unplanned += [Unplanned(s.id, "optional: not taken") for s in problem.stops if s.prize is not None]
    return totals(
        routes,
        unplanned,
        solver="nearest neighbour",
        elapsed_s=time.perf_counter() - started,
        complete=True,
        problem=problem,
    )


def routes_for(ctx: Context, trucks: list[Truck], eligible: dict[Id, set[Id]]) -> tuple[list[Route], set[Id]]:
    """The nearest-neighbour routes of these trucks (earliest shift first) over the stops of
    `eligible` (stop -> the trucks that may serve it), and the stops left over."""
    todo = set(eligible)
    routes: list[Route] = []
    for truck in sorted(trucks, key=lambda t: t.shift[0]):
        seq = [
            s.id
            for s in sorted(
                (ctx.stops[sid] for sid in todo if ctx.stops[sid].fixed_truck == truck.id),
                key=lambda s: s.fixed_position or 0,
            )
        ]
        seq += _greedy(
            ctx, truck, [ctx.stops[sid] for sid in todo if truck.id in eligible[sid] and sid not in seq], seq
        )
        while seq:
            route = decode(ctx, truck, seq)
            if not route.violations:
                routes.append(route)
                todo -= set(seq)
                break
            seq = seq[:-1]
    return routes, todo


def _greedy(ctx: Context, truck: Truck, candidates: list[Stop], fixed: list[Id]) -> list[Id]:
    pos, now = ctx.at(truck.start), truck.shift[0]
    home = ctx.at(truck.end)
    load: dict[str, int] = {}
    # The fixed stops first (as decode will see them): simulate them on one load each.
    for sid in fixed:
        stop = ctx.stops[sid]
        now, pos, load = _visit(ctx, truck, pos, now, {}, stop, new_load=True)
    out: list[Id] = []
    left = {s.id: s for s in candidates}
    while left:
        best = None
        for stop in sorted(left.values(), key=lambda s: _away(ctx, pos, s)):
            together = dict(load)
            for p, g in stop.demand.items():
                together[p] = together.get(p, 0) + g
            same = (
                bool(load)
                and comp.fits(truck.compartments, together)
                and bool(ctx.terminals_with(set(together)))
            )
            t, here, new = _visit(ctx, truck, pos, now, load, stop, new_load=not same)
            if t >= TOO_LATE or t + int(ctx.dur[here, home]) > truck.shift[1]:
                continue
            if t + int(ctx.dur[here, home]) - truck.shift[0] > truck.max_duty_s:
                continue
            best = (stop, t, here, new)
            break
        if best is None:
            break
        stop, now, pos, load = best
        out.append(stop.id)
        del left[stop.id]
    return out


def _away(ctx: Context, pos: int, stop: Stop) -> int:
    assert stop.location is not None
    return int(ctx.dist[pos, ctx.at(stop.location)])


def _visit(
    ctx: Context, truck: Truck, pos: int, now: int, load: dict[str, int], stop: Stop, new_load: bool
) -> tuple[int, int, dict[str, int]]:
    """Drive to `stop` (through a terminal for a new load) and serve it: (departure, where, load)."""
    assert stop.location is not None
    at = ctx.at(stop.location)
    if new_load:
        terminals = ctx.terminals_with(set(stop.demand))
        term = min(
            terminals, key=lambda t: int(ctx.dist[pos, ctx.at(t.location)] + ctx.dist[ctx.at(t.location), at])
        )
        ti = ctx.at(term.location)
        now += int(ctx.dur[pos, ti]) + ctx.problem.settings.terminal_service_s
        pos = ti
        load = {}
    now += int(ctx.dur[pos, at])
    lo, hi = stop.window if stop.window is not None else (0, 10**9)
    if now > hi:
        return TOO_LATE, at, load  # too late: the caller skips it
    now = max(now, lo) + stop.service_s
    merged = dict(load)
    for p, g in stop.demand.items():
        merged[p] = merged.get(p, 0) + g
    return now, at, merged
