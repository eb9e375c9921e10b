"""The solver without a database: a small day solved and checked, evaluate's ETAs by hand, the
exact compartment loading, and the checker flagging each kind of broken plan."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from datetime import date

import pytest

from tenants.routing.solver import compartments
from tenants.routing.solver.checker import check
from tenants.routing.solver.evaluate import evaluate
from tenants.routing.solver.plan import Plan
from tenants.routing.solver.problem import Location, Problem, Settings, Stop, Terminal, Truck
from tenants.routing.solver.solve import solve

DAY = date(2026, 12, 7)
H = 3600


def small_day(seed: int = 3, n: int = 25) -> Problem:
    rng = random.Random(seed)

    def loc() -> Location:
        return Location(40 + rng.random() * 0.5, -75 + rng.random() * 0.5)

    yard = Location(40.25, -74.75)
    terminals = [
        Terminal("T1", loc(), frozenset({"ULSD", "REG"})),
        Terminal("T2", loc(), frozenset({"ULSD", "REG", "PREM"})),
    ]
    stops = [
        Stop(
            f"s{i}",
            loc(),
            {rng.choice(["ULSD", "REG", "PREM"]): rng.choice([500, 1000, 1500, 2500])},
            window=(8 * H, 12 * H) if i % 3 == 0 else None,
            service_s=1200,
        )
        for i in range(n)
    ]
    trucks = [
        Truck(
            f"t{i}",
            (3000, 2000, 2000, 1000),
            frozenset({"ULSD", "REG", "PREM"}),
            yard,
            yard,
            (6 * H, 18 * H),
            driver_id=i,
        )
        for i in range(4)
    ]
    return Problem(DAY, stops, trucks, terminals)


@pytest.fixture(scope="module")
def solved() -> tuple[Problem, Plan]:
    problem = small_day()
    return problem, solve(problem, 1.0)


def test_a_small_day_is_planned_whole_and_passes_the_checker(solved: tuple[Problem, Plan]) -> None:
    problem, plan = solved
    assert plan.unplanned == []
    assert sorted(sid for r in plan.routes for sid in r.stop_ids) == sorted(s.id for s in problem.stops)
    assert check(problem, plan) == []
    assert plan.late_stops == 0 and plan.complete
    assert plan.trucks_used == len(plan.routes) <= 4
    # Each load: one product per compartment, within its capacity, and the trip's gallons exactly.
    for route in plan.routes:
        for load in route.loads:
            indexes = [i for i, _, _ in load.compartments]
            assert len(indexes) == len(set(indexes))
            assert all(g <= (3000, 2000, 2000, 1000)[i] for i, _, g in load.compartments)
    assert plan.miles == pytest.approx(sum(r.miles for r in plan.routes), abs=0.05)


def test_progress_is_reported_and_a_stop_keeps_the_best_plan_so_far() -> None:
    problem = small_day(seed=5)
    seen: list[tuple[float, int]] = []
    calls = {"n": 0}

    def stop_now() -> bool:
        calls["n"] += 1
        return calls["n"] >= 2

    plan = solve(problem, 30.0, on_progress=lambda f, c: seen.append((f, c)), should_stop=stop_now)
    assert plan.elapsed_s < 5  # stopped long before the 30 s budget
    assert not plan.complete
    assert seen and seen[-1][0] == 1.0 and seen[-1][1] > 0
    assert check(problem, plan) == []


# --- evaluate: the ETAs of a 3-stop route by hand (planar metric: 1 unit = 1 metre = 1 second) ---


def planar_problem() -> Problem:
    settings = Settings(metric="euclidean", terminal_service_s=600)
    yard = Location(0, 0)
    terminal = Terminal("T", Location(0, 1000), frozenset({"ULSD", "REG"}))
    stops = [
        Stop("a", Location(3000, 1000), {"ULSD": 2000}, window=None, service_s=300),
        Stop("b", Location(3000, 5000), {"REG": 1500}, window=(9000, 9500), service_s=200),
        Stop("c", Location(0, 5000), {"ULSD": 1000}, window=(0, 10_000), service_s=100),
    ]
    truck = Truck(
        "k", (3000, 1500, 1000), frozenset({"ULSD", "REG"}), yard, yard, (1000, 40_000), driver_id=7
    )
    return Problem(DAY, stops, [truck], [terminal], settings)


def test_evaluate_gives_the_etas_slack_and_loads_worked_out_by_hand() -> None:
    problem = planar_problem()
    plan = evaluate(problem, {"k": ["a", "b", "c"]})
    (route,) = plan.routes
    # One load (4500 gal fit 3000+1500+1000 as ULSD 3000 / REG 1500 / ULSD ... : see below).
    # Drive: yard -> T 1000 s, load 600 s, T -> a 3000, a -> b 4000, b -> c 3000, c -> yard 5000.
    # Without waiting: leave 1000, T 2000-2600, a 5600-5900, b 9900 > 9500: the truck must leave
    # earlier? It cannot (shift starts at 1000): b is 400 s late.
    kinds = [(v.kind, v.ref, v.arrival_s, v.departure_s) for v in route.visits]
    assert kinds == [
        ("start", "k", 1000, 1000),
        ("reload", "T", 2000, 2600),
        ("stop", "a", 5600, 5900),
        ("stop", "b", 9900, 10100),
        ("stop", "c", 13100, 13200),
        ("end", "k", 18200, 18200),
    ]
    b = route.visits[3]
    assert b.late_s == 400 and b.window_slack_s == 0
    assert route.visits[4].late_s == 3100
    assert route.visits[2].window_slack_s is None
    assert any("stop b: 7 min after its window" in v for v in route.violations)
    assert route.distance == 1000 + 3000 + 4000 + 3000 + 5000
    assert route.hours == pytest.approx((18200 - 1000) / 3600, abs=0.01)
    assert plan.late_stops == 2
    (load,) = route.loads
    got: dict[str, int] = {}
    for _, product, gallons in load.compartments:
        got[product] = got.get(product, 0) + gallons
    assert got == {"ULSD": 3000, "REG": 1500}
    # The checker sees the same two late stops.
    assert sorted(e for e in check(problem, plan) if "after its window" in e) == [
        "stop b: arrives after its window (9900 > 9500)",
        "stop c: arrives after its window (13100 > 10000)",
    ]


def test_evaluate_waits_at_the_yard_not_at_a_window() -> None:
    problem = planar_problem()
    plan = evaluate(problem, {"k": ["b"]})
    (route,) = plan.routes
    # yard -> T (1000) + 600 + T -> b (sqrt(3000^2 + 4000^2) = 5000): 6600 s from leaving; the window
    # opens at 9000, so the truck leaves the yard at 2400 and arrives at 9000 with 500 s of slack.
    assert [(v.kind, v.arrival_s) for v in route.visits[:3]] == [
        ("start", 2400),
        ("reload", 3400),
        ("stop", 9000),
    ]
    assert route.visits[2].window_slack_s == 500
    assert route.violations == []


def test_evaluate_splits_a_sequence_into_loads_when_the_compartments_do_not_fit() -> None:
    problem = planar_problem()
    all3 = frozenset({"ULSD", "REG", "PREM"})
    problem.terminals[0] = replace(problem.terminals[0], products=all3)
    problem.trucks[0] = replace(problem.trucks[0], products=all3)
    problem.stops[2] = replace(problem.stops[2], demand={"ULSD": 1100}, window=None)
    problem.stops[1] = replace(problem.stops[1], window=None)
    problem.stops.append(Stop("d", Location(100, 100), {"PREM": 100}, service_s=100))
    # 4700 gal in 5500 of compartments, but ULSD 3100 needs two of the three, and REG and PREM one each.
    assert compartments.assign((3000, 1500, 1000), {"ULSD": 3100, "REG": 1500, "PREM": 100}) is None
    plan = evaluate(problem, {"k": ["a", "b", "c", "d"]})
    (route,) = plan.routes
    assert len(route.loads) == 2
    assert [v.kind for v in route.visits].count("reload") == 2
    assert route.violations == []
    assert check(problem, plan) == []


# --- compartments ---


def test_compartments_one_product_each_within_capacity() -> None:
    slots = compartments.assign((3000, 2000, 2000, 1000), {"ULSD": 3500, "REG": 2500})
    assert slots is not None
    assert (
        sum(g for _, p, g in slots if p == "ULSD") == 3500
        and sum(g for _, p, g in slots if p == "REG") == 2500
    )
    assert len({i for i, _, _ in slots}) == len(slots)
    # 7000 gal in 8000 of compartments but three products need at least 3000+2000+2000 for ... no:
    assert compartments.assign((3000, 2000, 2000, 1000), {"A": 3500, "B": 2500, "C": 1500}) is None
    # Three products, two compartments: no sharing fits, whatever the total.
    assert compartments.assign((3000, 3000), {"A": 100, "B": 100, "C": 100}) is None
    assert compartments.assign((3000, 3000), {"A": 3000}) == ((0, "A", 3000),)


# --- the checker catches each kind of violation in a broken plan ---


def broken(plan: Plan) -> Plan:
    return copy.deepcopy(plan)


def test_checker_flags_each_kind_of_violation(solved: tuple[Problem, Plan]) -> None:
    problem, plan = solved
    assert check(problem, plan) == []
    route = next(r for r in plan.routes if len(r.loads) >= 1)
    ri = plan.routes.index(route)

    # Two products in one compartment.
    p = broken(plan)
    load = p.routes[ri].loads[0]
    i, prod, _ = load.compartments[0]
    other = "REG" if prod != "REG" else "ULSD"
    load.compartments = (*load.compartments, (i, other, 0))
    assert any("2 products in compartment" in e for e in check(problem, p))

    # Over a compartment's capacity.
    p = broken(plan)
    load = p.routes[ri].loads[0]
    i, prod, _ = load.compartments[0]
    load.compartments = ((i, prod, 5000), *load.compartments[1:])
    errs = check(problem, p)
    assert any("5000 gal in compartment" in e for e in errs)
    assert any("beyond what its stops take" in e for e in errs)  # and the demand no longer matches

    # A window missed (the arrival moved after the window's end).
    p = broken(plan)
    windowed = next(
        (ri2, vi)
        for ri2, r in enumerate(p.routes)
        for vi, v in enumerate(r.visits)
        if v.kind == "stop" and problem.stops[[s.id for s in problem.stops].index(v.ref)].window
    )
    v = p.routes[windowed[0]].visits[windowed[1]]
    v.arrival_s = 13 * H
    v.departure_s = 13 * H + 1200
    assert any(f"stop {v.ref}: arrives after its window" in e for e in check(problem, p))

    # Past the shift's end and over the duty limit.
    p = broken(plan)
    p.routes[ri].visits[-1].arrival_s = 19 * H
    errs = check(problem, p)
    assert any("ends after the shift" in e for e in errs)
    p.routes[ri].visits[0].departure_s = 4 * H
    assert any("starts before the shift" in e for e in check(problem, p))

    # A stop dropped, a stop twice.
    p = broken(plan)
    gone = p.routes[ri].visits.pop(2)
    assert any(f"stop {gone.ref}: neither planned nor unplanned" in e for e in check(problem, p))
    p = broken(plan)
    p.routes[ri].visits.insert(2, copy.deepcopy(p.routes[ri].visits[2]))
    assert any("planned 2 times" in e for e in check(problem, p))

    # A load from a terminal not having the product.
    p = broken(plan)
    for r in p.routes:
        for lv, ld in zip([v for v in r.visits if v.kind == "reload"], r.loads, strict=True):
            if any(prod == "PREM" for _, prod, _ in ld.compartments):
                lv.ref = ld.terminal_id = "T1"
                break
    assert any("at T1, which does not have it" in e for e in check(problem, p))

    # Skills, truck size and products of a stop the truck cannot serve.
    prob2 = copy.deepcopy(problem)
    first = plan.routes[ri].stop_ids[0]
    k = [s.id for s in prob2.stops].index(first)
    prob2.stops[k] = Stop(
        first,
        prob2.stops[k].location,
        prob2.stops[k].demand,
        prob2.stops[k].window,
        prob2.stops[k].service_s,
        max_truck_gallons=5000,
        skills=frozenset({"hose-150ft"}),
    )
    errs = check(prob2, plan)
    assert any("lacks a skill" in e for e in errs) and any("too big for stop" in e for e in errs)

    # Faster than the drive allows.
    p = broken(plan)
    v = p.routes[ri].visits[2]
    v.arrival_s -= 3600
    assert any("faster than the drive allows" in e for e in check(problem, p))


# --- bad input: a reason per stop, never an exception ---


def test_bad_input_gets_a_reason_per_stop_not_an_exception() -> None:
    problem = small_day(n=8)
    base = problem.stops[0]
    problem.stops += [
        Stop("nowhere", None, {"ULSD": 500}),
        Stop("huge", base.location, {"ULSD": 9000}),
        Stop("kero", base.location, {"KERO": 500}),
        Stop("on-idle", base.location, {"ULSD": 500}, fixed_truck="idle"),
        Stop("skill", base.location, {"ULSD": 500}, skills=frozenset({"hose-150ft"})),
        Stop("tiny-site", base.location, {"ULSD": 500}, max_truck_gallons=4000),
        Stop("midnight", base.location, {"ULSD": 500}, window=(0, 60)),
        Stop("late-delivery", base.location, {"ULSD": 500}, window=(0, 60), fixed_truck=problem.trucks[0].id),
        # ~1,000 miles from the yards: no 12 h shift gets there and back.
        Stop("far", Location(base.location.lat + 14, base.location.lng), {"ULSD": 500}),
    ]
    problem.trucks.append(
        Truck(
            "idle",
            (3000, 3000),
            frozenset({"ULSD"}),
            base.location,
            base.location,
            (6 * H, 18 * H),
            driver_id=None,
        )
    )
    plan = solve(problem, 0.5)
    reasons = {u.stop_id: u.reason for u in plan.unplanned}
    assert reasons == {
        "nowhere": "no coordinates for the ship-to",
        "huge": "9000 gal bigger than any truck's compartments",
        "kero": "no terminal has KERO",
        "on-idle": "fixed to truck idle, which has no driver",
        "skill": "no truck has hose-150ft",
        "tiny-site": "no truck small enough for the site (at most 4000 gal)",
        "midnight": "window unreachable within any driver's shift",
        "late-delivery": "in delivery: its truck's shift cannot reach it from the yard, so it is left where "
        "it is, outside the plan",
        "far": "too far: no driver's shift can go there (by a terminal) and back to the yard",
    }
    assert "truck idle: no driver, not used" in plan.notes
    assert check(problem, plan) == []


def test_evaluate_names_an_unknown_truck_and_the_stops_left_off() -> None:
    problem = planar_problem()
    plan = evaluate(problem, {"k": ["a"], "ghost": ["b"]})
    assert [r.truck_id for r in plan.routes] == ["k"]
    assert plan.notes == ["truck ghost: not available today, its stops are not on a route"]
    assert {(u.stop_id, u.reason) for u in plan.unplanned} == {
        ("b", "not on a route"),
        ("c", "not on a route"),
    }


def test_a_stop_in_delivery_gets_its_truck_back_when_that_route_has_no_room_for_it() -> None:
    """PyVRP's best, infeasible when its time ran out, may leave a stop in delivery elsewhere; when
    its truck's route has no room at the stop's fixed place, the truck keeps its stops in delivery
    and its other stops go to other trucks (before: the order was left unplanned)."""
    from tenants.routing.solver.context import build
    from tenants.routing.solver.evaluate import decode
    from tenants.routing.solver.plan import Unplanned
    from tenants.routing.solver.screening import screen
    from tenants.routing.solver.solve import _make_room

    base = small_day()
    fixed = replace(base.stops[0], window=None, fixed_truck="t0", fixed_position=0)
    short = replace(base.trucks[0], shift=(6 * H, 11 * H))
    problem = replace(base, stops=[fixed, *base.stops[1:]], trucks=[short, *base.trucks[1:]])
    ctx = build(problem)
    eligible = {s.id: screen(ctx, s, problem.trucks)[1] for s in problem.stops}
    others = [s.id for s in problem.stops[1:] if s.window is None]
    # The longest run of t0's stops that fits its shift without the stop in delivery but not with it.
    full = None
    for k in range(1, len(others)):
        if decode(ctx, short, others[:k]).violations:
            break
        if decode(ctx, short, [fixed.id, *others[:k]]).violations:
            full = others[:k]
    assert full is not None
    routes = [decode(ctx, short, full)]
    idle = list(problem.trucks[1:])
    left = _make_room(ctx, routes, [Unplanned(fixed.id, "no truck could take it")], eligible, idle)
    assert left == []
    on = {sid: r.truck_id for r in routes for sid in r.stop_ids}
    assert on[fixed.id] == "t0"
    assert all(sid in on for sid in full)
    assert all(not r.violations for r in routes)
