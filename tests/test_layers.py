"""Import cycles that import-linter's `acyclic_siblings` contract cannot see: two modules of
different top-level packages that import each other (e.g. core.jobs <-> core.dramatiq_setup).
The layer contracts themselves are in pyproject.toml ([tool.importlinter]) and run by `make lint`."""

import re
from pathlib import Path
from typing import Any

import grimp
import pytest

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


# Imports by name (importlib) are doors neither import-linter nor a reader sees: `core.permissions`
# once loaded `fueldesk.api` that way, so the kit depended on every app. A lower layer names no module
# of a layer above it; what it needs from above is registered with it (fueldesk's AppConfig.ready,
# tenancy.hooks, settings such as TENANT_MODEL).
LAYERS = {
    "core": "platform/core",
    "tenancy": "platform/tenancy",
    "tenants": "tenants",
    "fueldesk": "platform/fueldesk",
}
ABOVE = {
    "core": ("tenancy", "tenants", "fueldesk"),
    "tenancy": ("tenants", "fueldesk"),
    "tenants": ("fueldesk",),
}
LOAD_BY_NAME = re.compile(r"""(?:import_module|import_string|__import__)\(\s*["']([\w.]+)["']""")


def test_no_layer_loads_a_module_of_a_layer_above_it_by_name() -> None:
    found = []
    for layer, above in ABOVE.items():
        for path in sorted(Path(LAYERS[layer]).rglob("*.py")):
            if "tests" in path.parts:
                continue
            for name in LOAD_BY_NAME.findall(path.read_text()):
                if name.split(".")[0] in above:
                    found.append(f"{path}: {name}")
    assert not found, "A lower layer loads an upper one by name (register a hook instead): " + "; ".join(
        found
    )


def test_reading_the_permission_registry_before_it_is_whole_is_refused(monkeypatch: Any) -> None:
    """sync_permissions deletes the rows of codes it does not see: a half-filled registry must not
    reach it."""
    from core import permissions

    monkeypatch.setattr(permissions, "_complete", False)
    with pytest.raises(RuntimeError, match="before the composition root filled it"):
        permissions.registered_permissions()
