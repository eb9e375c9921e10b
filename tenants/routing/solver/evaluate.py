"""A truck's ordered stops -> its day: where it loads (which terminal, compartment by compartment),
when it arrives at each stop, the window slack, and what the order breaks (no solving).

`decode` is the one place a sequence of stops becomes a Route, for the dispatcher's drags
(`evaluate`) and for the solver's answer alike: it splits the sequence into loads by a dynamic
programme over the split points (a trip is a run of consecutive stops whose gallons fit the truck's
compartments exactly, loaded at a terminal having all of its products), minimising lateness first,
then the route's cost (miles x cost per mile and hours x cost per hour). The truck leaves its yard
as late as it can without arriving later anywhere (no waiting that on-duty time would count).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tenants.routing.solver import compartments as comp
from tenants.routing.solver.context import Context, build
from tenants.routing.solver.plan import Load, Plan, Route, Unplanned, Visit
from tenants.routing.solver.problem import Id, Problem, Stop, Terminal, Truck

FORCED_PENALTY = 1e9  # a load that breaks the compartments or the products: only when nothing else
MAX_LABELS = 12


@dataclass
class _Label:
    late: int
    cost: float
    time: int
    prev: _Label | None
    trip: tuple[int, int, Id, bool] | None  # (first, last, terminal id, forced)


def evaluate(problem: Problem, routes: Mapping[Id, Sequence[Id]], ctx: Context | None = None) -> Plan:
    """The plan these routes make (no solving). `ctx`: a `context.build(problem)` kept between drags
    (the distance matrix, OSRM's when configured, is then computed once)."""
    ctx = ctx if ctx is not None and ctx.problem is problem else build(problem)
    out: list[Route] = []
    placed: set[Id] = set()
    notes: list[str] = []
    for truck_id, stop_ids in routes.items():
        truck = ctx.trucks.get(truck_id)
        if truck is None:
            notes.append(f"truck {truck_id}: not available today, its stops are not on a route")
            continue
        if not stop_ids:
            continue
        route = decode(ctx, truck, stop_ids)
        placed.update(route.stop_ids)
        out.append(route)
    unplanned = [
        Unplanned(s.id, "optional: not on a route" if s.prize is not None else "not on a route")
        for s in problem.stops
        if s.id not in placed
    ]
    return totals(
        out, unplanned, solver="evaluate", elapsed_s=0.0, complete=True, problem=problem, notes=notes
    )


def totals(
    routes: list[Route],
    unplanned: list[Unplanned],
    *,
    solver: str,
    elapsed_s: float,
    complete: bool,
    problem: Problem,
    notes: list[str] | None = None,
) -> Plan:
    trucks = {t.id: t for t in problem.trucks}
    stops = {s.id: s for s in problem.stops}
    cost = sum(
        r.miles * trucks[r.truck_id].cost_per_mile
        + r.hours * trucks[r.truck_id].cost_per_hour
        + (trucks[r.truck_id].fixed_cost if r.stop_ids else 0.0)
        for r in routes
    )
    prizes = sum(stops[sid].prize or 0 for r in routes for sid in r.stop_ids if sid in stops)
    return Plan(
        routes=routes,
        unplanned=unplanned,
        cost=round(cost, 2),
        miles=round(sum(r.miles for r in routes), 2),
        hours=round(sum(r.hours for r in routes), 2),
        trucks_used=sum(1 for r in routes if r.stop_ids),
        late_stops=sum(1 for r in routes for v in r.visits if v.kind == "stop" and v.late_s > 0),
        solver=solver,
        elapsed_s=round(elapsed_s, 3),
        complete=complete,
        notes=list(notes or []),
        prizes=prizes,
        distance=sum(r.distance for r in routes),
    )


def _window(stop: Stop) -> tuple[int, int]:
    return stop.window if stop.window is not None else (0, 10**9)


def decode(ctx: Context, truck: Truck, stop_ids: Sequence[Id]) -> Route:
    violations: list[str] = []
    seq: list[Stop] = []
    for sid in stop_ids:
        stop = ctx.stops.get(sid)
        if stop is None:
            violations.append(f"stop {sid}: unknown")
        elif stop.location is None:
            violations.append(f"stop {sid}: no coordinates")
        else:
            seq.append(stop)
    violations += _static_violations(truck, seq)
    trips = _split(ctx, truck, seq)
    return _schedule(ctx, truck, seq, trips, violations)


def _static_violations(truck: Truck, seq: list[Stop]) -> list[str]:
    out = []
    if truck.driver_id is None:
        out.append(f"truck {truck.id}: no driver")
    for s in seq:
        missing = set(s.demand) - truck.products
        if missing:
            out.append(f"stop {s.id}: truck does not carry {', '.join(sorted(missing))}")
        if not s.skills <= truck.skills:
            out.append(f"stop {s.id}: truck lacks {', '.join(sorted(s.skills - truck.skills))}")
        if s.max_truck_gallons is not None and truck.gallons_total > s.max_truck_gallons:
            out.append(
                f"stop {s.id}: truck of {truck.gallons_total} gal over the site's {s.max_truck_gallons}"
            )
        if s.fixed_truck is not None and s.fixed_truck != truck.id:
            out.append(f"stop {s.id}: fixed to truck {s.fixed_truck} (in delivery)")
    return out


def _trip_demand(seq: list[Stop], i: int, j: int) -> dict[str, int]:
    demand: dict[str, int] = {}
    for s in seq[i : j + 1]:
        for p, g in s.demand.items():
            demand[p] = demand.get(p, 0) + g
    return demand


def _best_terminal(ctx: Context, frm: int, to: int, products: set[str]) -> tuple[Terminal | None, bool]:
    """The terminal with all `products` on the shortest way frm -> terminal -> to; (nearest, True)
    when none has them all (a forced load, marked as a violation)."""
    return ctx.best_terminal(frm, to, frozenset(products))


def _split(ctx: Context, truck: Truck, seq: list[Stop]) -> list[tuple[int, int, Id | None, bool]]:
    n = len(seq)
    if n == 0:
        return []
    dist_l, dur_l = ctx.lists()
    per_m = truck.cost_per_mile / ctx.units_per_mile
    load_s = ctx.problem.settings.terminal_service_s
    yard = ctx.at(truck.start)
    locs = [ctx.at(s.location) for s in seq if s.location is not None]
    windows = [_window(s) for s in seq]
    service = [s.service_s for s in seq]
    gals = [s.gallons for s in seq]
    start = _Label(late=0, cost=0.0, time=truck.shift[0], prev=None, trip=None)
    labels: list[list[_Label]] = [[] for _ in range(n)]
    capacity = truck.gallons_total
    for i in range(n):
        sources = [start] if i == 0 else labels[i - 1]
        if not sources:
            continue
        frm = yard if i == 0 else locs[i - 1]
        gallons = 0
        demand: dict[str, int] = {}
        # Per terminal: each source's trip so far (metres, time, lateness) up to stop j.
        runs: dict[Id | None, tuple[int, list[list[int]]]] = {}
        for j in range(i, n):
            gallons += gals[j]
            if gallons > capacity and j > i:
                break
            for p, g in seq[j].demand.items():
                demand[p] = demand.get(p, 0) + g
            fits = comp.fits(truck.compartments, demand)
            if not fits and j > i:
                break  # more gallons never fit better
            terminal, forced = ctx.best_terminal(frm, locs[i], frozenset(demand))
            forced = forced or not fits
            if forced and j > i:
                break  # more products never find a terminal having them all
            if terminal is None:
                t_at = frm
                tid: Id | None = None
            else:
                t_at = ctx.at(terminal.location)
                tid = terminal.id
            run = runs.get(tid)
            if run is None:
                # Every source's trip from frm through this terminal, up to stop j - 1.
                states = []
                for src in sources:
                    d = dist_l[frm][t_at]
                    t = src.time + dur_l[frm][t_at] + (load_s if tid is not None else 0)
                    states.append([d, t, src.late, t_at])
                run = (i, states)
            upto, states = run
            for k in range(upto, j + 1):
                loc = locs[k]
                lo, hi = windows[k]
                svc = service[k]
                for st in states:
                    st[0] += dist_l[st[3]][loc]
                    t = st[1] + dur_l[st[3]][loc]
                    if t > hi:
                        st[2] += t - hi
                    st[1] = (t if t > lo else lo) + svc
                    st[3] = loc
            runs[tid] = (j + 1, states)
            trip = (i, j, tid if tid is not None else "", forced)
            penalty = FORCED_PENALTY if forced else 0.0
            for src, st in zip(sources, states, strict=True):
                _push(labels[j], _Label(st[2], src.cost + st[0] * per_m + penalty, st[1], src, trip))
    # The way home closes the last label; pick the least late, then the cheapest (hours included).
    home = ctx.at(truck.end)
    per_s = truck.cost_per_hour / 3600.0

    def final(lab: _Label) -> tuple[int, float]:
        end = lab.time + dur_l[locs[-1]][home]
        return (lab.late, lab.cost + dist_l[locs[-1]][home] * per_m + (end - truck.shift[0]) * per_s)

    best = min(labels[n - 1], key=final)
    trips: list[tuple[int, int, Id | None, bool]] = []
    lab: _Label | None = best
    while lab is not None and lab.trip is not None:
        i, j, tid, forced = lab.trip
        trips.append((i, j, tid if tid != "" else None, forced))
        lab = lab.prev
    trips.reverse()
    return trips


def _push(bucket: list[_Label], new: _Label) -> None:
    for old in bucket:
        if old.late <= new.late and old.cost <= new.cost and old.time <= new.time:
            return
    bucket[:] = [o for o in bucket if not (new.late <= o.late and new.cost <= o.cost and new.time <= o.time)]
    bucket.append(new)
    if len(bucket) > MAX_LABELS:
        bucket.sort(key=lambda lab: (lab.late, lab.cost, lab.time))
        del bucket[MAX_LABELS:]


def _schedule(
    ctx: Context,
    truck: Truck,
    seq: list[Stop],
    trips: list[tuple[int, int, Id | None, bool]],
    violations: list[str],
) -> Route:
    loads: list[Load] = []
    for i, j, tid, forced in trips:
        demand = _trip_demand(seq, i, j)
        slots = comp.assign(truck.compartments, demand)
        if slots is None:
            slots = _greedy_slots(truck.compartments, demand)
            violations.append(
                f"stop {seq[i].id}: {sum(demand.values())} gal do not fit the truck's compartments"
            )
        elif forced:
            violations.append(f"stop {seq[i].id}: no terminal has {', '.join(sorted(demand))}")
        loads.append(Load(terminal_id=tid if tid is not None else "", compartments=slots))

    def run(depart: int) -> tuple[list[Visit], int, list[int], list[int]]:
        visits = [Visit("start", truck.id, depart, depart)]
        here, time, waited = ctx.at(truck.start), depart, 0
        waits_before: list[int] = []
        slacks: list[int] = []
        for (i, j, tid, _), _load in zip(trips, loads, strict=True):
            if tid is not None:
                t_at = ctx.at(ctx.terminals[tid].location)
                time += int(ctx.dur[here, t_at])
                visits.append(Visit("reload", tid, time, time + ctx.problem.settings.terminal_service_s))
                time += ctx.problem.settings.terminal_service_s
                here = t_at
            for k in range(i, j + 1):
                s = seq[k]
                at = ctx.at(s.location)  # type: ignore[arg-type]
                time += int(ctx.dur[here, at])
                lo, hi = _window(s)
                waits_before.append(waited)
                slacks.append(hi - time)
                wait = max(0, lo - time)
                waited += wait
                late = max(0, time - hi)
                visits.append(
                    Visit(
                        "stop",
                        s.id,
                        time,
                        time + wait + s.service_s,
                        window_slack_s=max(0, hi - time) if s.window is not None else None,
                        late_s=late,
                    )
                )
                time += wait + s.service_s
                here = at
        home = ctx.at(truck.end)
        time += int(ctx.dur[here, home])
        visits.append(Visit("end", truck.id, time, time))
        waits_before.append(waited)
        return visits, time, waits_before, slacks

    visits, _end, waits, slacks = run(truck.shift[0])
    # Leave later by as much as the waiting allows without arriving later than a window's end.
    delay = waits[-1]
    for w, slack in zip(waits, slacks, strict=False):
        delay = min(delay, w + max(0, slack))
    if delay > 0:
        visits, _end, waits, slacks = run(truck.shift[0] + delay)

    dist = 0
    prev = None
    for v in visits:
        at = _visit_point(ctx, truck, v)
        if prev is not None:
            dist += int(ctx.dist[prev, at])
        prev = at
    start_s, end_s = visits[0].departure_s, visits[-1].arrival_s
    for v in visits:
        if v.kind == "stop" and v.late_s > 0:
            violations.append(f"stop {v.ref}: {round(v.late_s / 60)} min after its window")
    if end_s > truck.shift[1]:
        violations.append(
            f"truck {truck.id}: back {round((end_s - truck.shift[1]) / 60)} min after the shift's end"
        )
    if end_s - start_s > truck.max_duty_s:
        violations.append(
            f"truck {truck.id}: {round((end_s - start_s) / 3600, 1)} h on duty"
            f" over {round(truck.max_duty_s / 3600, 1)} h"
        )
    delivered = sum(s.gallons for s in seq)
    capacity = truck.gallons_total * max(1, len(loads))
    return Route(
        truck_id=truck.id,
        driver_id=truck.driver_id,
        visits=visits,
        loads=loads,
        miles=round(dist / ctx.units_per_mile, 2),
        hours=round((end_s - start_s) / 3600, 2),
        utilization=round(delivered / capacity, 4) if capacity else 0.0,
        violations=violations,
        distance=dist,
    )


def _visit_point(ctx: Context, truck: Truck, v: Visit) -> int:
    if v.kind == "start":
        return ctx.at(truck.start)
    if v.kind == "end":
        return ctx.at(truck.end)
    if v.kind == "reload":
        return ctx.at(ctx.terminals[v.ref].location)
    loc = ctx.stops[v.ref].location
    assert loc is not None
    return ctx.at(loc)


def _greedy_slots(compartments: tuple[int, ...], demand: Mapping[str, int]) -> tuple[comp.Slot, ...]:
    """What a truck would carry of a load that does not fit (the violation says so): biggest product
    first into the biggest free compartments, up to their capacity."""
    free = sorted(range(len(compartments)), key=lambda i: -compartments[i])
    slots = []
    for product, gallons in sorted(demand.items(), key=lambda kv: -kv[1]):
        left = gallons
        while left > 0 and free:
            i = free.pop(0)
            g = min(left, compartments[i])
            slots.append((i, product, g))
            left -= g
    return tuple(sorted(slots))
