from __future__ import annotations

import datetime as dt
from typing import Literal

from core.fields import Email
from ninja import Field, Schema

from tenants.fleet.models import (
    EXPIRY_WARNING_DAYS,
    MAX_CAPACITY_GALLONS,
    MAX_COMPARTMENTS,
    Driver,
    expiry_warnings,
)
from tenants.geo.schemas import RegionRef, StrippedIn, YardRef

AssetCategory = Literal["truck", "trailer", "tank_wagon", "bobtail", "other"]
LicenceClass = Literal["A", "B", "C", ""]


# --- asset types ---------------------------------------------------------------------------------
class AssetTypeIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=100)
    category: AssetCategory = "truck"
    description: str = Field("", max_length=2000)


class AssetTypeRef(Schema):
    id: int
    name: str
    category: str


class AssetTypeOut(AssetTypeRef):
    description: str
    created_at: dt.datetime
    updated_at: dt.datetime


class AssetTypeQuery(Schema):
    category: AssetCategory | None = Field(None, description="Only asset types of this category")


# --- company assets ------------------------------------------------------------------------------
class Compartment(Schema):
    number: int = Field(..., ge=1, le=99, description="Compartment number, front to back from 1")
    capacity: int = Field(..., ge=1, le=MAX_CAPACITY_GALLONS, description="US gallons")


class CompanyAssetIn(StrippedIn):
    asset_number: str = Field(..., min_length=1, max_length=30, description="Fleet number, unique")
    name: str = Field(..., min_length=1, max_length=120)
    asset_type_id: int = Field(..., ge=1)
    capacity: int = Field(0, ge=0, le=MAX_CAPACITY_GALLONS, description="Total tank capacity, US gallons")
    compartments: list[Compartment] = Field(
        default_factory=list,
        max_length=MAX_COMPARTMENTS,
        description="Their capacities add up to at most `capacity`",
    )
    plate: str = Field("", max_length=20)
    vin: str = Field("", max_length=17, description="17-character VIN with a valid check digit, or empty")
    home_yard_id: int | None = Field(None, ge=1)
    is_active: bool = True


class CompanyAssetOut(Schema):
    id: int
    asset_number: str
    name: str
    asset_type_id: int
    asset_type: AssetTypeRef
    capacity: int
    compartments: list[Compartment]
    plate: str
    vin: str
    home_yard_id: int | None
    home_yard: YardRef | None
    is_active: bool
    created_at: dt.datetime
    updated_at: dt.datetime


class CompanyAssetQuery(Schema):
    asset_type_id: int | None = Field(None, ge=1)
    category: AssetCategory | None = Field(None, description="Only assets whose type has this category")
    home_yard_id: int | None = Field(None, ge=1)
    is_active: bool | None = None


# --- drivers -------------------------------------------------------------------------------------
class DriverLoginIn(Schema):
    email: Email
    password: str = Field(..., min_length=1, max_length=256)


class DriverIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=200)
    phone: str = Field("", max_length=40)
    email: Email | Literal[""] = Field("", description="Contact email (the login's email when empty)")
    licence_class: LicenceClass = Field("", description="Commercial driver's licence class; empty: none")
    licence_expiry: dt.date | None = None
    hazmat_expiry: dt.date | None = Field(None, description="Hazmat endorsement expiry")
    home_yard_id: int | None = Field(None, ge=1)
    region_id: int | None = Field(None, ge=1)
    is_active: bool = True
    create_login: DriverLoginIn | None = Field(
        None, description="Create a sign-in with the Driver role for this driver (not with user_id)"
    )
    user_id: int | None = Field(None, ge=1, description="Link an existing user as this driver's sign-in")


class DriverUserRef(Schema):
    id: int
    email: str


class DriverOut(Schema):
    id: int
    name: str
    phone: str
    email: str
    licence_class: str
    licence_expiry: dt.date | None
    hazmat_expiry: dt.date | None
    licence_expires_in_days: int | None = Field(None, description="Negative once expired")
    hazmat_expires_in_days: int | None = Field(None, description="Negative once expired")
    expiry_warnings: list[str] = Field(
        default_factory=list, description=f"Expired, or expiring within {EXPIRY_WARNING_DAYS} days"
    )
    home_yard_id: int | None
    home_yard: YardRef | None
    region_id: int | None
    region: RegionRef | None
    is_active: bool
    user: DriverUserRef | None
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_licence_expires_in_days(obj: Driver) -> int | None:
        return Driver.days_until(obj.licence_expiry)

    @staticmethod
    def resolve_hazmat_expires_in_days(obj: Driver) -> int | None:
        return Driver.days_until(obj.hazmat_expiry)

    @staticmethod
    def resolve_expiry_warnings(obj: Driver) -> list[str]:
        return expiry_warnings(Driver.days_until(obj.licence_expiry), Driver.days_until(obj.hazmat_expiry))


class DriverQuery(Schema):
    is_active: bool | None = None
    home_yard_id: int | None = Field(None, ge=1)
    region_id: int | None = Field(None, ge=1)
    has_login: bool | None = Field(None, description="Only drivers with (true) or without (false) a sign-in")
    expiring_within_days: int | None = Field(
        None,
        ge=0,
        le=3650,
        description="Only drivers whose licence or hazmat endorsement expires within N days",
    )
