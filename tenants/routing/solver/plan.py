"""The answer: per truck its visits (with ETAs and window slack) and loads, the unplanned stops each
with a reason, and the totals. Plain dataclasses (the app stores them as JSON: `as_dict`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from tenants.routing.solver.problem import Id

VisitKind = Literal["stop", "reload", "start", "end"]


@dataclass
class Visit:
    """kind "reload" is a loading at a terminal (ref = the terminal's id); "start"/"end" the yards
    (ref = the truck's id). arrival_s/departure_s: seconds since midnight. window_slack_s: how much
    later the truck could arrive and still be inside the stop's window (None: no window). late_s:
    how late it arrives after the window's end (0 when on time)."""

    kind: VisitKind
    ref: Id
    arrival_s: int
    departure_s: int
    window_slack_s: int | None = None
    late_s: int = 0


@dataclass
class Load:
    """One loading at a terminal: (compartment index, product, gallons) for each compartment used."""

    terminal_id: Id
    compartments: tuple[tuple[int, str, int], ...]


@dataclass
class Route:
    truck_id: Id
    driver_id: Id | None
    visits: list[Visit]
    loads: list[Load]
    miles: float
    hours: float
    utilization: float  # gallons delivered / (loads x truck capacity)
    violations: list[str] = field(default_factory=list)  # evaluate(): what a dragged route breaks
    distance: int = 0  # in the matrix's unit (metres; CVRPLIB's rounded units for route_benchmark)

    @property
    def stop_ids(self) -> list[Id]:
        return [v.ref for v in self.visits if v.kind == "stop"]


@dataclass
class Unplanned:
    stop_id: Id
    reason: str


@dataclass
class Plan:
    routes: list[Route]
    unplanned: list[Unplanned]
    cost: float  # dollars: miles x cost per mile + hours x cost per hour, per truck
    miles: float
    hours: float
    trucks_used: int
    late_stops: int
    solver: str
    elapsed_s: float
    complete: bool  # False: stopped early (the best plan so far)
    notes: list[str] = field(default_factory=list)  # e.g. a truck without a driver, not used
    prizes: int = 0  # the prizes of the optional stops taken (cents)
    distance: int = 0  # sum of the routes' distances in the matrix's unit

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
