"""Keep-full forecasting (`/api/forecast/...`): the due list and its orders, a tank's forecast page and
settings, tank readings (monitors, CSV), weather zones and temperatures, and forecast runs.

Permissions: `forecast.view` (due list, tank pages, runs), `forecast.change` (a tank's settings),
`forecast.run` (run it now); `tank_reading.*` (readings, their import); `weather_zone.*` and
`daily_temperature.*` (zones, temperatures, the provider). Creating orders from the due list also
needs `sales_order.add`.
"""

from __future__ import annotations

from typing import Any

from core.crud import Crud
from core.csv_io import CsvImport, Lookup
from core.envelope import Answer, Envelope, Page, ok, page_of
from core.errors import ApiError
from core.listing import ListSpec
from core.permissions import denial_message, perm, register_resource
from django.db import transaction
from django.http import HttpRequest
from ninja import Query, Router

from tenants.forecast import selectors, services, weather
from tenants.forecast.models import DailyTemperature, ForecastRun, TankReading, WeatherZone
from tenants.forecast.schemas import (
    DueListOut,
    DueOrdersIn,
    DueOrdersOut,
    DueQuery,
    ForecastRunOut,
    ForecastRunQuery,
    TankForecastOut,
    TankReadingIn,
    TankReadingOut,
    TankReadingQuery,
    TankSettingsIn,
    TankSettingsOut,
    TemperatureIn,
    TemperatureOut,
    TemperatureQuery,
    WeatherFetchOut,
    WeatherProviderIn,
    WeatherProviderOut,
    WeatherZoneIn,
    WeatherZoneOut,
)

router = Router(tags=["forecast"])
register_resource("forecast", "Keep-full forecasts", ("view", "change", "run"))


def _asset_or_404(asset_id: int) -> Any:
    asset = selectors.tank_asset(asset_id)
    if asset is None:
        raise ApiError(404, "Customer asset not found")
    return asset


# --- the due list --------------------------------------------------------------------------------
@router.get(
    "/due",
    response=Envelope[DueListOut],
    auth=perm("forecast.view"),
    operation_id="forecast_due",
    summary="Keep-full tanks reaching their reorder point within N days, the riskiest first",
)
def due(request: HttpRequest, query: Query[DueQuery]) -> Answer:
    data = selectors.due_rows(
        within_days=query.within_days,
        customer_id=query.customer_id,
        zone_id=query.zone_id,
        include_ordered=query.include_ordered,
    )
    return ok(data, f"{len(data['rows'])} tanks due within {query.within_days} days")


@router.post(
    "/due/orders",
    response={201: Envelope[DueOrdersOut]},
    auth=perm("forecast.view"),
    operation_id="forecast_due_orders",
    summary="Create the sales orders of the selected due tanks (priced by the engine), in one action",
    description="One draft order per tank, with the suggested date and quantity unless given. All or "
    "nothing: a tank with an open order (409), without a product or an unknown tank (422) creates none. "
    "Needs `sales_order.add` too.",
)
def due_orders(request: HttpRequest, payload: DueOrdersIn) -> Answer:
    if not request.auth.has_perm("sales_order.add"):  # type: ignore[attr-defined]
        raise ApiError(403, denial_message("sales_order.add"))
    orders = services.create_due_orders([r.dict() for r in payload.tanks], by=request.auth)
    n = len(orders)
    return ok({"orders": orders}, f"{n} sales order{'s' if n != 1 else ''} created", status=201)


# --- a tank --------------------------------------------------------------------------------------
@router.get(
    "/tank/{int:asset_id}",
    response=Envelope[TankForecastOut],
    auth=perm("forecast.view"),
    operation_id="forecast_tank",
    summary="A tank's forecast: settings, fit, history, projection, reorder and run-out dates",
)
def tank(request: HttpRequest, asset_id: int) -> Answer:
    return ok(selectors.tank_page(_asset_or_404(asset_id)), "Tank forecast retrieved successfully")


