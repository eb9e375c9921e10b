"""Schemas of the driver portal (`/api/driver-portal`). Names start with `Driver` (unique across apps)."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any, Literal

from ninja import Field, Schema
from pydantic import ConfigDict

MAX_BATCH = 100
MAX_PHOTOS = 10


# --- today's orders --------------------------------------------------------------------------------
class DriverTruckOut(Schema):
    id: int
    asset_number: str
    name: str


class DriverTankOut(Schema):
    id: int
    name: str
    capacity: Decimal | None = None
    product: str = ""


class DriverShipToOut(Schema):
    id: int | None = None
    name: str = ""
    address: str = ""
    latitude: Decimal | None = None
    longitude: Decimal | None = None
    delivery_instructions: str = ""
    access_hours: str = ""


class DriverLineOut(Schema):
    id: int
    product_id: int
    product_name: str
    product_code: str
    unit: str
    is_fuel: bool
    quantity: Decimal
    delivered_quantity: Decimal | None = None
    po_number: str = ""
    tank: DriverTankOut | None = None


class DriverStopOut(Schema):
    id: int
    number: str
    status: str
    version: str = Field(..., description="Send it back with an action: the order as the driver saw it")
    stop_number: int = Field(..., description="The driver's own stops of the answer, 1..n in stop order")
    stop_sequence: int | None = Field(None, description="Its place on the truck (others' stops counted)")
    eta: dt.time | None = Field(None, description="Arrival of the accepted route plan (none: not planned)")
    planned_date: dt.date
    planned_time_from: dt.time | None = None
    planned_time_to: dt.time | None = None
    po_number: str = ""
    instructions: str = ""
    customer_name: str
    customer_phone: str = ""
    ship_to: DriverShipToOut
    maps_url: str = Field(..., description="https://maps.google.com/?q=… (coordinates, else the address)")
    geo_url: str = Field(..., description="geo: URI for the phone's map app")
    truck: DriverTruckOut | None = None
    trailer: DriverTruckOut | None = None
    delivery_started_at: dt.datetime | None = None
    delivered_at: dt.datetime | None = None
    lines: list[DriverLineOut]
    tanks: list[DriverTankOut]


class DriverTodayOut(Schema):
    date: dt.date
    driver_id: int
    driver_name: str
    truck_ids: list[int]
    orders: list[DriverStopOut]


class DriverTodayQuery(Schema):
    truck_ids: str = Field("", max_length=500, description="Comma-separated company asset ids (empty: all)")
    date: dt.date | None = Field(None, description="The day (default: today)")


# --- daily summary ---------------------------------------------------------------------------------
class DriverSummaryQuery(Schema):
    date: dt.date | None = Field(None, description="The day (default: today)")


class DriverProductTotal(Schema):
    product_id: int
    product_name: str
    unit: str
    quantity: Decimal


class DriverTruckTotal(Schema):
    truck_id: int | None = None
    truck: str
    deliveries: int
    gallons: Decimal


class DriverSummaryStop(Schema):
    id: int
    number: str
    customer_name: str
    status: str
    stop_number: int = Field(..., description="The driver's own stops of the day numbered 1..n")
    stop_sequence: int | None = None
    delivered_at: dt.datetime | None = None


class DriverSummaryOut(Schema):
    date: dt.date
    driver_name: str
    deliveries_done: int
    open_stops: int
    total_gallons: Decimal
    products: list[DriverProductTotal]
    trucks: list[DriverTruckTotal]
    stops: list[DriverSummaryStop]
    planned_miles: Decimal | None = Field(None, description="The accepted route plan's miles (none: no plan)")
    driven_miles: Decimal | None = Field(
        None, description="Yard → the day's delivery tickets' GPS points → yard (none: no GPS point)"
    )
    gps_points: int = 0


# --- actions ---------------------------------------------------------------------------------------
class DriverActionIn(Schema):
    client_action_id: uuid.UUID = Field(..., description="Made by the phone; the same id is applied once")
    kind: Literal["start_delivery", "record_delivery"]
    order_id: int = Field(..., ge=1)
    order_version: str = Field(
        "", max_length=64, description="`version` of the order when the driver loaded it"
    )
    payload: dict[str, Any] = Field(default_factory=dict)
    taken_at: dt.datetime | None = Field(None, description="When the driver acted (phone clock)")


class DriverActionsIn(Schema):
    actions: list[DriverActionIn] = Field(..., min_length=1, max_length=MAX_BATCH)


class DriverActionResult(Schema):
    client_action_id: uuid.UUID
    kind: str
    order_id: int
    outcome: Literal["applied", "conflict", "rejected"]
    reason: str = ""
    replayed: bool = Field(False, description="True when this id was seen before: the stored outcome")
    order_status: str | None = None
    order_number: str | None = None
    received_at: dt.datetime


class DriverActionsOut(Schema):
    results: list[DriverActionResult]


class DriverDeliveredLine(Schema):
    """One line of a record_delivery payload (validated per action, so one bad action does not refuse
    the batch)."""

    model_config = ConfigDict(extra="forbid")

    line_item_id: int = Field(..., ge=1)
    delivered_quantity: Decimal = Field(..., ge=0, max_digits=14, decimal_places=3)
    gross_volume: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=3)
    meter_start: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=3)
    meter_end: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=3)
    temperature_f: Decimal | None = Field(None, ge=-60, le=200, max_digits=6, decimal_places=2)
    tank: int | None = Field(None, ge=1, description="The customer's tank (asset id) it went into")


class DriverRecordPayload(Schema):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    lines: list[DriverDeliveredLine] = Field(..., min_length=1, max_length=100)
    signer_name: str = Field(..., min_length=1, max_length=200)
    signature_key: str = Field(..., min_length=1, max_length=500)
    photo_keys: list[str] = Field(default_factory=list, max_length=MAX_PHOTOS)
    latitude: Decimal | None = Field(None, ge=-90, le=90, max_digits=10, decimal_places=7)
    longitude: Decimal | None = Field(None, ge=-180, le=180, max_digits=11, decimal_places=7)
    delivered_at: dt.datetime | None = None


class DriverConflictQuery(Schema):
    order_id: int | None = Field(None, ge=1)
    outcome: Literal["conflict", "rejected"] = "conflict"


class DriverConflictOut(Schema):
    id: int
    client_action_id: uuid.UUID
    kind: str
    order_id: int
    order_number: str | None = None
    driver_name: str = ""
    outcome: str
    reason: str
    taken_at: dt.datetime | None = None
    received_at: dt.datetime
    payload: dict[str, Any]


class DriverProofOut(Schema):
    file_key: str
    file_name: str
    file_url: str
    content_type: str
    size: int
