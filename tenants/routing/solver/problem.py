"""The day's planning problem as the solver sees it (no ORM: the app builds it from its rows).

Units: times are seconds since the day's midnight (int), quantities whole gallons (int), distances
metres and durations seconds (the matrices of distances.py). Ids are the app's primary keys (int) or
strings for synthetic data (benchmarks, tests).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

Id = int | str

# How distances are measured (Settings.metric):
#  - "great_circle": haversine distance x circuity, duration from the average speed (the default);
#    settings.osrm_url set: OSRM's table service instead.
#  - "euclidean": planar coordinates (Location.lat = x, Location.lng = y), distance = the Euclidean
#    distance rounded to the nearest integer (the CVRPLIB convention), duration = that distance.
#    route_benchmark uses it so that CVRPLIB instances go through the product's solve().
Metric = Literal["great_circle", "euclidean"]


@dataclass(frozen=True)
class Location:
    lat: float
    lng: float


@dataclass(frozen=True)
class Stop:
    """One order to deliver (or, with a prize, an optional early top-up of a keep-full tank).

    demand: product code -> gallons. window: (earliest, latest) arrival, None = any time in the shift.
    service_s: time on site (use `service_seconds` to compute it from the settings). prize=None: the stop
    must be served; prize set (in cents, what serving it is worth): optional, taken when it pays.
    fixed_truck: the stop stays on this truck (an order already in delivery); fixed_position: its
    0-based place among that truck's stops."""

    id: Id
    location: Location | None
    demand: dict[str, int]
    window: tuple[int, int] | None = None
    service_s: int = 900
    max_truck_gallons: int | None = None
    skills: frozenset[str] = frozenset()
    fixed_truck: Id | None = None
    fixed_position: int | None = None
    prize: int | None = None

    @property
    def gallons(self) -> int:
        return sum(self.demand.values())


@dataclass(frozen=True)
class Truck:
    """One truck available that day with its driver's shift.

    compartments: capacities in gallons (one product per compartment per load). shift: (start, end)
    seconds since midnight; max_duty_s: the driver's on-duty limit (hours of service rule, e.g. 14 h).
    driver_id None: no driver that day, so the truck is not used (its fixed stops become unplanned)."""

    id: Id
    compartments: tuple[int, ...]
    products: frozenset[str]
    start: Location
    end: Location
    shift: tuple[int, int]
    max_duty_s: int = 14 * 3600
    cost_per_mile: float = 2.5
    cost_per_hour: float = 30.0
    skills: frozenset[str] = frozenset()
    driver_id: Id | None = None
    fixed_cost: float = 0.0  # dollars for using the truck at all that day (the solver uses fewer trucks)

    @property
    def gallons_total(self) -> int:
        return sum(self.compartments)


@dataclass(frozen=True)
class Terminal:
    id: Id
    location: Location
    products: frozenset[str]


@dataclass(frozen=True)
class Settings:
    """circuity: road distance / great-circle distance; speed_mph: average speed on the road.
    osrm_url: an OSRM server (its table service) instead of the two above. service_fixed_s and pump_gpm
    give a stop's time on site (`service_seconds`). terminal_service_s: the time to load at a rack."""

    circuity: float = 1.3
    speed_mph: float = 35
    osrm_url: str | None = None
    service_fixed_s: int = 900
    pump_gpm: float = 60
    terminal_service_s: int = 1800
    metric: Metric = "great_circle"


@dataclass
class Problem:
    day: date
    stops: list[Stop]
    trucks: list[Truck]
    terminals: list[Terminal]
    settings: Settings = field(default_factory=Settings)


def service_seconds(settings: Settings, gallons: int) -> int:
    """Time on site: the fixed part (hook-up, paperwork) and the pumping time at pump_gpm."""
    pumping = 60.0 * gallons / settings.pump_gpm if settings.pump_gpm > 0 else 0.0
    return settings.service_fixed_s + math.ceil(pumping)
