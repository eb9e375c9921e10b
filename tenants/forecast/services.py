"""Writes of keep-full forecasting: tank settings, readings, temperatures and the provider, forecast
runs, and the orders created from the due list. Every write that changes what a tank's forecast
rests on (its settings, a reading, a delivery) refits that tank at once."""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from core.crud import check_foreign_keys
from core.errors import ApiError
from core.jobs import Document, send_job
from django.db import connection, transaction
from django.utils import timezone

from tenants.forecast import forecasting
from tenants.forecast.models import (
    DailyTemperature,
    ForecastOrder,
    ForecastRun,
    TankForecast,
    TankReading,
    TankSettings,
    WeatherProvider,
)
from tenants.forecast.selectors import open_orders
from tenants.parties.models import CustomerAsset
from tenants.pricing.money import round_to_step

log = logging.getLogger(__name__)
FUTURE_SLACK = dt.timedelta(minutes=5)
OLDEST_READING = dt.timedelta(days=3653)
MAX_PLAN_AHEAD = dt.timedelta(days=366)
RUN_STALE_AFTER = dt.timedelta(minutes=30)
CENT = Decimal("0.01")


def num(value: Decimal | None) -> str:
    """A quantity as people write it: 1000.00 -> 1000, 12.50 -> 12.5."""
    if value is None:
        return "none"
    text = f"{Decimal(value):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# --- tank settings -------------------------------------------------------------------------------
def save_tank_settings(*, asset: CustomerAsset, data: dict[str, Any]) -> TankSettings:
    check_foreign_keys(TankSettings, {"zone_id": data.get("zone_id")})
    if data.get("usage_model") == "calendar" and (
        data.get("k_factor_override") is not None or data.get("baseload_override") is not None
    ):
        raise ApiError(
            422, "k_factor_override: K and baseload are for the weather model; send daily_rate_override."
        )
    if data.get("usage_model") == "weather" and data.get("daily_rate_override") is not None:
        raise ApiError(
            422, "daily_rate_override: a daily rate is for the calendar model; send K or baseload."
        )
    capacity = asset.capacity
    if data.get("reorder_gallons") is not None and capacity and capacity > 0:
        usable = capacity * data["max_fill_percent"] / 100
        if data["reorder_gallons"] >= usable:
            raise ApiError(
                422,
                f"reorder_gallons: {num(data['reorder_gallons'])} gal is not below the usable capacity "
                f"({num(round_to_step(usable, CENT))} gal at {num(data['max_fill_percent'])} % max fill).",
            )
    if data.get("reorder_percent") is not None and data["reorder_percent"] >= data["max_fill_percent"]:
        raise ApiError(
            422,
            f"reorder_percent: {num(data['reorder_percent'])} % is not below the max fill "
            f"({num(data['max_fill_percent'])} %).",
        )
    with transaction.atomic():
        row = TankSettings.objects.select_for_update().filter(asset=asset).first() or TankSettings(
            asset=asset
        )
        for key, value in data.items():
            setattr(row, key, value)
        row.save()
        refit([asset.pk])
    return row


def refit(asset_ids: Sequence[int]) -> None:
    """Forecast these tanks again now (after a reading, a delivery or new settings). Never raises:
    a failure is the tank's `cannot_forecast`, logged."""
    try:
        with transaction.atomic():
            forecasting.run_forecast(asset_ids=list(asset_ids))
    except Exception as exc:
        log.exception("refit of tanks %s failed", asset_ids)
        now = timezone.now()
        for asset_id in asset_ids:
            TankForecast.objects.update_or_create(
                asset_id=asset_id,
                defaults={
                    "computed_at": now,
                    "cannot_forecast": f"the forecast failed: {exc}"[:300],
                    "projection": {},
                },
            )


class _RefitAfterCommit:
    """The tanks to refit when the transaction commits, in the tenant that changed them."""

    def __init__(self, tenant: Any) -> None:
        self.tenant = tenant
        self.ids: set[int] = set()

    def __call__(self) -> None:
        previous = getattr(connection, "tenant", None)
        connection.set_tenant(self.tenant)
        try:
            refit(sorted(self.ids))
        finally:
            if previous is not None and previous != self.tenant:
                connection.set_tenant(previous)
            elif previous is None:
                connection.set_schema_to_public()


def refit_after_commit(asset_id: int) -> None:
    """Refit the tank once the transaction commits (an import of many readings: once per tank). A
    rolled back transaction drops the pending refit with its other on-commit hooks."""
    for _sids, func, _robust in transaction.get_connection().run_on_commit:
        if isinstance(func, _RefitAfterCommit):
            func.ids.add(asset_id)
            return
    pending = _RefitAfterCommit(connection.tenant)
    pending.ids.add(asset_id)
    transaction.on_commit(pending)


