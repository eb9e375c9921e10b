"""Plan the day with PyVRP (iterated local search, https://pyvrp.org) and decode its answer into
loads, ETAs and slack with evaluate.decode.

The model given to PyVRP (docs/routing-solver.md says why):
- one client per stop: its gallons in dimension 0 and per product in dimensions 1..P, its window,
  its time on site, a prize when it is optional;
- one vehicle type per group of identical trucks (compartments, products, yards, shift, costs and
  the stops they may serve): capacity = the truck's gallons in dimension 0 and in each product it
  carries (0 for a product it does not), shift = the driver's shift, max duration = the on-duty limit,
  reload depots = the terminals having one of its products (multi-trip);
- the truck starts at a virtual depot "yard, then the best terminal for the first stop": the first
  load is never free;
- a stop a truck may not serve (skill, max truck size, product, fixed to another truck) is out of
  reach of that truck's routing profile (its edges cost ~10,000 km and a day of driving);
- the costs are cost per mile, cost per hour and a truck's fixed cost, in units of 1e-4 dollar.
Compartments are not in PyVRP's model (it only knows totals): each load the solver proposes is
checked exactly (compartments.assign) and the route split again where a load does not fit.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version

import numpy as np
import pyvrp
from pyvrp import Client, Depot, ProblemData, VehicleType
from pyvrp.exceptions import PenaltyBoundWarning
from pyvrp.IteratedLocalSearch import IteratedLocalSearchParams
from pyvrp.stop import MaxRuntime

from tenants.routing.solver import compartments as comp
from tenants.routing.solver.context import Context, build
from tenants.routing.solver.evaluate import decode, totals
from tenants.routing.solver.plan import Plan, Route, Unplanned
from tenants.routing.solver.problem import Id, Problem, Stop, Truck
from tenants.routing.solver.screening import screen

COST_SCALE = 10_000  # solver cost units per dollar (PyVRP's penalties are calibrated for small units)
FAR_M = 10_000_000  # an edge a truck may not take
FAR_S = 86_400 * 3
INT_MAX = int(np.iinfo(np.int64).max)
SOLVE_PARAMS = pyvrp.SolveParams()
# A day with compartments (more than one product): PyVRP makes ~50-300 iterations a second on 400
# stops, a few thousand in its budget, and its late-acceptance history of 300 iterations (the
# default) then accepts almost any candidate for the first tenth of the run and stalls from the
# second (docs/routing-solver.md: its best was found at iteration ~460 of 1,400). A history of 20
# kept it improving to the end: 43,023 -> 39,172 dollars in the same 21 s.
DAY_HISTORY_LENGTH = 20
DAY_SOLVE_PARAMS = pyvrp.SolveParams(ils=IteratedLocalSearchParams(history_length=DAY_HISTORY_LENGTH))
MISFIT_WORTH = 0.5  # a sampled load that does not share out counts this much (the decoder splits it)
DECODE_S_PER_STOP = 0.004  # kept out of PyVRP's time for the decoding
# Kept out of PyVRP's time, when trucks have a fixed cost, for emptying short routes and relocating
# stops afterwards (docs/routing-solver.md: on this loaded machine they beat PyVRP's last seconds).
CONSOLIDATE_SHARE = 0.35
# Places tried for each stop of a route being emptied (8: 49 -> 46 trucks on the generated day;
# 30: 49 -> 43 and, after relocation made room, a second round 43 -> 40), and the rounds of
# emptying and relocating while a round empties a route and the budget lasts.
CONSOLIDATE_TRIES = 30
ROUNDS = 3


@dataclass
class _Model:
    data: ProblemData
    stops: list[Stop]  # client i -> stop
    groups: list[list[Truck]]  # vehicle type -> its trucks
    products: list[str]
    scale: float  # solver cost units per dollar


def solve(
    problem: Problem,
    seconds: float,
    on_progress: Callable[[float, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    seed: int = 1,
) -> Plan:
    """The best plan found in `seconds` (or until should_stop() says so: the best so far).
    on_progress(fraction of the time budget, best cost in dollars or -1 while none is feasible)."""
    started = time.perf_counter()
    ctx = build(problem)
    notes = ctx.notes + [f"truck {t.id}: no driver, not used" for t in problem.trucks if t.driver_id is None]
    trucks = [t for t in problem.trucks if t.driver_id is not None]
    unplanned: list[Unplanned] = []
    eligible: dict[Id, list[Truck]] = {}
    for stop in problem.stops:
        reason, fleet = screen(ctx, stop, trucks)
        if reason:
            unplanned.append(Unplanned(stop.id, reason))
        else:
            eligible[stop.id] = fleet
    stops = [s for s in problem.stops if s.id in eligible]
    routes: list[Route] = []
    complete = True
    if stops and trucks:
        model = _model(ctx, stops, trucks, eligible)
        # The budget covers it all: what was spent building the model, and the decoding to come.
        # (The decoding slows down with the machine's load like the building did: half of it is kept.)
        spent = time.perf_counter() - started
        # Trucks with a fixed cost: CONSOLIDATE_SHARE of the budget goes to _consolidate/_relocate.
        share = CONSOLIDATE_SHARE if any(t.fixed_cost > 0 for t in trucks) else 0.0
        budget = seconds * (1 - share) - spent - DECODE_S_PER_STOP * len(stops) - 0.5 * spent
        stopper = _Stopper(max(0.05, budget), on_progress, should_stop, model.scale)
        with warnings.catch_warnings():
            # PyVRP warns when a penalty reaches its bound (a hard day): the plan's repair and
            # unplanned reasons say what could not be done; the worker's log needs no warning.
            warnings.simplefilter("ignore", PenaltyBoundWarning)
            result = pyvrp.solve(
                model.data,
                stop=stopper,
                seed=seed,
                collect_stats=False,
                display=False,
                params=DAY_SOLVE_PARAMS if len(model.products) > 1 else SOLVE_PARAMS,
            )
        complete = not stopper.stopped_early
        routes, dropped = _decode(ctx, model, result.best, eligible, deadline=started + seconds)
        unplanned += dropped
        if on_progress is not None:
            on_progress(1.0, round(sum(_route_cost(ctx, r) for r in routes)))
    elif stops:
        unplanned += [Unplanned(s.id, "no truck with a driver") for s in stops]
    return totals(
        routes,
        unplanned,
        solver=f"pyvrp {version('pyvrp')}",
        elapsed_s=time.perf_counter() - started,
        complete=complete,
        problem=problem,
        notes=notes,
    )


class _Stopper:
    """PyVRP's stopping criterion: the time budget or the caller's stop; reports progress."""

    def __init__(
        self,
        seconds: float,
        on_progress: Callable[[float, int], None] | None,
        should_stop: Callable[[], bool] | None,
        scale: float,
    ) -> None:
        self.scale = scale
        self.runtime = MaxRuntime(max(0.0, seconds))
        self.seconds = max(seconds, 1e-9)
        self.on_progress = on_progress
        self.should_stop = should_stop
        self.started = time.perf_counter()
        self.last_poll = 0.0
        self.stopped_early = False

    def __call__(self, best_cost: int) -> bool:
        if self.runtime(best_cost):
            return True
        now = time.perf_counter() - self.started
        if now - self.last_poll >= 0.5:
            self.last_poll = now
            if self.on_progress is not None:
                cost = -1 if best_cost >= INT_MAX // 2 else round(best_cost / self.scale)
                self.on_progress(min(1.0, now / self.seconds), cost)
            if self.should_stop is not None and self.should_stop():
                self.stopped_early = True
                return True
        return False


def _model(ctx: Context, stops: list[Stop], trucks: list[Truck], eligible: dict[Id, list[Truck]]) -> _Model:
    settings = ctx.problem.settings
    # Costs in integer units: 1e-4 dollar on road distances in metres; on planar instances one unit
    # per distance unit when the costs per mile are whole (CVRPLIB: cost = distance), else 1/100.
    if ctx.problem.settings.metric == "euclidean":
        scale = 1.0 if all(float(t.cost_per_mile).is_integer() for t in trucks) else 100.0
    else:
        scale = float(COST_SCALE)
    products = sorted({p for s in stops for p, g in s.demand.items() if g > 0})
    terminals = list(ctx.problem.terminals)
    # Vehicle types: identical trucks (and the same reachable stops) share one.
    reach = {
        t.id: frozenset(sid for sid, fleet in eligible.items() if any(f.id == t.id for f in fleet))
        for t in trucks
    }
    keyed: dict[tuple, list[Truck]] = {}
    for t in trucks:
        key = (
            t.compartments,
            t.products,
            t.start,
            t.end,
            t.shift,
            t.max_duty_s,
            t.cost_per_mile,
            t.cost_per_hour,
            t.fixed_cost,
            reach[t.id],
        )
        keyed.setdefault(key, []).append(t)
    groups = list(keyed.values())
    # Where a truck may (re)load in the solver's model: the terminals having every product it may
    # carry today, so that any load PyVRP makes up can be made there (PyVRP's reloads know no
    # products). The decoder then loads each trip at the best terminal having that trip's products,
    # which can only be nearer. No such terminal: those having one of its products.
    day_products = set(products)

    def loading(t: Truck) -> tuple[int, ...]:
        need = t.products & day_products
        full = tuple(i for i, term in enumerate(terminals) if need <= term.products)
        return full or tuple(i for i, term in enumerate(terminals) if term.products & need)

    starts = list(dict.fromkeys((g[0].start, loading(g[0])) for g in groups))
    ends = list(dict.fromkeys(g[0].end for g in groups))
    # PyVRP locations: virtual starts, end yards, terminals, then the stops; `base` maps them to ctx.
    base = (
        [ctx.at(y) for y, _ in starts] + [ctx.at(y) for y in ends] + [ctx.at(t.location) for t in terminals]
    )
    n_dep = len(base)
    base += [ctx.at(s.location) for s in stops]  # type: ignore[arg-type]
    idx = np.array(base)
    dist = ctx.dist[np.ix_(idx, idx)].astype(np.int64)
    dur = ctx.dur[np.ix_(idx, idx)].astype(np.int64)
    # A virtual start reaches a stop through the terminal (of its loading terminals, having the
    # stop's products) that makes the way shortest, and spends the loading time there.
    t_idx = np.array([ctx.at(t.location) for t in terminals])
    for k, (y, where) in enumerate(starts):
        yi = ctx.at(y)
        for c, s in enumerate(stops):
            wants = {p for p, g in s.demand.items() if g > 0}
            ok = [i for i in where if wants <= terminals[i].products]
            if not ok:
                dist[k, n_dep + c] = FAR_M
                dur[k, n_dep + c] = FAR_S
                continue
            ci = ctx.at(s.location)  # type: ignore[arg-type]
            via = ctx.dist[yi, t_idx[ok]] + ctx.dist[t_idx[ok], ci]
            best = ok[int(np.argmin(via))]
            dist[k, n_dep + c] = int(via.min())
            dur[k, n_dep + c] = (
                int(ctx.dur[yi, t_idx[best]] + ctx.dur[t_idx[best], ci]) + settings.terminal_service_s
            )
        dist[:, k] = FAR_M  # nobody drives back to a virtual start
        dur[:, k] = FAR_S
        dist[k, k] = dur[k, k] = 0
    # One routing profile per distinct set of reachable stops (the first: all of them).
    stop_pos = {s.id: n_dep + c for c, s in enumerate(stops)}
    everyone = frozenset(s.id for s in stops)
    profile_of: dict[frozenset, int] = {everyone: 0}
    dists, durs = [dist], [dur]
    for g in groups:
        r = reach[g[0].id]
        if r not in profile_of:
            d2, t2 = dist.copy(), dur.copy()
            cols = [stop_pos[sid] for sid in everyone - r]
            d2[:, cols] = FAR_M
            t2[:, cols] = FAR_S
            np.fill_diagonal(d2, 0)
            np.fill_diagonal(t2, 0)
            profile_of[r] = len(dists)
            dists.append(d2)
            durs.append(t2)
    locations = [pyvrp.Location(x=float(b), y=0.0) for b in base]  # x: the point in ctx's matrix
    depots = [Depot(location=k) for k in range(len(starts) + len(ends))]
    depots += [
        Depot(location=len(starts) + len(ends) + i, service_duration=settings.terminal_service_s)
        for i in range(len(terminals))
    ]
    clients = []
    for c, s in enumerate(stops):
        lo, hi = s.window if s.window is not None else (0, INT_MAX)
        clients.append(
            Client(
                location=n_dep + c,
                delivery=[s.gallons] + [s.demand.get(p, 0) for p in products],
                service_duration=s.service_s,
                tw_early=lo,
                tw_late=hi,
                prize=round((s.prize or 0) * scale / 100),
                required=s.prize is None,
                name=str(s.id),
            )
        )
    usable = _calibrate(ctx, stops, {g[0].compartments for g in groups})
    biggest: dict[tuple[int, ...], int] = {}
    for s in stops:
        for t in eligible[s.id]:
            biggest[t.compartments] = max(biggest.get(t.compartments, 0), s.gallons)
    vtypes = []
    for g in groups:
        t = g[0]
        usable_gal = max(usable[t.compartments], biggest.get(t.compartments, 0))
        reload = [len(starts) + len(ends) + i for i in loading(t)]
        # Identical trucks, as many as the stops they may serve, at a yard that is their terminal and
        # free to use: a second load is the same as a second truck, so PyVRP searches one-load
        # routes only (a smaller neighbourhood; CVRPLIB's unlimited fleets are such).
        home = {terminals[i].location for i in loading(t)}
        if (
            len(g) >= len(reach[t.id])
            and t.fixed_cost == 0
            and t.start in home
            and t.end == t.start
            and t.max_duty_s >= t.shift[1] - t.shift[0]
        ):
            reload = []
        vtypes.append(
            VehicleType(
                num_available=len(g),
                capacity=[usable_gal] + [t.gallons_total if p in t.products else 0 for p in products],
                start_depot=starts.index((t.start, loading(t))),
                end_depot=len(starts) + ends.index(t.end),
                tw_early=t.shift[0],
                tw_late=t.shift[1],
                shift_duration=t.max_duty_s,
                unit_distance_cost=max(1, round(t.cost_per_mile * scale / ctx.units_per_mile)),
                unit_duration_cost=round(t.cost_per_hour * scale / 3600),
                fixed_cost=round(t.fixed_cost * scale),
                profile=profile_of[reach[t.id]],
                reload_depots=reload,
                name=str(t.id),
            )
        )
    data = ProblemData(locations, clients, depots, vtypes, dists, durs)
    return _Model(
        data=data,
        stops=stops,
        groups=groups,
        products=products,
        scale=scale,
    )


def _calibrate(ctx: Context, stops: list[Stop], configs: set[tuple[int, ...]], samples: int = 150) -> dict:
    """The gallons PyVRP may put on one load of a truck with these compartments.

    PyVRP knows a truck's total, not its compartments: a load within the total may still not share
    out (3 products in 3 compartments, each product in one). Loads of this day's stops are sampled
    (a stop and some of its 40 nearest neighbours, as the solver's trips are) for each cap from 55 % to
    100 % of the total, and the cap that carries the most per load wins, a load that does not fit
    counting as half (the decoder splits it in two). 100 % on a one-product day.
    """
    out: dict[tuple[int, ...], int] = {}
    if len(stops) < 2 or len({p for s in stops for p in s.demand}) < 2:
        return {c: sum(c) for c in configs}  # one product: any load within the total fits
    rng = np.random.default_rng(7)
    at = np.array([ctx.at(s.location) for s in stops])  # type: ignore[arg-type]
    sub = ctx.dist[np.ix_(at, at)]
    near = np.argsort(sub, axis=1)[:, 1:41]
    seeds = rng.integers(0, len(stops), size=samples)
    orders = [rng.permutation(near.shape[1]) for _ in range(samples)]
    for config in configs:
        total = sum(config)
        best, best_score = total, -1.0
        for frac in np.arange(0.55, 1.0001, 0.025):
            cap = int(total * frac)
            score = 0.0
            for seed, order in zip(seeds, orders, strict=True):
                load: dict[str, int] = {}
                gallons = 0
                for k in [int(seed), *(int(near[seed, o]) for o in order)]:
                    g = stops[k].gallons
                    if gallons + g > cap:
                        continue
                    gallons += g
                    for p, q in stops[k].demand.items():
                        load[p] = load.get(p, 0) + q
                if gallons:
                    score += gallons if comp.fits(config, load) else gallons * MISFIT_WORTH
            if score >= best_score - 1e-9:  # ties: the bigger cap
                best, best_score = cap, score
        out[config] = best
    return out


def _decode(
    ctx: Context,
    model: _Model,
    solution: pyvrp.Solution,
    eligible: dict[Id, list[Truck]],
    deadline: float = 0.0,
) -> tuple[list[Route], list[Unplanned]]:
    free = [list(g) for g in model.groups]
    routes: list[Route] = []
    unplanned: list[Unplanned] = []
    served: set[Id] = set()
    for r in solution.routes():
        truck = free[r.vehicle_type()].pop(0)
        seq = [model.stops[a.idx].id for a in r.schedule() if a.is_client()]
        seq = _fixed_positions(ctx, seq)
        route, dropped = _repair(ctx, truck, seq, eligible)
        unplanned += dropped
        if route is not None:
            routes.append(route)
            served.update(route.stop_ids)
    idle = [t for g in free for t in g]
    # Every place is tried for a stop the decoder took out (an idle truck's is rarely among the
    # cheapest few, and a stop left out is worse than a dearer place).
    unplanned = _reinsert(ctx, routes, unplanned, eligible, idle, tries=None, all_until=deadline)
    unplanned = _make_room(ctx, routes, unplanned, eligible, idle, deadline)
    routes = _consolidate(ctx, routes, eligible, deadline)
    routes = _relocate(ctx, routes, eligible, deadline)
    for _ in range(ROUNDS - 1):
        trucks_before = len(routes)
        routes = _consolidate(ctx, routes, eligible, deadline)
        if len(routes) == trucks_before:
            break
        routes = _relocate(ctx, routes, eligible, deadline)
    served = {sid for r in routes for sid in r.stop_ids}
    for s in model.stops:
        if s.id in served or any(u.stop_id == s.id for u in unplanned):
            continue
        if s.prize is not None:
            unplanned.append(Unplanned(s.id, "optional: not worth the detour"))
        else:
            unplanned.append(Unplanned(s.id, "no room in any truck's shift"))
    return routes, unplanned


def _reinsert(
    ctx: Context,
    routes: list[Route],
    dropped: list[Unplanned],
    eligible: dict[Id, list[Truck]],
    idle: list[Truck],
    tries: int | None = 8,
    deadline: float | None = None,
    all_until: float | None = None,
) -> list[Unplanned]:
    """Put the required stops the decoder had to take out (a load that did not share out into the
    compartments cost a reload, and the time ran out) back where they fit: the cheapest insertions
    (by added distance) into the other routes, or an idle truck, each checked by the decoder.
    tries=None: every place, until `all_until` (then 8: a bad plan with many stops to put back
    must not run far past the budget); `deadline`: past it, the stops left are not tried."""
    left: list[Unplanned] = []
    dist = ctx.lists()[0]
    for u in dropped:
        stop = ctx.stops[u.stop_id]
        if deadline is not None and time.perf_counter() >= deadline:
            left.append(u)  # out of time: the caller keeps the plan it had
            continue
        if stop.prize is not None or stop.location is None:
            left.append(u)
            continue
        at = ctx.at(stop.location)
        allowed = {t.id for t in eligible.get(stop.id, [])}
        options: list[tuple[float, int, int]] = []  # (added metres, route index or -1 - idle index, position)
        for ri, route in enumerate(routes):
            if route.truck_id not in allowed:
                continue
            truck = ctx.trucks[route.truck_id]
            points = (
                [ctx.at(truck.start)]
                + [
                    ctx.at(ctx.stops[sid].location)  # type: ignore[arg-type]
                    for sid in route.stop_ids
                ]
                + [ctx.at(truck.end)]
            )
            pinned = (
                max((ctx.stops[sid].fixed_position or 0) + 1 for sid in route.stop_ids)
                if any(ctx.stops[sid].fixed_position is not None for sid in route.stop_ids)
                else 0
            )
            spots = (
                [min(stop.fixed_position, len(points) - 2)]
                if stop.fixed_position is not None
                else range(pinned, len(points) - 1)
            )
            for pos in spots:
                a, b = points[pos], points[pos + 1]
                options.append((float(dist[a][at] + dist[at][b] - dist[a][b]), ri, pos))
        for k, truck in enumerate(idle):
            if truck.id in allowed:
                options.append((float(ctx.dist[ctx.at(truck.start), at] * 2), -1 - k, 0))
        options.sort()
        placed = False
        limit = 8 if tries is None and all_until is not None and time.perf_counter() >= all_until else tries
        for _, ri, pos in options[:limit]:
            if ri >= 0:
                truck = ctx.trucks[routes[ri].truck_id]
                seq = list(routes[ri].stop_ids)
                seq.insert(pos, stop.id)
            else:
                truck = idle[-1 - ri]
                seq = [stop.id]
            route = decode(ctx, truck, seq)
            if route.violations:
                continue
            if ri >= 0:
                routes[ri] = route
            else:
                routes.append(route)
                idle.remove(truck)
            placed = True
            break
        if not placed:
            left.append(u)
    return left


def _make_room(
    ctx: Context,
    routes: list[Route],
    left: list[Unplanned],
    eligible: dict[Id, list[Truck]],
    idle: list[Truck],
    all_until: float | None = None,
) -> list[Unplanned]:
    """A stop in delivery that could not be put back on its truck (PyVRP's best, infeasible when
    its time ran out, had it elsewhere, and its truck's route has no room at the stop's fixed place):
    that truck keeps only its stops in delivery and its other stops are put elsewhere."""
    still: list[Unplanned] = []
    for u in left:
        stop = ctx.stops[u.stop_id]
        truck = ctx.trucks.get(stop.fixed_truck) if stop.fixed_truck is not None else None
        if truck is None or stop.prize is not None or stop.location is None:
            still.append(u)
            continue
        at = next((i for i, r in enumerate(routes) if r.truck_id == truck.id), None)
        had = list(routes[at].stop_ids) if at is not None else []
        keep = [sid for sid in had if ctx.stops[sid].fixed_truck == truck.id]
        route = decode(ctx, truck, _fixed_positions(ctx, [*keep, stop.id]))
        if route.violations:
            still.append(u)
            continue
        if at is not None:
            routes[at] = route
        else:
            routes.append(route)
            if truck in idle:
                idle.remove(truck)
        evicted = [Unplanned(sid, "no room in any truck's shift") for sid in had if sid not in keep]
        still += _reinsert(ctx, routes, evicted, eligible, idle, tries=None, all_until=all_until)
    return still


def _consolidate(
    ctx: Context, routes: list[Route], eligible: dict[Id, list[Truck]], deadline: float
) -> list[Route]:
    """Fewer trucks where it pays: the shortest routes (no stop in delivery on them) are emptied
    into the others when every stop finds a place the decoder accepts and the plan's cost goes down
    (each truck saved is a drive to a terminal and back to its yard). Until the time budget ends."""

    def cost(rs: list[Route]) -> float:
        return sum(_route_cost(ctx, r) for r in rs)

    for victim in sorted(routes, key=lambda r: len(r.stop_ids)):
        if time.perf_counter() >= deadline:
            break
        if any(ctx.stops[sid].fixed_truck is not None for sid in victim.stop_ids):
            continue
        trial = [r for r in routes if r is not victim]
        left = _reinsert(
            ctx,
            trial,
            [Unplanned(sid, "") for sid in victim.stop_ids],
            eligible,
            [],
            tries=CONSOLIDATE_TRIES,
            deadline=deadline,
        )
        if not left and cost(trial) < cost(routes) - 0.01:
            routes = trial
    return routes


def _relocate(
    ctx: Context, routes: list[Route], eligible: dict[Id, list[Truck]], deadline: float
) -> list[Route]:
    """Each stop (not in delivery) taken out of its route and put back at the cheapest place the
    decoder accepts, kept when the plan's cost goes down; pass after pass while it pays and the
    time budget lasts."""
    improved = True
    while improved and time.perf_counter() < deadline:
        improved = False
        for sid in [sid for r in routes for sid in r.stop_ids]:
            if time.perf_counter() >= deadline:
                break
            stop = ctx.stops[sid]
            if stop.fixed_truck is not None or stop.prize is not None:
                continue
            at = next(i for i, r in enumerate(routes) if sid in r.stop_ids)
            own = routes[at]
            rest = [x for x in own.stop_ids if x != sid]
            trial = list(routes)
            if rest:
                trial[at] = decode(ctx, ctx.trucks[own.truck_id], rest)
                if trial[at].violations:
                    continue
            else:
                del trial[at]
            before = sum(_route_cost(ctx, r) for r in routes)
            left = _reinsert(ctx, trial, [Unplanned(sid, "")], eligible, [])
            if not left and sum(_route_cost(ctx, r) for r in trial) < before - 0.01:
                routes = trial
                improved = True
    return routes


def _fixed_positions(ctx: Context, seq: list[Id]) -> list[Id]:
    pinned = sorted(
        (ctx.stops[sid].fixed_position, sid) for sid in seq if ctx.stops[sid].fixed_position is not None
    )
    if not pinned:
        return seq
    rest = [sid for sid in seq if ctx.stops[sid].fixed_position is None]
    for pos, sid in pinned:
        rest.insert(min(int(pos), len(rest)), sid)  # type: ignore[arg-type]
    return rest


def _repair(
    ctx: Context, truck: Truck, seq: list[Id], eligible: dict[Id, list[Truck]]
) -> tuple[Route | None, list[Unplanned]]:
    """Decode the route; while it is late somewhere or over its shift, take out the latest stop (or
    the last one) and say why. The solver's best plan is feasible on all but rare days."""
    # A stop on a truck that may not serve it (PyVRP's best was infeasible when time ran out: its
    # profile's edges only make that costly) leaves the route; _reinsert then finds it a truck.
    dropped: list[Unplanned] = [
        Unplanned(sid, "no truck could take it")
        for sid in seq
        if all(t.id != truck.id for t in eligible[sid])
    ]
    seq = [sid for sid in seq if all(u.stop_id != sid for u in dropped)]
    while seq:
        route = decode(ctx, truck, seq)
        late = [v for v in route.visits if v.kind == "stop" and v.late_s > 0]
        end, start = route.visits[-1].arrival_s, route.visits[0].departure_s
        over = end > truck.shift[1] or end - start > truck.max_duty_s
        if not route.violations:
            return route, dropped
        if late:
            worst = max(late, key=lambda v: v.late_s).ref
            dropped.append(Unplanned(worst, "window unreachable with the trucks' shifts and the other stops"))
        elif over:
            optional = [sid for sid in seq if ctx.stops[sid].prize is not None]
            worst = optional[-1] if optional else seq[-1]
            dropped.append(Unplanned(worst, "no room in any truck's shift"))
        else:  # a load the compartments or terminals cannot make (not seen: screening keeps them out)
            worst = seq[-1]
            dropped.append(Unplanned(worst, "no truck could take it"))
        seq = [sid for sid in seq if sid != worst]
    return None, dropped


def _route_cost(ctx: Context, route: Route) -> float:
    truck = ctx.trucks[route.truck_id]
    return route.miles * truck.cost_per_mile + route.hours * truck.cost_per_hour + truck.fixed_cost
