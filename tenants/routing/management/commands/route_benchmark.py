"""Solve a CVRPLIB instance through the product's route planner and print its cost:
`manage.py route_benchmark X-n110-k13.vrp --seconds 10` -> `cost 15012` (and the gap to the best
known solution when a `.sol` file sits beside the instance). docs/benchmarks.md has the figures."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tenants.routing.solver import cvrplib
from tenants.routing.solver.checker import check
from tenants.routing.solver.solve import solve


class Command(BaseCommand):
    help = "Solve a CVRPLIB .vrp file with the route planner's solve() and print `cost <n>`."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="a CVRPLIB instance (.vrp)")
        parser.add_argument("--seconds", type=float, default=10.0, help="time budget (default 10)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--routes", action="store_true", help="also print the routes (CVRPLIB style)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            problem = cvrplib.read(options["file"])
        except (OSError, ValueError, KeyError) as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from exc
        plan = solve(problem, options["seconds"], seed=options["seed"])
        errors = check(problem, plan)
        if errors or plan.unplanned:
            raise CommandError(f"infeasible plan: {(errors + [u.reason for u in plan.unplanned])[:5]}")
        if options["routes"]:
            n = 0
            for route in plan.routes:
                trip: list[str] = []
                for v in route.visits[1:]:
                    if v.kind == "stop":
                        trip.append(str(v.ref))
                    elif trip:
                        n += 1
                        self.stdout.write(f"Route #{n}: {' '.join(trip)}")
                        trip = []
        cost = cvrplib.cost(plan)
        self.stdout.write(f"cost {cost}")
        bks = cvrplib.best_known(options["file"])
        if bks:
            gap = 100.0 * (cost - bks) / bks
            self.stdout.write(f"best known {bks:g} gap {gap:.2f} % in {plan.elapsed_s:.1f} s")
