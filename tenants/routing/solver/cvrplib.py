"""CVRPLIB instances as the product's Problem, so that route_benchmark measures the product's own
solve(): the depot is a yard and a terminal having the one product "load", each customer a stop,
the fleet as many identical one-compartment trucks as customers (CVRPLIB's X instances do not limit
the fleet), distances planar and rounded to integers (Settings(metric="euclidean"))."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import vrplib

from tenants.routing.solver.plan import Plan
from tenants.routing.solver.problem import Location, Problem, Settings, Stop, Terminal, Truck

PRODUCT = "load"
BIG_S = 10**9


def read(path: str | Path) -> Problem:
    return problem_from(vrplib.read_instance(str(path)))


def problem_from(instance: dict[str, Any]) -> Problem:
    coords = instance["node_coord"]
    demand = instance["demand"]
    depot = int(instance["depot"][0])
    capacity = instance["capacity"]
    if not isinstance(capacity, int | float):
        raise ValueError("only CVRP instances (one capacity) are supported")
    home = Location(float(coords[depot][0]), float(coords[depot][1]))
    stops = [
        Stop(id=i, location=Location(float(x), float(y)), demand={PRODUCT: int(demand[i])}, service_s=0)
        for i, (x, y) in enumerate(coords)
        if i != depot
    ]
    trucks = [
        Truck(
            id=f"v{k + 1}",
            compartments=(int(capacity),),
            products=frozenset({PRODUCT}),
            start=home,
            end=home,
            shift=(0, BIG_S),
            max_duty_s=BIG_S,
            cost_per_mile=1.0,
            cost_per_hour=0.0,
            driver_id=k + 1,
        )
        for k in range(len(stops))
    ]
    terminal = Terminal("depot", home, frozenset({PRODUCT}))
    settings = Settings(metric="euclidean", terminal_service_s=0, service_fixed_s=0)
    return Problem(date(2000, 1, 1), stops, trucks, [terminal], settings)


def best_known(path: str | Path) -> float | None:
    """The cost in the `.sol` file beside a `.vrp` file, if there is one."""
    sol = Path(path).with_suffix(".sol")
    if not sol.exists():
        return None
    return float(vrplib.read_solution(str(sol))["cost"])


def cost(plan: Plan) -> int:
    """CVRPLIB's cost: the routes' distances (planar, each leg rounded); a reload at the depot is the
    same as a second vehicle there."""
    return plan.distance
