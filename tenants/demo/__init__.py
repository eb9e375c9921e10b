"""Realistic demo data for the demo company of `make run`. Each domain group has its own module
with a `seed()` that is idempotent; they run in this order (later ones use earlier ones' rows)."""

from importlib import import_module

SEED_MODULES = [
    "tenants.demo.geo_fleet",
    "tenants.demo.catalog_parties",
    "tenants.demo.pricing",  # before sales: orders are priced by the engine
    "tenants.demo.sales",
    "tenants.demo.driver_day",  # the demo driver's stops for today (driver portal)
    "tenants.demo.purchasing",
    "tenants.demo.routing",  # drivers' shifts and trucks' routing data: "Plan the day" has a day
]


def seed_master_data() -> None:
    for name in SEED_MODULES:
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.seed()