# --- readings ------------------------------------------------------------------------------------
def _tank_for(data: dict[str, Any]) -> CustomerAsset:
    serial = (data.get("serial_number") or "").strip()
    asset_id = data.get("asset_id")
    if not serial and not asset_id:
        raise ApiError(422, "serial_number: send the tank's serial number (or its asset_id).")
    qs = CustomerAsset.objects.all()
    if asset_id:
        asset = qs.filter(pk=asset_id).first()
        if asset is None:
            raise ApiError(422, f"asset_id: no tank with id {asset_id}.")
        if serial and asset.serial_number.strip().lower() != serial.lower():
            raise ApiError(
                422,
                f"serial_number: tank {asset_id} has serial number {asset.serial_number!r}, not {serial!r}.",
            )
        return asset
    found = list(qs.filter(serial_number__iexact=serial)[:2])
    if not found:
        raise ApiError(422, f"serial_number: no tank has serial number {serial!r}.")
    if len(found) > 1:
        raise ApiError(422, f"serial_number: several tanks have serial number {serial!r}: send asset_id.")
    return found[0]


def _level(data: dict[str, Any], asset: CustomerAsset) -> tuple[Decimal, Decimal]:
    pct, gallons = data.get("level_percent"), data.get("level_gallons")
    if pct is None and gallons is None:
        raise ApiError(422, "level_percent: send the level as level_percent or level_gallons.")
    if pct is not None and gallons is not None:
        raise ApiError(422, "level_percent: send level_percent or level_gallons, not both.")
    capacity = asset.capacity
    if capacity is None or capacity <= 0:
        raise ApiError(
            422,
            f"asset: tank {asset.asset_name!r} has no capacity: set its capacity before recording levels.",
        )
    if pct is not None:
        pct = Decimal(pct)
        if pct < 0:
            raise ApiError(422, f"level_percent: {num(pct)} % is negative: a level is 0 to 100 %.")
        if pct > 100:
            raise ApiError(
                422, f"level_percent: {num(pct)} % is above 100 %: a tank cannot hold more than its capacity."
            )
        return round_to_step(capacity * pct / 100, CENT), round_to_step(pct, CENT)
    gallons = Decimal(str(gallons))
    if gallons < 0:
        raise ApiError(422, f"level_gallons: {num(gallons)} gal is negative.")
    if gallons > capacity:
        raise ApiError(
            422, f"level_gallons: {num(gallons)} gal is above the tank's capacity ({num(capacity)} gal)."
        )
    return round_to_step(gallons, CENT), round_to_step(gallons * 100 / capacity, CENT)


def record_reading(
    data: dict[str, Any], *, by: Any = None, source: str | None = None, now_refit: bool = True
) -> tuple[TankReading, bool]:
    """Record a level (by serial number or asset id); answers (reading, created). The same tank and
    instant again answers the stored reading unchanged (a monitor that sends twice)."""
    asset = _tank_for(data)
    gallons, pct = _level(data, asset)
    taken_at: dt.datetime = data["taken_at"]
    if timezone.is_naive(taken_at):
        taken_at = timezone.make_aware(taken_at)
    if taken_at > timezone.now() + FUTURE_SLACK:
        raise ApiError(422, "taken_at: a reading cannot be in the future.")
    if taken_at < timezone.now() - OLDEST_READING:
        raise ApiError(422, "taken_at: a reading more than 10 years old is not recorded.")
    existing = TankReading.objects.filter(asset=asset, taken_at=taken_at).first()
    if existing is not None:
        return existing, False
    reading = TankReading.objects.create(
        asset=asset,
        taken_at=taken_at,
        level_gallons=gallons,
        level_percent=pct,
        source=source or data.get("source") or TankReading.Source.MONITOR,
        created_by=by if getattr(by, "pk", None) else None,
    )
    if now_refit:
        refit([asset.pk])
    else:
        refit_after_commit(asset.pk)
    return reading, True


def import_reading(data: dict[str, Any]) -> TankReading:
    """A row of the readings CSV import (the tank is refit once, when the import commits)."""
    reading, _ = record_reading({**data, "source": TankReading.Source.CSV}, now_refit=False)
    return reading


