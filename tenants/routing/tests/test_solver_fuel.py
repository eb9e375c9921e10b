"""The fuel rules of the planner on small days solved in well under a second each: optional
top-ups taken when they pay, stops in delivery kept on their truck and place, skills and site size,
loads from a terminal having the products, the on-duty limit; the baseline and the generated day."""

from __future__ import annotations

from datetime import date

from tenants.routing.solver.baseline import nearest_neighbour
from tenants.routing.solver.checker import check
from tenants.routing.solver.daygen import day
from tenants.routing.solver.problem import Location, Problem, Settings, Stop, Terminal, Truck
from tenants.routing.solver.solve import solve

H = 3600
ALL = frozenset({"ULSD", "REG", "PREM"})


def planar(
    stops: list[Stop], trucks: list[Truck] | None = None, terminals: list[Terminal] | None = None
) -> Problem:
    """Planar metres (1 unit = 1 m = 1 s of driving): distances and times are easy to reason about."""
    yard = Location(0, 0)
    trucks = trucks or [
        Truck("big", (4000, 3000, 3000), ALL, yard, yard, (6 * H, 18 * H), driver_id=1),
        Truck(
            "small", (1500, 1500), ALL, yard, yard, (6 * H, 18 * H), driver_id=2, skills=frozenset({"hose"})
        ),
    ]
    terminals = terminals or [Terminal("T", Location(0, 500), ALL)]
    return Problem(
        date(2026, 12, 7), stops, trucks, terminals, Settings(metric="euclidean", terminal_service_s=600)
    )


def route_of(plan, stop_id):
    return next(r for r in plan.routes if stop_id in r.stop_ids)


def test_an_optional_top_up_on_the_way_is_taken_a_far_one_is_not() -> None:
    stops = [
        Stop("a", Location(5000, 0), {"ULSD": 1000}, service_s=300),
        Stop("b", Location(5000, 2000), {"ULSD": 1000}, service_s=300),
        Stop("near", Location(5100, 1000), {"ULSD": 500}, service_s=300, prize=5000),  # $50, a 200 m detour
        Stop("far", Location(12_000, 12_000), {"ULSD": 500}, service_s=300, prize=100),  # $1, far away
    ]
    plan = solve(planar(stops), 0.5)
    served = {sid for r in plan.routes for sid in r.stop_ids}
    assert {"a", "b", "near"} <= served and "far" not in served
    assert [(u.stop_id, u.reason) for u in plan.unplanned] == [("far", "optional: not worth the detour")]
    assert plan.prizes == 5000
    assert check(planar(stops), plan) == []


def test_a_stop_in_delivery_stays_on_its_truck_in_its_place() -> None:
    stops = [Stop(f"s{i}", Location(1000 * i, 3000), {"REG": 500}, service_s=300) for i in range(1, 6)]
    stops.append(
        Stop(
            "moving", Location(9000, 9000), {"REG": 500}, service_s=300, fixed_truck="small", fixed_position=0
        )
    )
    problem = planar(stops)
    plan = solve(problem, 0.5)
    route = route_of(plan, "moving")
    assert route.truck_id == "small" and route.stop_ids[0] == "moving"
    assert check(problem, plan) == []


def test_skills_and_the_sites_max_truck_size_choose_the_truck() -> None:
    stops = [
        Stop("hose", Location(3000, 0), {"ULSD": 800}, service_s=300, skills=frozenset({"hose"})),
        Stop("narrow-lane", Location(0, 3000), {"ULSD": 800}, service_s=300, max_truck_gallons=5000),
        Stop("plain", Location(3000, 3000), {"ULSD": 6000}, service_s=300),  # only the big one holds it
    ]
    problem = planar(stops)
    plan = solve(problem, 0.5)
    assert route_of(plan, "hose").truck_id == "small"
    assert route_of(plan, "narrow-lane").truck_id == "small"
    assert route_of(plan, "plain").truck_id == "big"
    assert check(problem, plan) == []


def test_each_load_comes_from_a_terminal_having_its_products_and_the_truck_reloads() -> None:
    terminals = [
        Terminal("near-no-prem", Location(0, 500), frozenset({"ULSD", "REG"})),
        Terminal("far-all", Location(0, -8000), ALL),
    ]
    stops = [Stop(f"u{i}", Location(2000 * i, 1000), {"ULSD": 2000}, service_s=300) for i in range(1, 5)]
    stops.append(Stop("p", Location(4000, -4000), {"PREM": 1000}, service_s=300))
    trucks = [Truck("k", (3000, 3000), ALL, Location(0, 0), Location(0, 0), (5 * H, 20 * H), driver_id=1)]
    problem = planar(stops, trucks, terminals)
    plan = solve(problem, 0.5)
    (route,) = plan.routes
    assert plan.unplanned == []
    assert len(route.loads) >= 2  # 9,000 gal on a 6,000 gal truck
    for load in route.loads:
        products = {p for _, p, _ in load.compartments}
        if "PREM" in products:
            assert load.terminal_id == "far-all"
    assert check(problem, plan) == []


def test_the_on_duty_limit_leaves_out_what_does_not_fit_with_a_reason() -> None:
    stops = [Stop(f"s{i}", Location(2000 * i, 0), {"ULSD": 500}, service_s=1800) for i in range(1, 5)]
    trucks = [
        Truck(
            "k",
            (3000, 3000),
            ALL,
            Location(0, 0),
            Location(0, 0),
            (6 * H, 18 * H),
            max_duty_s=3 * H,
            driver_id=1,
        )
    ]
    problem = planar(stops, trucks)
    plan = solve(problem, 0.5)
    assert plan.routes and plan.unplanned
    route = plan.routes[0]
    assert route.visits[-1].arrival_s - route.visits[0].departure_s <= 3 * H
    assert all(u.reason for u in plan.unplanned)
    assert {u.stop_id for u in plan.unplanned} | set(route.stop_ids) == {s.id for s in stops}
    assert check(problem, plan) == []


def test_the_generated_day_has_the_issues_shape() -> None:
    problem = day(1)
    assert len(problem.stops) == 400 and len(problem.trucks) == 60 and len(problem.terminals) == 4
    assert {len(t.compartments) for t in problem.trucks} == {3, 4, 5}
    assert {p for s in problem.stops for p in s.demand} == {"ULSD", "DYED", "REG"}
    windows = sum(1 for s in problem.stops if s.window is not None)
    assert 100 <= windows <= 170
    assert all(10 * H <= t.shift[1] - t.shift[0] <= 12 * H for t in problem.trucks)


def test_the_baseline_is_feasible_and_the_solver_beats_it_on_a_small_day() -> None:
    problem = day(3, orders=60, trucks=10, fixed=0)
    base = nearest_neighbour(problem)
    assert check(problem, base) == []
    plan = solve(problem, 2.0)
    assert check(problem, plan) == []
    served = sum(len(r.stop_ids) for r in plan.routes)
    assert served >= sum(len(r.stop_ids) for r in base.routes)
    assert plan.miles < base.miles
    # The day's own rules are kept: late nowhere, fixed stops on their trucks.
    assert plan.late_stops == 0