@router.put(
    "/tank/{int:asset_id}/settings",
    response=Envelope[TankSettingsOut],
    auth=perm("forecast.change"),
    operation_id="forecast_tank_settings",
    summary="Set a tank's program, usage model, max fill, reorder point, weather zone and overrides",
)
def tank_settings(request: HttpRequest, asset_id: int, payload: TankSettingsIn) -> Answer:
    asset = _asset_or_404(asset_id)
    row = services.save_tank_settings(asset=asset, data=payload.dict())
    return ok(selectors.settings_out(selectors.settings_for(row.asset)), "Tank settings saved successfully")


# --- readings ------------------------------------------------------------------------------------
reading_crud = Crud(
    router=router,
    resource="tank_reading",
    label="Tank reading",
    model=TankReading,
    out=TankReadingOut,
    create_in=TankReadingIn,
    path="/reading",
    ops=("list", "get"),
    default_size=50,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("asset_name", "serial_number"),
    extra_columns=("asset_name", "serial_number"),  # the queryset's annotations
    queryset=selectors.readings,
    filters=TankReadingQuery,
    apply_filters=selectors.filter_readings,
    create=services.import_reading,
    importer=CsvImport(
        columns={
            "serial_number": "Required unless asset_id is given. The tank's serial number.",
            "asset_id": "The tank (customer asset) id, instead of its serial number.",
            "level_percent": "The level, 0 to 100 % of the tank's capacity (or level_gallons).",
            "level_gallons": "The level in gallons, 0 to the tank's capacity (or level_percent).",
            "taken_at": "Required. When it was read, e.g. 2026-01-15T07:30:00-05:00 (not in the future).",
        },
        required=("taken_at",),
    ),
    spec=ListSpec(
        sort={"taken_at": "taken_at", "level_percent": "level_percent"},
        filters={"taken_at": ("taken_at", "datetime"), "source": ("source", "str")},
        default_sort="-taken_at",
    ),
)


@router.post(
    "/reading",
    response={200: Envelope[TankReadingOut], 201: Envelope[TankReadingOut]},
    auth=perm("tank_reading.add"),
    operation_id="tank_reading_record",
    summary="Record a tank's level (tank monitors): serial number, level % or gallons, time",
    description="The tank is refit at once (a reading resets its projection). The same tank and time "
    "again answers 200 with the stored reading, unchanged.",
)
def record_reading(request: HttpRequest, payload: TankReadingIn) -> Answer:
    with transaction.atomic():
        reading, created = services.record_reading(payload.dict(), by=request.auth)
    reading = reading_crud.get_object(reading.pk)
    if not created:
        return ok(reading, "This reading was already recorded")
    return ok(reading, "Tank reading recorded successfully", status=201)


# --- weather -------------------------------------------------------------------------------------
Crud(
    router=router,
    resource="weather_zone",
    label="Weather zone",
    model=WeatherZone,
    out=WeatherZoneOut,
    create_in=WeatherZoneIn,
    path="/weather/zones",
    ops=("list", "all", "get", "create", "update", "delete"),
    default_size=50,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    spec=ListSpec(
        search=("code", "name", "station"),
        sort={"name": "name", "code": "code"},
        filters={"is_active": ("is_active", "bool")},
        default_sort="name",
    ),
)

temperature_crud = Crud(
    router=router,
    resource="daily_temperature",
    label="Daily temperature",
    model=DailyTemperature,
    out=TemperatureOut,
    create_in=TemperatureIn,
    path="/weather/temperatures",
    ops=("list", "get", "delete"),
    default_size=100,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    queryset=selectors.temperatures,
    filters=TemperatureQuery,
    apply_filters=selectors.filter_temperatures,
    create=services.import_temperature,
    importer=CsvImport(
        columns={
            "zone": "Required. The weather zone's code or name (or a zone_id column).",
            "day": "Required. YYYY-MM-DD.",
            "mean_f": "Required. The day's mean temperature, °F (-60 to 130).",
            "kind": "observed (default) or forecast.",
        },
        required=(("zone", "zone_id"), "day", "mean_f"),
        lookups=(Lookup("zone", "zone_id", WeatherZone, ("code", "name")),),
    ),
    spec=ListSpec(
        sort={"day": "day", "mean_f": "mean_f"},
        filters={"day": ("day", "date"), "mean_f": ("mean_f", "decimal"), "kind": ("kind", "str")},
        default_sort="-day",
    ),
)