def record_driver_levels(ticket_lines: Sequence[Any]) -> list[int]:
    """The driver's "level before" of delivered ticket lines, stored as readings (once per line),
    just before the delivery. Answers the tanks concerned."""
    tanks = []
    for line in ticket_lines:
        tank = line.tank
        if tank is None or line.level_before_percent is None or not tank.capacity:
            continue
        when = line.ticket.delivered_at or timezone.now()
        pct = min(max(line.level_before_percent, Decimal(0)), Decimal(100))
        TankReading.objects.update_or_create(
            ticket_line=line,
            defaults={
                "asset": tank,
                "taken_at": when - dt.timedelta(seconds=1),
                "level_gallons": round_to_step(tank.capacity * pct / 100, CENT),
                "level_percent": round_to_step(pct, CENT),
                "source": TankReading.Source.DRIVER,
            },
        )
        tanks.append(tank.pk)
    return tanks


# --- weather -------------------------------------------------------------------------------------
def save_temperature(data: dict[str, Any], *, source: str = "office") -> DailyTemperature:
    """A zone's mean of a day (observed or forecast): the same zone, day and kind again replaces it."""
    check_foreign_keys(DailyTemperature, {"zone_id": data["zone_id"]})
    row, _ = DailyTemperature.objects.update_or_create(
        zone_id=data["zone_id"],
        day=data["day"],
        kind=data.get("kind") or DailyTemperature.Kind.OBSERVED,
        defaults={"mean_f": data["mean_f"], "source": source},
    )
    return row


def import_temperature(data: dict[str, Any]) -> DailyTemperature:
    return save_temperature(data, source="csv")


def provider_settings() -> WeatherProvider:
    return WeatherProvider.objects.order_by("id").first() or WeatherProvider()


def save_provider(data: dict[str, Any]) -> WeatherProvider:
    kind = data.get("kind") or "none"
    base_url = (data.get("base_url") or "").strip()
    if kind != "none" and not base_url.startswith(("https://", "http://")):
        raise ApiError(422, "base_url: the provider's API address (https://...) is required.")
    with transaction.atomic():
        row = WeatherProvider.objects.select_for_update().order_by("id").first() or WeatherProvider()
        row.kind = kind
        row.base_url = base_url
        if data.get("api_key") is not None:
            row.api_key = data["api_key"]
        row.save()
    return row


# --- runs ----------------------------------------------------------------------------------------
def start_run(*, by: Any, trigger: str = ForecastRun.Trigger.MANUAL) -> ForecastRun:
    """Queue a forecast of every keep-full tank (the worker runs it, with progress)."""
    from tenants.forecast import tasks

    busy = ForecastRun.objects.filter(
        status__in=[ForecastRun.Status.QUEUED, ForecastRun.Status.RUNNING],
        created_at__gte=timezone.now() - RUN_STALE_AFTER,
    ).first()
    if busy is not None:
        raise ApiError(
            409, f"A forecast run is already {busy.status} (run {busy.pk}): wait for it to finish."
        )
    run = ForecastRun.objects.create(trigger=trigger, created_by=by if getattr(by, "pk", None) else None)
    schema = connection.schema_name
    transaction.on_commit(
        lambda: send_job(
            tasks.run_forecast_job,
            run_id=run.pk,
            schema=schema,
            document=Document("forecast_run", run.pk, f"Forecast run {run.pk}", "/forecast/due"),
        )
    )
    return run


def execute_run(run_id: int, *, progress: Any = None, today: dt.date | None = None) -> ForecastRun:
    """The worker's half: run the forecast, keeping the run's progress and outcome."""
    run = ForecastRun.objects.filter(pk=run_id).first()
    if run is None:
        run = ForecastRun.objects.create(trigger=ForecastRun.Trigger.NIGHTLY)
    if run.status == ForecastRun.Status.SUCCEEDED:
        return run
    started = time.perf_counter()
    run.status, run.started_at = ForecastRun.Status.RUNNING, timezone.now()
    run.as_of = today or timezone.localdate()
    run.step = "Reading the tanks"
    run.save()

    def step(done: int, total: int) -> None:
        ForecastRun.objects.filter(pk=run.pk).update(done=done, total=total, step=f"{done} of {total} tanks")
        if progress is not None:
            progress()

    try:
        result = forecasting.run_forecast(today=run.as_of, run=run, progress=step)
    except Exception as exc:
        log.exception("forecast run %s failed", run.pk)
        ForecastRun.objects.filter(pk=run.pk).update(
            status=ForecastRun.Status.FAILED,
            error=str(exc)[:2000] or type(exc).__name__,
            finished_at=timezone.now(),
            step="Failed",
        )
        raise
    run.refresh_from_db()
    run.status = ForecastRun.Status.SUCCEEDED
    run.total, run.done = result.tanks, result.tanks
    run.tanks_forecast, run.tanks_failed, run.due = result.forecast, result.failed, result.due
    run.step = f"{result.forecast} tanks forecast, {result.failed} cannot be, {result.due} due"
    run.finished_at = timezone.now()
    run.seconds = round_to_step(Decimal(str(time.perf_counter() - started)), Decimal("0.001"))
    run.save()
    return run


