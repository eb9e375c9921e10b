"""Exact compartment loading: one product per compartment per load, each compartment within its
capacity. A load (a trip's gallons by product) fits a truck when its compartments can be shared out
between the products so that each product's compartments hold its gallons.

The search is a depth-first assignment of the compartments (largest first) to the products still
short, with a capacity bound and a memo of the dead ends: exact, and a few microseconds for the
3-6 compartments of a tank wagon. Answers are cached per (compartments, load).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

Slot = tuple[int, str, int]  # (compartment index, product, gallons)


def assign(compartments: tuple[int, ...], demand: Mapping[str, int]) -> tuple[Slot, ...] | None:
    """The compartments holding `demand` (product -> gallons), or None when no sharing fits."""
    key = tuple(sorted((p, int(g)) for p, g in demand.items() if g > 0))
    return _assign(tuple(compartments), key)


def fits(compartments: tuple[int, ...], demand: Mapping[str, int]) -> bool:
    return assign(compartments, demand) is not None


@lru_cache(maxsize=200_000)
def _assign(compartments: tuple[int, ...], demand: tuple[tuple[str, int], ...]) -> tuple[Slot, ...] | None:
    if not demand:
        return ()
    order = sorted(range(len(compartments)), key=lambda i: -compartments[i])
    caps = [compartments[i] for i in order]
    products = [p for p, _ in demand]
    need = [g for _, g in demand]
    suffix = [0] * (len(caps) + 1)
    for i in range(len(caps) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + caps[i]
    dead: set[tuple[int, tuple[int, ...]]] = set()
    choice: list[int] = [-1] * len(caps)

    def search(i: int, rest: list[int]) -> bool:
        total = sum(rest)
        if total == 0:
            return True
        if i == len(caps) or suffix[i] < total:
            return False
        state = (i, tuple(rest))
        if state in dead:
            return False
        # Try the products still short, the one needing most first; then leaving it empty.
        for k in sorted((k for k in range(len(rest)) if rest[k] > 0), key=lambda k: -rest[k]):
            before = rest[k]
            rest[k] = max(0, before - caps[i])
            choice[i] = k
            if search(i + 1, rest):
                return True
            rest[k] = before
        choice[i] = -1
        if search(i + 1, rest):
            return True
        dead.add(state)
        return False

    if not search(0, need[:]):
        return None
    slots: list[Slot] = []
    left = need[:]
    for pos, k in enumerate(choice):
        if k < 0 or left[k] == 0:
            continue
        gallons = min(caps[pos], left[k])
        left[k] -= gallons
        slots.append((order[pos], products[k], gallons))
    return tuple(sorted(slots))
