"""A realistic day planned (issue 27): 400 orders, 60 trucks of 3-5 compartments, 3 products, 4
terminals, windows on a third of the stops, shifts of 10-12 h (solver/daygen.py, seed ROUTING_DAY_SEED):
a feasible plan within ROUTING_DAY_SECONDS (30) s, verified by the independent checker, and its
miles against the nearest-neighbour baseline (solver/baseline.py) on the same day."""

from __future__ import annotations

import os
import time
from typing import Any

from tenants.routing.solver.baseline import nearest_neighbour
from tenants.routing.solver.checker import check
from tenants.routing.solver.daygen import day
from tenants.routing.solver.solve import solve

SECONDS = float(os.environ.get("ROUTING_DAY_SECONDS", "30"))
SEED = int(os.environ.get("ROUTING_DAY_SEED", "1"))


def test_bench_routing_realistic_day(record: Any) -> None:
    problem = day(SEED)
    base = nearest_neighbour(problem)
    assert check(problem, base) == []
    t0 = time.perf_counter()
    plan = solve(problem, SECONDS)
    wall = time.perf_counter() - t0
    errors = check(problem, plan)
    served = sum(len(r.stop_ids) for r in plan.routes)
    base_served = sum(len(r.stop_ids) for r in base.routes)
    saving = 1 - plan.miles / base.miles
    per_order = 1 - (plan.miles / served) / (base.miles / base_served)
    load = os.getloadavg()
    figures = {
        "seconds_budget": SECONDS,
        "wall_s": round(wall, 1),
        "orders": len(problem.stops),
        "served": served,
        "unplanned": [(u.stop_id, u.reason) for u in plan.unplanned],
        "miles": plan.miles,
        "hours": plan.hours,
        "trucks": plan.trucks_used,
        "loads": sum(len(r.loads) for r in plan.routes),
        "baseline_served": base_served,
        "baseline_miles": base.miles,
        "baseline_trucks": base.trucks_used,
        "miles_saving_pct": round(100 * saving, 1),
        "miles_per_order_saving_pct": round(100 * per_order, 1),
        "checker_errors": len(errors),
        "loadavg": load,
    }
    record["routing_day"] = figures
    for k, v in figures.items():
        print(f"  {k:28} {v}")
    assert errors == []
    assert plan.late_stops == 0
    assert wall <= SECONDS + 2
    assert served >= base_served
    assert saving >= 0.20
