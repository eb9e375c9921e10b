"""route_benchmark: a CVRPLIB file read with vrplib, solved through the product's solve() on planar
rounded distances, and its cost printed the CVRPLIB way (an instance small enough to solve by hand)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tenants.routing.solver import cvrplib
from tenants.routing.solver.checker import check
from tenants.routing.solver.solve import solve

# Depot at (0, 0); two customers up the y axis, two along the x axis, 5 units each, capacity 10.
# Best: (0,10) (0,20) and back = 10 + 10 + 20 = 40, the same along x: 80. Any mixed route is longer
# ((0,20) -> (20,0) alone is 28.28).
VRP = """NAME : tiny-n5-k2
TYPE : CVRP
DIMENSION : 5
EDGE_WEIGHT_TYPE : EUC_2D
CAPACITY : 10
NODE_COORD_SECTION
1 0 0
2 0 10
3 0 20
4 10 0
5 20 0
DEMAND_SECTION
1 0
2 5
3 5
4 5
5 5
DEPOT_SECTION
1
-1
EOF
"""


@pytest.fixture
def instance(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-n5-k2.vrp"
    path.write_text(VRP)
    (tmp_path / "tiny-n5-k2.sol").write_text("Route #1: 1 2\nRoute #2: 3 4\nCost 80\n")
    return path


def test_route_benchmark_prints_the_cvrplib_cost(instance: Path) -> None:
    out = io.StringIO()
    call_command("route_benchmark", str(instance), "--seconds", "0.5", "--routes", stdout=out)
    lines = out.getvalue().splitlines()
    assert "cost 80" in lines
    assert "best known 80 gap 0.00 %" in out.getvalue()
    routes = sorted(sorted(line.split(": ")[1].split()) for line in lines if line.startswith("Route #"))
    assert routes == [["1", "2"], ["3", "4"]]  # customers numbered from the depot's 0, as CVRPLIB


def test_the_instance_goes_through_the_products_problem(instance: Path) -> None:
    problem = cvrplib.read(instance)
    assert problem.settings.metric == "euclidean"
    assert [s.demand for s in problem.stops] == [{"load": 5}] * 4
    assert problem.trucks[0].compartments == (10,)
    plan = solve(problem, 0.3)
    assert check(problem, plan) == []
    assert cvrplib.cost(plan) == 80


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot read"):
        call_command("route_benchmark", str(tmp_path / "nope.vrp"), "--seconds", "0.1", stdout=io.StringIO())


def test_a_one_product_day_uses_the_whole_truck() -> None:
    """30 customers of 1 unit in a cluster 141 units away, trucks of 30: one trip (the compartment cap
    applies to days of several products only; a cap of 12 made 3 trips of it)."""
    import numpy as np

    coords = np.array([[0, 0]] + [[100 + i % 6, 100 + i // 6] for i in range(30)])
    problem = cvrplib.problem_from(
        {"node_coord": coords, "demand": np.array([0] + [1] * 30), "depot": np.array([0]), "capacity": 30}
    )
    plan = solve(problem, 0.5)
    assert check(problem, plan) == []
    assert sum(len(r.loads) for r in plan.routes) == 1
