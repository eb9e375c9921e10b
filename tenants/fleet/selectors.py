"""Reads of the fleet domain."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from tenants.fleet.models import AssetType, CompanyAsset, Driver, expiry_warnings


def asset_types() -> QuerySet[AssetType]:
    return AssetType.objects.all()


def filter_asset_types(qs: QuerySet[AssetType], params: Any) -> QuerySet[AssetType]:
    return qs.filter(category=params.category) if params.category else qs


def company_assets() -> QuerySet[CompanyAsset]:
    return CompanyAsset.objects.select_related("asset_type", "home_yard")


def filter_company_assets(qs: QuerySet[CompanyAsset], params: Any) -> QuerySet[CompanyAsset]:
    if params.asset_type_id:
        qs = qs.filter(asset_type_id=params.asset_type_id)
    if params.category:
        qs = qs.filter(asset_type__category=params.category)
    if params.home_yard_id:
        qs = qs.filter(home_yard_id=params.home_yard_id)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs


def drivers() -> QuerySet[Driver]:
    return Driver.objects.select_related("home_yard", "region", "user")


def fill_driver_rows(items: list[dict[str, Any]]) -> None:
    """The driver list's days to each expiry and its warnings on its plain rows (core.crud
    `fill_rows`); DriverOut's resolvers say the same of a model instance."""
    today = timezone.localdate()
    for item in items:
        licence = item["licence_expires_in_days"] = Driver.days_until(item["licence_expiry"], today)
        hazmat = item["hazmat_expires_in_days"] = Driver.days_until(item["hazmat_expiry"], today)
        item["expiry_warnings"] = expiry_warnings(licence, hazmat)


def driver_list_clock(params: Any) -> dt.date | None:
    """What the driver list's query reads of the clock: today, when it filters on expiry within days
    of it (core.crud `shape_clock`)."""
    return timezone.localdate() if params.expiring_within_days is not None else None


def filter_drivers(qs: QuerySet[Driver], params: Any) -> QuerySet[Driver]:
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    if params.home_yard_id:
        qs = qs.filter(home_yard_id=params.home_yard_id)
    if params.region_id:
        qs = qs.filter(region_id=params.region_id)
    if params.has_login is not None:
        qs = qs.filter(user__isnull=not params.has_login)
    if params.expiring_within_days is not None:
        limit = timezone.localdate() + dt.timedelta(days=params.expiring_within_days)
        qs = qs.filter(Q(licence_expiry__lte=limit) | Q(hazmat_expiry__lte=limit))
    return qs
