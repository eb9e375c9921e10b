"""Reads of keep-full forecasting: the due list, a tank's page, readings, temperatures."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db.models import F, QuerySet
from django.utils import timezone

from tenants.delivery.models import DeliveryTicket, DeliveryTicketLine
from tenants.forecast.models import DailyTemperature, ForecastRun, TankForecast, TankReading, TankSettings
from tenants.parties.models import CustomerAsset

HISTORY_POINTS = 200
OPEN_ORDER_STATUSES = ("draft", "verified", "assigned", "in_delivery")


def settings_for(asset: CustomerAsset) -> TankSettings:
    """The tank's settings row, or unsaved defaults (will call, weather, 90 % max fill)."""
    found = TankSettings.objects.select_related("zone").filter(asset=asset).first()
    return found if found is not None else TankSettings(asset=asset)


def open_orders(asset_ids: Sequence[int]) -> dict[int, tuple[int, str]]:
    """Tank -> (order id, number) of an open sales order (draft .. in delivery) with a line for it."""
    from tenants.sales.models import LineItem

    found: dict[int, tuple[int, str]] = {}
    for asset_id, order_id, number in (
        LineItem.objects.filter(
            customer_asset_id__in=list(asset_ids), sales_order__status__in=OPEN_ORDER_STATUSES
        )
        .order_by("sales_order_id")
        .values_list("customer_asset_id", "sales_order_id", "sales_order__number")
    ):
        found.setdefault(asset_id, (order_id, number))
    return found


def _pct(gallons: Decimal | None, capacity: Decimal | None) -> Decimal | None:
    if gallons is None or not capacity:
        return None
    return (gallons * 100 / capacity).quantize(Decimal("0.1"))


def due_rows(
    *,
    within_days: int,
    customer_id: int | None = None,
    zone_id: int | None = None,
    include_ordered: bool = True,
) -> dict[str, Any]:
    """Tanks whose suggested delivery falls within `within_days` of today, the riskiest first (then
    the earliest suggested date). A tank with an open order carries it (`open_order_id`)."""
    today = timezone.localdate()
    qs = (
        TankForecast.objects.select_related("asset", "asset__customer", "asset__ship_to", "asset__product")
        .filter(
            suggested_date__isnull=False,
            suggested_date__lte=today + dt.timedelta(days=within_days),
            asset__forecast_settings__program=TankSettings.Program.KEEP_FULL,
        )
        .order_by(F("risk").desc(nulls_last=True), "suggested_date", "asset_id")
    )
    if customer_id is not None:
        qs = qs.filter(asset__customer_id=customer_id)
    if zone_id is not None:
        qs = qs.filter(asset__forecast_settings__zone_id=zone_id)
    forecasts = list(qs[:2000])
    ordered = open_orders([f.asset_id for f in forecasts])
    rows = []
    for f in forecasts:
        asset = f.asset
        order = ordered.get(f.asset_id)
        if order is not None and not include_ordered:
            continue
        ship_to = asset.ship_to
        level = f.level_gallons or Decimal(0)
        rows.append(
            {
                "asset_id": asset.pk,
                "asset_name": asset.asset_name,
                "serial_number": asset.serial_number,
                "customer_id": asset.customer_id,
                "customer_name": asset.customer.name,
                "ship_to_id": asset.ship_to_id,
                "ship_to_name": getattr(ship_to, "name", "") or "",
                "product_id": asset.product_id,
                "product_name": asset.product.name if asset.product else "",
                "usable_gallons": f.usable_gallons or Decimal(0),
                "level_gallons": level,
                "level_percent": _pct(level, asset.capacity) or Decimal(0),
                "reorder_date": f.reorder_date,
                "runout_date": f.runout_date,
                "runout_early": f.runout_early,
                "runout_late": f.runout_late,
                "suggested_date": f.suggested_date,
                "suggested_gallons": f.suggested_gallons or Decimal(0),
                "confidence": f.confidence,
                "reason": f.reason,
                "risk": f.risk or 0.0,
                "open_order_id": order[0] if order else None,
                "open_order_number": order[1] if order else None,
            }
        )
    last = ForecastRun.objects.filter(status=ForecastRun.Status.SUCCEEDED).order_by("-finished_at").first()
    as_of = max(
        [
            t
            for t in (
                last.finished_at if last else None,
                max((f.computed_at for f in forecasts), default=None),
            )
            if t
        ],
        default=None,
    )
    return {"as_of": as_of, "within_days": within_days, "rows": rows}


def tank_asset(asset_id: int) -> CustomerAsset | None:
    return (
        CustomerAsset.objects.select_related("customer", "ship_to", "product", "customer__company_type")
        .filter(pk=asset_id)
        .first()
    )


