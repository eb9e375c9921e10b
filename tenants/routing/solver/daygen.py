"""A realistic day of a fuel distributor, generated from a seed, for the benchmark and the tests:
orders clustered around towns in a 110 km x 110 km area (south-east Pennsylvania and New Jersey),
3 products, 4 terminals (not all having every product), 3 yards, trucks of 3 to 5 compartments
(a few small ones for the sites that take at most 6,000 gal), windows on a third of the stops,
shifts of 10 to 12 h, hose-length skills, orders already in delivery fixed to their truck, and
optional keep-full top-ups with a prize."""

from __future__ import annotations

import random
from datetime import date

from tenants.routing.solver.problem import (
    Location,
    Problem,
    Settings,
    Stop,
    Terminal,
    Truck,
    service_seconds,
)

H = 3600
# Order sizes (gal) of a tank-wagon day: farms, contractors, generators, small fleets; mean ~1,000.
SIZES = (200, 300, 500, 750, 1000, 1200, 1500, 2000, 2500)
SIZE_WEIGHTS = (6, 10, 14, 14, 14, 12, 10, 7, 3)
PRODUCTS = ("ULSD", "DYED", "REG")
LONG_HOSE = "hose-150ft"
# (compartments, how many of the 60): tank wagons of 3 to 5 compartments and a few 3,000 gal bobtails.
FLEET = [
    ((1200, 1000, 800), 8),
    ((3000, 2500, 2500), 6),
    ((2500, 2000, 2000, 1500), 16),
    ((2000, 2000, 1500, 1500, 1000), 15),
    ((3000, 2500, 2000, 1500, 1000), 15),
]


def day(
    seed: int = 1,
    orders: int = 400,
    trucks: int = 60,
    optional: int = 0,
    fixed: int = 4,
    fixed_cost: float = 200.0,
) -> Problem:
    rng = random.Random(seed)  # noqa: S311 (synthetic data, not security)
    lat0, lng0 = 39.70, -75.60  # the area's south-west corner
    span_lat, span_lng = 1.0, 1.3  # ~110 km each way

    def point(cx: float, cy: float, spread: float) -> Location:
        lat = min(max(cx + rng.gauss(0, spread), lat0), lat0 + span_lat)
        lng = min(max(cy + rng.gauss(0, spread * 1.3), lng0), lng0 + span_lng)
        return Location(round(lat, 5), round(lng, 5))

    towns = [(lat0 + rng.random() * span_lat, lng0 + rng.random() * span_lng) for _ in range(14)]
    terminals = [
        Terminal("T-north", point(lat0 + 0.85, lng0 + 0.4, 0.02), frozenset(PRODUCTS)),
        Terminal("T-south", point(lat0 + 0.15, lng0 + 0.9, 0.02), frozenset(PRODUCTS)),
        Terminal("T-west", point(lat0 + 0.45, lng0 + 0.1, 0.02), frozenset({"ULSD", "DYED"})),
        Terminal("T-east", point(lat0 + 0.55, lng0 + 1.2, 0.02), frozenset({"ULSD", "REG"})),
    ]
    yards = [
        point(lat0 + 0.5, lng0 + 0.6, 0.03),
        point(lat0 + 0.2, lng0 + 0.3, 0.03),
        point(lat0 + 0.8, lng0 + 1.0, 0.03),
    ]
    configs = [c for c, n in FLEET for _ in range(n)]
    fleet: list[Truck] = []
    for k in range(trucks):
        comps = configs[k % len(configs)]
        start = 5 * H + rng.choice([0, 1800, 3600, 5400, 7200])
        length = rng.choice([10, 11, 12]) * H
        yard = yards[k % len(yards)]
        products = frozenset(PRODUCTS) if rng.random() < 0.85 else frozenset({"ULSD", "DYED"})
        fleet.append(
            Truck(
                id=f"truck-{k + 1:02d}",
                compartments=comps,
                products=products,
                start=yard,
                end=yard,
                shift=(start, start + length),
                max_duty_s=length,
                cost_per_mile=2.2 if sum(comps) < 7000 else 2.8,
                cost_per_hour=32.0,
                fixed_cost=fixed_cost,
                skills=frozenset({LONG_HOSE}) if k % 2 == 0 else frozenset(),
                driver_id=1000 + k,
            )
        )
    settings = Settings(circuity=1.3, speed_mph=35, service_fixed_s=600, pump_gpm=80, terminal_service_s=1500)
    stops: list[Stop] = []
    for i in range(orders + optional):
        cx, cy = rng.choice(towns)
        loc = point(cx, cy, 0.05)
        first = rng.choices(PRODUCTS, weights=(5, 2, 3))[0]
        demand = {first: rng.choices(SIZES, weights=SIZE_WEIGHTS)[0]}
        if rng.random() < 0.15:
            second = rng.choice([p for p in PRODUCTS if p != first])
            demand[second] = rng.choice([200, 300, 500])
        window = None
        if rng.random() < 1 / 3:
            begin = rng.choice(range(7 * H, 14 * H + 1, 1800))
            window = (begin, begin + rng.choice([2, 3, 4]) * H)
        gallons = sum(demand.values())
        optional_stop = i >= orders
        stops.append(
            Stop(
                id=f"{'topup' if optional_stop else 'order'}-{i + 1:03d}",
                location=loc,
                demand=demand,
                window=window,
                service_s=service_seconds(settings, gallons),
                max_truck_gallons=6000 if rng.random() < 0.08 else None,
                skills=frozenset({LONG_HOSE}) if rng.random() < 0.1 else frozenset(),
                prize=round(gallons * 0.15 * 100) if optional_stop else None,  # ~15 c/gal margin
            )
        )
    # Orders already in delivery: on their truck, first on its route.
    for j in range(min(fixed, orders)):
        s = stops[j]
        truck = fleet[j * 7 % len(fleet)]
        demand = {p: g for p, g in s.demand.items() if p in truck.products} or {"ULSD": 500}
        stops[j] = Stop(
            s.id,
            s.location,
            demand,
            None,
            s.service_s,
            None,
            frozenset(),
            fixed_truck=truck.id,
            fixed_position=0,
        )
    return Problem(date(2026, 12, 7), stops, fleet, terminals, settings)
