from core.crud import Crud
from core.envelope import Answer, Message, ok
from core.listing import ListSpec
from core.permissions import perm
from core.scoping import get_or_404
from django.http import HttpRequest
from ninja import Router

from tenants.fleet import selectors, services
from tenants.fleet.models import AssetType, CompanyAsset, Driver
from tenants.fleet.schemas import (
    AssetTypeIn,
    AssetTypeOut,
    AssetTypeQuery,
    CompanyAssetIn,
    CompanyAssetOut,
    CompanyAssetQuery,
    DriverIn,
    DriverOut,
    DriverQuery,
)

asset_type_router = Router(tags=["asset-type"])
company_asset_router = Router(tags=["company-asset"])
driver_router = Router(tags=["driver"])
ALL_OPS = ("list", "all", "get", "create", "update", "delete")

Crud(
    router=asset_type_router,
    resource="asset_type",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="Asset type",
    model=AssetType,
    out=AssetTypeOut,
    create_in=AssetTypeIn,
    ops=ALL_OPS,
    default_size=25,
    queryset=selectors.asset_types,
    filters=AssetTypeQuery,
    apply_filters=selectors.filter_asset_types,
    spec=ListSpec(
        search=("name", "description"),
        sort={"name": "name", "category": "category"},
        filters={"name": ("name", "str"), "category": ("category", "str")},
        default_sort="name",
    ),
)

Crud(
    router=company_asset_router,
    resource="company_asset",
    label="Company asset",
    model=CompanyAsset,
    out=CompanyAssetOut,
    create_in=CompanyAssetIn,
    ops=ALL_OPS,
    default_size=10,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    queryset=selectors.company_assets,
    filters=CompanyAssetQuery,
    apply_filters=selectors.filter_company_assets,
    spec=ListSpec(
        search=("asset_number", "name", "plate", "vin", "asset_type__name"),
        sort={
            "asset_number": "asset_number",
            "name": "name",
            "capacity": "capacity",
            "asset_type": "asset_type__name",
            "home_yard": "home_yard__name",
            "is_active": "is_active",
            "created_at": "created_at",
        },
        filters={
            "asset_number": ("asset_number", "str"),
            "name": ("name", "str"),
            "plate": ("plate", "str"),
            "vin": ("vin", "str"),
            "asset_type": ("asset_type__name", "str"),
            "category": ("asset_type__category", "str"),
            "home_yard": ("home_yard__name", "str"),
            "capacity": ("capacity", "int"),
            "is_active": ("is_active", "bool"),
        },
        default_sort="asset_number",
    ),
)

Crud(
    router=driver_router,
    resource="driver",
    label="Driver",
    model=Driver,
    out=DriverOut,
    create_in=DriverIn,
    ops=("list", "all", "get", "create", "update"),
    default_size=100,
    # `expiring_within_days` reads today's date: the kept statements are per day when it is given.
    pure_queries=True,
    shape_clock=selectors.driver_list_clock,
    computed=("licence_expires_in_days", "hazmat_expires_in_days", "expiry_warnings"),
    fill_rows=selectors.fill_driver_rows,
    queryset=selectors.drivers,
    filters=DriverQuery,
    apply_filters=selectors.filter_drivers,
    create=services.create_driver,
    update=services.update_driver,
    spec=ListSpec(
        search=("name", "phone", "email", "user__email"),
        sort={
            "name": "name",
            "licence_class": "licence_class",
            "licence_expiry": "licence_expiry",
            "hazmat_expiry": "hazmat_expiry",
            "home_yard": "home_yard__name",
            "region": "region__name",
            "is_active": "is_active",
            "created_at": "created_at",
        },
        filters={
            "name": ("name", "str"),
            "phone": ("phone", "str"),
            "email": ("email", "str"),
            "licence_class": ("licence_class", "str"),
            "licence_expiry": ("licence_expiry", "date"),
            "hazmat_expiry": ("hazmat_expiry", "date"),
            "home_yard": ("home_yard__name", "str"),
            "region": ("region__name", "str"),
            "is_active": ("is_active", "bool"),
        },
        default_sort="name",
    ),
)


@driver_router.delete(
    "/{int:id}",
    response=Message,
    auth=perm("driver.delete"),
    operation_id="driver_delete",
    summary="Delete a driver (their sign-in is kept, deactivated)",
)
def delete_driver(request: HttpRequest, id: int) -> Answer:
    driver = get_or_404(selectors.drivers(), id)
    return ok(None, services.delete_driver(driver))


routes = [
    ("/asset-type", asset_type_router),
    ("/company-asset", company_asset_router),
    ("/driver", driver_router),
]
