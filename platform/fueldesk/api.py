"""The one NinjaAPI under /api: every router of every domain is mounted here."""

from typing import Any

from ninja import NinjaAPI

from core.errors import install_error_handlers
from tenancy.api import router as platform_router
from tenants.accounts.api import auth_router, permissions_router, roles_router, users_router
from tenants.company.api import router as company_router
from tenants.company.api import storage_router
from tenants.geo.api import city_router, state_router
from tenants.jobs.api import router as job_log_router


class FuelDeskAPI(NinjaAPI):
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
)
install_error_handlers(api)

api.add_router("", platform_router)
api.add_router("", auth_router)
api.add_router("/user-account", users_router)
api.add_router("/role", roles_router)
api.add_router("/permission", permissions_router)
api.add_router("/company-settings", company_router)
api.add_router("/storage", storage_router)
api.add_router("/state", state_router)
api.add_router("/city", city_router)
api.add_router("/job-log", job_log_router)
