"""What solve() and evaluate() share: the problem's locations in one matrix (each distinct point
once), the lookups by id, and which terminals can load which products."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tenants.routing.solver import distances
from tenants.routing.solver.problem import Id, Location, Problem, Stop, Terminal, Truck

METRES_PER_MILE = distances.METRES_PER_MILE


@dataclass
class Context:
    problem: Problem
    points: list[Location]
    dist: np.ndarray
    dur: np.ndarray
    stops: dict[Id, Stop]
    trucks: dict[Id, Truck]
    terminals: dict[Id, Terminal]
    index: dict[Location, int] = field(default_factory=dict)

    def at(self, location: Location) -> int:
        return self.index[location]

    def terminals_with(self, products: frozenset[str] | set[str]) -> list[Terminal]:
        return [t for t in self.problem.terminals if products <= t.products]


def build(problem: Problem) -> Context:
    points: list[Location] = []
    index: dict[Location, int] = {}

    def add(loc: Location | None) -> None:
        if loc is not None and loc not in index:
            index[loc] = len(points)
            points.append(loc)

    for truck in problem.trucks:
        add(truck.start)
        add(truck.end)
    for terminal in problem.terminals:
        add(terminal.location)
    for stop in problem.stops:
        add(stop.location)
    dist, dur = distances.matrix(points, problem.settings)
    return Context(
        problem=problem,
        points=points,
        dist=dist,
        dur=dur,
        stops={s.id: s for s in problem.stops},
        trucks={t.id: t for t in problem.trucks},
        terminals={t.id: t for t in problem.terminals},
        index=index,
    )
