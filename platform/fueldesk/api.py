"""The one NinjaAPI under /api. Each domain's api module exposes `routes = [(prefix, router), ...]`;
they are mounted in the order listed here."""

from importlib import import_module
from typing import Any

from core.errors import install_error_handlers
from core.openapi import declare_error_responses, declare_wall_clock_times
from core.parser import KitParser
from core.renderers import ORJSONRenderer
from ninja import NinjaAPI

DOMAIN_API_MODULES = [
    "tenancy.api",
    "tenants.accounts.signup_api",
    "tenants.accounts.api",
    "tenants.company.api",
    "tenants.geo.api",
    "tenants.jobs.api",
    "tenants.catalog.api",
    "tenants.parties.api",
    "tenants.fleet.api",
    "tenants.pricing.api",
    "tenants.documents.api",
    "tenants.mail.api",
    "tenants.sales.api",
    "tenants.invoicing.api",
    "tenants.purchasing.api",
    "tenants.billparse.api",
    "tenants.driver.api",
    "tenants.dashboard.api",
    "tenants.delivery.api",
    "tenants.quotes.api",
    "tenants.inbox.api",
    "tenants.mail.document_api",
    "tenants.onboarding.api",
    "tenants.google.api",
    "tenants.quickbooks.api",
    "tenants.dataexport.api",
    "tenants.forecast.api",
    "tenants.routing.api",
]


class FuelDeskAPI(NinjaAPI):
    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params: Any = None) -> Any:
        # Every operation's error responses, with the `{detail}` schema (core/openapi.py).
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        declare_wall_clock_times(schema)  # times of day as `HH:MM:SS`, not RFC 3339's zoned `time`
        return declare_error_responses(schema)

    def get_openapi_operation_id(self, operation: Any) -> str:
        # Routes not made by the CRUD helper get `<tag>_<function name>`, readable and unique.
        name = operation.view_func.__name__
        tags = operation.tags or ["api"]
        return f"{tags[0].replace('-', '_')}_{name}"


api = FuelDeskAPI(
    title="FuelDesk API",
    version="1.0.0",
    description="Back office for fuel and goods distributors. Every tenant endpoint takes a bearer token.",
    urls_namespace="api",
    renderer=ORJSONRenderer(),
    parser=KitParser(),
)
install_error_handlers(api)

for module_name in DOMAIN_API_MODULES:
    module = import_module(module_name)
    for prefix, router in getattr(module, "routes", []):
        api.add_router(prefix, router)
