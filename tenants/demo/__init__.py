"""Realistic demo data for the demo company of `make run`. Each domain group has its own module
with a `seed()` that is idempotent; they run in this order (later ones use earlier ones' rows)."""

from importlib import import_module

SEED_MODULES = ["tenants.demo.geo_fleet", "tenants.demo.catalog_parties"]


def seed_master_data() -> None:
    for name in SEED_MODULES:
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.seed()