# --- orders from the due list ----------------------------------------------------------------------
def create_due_orders(rows: Sequence[dict[str, Any]], *, by: Any) -> list[dict[str, Any]]:
    """One draft sales order per selected tank, priced by the pricing engine (the sales app's
    create), remembering the forecast it came from. All or nothing: any refused row creates none."""
    from tenants.sales import services as sales_services

    ids = [r["asset_id"] for r in rows]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ApiError(422, f"tanks: tank {dupes[0]} is selected twice.")
    today = timezone.localdate()
    assets = {a.pk: a for a in CustomerAsset.objects.select_related("product", "customer").filter(pk__in=ids)}
    forecasts = {f.asset_id: f for f in TankForecast.objects.filter(asset_id__in=ids)}
    created: list[dict[str, Any]] = []
    with transaction.atomic():
        # Lock the tanks' forecast rows: two dispatchers clicking at once cannot both order a tank.
        list(TankForecast.objects.select_for_update().filter(asset_id__in=ids))
        open_now = open_orders(ids)
        for i, row in enumerate(rows):
            where = f"tanks[{i}]"
            asset = assets.get(row["asset_id"])
            if asset is None:
                raise ApiError(422, f"{where}.asset_id: no tank with id {row['asset_id']}.")
            if row["asset_id"] in open_now:
                raise ApiError(
                    409,
                    f"{asset.asset_name} already has an open order ({open_now[row['asset_id']][1]}): "
                    "it is not ordered twice.",
                )
            if asset.product_id is None:
                raise ApiError(
                    422, f"{where}: {asset.asset_name} has no product: set the tank's product first."
                )
            fc = forecasts.get(asset.pk)
            quantity = row.get("quantity")
            if quantity is None:
                if fc is None or fc.suggested_gallons is None or fc.suggested_gallons <= 0:
                    raise ApiError(
                        422,
                        f"{where}.quantity: {asset.asset_name} has no suggested quantity: send the quantity.",
                    )
                quantity = Decimal(fc.suggested_gallons)
            planned = row.get("planned_date") or (fc.suggested_date if fc and fc.suggested_date else today)
            if planned > today + MAX_PLAN_AHEAD:
                raise ApiError(422, f"{where}.planned_date: {planned.isoformat()} is more than a year ahead.")
            if planned < today:
                if row.get("planned_date"):
                    raise ApiError(422, f"{where}.planned_date: {planned.isoformat()} is in the past.")
                planned = today
            order = sales_services.create_order(
                {
                    "customer_id": asset.customer_id,
                    "ship_to_id": asset.ship_to_id,
                    "planned_date": planned,
                    "po_number": "",
                    "instructions": "Keep-full delivery (from the forecast).",
                    "line_items": [
                        {"product_id": asset.product_id, "quantity": quantity, "customer_asset_id": asset.pk}
                    ],
                    "fees": [],
                },
                by=by,
            )
            ForecastOrder.objects.create(
                sales_order=order,
                asset=asset,
                run_id=fc.run_id if fc else None,
                snapshot=snapshot(fc),
                created_by=by if getattr(by, "pk", None) else None,
            )
            line = order.line_items.order_by("id").first()
            created.append(
                {
                    "asset_id": asset.pk,
                    "sales_order_id": order.pk,
                    "number": order.number,
                    "customer_id": asset.customer_id,
                    "planned_date": order.planned_date,
                    "quantity": line.quantity if line else quantity,
                    "unit_price": line.unit_price if line else None,
                    "amount": line.amount if line else Decimal(0),
                    "price_error": line.price_error if line else "",
                }
            )
            open_now[asset.pk] = (order.pk, order.number)
    return created


def snapshot(fc: TankForecast | None) -> dict[str, Any]:
    if fc is None:
        return {}

    def iso(d: dt.date | None) -> str | None:
        return d.isoformat() if d else None

    return {
        "computed_at": fc.computed_at.isoformat() if fc.computed_at else None,
        "run_id": fc.run_id,
        "suggested_date": iso(fc.suggested_date),
        "suggested_gallons": str(fc.suggested_gallons) if fc.suggested_gallons is not None else None,
        "level_gallons": str(fc.level_gallons) if fc.level_gallons is not None else None,
        "reorder_date": iso(fc.reorder_date),
        "runout_date": iso(fc.runout_date),
        "runout_early": iso(fc.runout_early),
        "runout_late": iso(fc.runout_late),
        "risk": fc.risk,
        "confidence": fc.confidence,
        "reason": fc.reason,
        "fit": fc.fit,
    }
