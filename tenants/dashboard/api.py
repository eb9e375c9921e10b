"""The dashboard (`/api/dashboard`): the product summary with the KPI tiles."""

from __future__ import annotations

from core.envelope import Answer, Envelope, ok
from core.permissions import perm, register_resource
from django.http import HttpRequest
from ninja import Query, Router

from tenants.dashboard import selectors
from tenants.dashboard.schemas import DashboardSummaryOut, DashboardSummaryQuery

router = Router(tags=["dashboard"])

register_resource("dashboard", "Dashboard", ("view",))


@router.get(
    "/product_summary",
    response=Envelope[DashboardSummaryOut],
    auth=perm("dashboard.view"),
    operation_id="dashboard_product_summary",
    summary="Products ordered, delivered, revenue and margin per day over the last days; the KPI tiles",
)
def product_summary(request: HttpRequest, params: Query[DashboardSummaryQuery]) -> Answer:
    data = selectors.product_summary(days=params.days, force_refresh=params.force_refresh)
    return ok(data, "Product summary retrieved successfully")


routes = [("/dashboard", router)]
