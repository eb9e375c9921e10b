"""Import cycles that import-linter's `acyclic_siblings` contract cannot see: two modules of
different top-level packages that import each other (e.g. core.jobs <-> core.dramatiq_setup).
The layer contracts themselves are in pyproject.toml ([tool.importlinter]) and run by `make lint`."""

import grimp

PACKAGES = ("core", "fueldesk", "tenancy", "tenants")
# Circles whose owners are breaking them (issue 14); delete a line when its circle is gone.
PENDING: set[frozenset[str]] = set()


def allowed(pair: frozenset[str]) -> bool:
    """A service that queues its own app's actor, which calls the service back (a thin actor)."""
    a, b = sorted(pair)
    app_a, _, leaf_a = a.rpartition(".")
    app_b, _, leaf_b = b.rpartition(".")
    return app_a == app_b and {leaf_a, leaf_b} == {"services", "tasks"}


def two_module_cycles() -> set[frozenset[str]]:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    cycles = set()
    for module in graph.modules:
        if ".tests" in module:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            if module in graph.find_modules_directly_imported_by(imported) and ".tests" not in imported:
                cycles.add(frozenset({module, imported}))
    return cycles


def test_no_two_modules_import_each_other() -> None:
    found = {pair for pair in two_module_cycles() - PENDING if not allowed(pair)}
    assert not found, "Modules that import each other (move the shared part down, or register a hook): " + (
        "; ".join(" <-> ".join(sorted(pair)) for pair in sorted(found, key=sorted))
    )
