"""An independent check of a plan against its problem: every rule a dispatcher relies on, computed
again from the problem's data without the solver's code (only the distance matrix is shared).
Answers the list of what is wrong (empty: the plan holds)."""

from __future__ import annotations

from collections import Counter

from tenants.routing.solver import distances
from tenants.routing.solver.plan import Plan
from tenants.routing.solver.problem import Id, Location, Problem

TOLERANCE_S = 1


def check(problem: Problem, plan: Plan) -> list[str]:
    errors: list[str] = []
    stops = {s.id: s for s in problem.stops}
    trucks = {t.id: t for t in problem.trucks}
    terminals = {t.id: t for t in problem.terminals}
    points: list[Location] = []
    where: dict[Location, int] = {}
    for loc in (
        [t.start for t in problem.trucks]
        + [t.end for t in problem.trucks]
        + [t.location for t in problem.terminals]
        + [s.location for s in problem.stops if s.location is not None]
    ):
        if loc not in where:
            where[loc] = len(points)
            points.append(loc)
    _dist, dur = distances.matrix(points, problem.settings)

    seen: Counter[Id] = Counter()
    for route in plan.routes:
        truck = trucks.get(route.truck_id)
        if truck is None:
            errors.append(f"route of unknown truck {route.truck_id}")
            continue
        tag = f"truck {truck.id}"
        if truck.driver_id is None:
            errors.append(f"{tag}: planned without a driver")
        visits = route.visits
        if len(visits) < 2 or visits[0].kind != "start" or visits[-1].kind != "end":
            errors.append(f"{tag}: a route starts at the yard and ends at the yard")
            continue
        if visits[1].kind != "reload" and any(v.kind == "stop" for v in visits):
            errors.append(f"{tag}: leaves the yard without loading")
        start, end = visits[0].departure_s, visits[-1].arrival_s
        if start < truck.shift[0] - TOLERANCE_S:
            errors.append(f"{tag}: starts before the shift")
        if end > truck.shift[1] + TOLERANCE_S:
            errors.append(f"{tag}: ends after the shift ({end} > {truck.shift[1]})")
        if end - start > truck.max_duty_s + TOLERANCE_S:
            errors.append(f"{tag}: {end - start} s on duty over the limit {truck.max_duty_s} s")
        reloads = [v for v in visits if v.kind == "reload"]
        if len(reloads) != len(route.loads):
            errors.append(f"{tag}: {len(reloads)} terminal visits but {len(route.loads)} loads")
            continue
        # Times: each arrival after the previous departure plus the drive; service inside the window.
        prev_at = where[truck.start]
        prev_dep = start
        trip = -1
        carried: list[dict[str, int]] = []
        for v in visits[1:]:
            if v.kind == "stop":
                stop = stops.get(v.ref)
                if stop is None or stop.location is None:
                    errors.append(f"{tag}: visits unknown stop {v.ref}")
                    continue
                at = where[stop.location]
            elif v.kind == "reload":
                term = terminals.get(v.ref)
                if term is None:
                    errors.append(f"{tag}: loads at unknown terminal {v.ref}")
                    continue
                at = where[term.location]
            elif v.kind == "end":
                at = where[truck.end]
            else:
                errors.append(f"{tag}: a second start")
                continue
            if v.arrival_s + TOLERANCE_S < prev_dep + int(dur[prev_at, at]):
                errors.append(f"{tag}: arrives at {v.kind} {v.ref} faster than the drive allows")
            if v.kind == "stop":
                stop = stops[v.ref]
                seen[stop.id] += 1
                begin = v.departure_s - stop.service_s
                if begin + TOLERANCE_S < v.arrival_s:
                    errors.append(f"{tag}: leaves stop {stop.id} before its service is done")
                if stop.window is not None:
                    if begin + TOLERANCE_S < stop.window[0]:
                        errors.append(f"{tag}: serves stop {stop.id} before its window")
                    if v.arrival_s > stop.window[1] + TOLERANCE_S:
                        errors.append(
                            f"stop {stop.id}: arrives after its window ({v.arrival_s} > {stop.window[1]})"
                        )
                if trip < 0:
                    errors.append(f"{tag}: delivers stop {stop.id} before any load")
                else:
                    for p, g in stop.demand.items():
                        carried[trip][p] = carried[trip].get(p, 0) - g
                if not set(stop.demand) <= truck.products:
                    errors.append(f"{tag}: stop {stop.id} wants a product the truck does not carry")
                if not stop.skills <= truck.skills:
                    errors.append(f"{tag}: lacks a skill stop {stop.id} needs")
                if stop.max_truck_gallons is not None and truck.gallons_total > stop.max_truck_gallons:
                    errors.append(f"{tag}: too big for stop {stop.id} (max {stop.max_truck_gallons} gal)")
                if stop.fixed_truck is not None and stop.fixed_truck != truck.id:
                    errors.append(f"stop {stop.id}: fixed to truck {stop.fixed_truck}, planned on {truck.id}")
            elif v.kind == "reload":
                if v.departure_s - v.arrival_s + TOLERANCE_S < problem.settings.terminal_service_s:
                    errors.append(f"{tag}: loads at {v.ref} faster than the terminal allows")
                trip += 1
                load = route.loads[trip]
                if load.terminal_id != v.ref:
                    errors.append(f"{tag}: load {trip + 1} is from {load.terminal_id}, the visit is {v.ref}")
                term = terminals[v.ref]
                used: Counter[int] = Counter()
                amounts: dict[str, int] = {}
                for index, product, gallons in load.compartments:
                    used[index] += 1
                    if not 0 <= index < len(truck.compartments):
                        errors.append(f"{tag}: load {trip + 1} uses compartment {index} it does not have")
                        continue
                    if gallons > truck.compartments[index]:
                        errors.append(
                            f"{tag}: load {trip + 1} puts {gallons} gal in compartment {index} "
                            f"of {truck.compartments[index]}"
                        )
                    if gallons < 0:
                        errors.append(f"{tag}: load {trip + 1} has negative gallons")
                    if product not in term.products:
                        errors.append(f"{tag}: loads {product} at {term.id}, which does not have it")
                    if product not in truck.products:
                        errors.append(f"{tag}: loads {product}, which the truck does not carry")
                    amounts[product] = amounts.get(product, 0) + gallons
                for index, n in used.items():
                    if n > 1:
                        errors.append(f"{tag}: load {trip + 1} puts {n} products in compartment {index}")
                carried.append(amounts)
            prev_at, prev_dep = at, v.departure_s
        for k, rest in enumerate(carried):
            for p, g in rest.items():
                if g != 0:
                    errors.append(f"{tag}: load {k + 1} carries {g:+d} gal of {p} beyond what its stops take")
        if route.driver_id != truck.driver_id:
            errors.append(f"{tag}: driver {route.driver_id} is not the truck's driver {truck.driver_id}")

    unplanned = Counter(u.stop_id for u in plan.unplanned)
    for stop in problem.stops:
        n = seen[stop.id] + unplanned[stop.id]
        if n == 0:
            errors.append(f"stop {stop.id}: neither planned nor unplanned")
        elif seen[stop.id] > 1:
            errors.append(f"stop {stop.id}: planned {seen[stop.id]} times")
        elif n > 1:
            errors.append(f"stop {stop.id}: both planned and unplanned")
    for u in plan.unplanned:
        if not u.reason:
            errors.append(f"stop {u.stop_id}: unplanned without a reason")
        if u.stop_id not in stops:
            errors.append(f"unplanned unknown stop {u.stop_id}")
    return errors
