"""The demo company has a day to plan: drivers' shifts on trucks, ship-tos and yards with coordinates,
terminals with rack prices, and verified orders today."""

from __future__ import annotations


def test_the_demo_seed_gives_the_planner_a_real_day(tenant_a, in_tenant):
    from django.utils import timezone

    from tenants.demo import seed_master_data
    from tenants.routing import problem_builder

    with in_tenant(tenant_a):
        seed_master_data()
        seed_master_data()  # idempotent
        built = problem_builder.build(timezone.localdate())
    problem = built.problem
    assert {t.id for t in problem.trucks} and len(problem.trucks) >= 3
    assert all(t.driver_id is not None and len(t.compartments) >= 1 for t in problem.trucks)
    located = [s for s in problem.stops if s.location is not None]
    assert len(located) >= 8
    assert any(s.window is not None for s in located)
    assert any(s.fixed_truck is not None for s in problem.stops)  # the order in delivery
    assert problem.terminals and all(t.products for t in problem.terminals)
    # The demo's keep-full tank due today next to the DEMO-RT orders is an optional stop with a prize.
    demo_tank = [t for t in built.tanks.values() if t["asset_name"] == "DEMO-KF tank"]
    assert demo_tank and demo_tank[0]["gallons"] > 0
    optional = {s.id: s for s in problem.stops if s.prize is not None}
    assert optional[f"tank:{demo_tank[0]['asset_id']}"].prize > 0
    codes = {c for s in problem.stops for c in s.demand}
    assert codes <= {p for t in problem.terminals for p in t.products}
