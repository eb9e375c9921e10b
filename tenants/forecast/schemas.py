"""Schemas of keep-full forecasting (`/api/forecast/...`). Names start with Forecast, Tank or Weather."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal

from ninja import Field, Schema
from pydantic import ConfigDict, model_validator

from tenants.geo.schemas import StrippedIn

MAX_DUE_DAYS = 60
MAX_ORDER_ROWS = 200
MIN_TEMP_F = Decimal("-60")
MAX_TEMP_F = Decimal("130")


# --- weather -------------------------------------------------------------------------------------
class WeatherZoneIn(StrippedIn):
    code: str = Field(..., min_length=1, max_length=40)
    name: str = Field(..., min_length=1, max_length=120)
    station: str = Field(
        "", max_length=40, description="The provider's station id (used only where configured)"
    )
    latitude: Decimal | None = Field(None, ge=-90, le=90, max_digits=9, decimal_places=6)
    longitude: Decimal | None = Field(None, ge=-180, le=180, max_digits=9, decimal_places=6)
    is_active: bool = True


class WeatherZoneOut(Schema):
    id: int
    code: str
    name: str
    station: str
    latitude: Decimal | None = None
    longitude: Decimal | None = None
    is_active: bool


class WeatherZoneRef(Schema):
    id: int
    code: str
    name: str


class TemperatureIn(Schema):
    zone_id: int = Field(..., ge=1)
    day: dt.date
    mean_f: Decimal = Field(
        ...,
        ge=MIN_TEMP_F,
        le=MAX_TEMP_F,
        max_digits=5,
        decimal_places=1,
        description="Daily mean, °F (-60..130)",
    )
    kind: Literal["observed", "forecast"] = "observed"


class TemperatureOut(Schema):
    id: int
    zone: WeatherZoneRef
    day: dt.date
    mean_f: Decimal
    kind: str
    source: str


class TemperatureQuery(Schema):
    zone_id: int | None = Field(None, ge=1)
    day_from: dt.date | None = None
    day_to: dt.date | None = None


class WeatherProviderIn(StrippedIn):
    kind: Literal["none", "meteostat"] = "none"
    base_url: str = Field("", max_length=300, description="The provider's API root (https://...)")
    api_key: str | None = Field(None, max_length=200, description="Left out: kept as it is")


class WeatherProviderOut(Schema):
    kind: str
    base_url: str
    has_api_key: bool
    last_fetch_at: dt.datetime | None = None
    last_error: str = ""


class WeatherFetchOut(Schema):
    zones: int
    observed: int
    forecast: int
    errors: list[str]


# --- readings ------------------------------------------------------------------------------------
class TankReadingIn(Schema):
    """A reading from a tank monitor (or typed by the office): the tank by its serial number (or its
    asset id), and its level as a % of capacity or in gallons, at a time."""

    model_config = ConfigDict(str_strip_whitespace=True)

    serial_number: str | None = Field(None, max_length=100, description="The tank's serial number")
    asset_id: int | None = Field(None, ge=1, description="Or the tank (customer asset) id")
    level_percent: Decimal | None = Field(None, max_digits=7, decimal_places=2, description="0..100")
    level_gallons: Decimal | None = Field(None, max_digits=14, decimal_places=2, description="0..capacity")
    taken_at: dt.datetime = Field(..., description="When the level was read (not in the future)")
    source: Literal["monitor", "office", "csv"] = "monitor"


class TankReadingOut(Schema):
    id: int
    asset_id: int
    asset_name: str
    serial_number: str
    taken_at: dt.datetime
    level_gallons: Decimal
    level_percent: Decimal
    source: str


class TankReadingQuery(Schema):
    asset_id: int | None = Field(None, ge=1)


# --- tank settings and page ----------------------------------------------------------------------
class TankSettingsIn(Schema):
    program: Literal["keep_full", "will_call"] = "will_call"
    usage_model: Literal["weather", "calendar"] = "weather"
    usage_type: str = Field(
        "", max_length=40, description="Typical use (residential_heating, farm_diesel, ...)"
    )
    max_fill_percent: Decimal = Field(Decimal("90"), ge=1, le=100, max_digits=5, decimal_places=2)
    reorder_percent: Decimal | None = Field(None, ge=0, lt=100, max_digits=5, decimal_places=2)
    reorder_gallons: Decimal | None = Field(None, ge=0, max_digits=12, decimal_places=2)
    zone_id: int | None = Field(None, ge=1)
    k_factor_override: Decimal | None = Field(
        None, gt=0, le=1000, max_digits=10, decimal_places=3, description="Degree days per gallon"
    )
    baseload_override: Decimal | None = Field(
        None, ge=0, le=10000, max_digits=10, decimal_places=3, description="Gallons a day (weather model)"
    )
    daily_rate_override: Decimal | None = Field(
        None, ge=0, le=100000, max_digits=10, decimal_places=3, description="Gallons a day (calendar model)"
    )

    @model_validator(mode="after")
    def one_reorder_point(self) -> TankSettingsIn:
        if self.reorder_percent is not None and self.reorder_gallons is not None:
            raise ValueError("reorder point: send reorder_percent or reorder_gallons, not both")
        return self


class TankSettingsOut(Schema):
    asset_id: int
    program: str
    usage_model: str
    usage_type: str
    max_fill_percent: Decimal
    reorder_percent: Decimal | None = None
    reorder_gallons: Decimal | None = None
    zone: WeatherZoneRef | None = None
    k_factor_override: Decimal | None = None
    baseload_override: Decimal | None = None
    daily_rate_override: Decimal | None = None


class ForecastParams(Schema):
    k_factor: float | None = None
    baseload: float = 0.0
    daily_rate: float | None = None


class ForecastFitOut(Schema):
    model: str
    k_factor: float | None = None
    baseload: float | None = None
    daily_rate: float | None = None
    low: ForecastParams | None = None
    high: ForecastParams | None = None
    n_intervals: int = 0
    residual_sd: float | None = None
    method: str = ""
    overridden: bool = False
    cannot_fit: str | None = None
    k_range: list[float] | None = Field(None, description="90 % interval of K (low, high)")
    baseload_range: list[float] | None = Field(None, description="90 % interval of the baseload, gal/day")
    rate_range: list[float] | None = Field(None, description="90 % interval of the daily rate, gal/day")
    notes: list[str] = Field(default_factory=list, description="Intervals or days the fit left out, and why")


class ForecastDayOut(Schema):
    day: dt.date
    level: Decimal
    low: Decimal
    high: Decimal


class TankHistoryPoint(Schema):
    at: dt.datetime
    kind: Literal["reading", "delivery"]
    level_gallons: Decimal | None = None
    level_percent: Decimal | None = None
    gallons_delivered: Decimal | None = None
    source: str = ""
    reference: str = ""


class TankRef(Schema):
    id: int
    name: str
    serial_number: str
    capacity: Decimal | None = None
    product_id: int | None = None
    product_name: str = ""
    customer_id: int
    customer_name: str
    ship_to_id: int | None = None
    ship_to_name: str = ""


class TankForecastOut(Schema):
    tank: TankRef
    settings: TankSettingsOut
    usable_gallons: Decimal | None = None
    reorder_gallons: Decimal | None = None
    level_gallons: Decimal | None = None
    level_percent: Decimal | None = None
    level_as_of: dt.date | None = None
    fit: ForecastFitOut | None = None
    projection: list[ForecastDayOut]
    reorder_date: dt.date | None = None
    runout_date: dt.date | None = None
    runout_early: dt.date | None = None
    runout_late: dt.date | None = None
    suggested_date: dt.date | None = None
    suggested_gallons: Decimal | None = None
    confidence: str = ""
    reason: str = ""
    computed_at: dt.datetime | None = None
    cannot_forecast: str = ""
    open_order_id: int | None = None
    open_order_number: str | None = None
    history: list[TankHistoryPoint]


# --- due list and orders -------------------------------------------------------------------------
class DueQuery(Schema):
    within_days: int = Field(7, ge=0, le=MAX_DUE_DAYS, description="Tanks reaching reorder within N days")
    customer_id: int | None = Field(None, ge=1)
    zone_id: int | None = Field(None, ge=1)
    include_ordered: bool = Field(True, description="Also list tanks that already have an open order")


class DueRowOut(Schema):
    asset_id: int
    asset_name: str
    serial_number: str
    customer_id: int
    customer_name: str
    ship_to_id: int | None = None
    ship_to_name: str = ""
    product_id: int | None = None
    product_name: str = ""
    usable_gallons: Decimal
    level_gallons: Decimal
    level_percent: Decimal
    reorder_date: dt.date | None = None
    runout_date: dt.date | None = None
    runout_early: dt.date | None = None
    runout_late: dt.date | None = None
    suggested_date: dt.date
    suggested_gallons: Decimal
    confidence: str
    reason: str
    risk: float
    open_order_id: int | None = None
    open_order_number: str | None = None


class DueListOut(Schema):
    as_of: dt.datetime | None = Field(None, description="When the forecast behind these rows ran")
    within_days: int
    rows: list[DueRowOut]


class DueOrderRowIn(Schema):
    asset_id: int = Field(..., ge=1)
    planned_date: dt.date | None = Field(
        None, description="Default: the suggested date (today at the earliest)"
    )
    quantity: Decimal | None = Field(
        None, gt=0, max_digits=14, decimal_places=3, description="Gallons; default: the suggested quantity"
    )


class DueOrdersIn(Schema):
    tanks: list[DueOrderRowIn] = Field(..., min_length=1, max_length=MAX_ORDER_ROWS)


class DueOrderOut(Schema):
    asset_id: int
    sales_order_id: int
    number: str
    customer_id: int
    planned_date: dt.date
    quantity: Decimal
    unit_price: Decimal | None = None
    amount: Decimal
    price_error: str = ""


class DueOrdersOut(Schema):
    orders: list[DueOrderOut]


# --- runs ----------------------------------------------------------------------------------------
class ForecastRunOut(Schema):
    id: int
    status: str
    trigger: str
    as_of: dt.date | None = None
    done: int
    total: int
    tanks_forecast: int
    tanks_failed: int
    due: int
    step: str
    error: str
    seconds: Decimal | None = None
    created_at: dt.datetime
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None


class ForecastRunQuery(Schema):
    page: int = Field(1, ge=1, le=100_000)
    size: int = Field(20, ge=1, le=100)


class ForecastOrderOut(Schema):
    sales_order_id: int
    asset_id: int
    run_id: int | None = None
    created_at: dt.datetime
    snapshot: dict[str, object]