@router.post(
    "/weather/temperatures",
    response={201: Envelope[TemperatureOut]},
    auth=perm("daily_temperature.add"),
    operation_id="daily_temperature_save",
    summary="Record a zone's mean temperature of a day (the same zone, day and kind is replaced)",
)
def save_temperature(request: HttpRequest, payload: TemperatureIn) -> Answer:
    with transaction.atomic():
        row = services.save_temperature(payload.dict())
    return ok(temperature_crud.get_object(row.pk), "Temperature saved successfully", status=201)


def _provider_out(row: Any) -> dict[str, Any]:
    return {
        "kind": row.kind,
        "base_url": row.base_url,
        "has_api_key": bool(row.api_key),
        "last_fetch_at": row.last_fetch_at,
        "last_error": row.last_error,
    }


@router.get(
    "/weather/provider",
    response=Envelope[WeatherProviderOut],
    auth=perm("weather_zone.view"),
    operation_id="weather_provider_get",
    summary="The production weather provider (none: temperatures from the office only)",
)
def get_provider(request: HttpRequest) -> Answer:
    return ok(_provider_out(services.provider_settings()), "Weather provider retrieved successfully")


@router.put(
    "/weather/provider",
    response=Envelope[WeatherProviderOut],
    auth=perm("weather_zone.change"),
    operation_id="weather_provider_save",
    summary="Configure the production weather provider (the API key is never answered)",
)
def save_provider(request: HttpRequest, payload: WeatherProviderIn) -> Answer:
    return ok(_provider_out(services.save_provider(payload.dict())), "Weather provider saved successfully")


@router.post(
    "/weather/provider/fetch",
    response=Envelope[WeatherFetchOut],
    auth=perm("weather_zone.change"),
    operation_id="weather_provider_fetch",
    summary="Fetch observed and forecast temperatures of every zone with a station now",
)
def fetch_provider(request: HttpRequest) -> Answer:
    if services.provider_settings().kind == "none":
        raise ApiError(409, "No weather provider is configured: set one, or import temperatures as CSV.")
    with transaction.atomic():
        result = weather.fetch_all()
    data = {
        "zones": result.zones,
        "observed": result.observed,
        "forecast": result.forecast,
        "errors": result.errors,
    }
    return ok(data, f"{result.observed + result.forecast} temperatures fetched for {result.zones} zones")


# --- runs ----------------------------------------------------------------------------------------
@router.post(
    "/run",
    response={202: Envelope[ForecastRunOut]},
    auth=perm("forecast.run"),
    operation_id="forecast_run",
    summary="Run the forecast of every keep-full tank now (a worker job; poll the run for progress)",
)
def run(request: HttpRequest) -> Answer:
    with transaction.atomic():
        row = services.start_run(by=request.auth)
    return ok(row, "Forecast run queued", status=202)


@router.get(
    "/runs",
    response=Envelope[Page[ForecastRunOut]],
    auth=perm("forecast.view"),
    operation_id="forecast_runs",
    summary="The latest forecast runs with their progress and outcome",
)
def runs(request: HttpRequest, query: Query[ForecastRunQuery]) -> Answer:
    page, size = query.page, query.size
    qs = ForecastRun.objects.order_by("-created_at", "-id")
    total = qs.count()
    items = list(qs[(page - 1) * size : page * size])
    return ok(page_of(items, total=total, page=page, size=size), "Forecast runs retrieved successfully")


@router.get(
    "/run/{int:id}",
    response=Envelope[ForecastRunOut],
    auth=perm("forecast.view"),
    operation_id="forecast_run_get",
    summary="A forecast run: its progress (done of total tanks) and outcome",
)
def run_get(request: HttpRequest, id: int) -> Answer:
    row = ForecastRun.objects.filter(pk=id).first()
    if row is None:
        raise ApiError(404, "Forecast run not found")
    return ok(row, "Forecast run retrieved successfully")


# (prefix, router) pairs mounted by fueldesk.api
routes: list[tuple[str, Router]] = [("/forecast", router)]
