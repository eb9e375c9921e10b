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
    notes: list[str] = field(default_factory=list)
    # Memos of the decoder (evaluate.decode runs thousands of times in the solver's passes): the
    # matrices as Python lists (an element of a list is read ~10x faster than numpy's), and the
    # best terminal per (from, to, products).
    _lists: tuple[list[list[int]], list[list[int]]] | None = None
    _terminal_memo: dict[tuple[int, int, frozenset[str]], tuple[Terminal | None, bool]] = field(
        default_factory=dict
    )

    @property
    def units_per_mile(self) -> float:
        """Matrix units in a mile: metres, or (planar metric) one unit is costed as one mile."""
        return 1.0 if self.problem.settings.metric == "euclidean" else METRES_PER_MILE

    def at(self, location: Location) -> int:
        return self.index[location]

    def lists(self) -> tuple[list[list[int]], list[list[int]]]:
        """dist and dur as lists of lists of ints (made once)."""
        if self._lists is None:
            self._lists = (self.dist.astype(np.int64).tolist(), self.dur.astype(np.int64).tolist())
        return self._lists

    def best_terminal(self, frm: int, to: int, products: frozenset[str]) -> tuple[Terminal | None, bool]:
        """The terminal having all `products` on the shortest way frm -> terminal -> to (the first
        of the problem's order on a tie); (nearest, True) when none has them all (a forced load)."""
        key = (frm, to, products)
        hit = self._terminal_memo.get(key)
        if hit is None:
            candidates = self.terminals_with(products)
            forced = not candidates
            if forced:
                candidates = list(self.problem.terminals)
            if not candidates:
                hit = (None, True)
            else:
                dist = self.dist
                best = min(
                    candidates,
                    key=lambda t: int(dist[frm, self.index[t.location]] + dist[self.index[t.location], to]),
                )
                hit = (best, forced)
            self._terminal_memo[key] = hit
        return hit

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
    notes: list[str] = []
    try:
        dist, dur = distances.matrix(points, problem.settings)
    except distances.DistanceError as exc:
        # The road engine is down: plan on great-circle distances rather than not at all, and say so.
        dist, dur = distances.great_circle(points, problem.settings)
        notes.append(f"{exc}; great-circle distances x {problem.settings.circuity} used instead")
    return Context(
        problem=problem,
        points=points,
        dist=dist,
        dur=dur,
        stops={s.id: s for s in problem.stops},
        trucks={t.id: t for t in problem.trucks},
        terminals={t.id: t for t in problem.terminals},
        index=index,
        notes=notes,
    )
