"""Distances: the great-circle fallback worked out by hand, OSRM's table service through a local fake
speaking its protocol (blocks of sources x destinations, unreachable points, errors), and a plan
made on it."""

from __future__ import annotations

import math
from datetime import date

import numpy as np
import pytest

from infra.fakes.osrm import FakeOsrm, great_circle_m
from tenants.routing.solver import distances
from tenants.routing.solver.checker import check
from tenants.routing.solver.problem import Location, Problem, Settings, Stop, Terminal, Truck
from tenants.routing.solver.solve import solve

POINTS = [
    Location(40.0, -75.0),
    Location(41.0, -75.0),
    Location(40.5, -74.2),
    Location(39.8, -75.6),
    Location(40.2, -74.9),
    Location(40.9, -75.3),
    Location(40.1, -74.5),
]


def test_great_circle_times_circuity_at_the_average_speed() -> None:
    dist, dur = distances.great_circle(POINTS[:2], Settings(circuity=1.3, speed_mph=35))
    one_degree = 2 * math.pi * 6_371_008.8 / 360  # 111,195 m
    assert dist[0, 1] == dist[1, 0] == round(one_degree * 1.3)
    assert dur[0, 1] == round(one_degree * 1.3 / (35 * 1609.344 / 3600))
    assert dist[0, 0] == dur[1, 1] == 0


def test_euclidean_rounds_like_cvrplib() -> None:
    dist, dur = distances.euclidean([Location(0, 0), Location(3, 4), Location(1, 1)])
    assert dist.tolist() == [[0, 5, 1], [5, 0, 4], [1, 4, 0]]  # sqrt(2) -> 1, sqrt(13) -> 4
    assert (dur == dist).all()


def test_osrm_table_round_trip_in_blocks() -> None:
    with FakeOsrm(max_table_size=3) as osrm:
        url = f"http://127.0.0.1:{osrm.server_port}"
        dist, dur = distances.osrm_table(POINTS, url, block=3)
        # 7 points in blocks of 3: 3 x 3 requests, each within the server's 3 x 3 limit.
        assert len(osrm.requests) == 9
        assert all("annotations=distance,duration" in r and "sources=" in r for r in osrm.requests)
        for i, a in enumerate(POINTS):
            for j, b in enumerate(POINTS):
                metres = great_circle_m((a.lng, a.lat), (b.lng, b.lat)) * 1.25
                assert dist[i, j] == pytest.approx(metres, abs=1)
                assert dur[i, j] == pytest.approx(metres / (60 / 3.6), abs=1)
        # Without blocks the fake refuses the 7 x 7 table the way OSRM does.
        with pytest.raises(distances.DistanceError, match="TooBig"):
            distances.osrm_table(POINTS, url, block=100)


def test_osrm_without_a_road_and_when_down() -> None:
    with FakeOsrm() as osrm:
        osrm.islands.add((POINTS[2].lng, POINTS[2].lat))
        dist, _ = distances.matrix(POINTS[:3], Settings(osrm_url=f"http://127.0.0.1:{osrm.server_port}"))
        assert dist[0, 2] == dist[2, 1] == distances.UNREACHABLE_M
        assert 0 < dist[0, 1] < distances.UNREACHABLE_M
        port = osrm.server_port
    with pytest.raises(distances.DistanceError, match="unreachable"):
        distances.osrm_table(POINTS[:2], f"http://127.0.0.1:{port}", timeout=2)


def _problem(settings: Settings) -> Problem:
    yard = POINTS[0]
    stops = [Stop(f"s{i}", p, {"ULSD": 1000}, service_s=600) for i, p in enumerate(POINTS[2:])]
    trucks = [Truck("t1", (3000, 3000), frozenset({"ULSD"}), yard, yard, (6 * 3600, 20 * 3600), driver_id=1)]
    return Problem(
        date(2026, 12, 7), stops, trucks, [Terminal("T", POINTS[1], frozenset({"ULSD"}))], settings
    )


def test_a_plan_on_osrm_distances_and_the_fallback_when_it_is_down() -> None:
    with FakeOsrm() as osrm:
        problem = _problem(Settings(osrm_url=f"http://127.0.0.1:{osrm.server_port}"))
        plan = solve(problem, 0.3)
        assert osrm.requests and plan.notes == []
        assert plan.unplanned == [] and check(problem, plan) == []
        # The miles are OSRM's: the fake's roads are 1.25 x great-circle, not the 1.3 of the fallback.
        ids = [v for v in plan.routes[0].visits]
        assert len(ids) >= 7
        port = osrm.server_port
    down = _problem(Settings(osrm_url=f"http://127.0.0.1:{port}"))
    plan2 = solve(down, 0.3)
    assert plan2.unplanned == [] and plan2.notes and "great-circle" in plan2.notes[0]
    assert plan2.miles > plan.miles  # circuity 1.3 > the fake's 1.25, same route shape
    assert np.isfinite(plan2.cost)
