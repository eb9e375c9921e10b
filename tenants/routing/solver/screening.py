"""Which stops no truck can serve today, and why (the reason the dispatcher reads), and which
trucks may serve the others: the rules that hold all day (products, skills, the site's max truck
size, compartments, a fixed truck and its driver); a window no shift can reach is a reason too."""

from __future__ import annotations

from tenants.routing.solver import compartments as comp
from tenants.routing.solver.context import Context
from tenants.routing.solver.problem import Stop, Truck


def screen(ctx: Context, stop: Stop, trucks: list[Truck]) -> tuple[str | None, list[Truck]]:
    """Why this stop cannot be served by any truck (None: it can), and the trucks that may serve it."""
    if stop.location is None:
        return "no coordinates for the ship-to", []
    products = {p for p, g in stop.demand.items() if g > 0}
    if not products:
        return "nothing to deliver", []
    at_terminals = (
        set().union(*(t.products for t in ctx.problem.terminals)) if ctx.problem.terminals else set()
    )
    missing = products - at_terminals
    if missing:
        return f"no terminal has {', '.join(sorted(missing))}", []
    if not ctx.terminals_with(products):
        return f"no terminal has all of {', '.join(sorted(products))}", []
    all_trucks = list(ctx.problem.trucks)
    carried = set().union(*(t.products for t in all_trucks)) if all_trucks else set()
    missing = products - carried
    if missing:
        return f"no truck carries {', '.join(sorted(missing))}", []
    if stop.fixed_truck is not None:
        fixed = ctx.trucks.get(stop.fixed_truck)
        if fixed is None:
            return f"fixed to truck {stop.fixed_truck}, not available today", []
        if fixed.driver_id is None:
            return f"fixed to truck {stop.fixed_truck}, which has no driver", []
        fleet = [fixed]
    else:
        fleet = list(trucks)
        if not fleet:
            return "no truck with a driver", []
    fleet = [t for t in fleet if products <= t.products]
    if not fleet:
        return f"no available truck carries {', '.join(sorted(products))}", []
    step = [t for t in fleet if stop.skills <= t.skills]
    if not step:
        return f"no truck has {', '.join(sorted(stop.skills))}", []
    fleet = step
    if stop.max_truck_gallons is not None:
        step = [t for t in fleet if t.gallons_total <= stop.max_truck_gallons]
        if not step:
            return f"no truck small enough for the site (at most {stop.max_truck_gallons} gal)", []
        fleet = step
    step = [t for t in fleet if comp.fits(t.compartments, stop.demand)]
    if not step:
        return f"{stop.gallons} gal bigger than any truck's compartments", []
    fleet = step
    step = [t for t in fleet if _reachable(ctx, stop, t)]
    if not step:
        if stop.fixed_truck is not None:  # already loaded and on its way: the dispatcher must know
            return (
                "in delivery: its truck's shift cannot reach it from the yard, so it is left where it "
                "is, outside the plan",
                [],
            )
        if stop.window is None:  # no window of its own: the shifts are what it cannot fit in
            return "too far: no driver's shift can go there (by a terminal) and back to the yard", []
        return "window unreachable within any driver's shift", []
    # Only the rules that never change during the day decide which trucks may serve it (a window
    # reachable by one shift and not another is the time windows' business, in the solver).
    return None, fleet


def _reachable(ctx: Context, stop: Stop, truck: Truck) -> bool:
    """A truck serving only this stop (yard, best terminal, stop, yard) meets its window and shift."""
    assert stop.location is not None
    yard, home, here = ctx.at(truck.start), ctx.at(truck.end), ctx.at(stop.location)
    terminals = ctx.terminals_with({p for p, g in stop.demand.items() if g > 0})
    lo, hi = stop.window if stop.window is not None else (0, 10**9)
    load_s = ctx.problem.settings.terminal_service_s
    for t in terminals:
        ti = ctx.at(t.location)
        to_stop = int(ctx.dur[yard, ti]) + load_s + int(ctx.dur[ti, here])
        arrive = truck.shift[0] + to_stop
        if arrive > hi:
            continue
        back = int(ctx.dur[here, home])
        done = max(arrive, lo) + stop.service_s + back
        if done > truck.shift[1]:
            continue
        duty = to_stop + stop.service_s + back  # leaving later rather than waiting
        if duty > truck.max_duty_s:
            continue
        return True
    return False