def settings_out(s: TankSettings) -> dict[str, Any]:
    zone = s.zone if s.zone_id else None
    return {
        "asset_id": s.asset_id,
        "program": s.program,
        "usage_model": s.usage_model,
        "usage_type": s.usage_type,
        "max_fill_percent": s.max_fill_percent,
        "reorder_percent": s.reorder_percent,
        "reorder_gallons": s.reorder_gallons,
        "zone": {"id": zone.pk, "code": zone.code, "name": zone.name} if zone else None,
        "k_factor_override": s.k_factor_override,
        "baseload_override": s.baseload_override,
        "daily_rate_override": s.daily_rate_override,
    }


def history(asset: CustomerAsset) -> list[dict[str, Any]]:
    """The tank's readings and deliveries, oldest first (the last HISTORY_POINTS of each)."""
    points: list[dict[str, Any]] = []
    for r in TankReading.objects.filter(asset=asset).order_by("-taken_at", "-id")[:HISTORY_POINTS]:
        points.append(
            {
                "at": r.taken_at,
                "kind": "reading",
                "level_gallons": r.level_gallons,
                "level_percent": r.level_percent,
                "source": r.source,
                "reference": "",
            }
        )
    lines = (
        DeliveryTicketLine.objects.filter(tank=asset, ticket__status=DeliveryTicket.Status.DELIVERED)
        .select_related("ticket")
        .order_by("-ticket__delivered_at", "-id")[:HISTORY_POINTS]
    )
    for ln in lines:
        qty = ln.gross_volume if ln.gross_volume is not None else ln.delivered_quantity
        points.append(
            {
                "at": ln.ticket.delivered_at,
                "kind": "delivery",
                "gallons_delivered": qty,
                "source": "delivery",
                "reference": ln.ticket.number,
            }
        )
    points.sort(key=lambda p: p["at"])
    return points


def tank_page(asset: CustomerAsset) -> dict[str, Any]:
    s = settings_for(asset)
    f = TankForecast.objects.filter(asset=asset).first()
    order = open_orders([asset.pk]).get(asset.pk)
    projection = []
    if f is not None and f.start and f.projection:
        p = f.projection
        for i, level in enumerate(p.get("level", [])):
            projection.append(
                {
                    "day": f.start + dt.timedelta(days=i),
                    "level": Decimal(str(level)),
                    "low": Decimal(str(p["low"][i])),
                    "high": Decimal(str(p["high"][i])),
                }
            )
    fit = f.fit if f is not None and f.fit else None
    return {
        "tank": {
            "id": asset.pk,
            "name": asset.asset_name,
            "serial_number": asset.serial_number,
            "capacity": asset.capacity,
            "product_id": asset.product_id,
            "product_name": asset.product.name if asset.product else "",
            "customer_id": asset.customer_id,
            "customer_name": asset.customer.name,
            "ship_to_id": asset.ship_to_id,
            "ship_to_name": getattr(asset.ship_to, "name", "") or "",
        },
        "settings": settings_out(s),
        "usable_gallons": f.usable_gallons if f else None,
        "reorder_gallons": f.reorder_gallons if f else None,
        "level_gallons": f.level_gallons if f else None,
        "level_percent": _pct(f.level_gallons, asset.capacity) if f else None,
        "level_as_of": f.level_as_of if f else None,
        "fit": fit,
        "projection": projection,
        "reorder_date": f.reorder_date if f else None,
        "runout_date": f.runout_date if f else None,
        "runout_early": f.runout_early if f else None,
        "runout_late": f.runout_late if f else None,
        "suggested_date": f.suggested_date if f else None,
        "suggested_gallons": f.suggested_gallons if f else None,
        "confidence": f.confidence if f else "",
        "reason": f.reason if f else "",
        "computed_at": f.computed_at if f else None,
        "cannot_forecast": (f.cannot_forecast if f else "")
        or (
            "" if s.program == TankSettings.Program.KEEP_FULL else "the tank is not on the keep-full program"
        ),
        "open_order_id": order[0] if order else None,
        "open_order_number": order[1] if order else None,
        "history": history(asset),
    }


def readings() -> QuerySet[TankReading]:
    """Readings with their tank's name and serial number as columns (the kit's fast list reads them)."""
    return TankReading.objects.annotate(
        asset_name=F("asset__asset_name"), serial_number=F("asset__serial_number")
    )


def filter_readings(qs: QuerySet[TankReading], params: Any) -> QuerySet[TankReading]:
    if getattr(params, "asset_id", None):
        qs = qs.filter(asset_id=params.asset_id)
    return qs


def temperatures() -> QuerySet[DailyTemperature]:
    return DailyTemperature.objects.select_related("zone")


def filter_temperatures(qs: QuerySet[DailyTemperature], params: Any) -> QuerySet[DailyTemperature]:
    if getattr(params, "zone_id", None):
        qs = qs.filter(zone_id=params.zone_id)
    if getattr(params, "day_from", None):
        qs = qs.filter(day__gte=params.day_from)
    if getattr(params, "day_to", None):
        qs = qs.filter(day__lte=params.day_to)
    return qs
