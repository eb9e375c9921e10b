"""ninja schemas of delivery tickets. Names start with `DeliveryTicket`/`DeliveryEntry` (unique in the
OpenAPI document)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from core.listing import ListParams
from core.workflow import WorkflowEventOut
from ninja import Field, Schema

FILES_URL = "/api/storage/files/"


class DeliveryTicketLineOut(Schema):
    id: int
    line_item_id: int
    product_id: int
    product_name: str
    product_code: str
    position: int
    ordered_quantity: Decimal
    delivered_quantity: Decimal | None
    gross_volume: Decimal | None
    net_volume: Decimal | None
    vcf: Decimal | None = Field(None, description="The table 6B factor the net was computed with")
    api_gravity: Decimal | None
    vcf_group: str
    meter_start: Decimal | None
    meter_end: Decimal | None
    temperature_f: Decimal | None
    level_before_percent: Decimal | None = Field(None, description="The tank's gauge before the drop, %")
    tank_id: int | None
    tank_name: str

    @staticmethod
    def resolve_product_name(obj: Any) -> str:
        return str(obj.product.name)

    @staticmethod
    def resolve_product_code(obj: Any) -> str:
        return str(obj.product.code)

    @staticmethod
    def resolve_tank_name(obj: Any) -> str:
        return str(obj.tank_name or (obj.tank.asset_name if obj.tank_id else ""))


class DeliveryTicketOut(Schema):
    id: int
    number: str
    sales_order_id: int
    sales_order_number: str
    customer_id: int
    customer_name: str
    ship_to_name: str
    po_number: str
    status: Literal["open", "delivered", "void"]
    reference: str = Field("", description="The number of the paper ticket typed in, if any")
    signer_name: str
    signature_key: str
    signature_url: str = Field("", description="GET it with the bearer token (storage files)")
    photo_keys: list[str]
    photo_urls: list[str]
    signed_at: dt.datetime | None
    latitude: Decimal | None
    longitude: Decimal | None
    delivered_at: dt.datetime | None
    emailed_at: dt.datetime | None
    total_gross_volume: Decimal | None
    total_net_volume: Decimal | None
    lines: list[DeliveryTicketLineOut]
    timeline: list[WorkflowEventOut] = Field(
        ..., description="Its moves, oldest first: created, voided, reopened, delivered (who, when)"
    )
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_sales_order_number(obj: Any) -> str:
        return str(obj.sales_order.number)

    @staticmethod
    def resolve_customer_id(obj: Any) -> int:
        return int(obj.sales_order.customer_id)

    @staticmethod
    def resolve_customer_name(obj: Any) -> str:
        return str(obj.sales_order.customer.name)

    @staticmethod
    def resolve_ship_to_name(obj: Any) -> str:
        ship_to = obj.sales_order.ship_to
        return str(ship_to.name) if ship_to else ""

    @staticmethod
    def resolve_signature_url(obj: Any) -> str:
        return f"{FILES_URL}{obj.signature_key}" if obj.signature_key else ""

    @staticmethod
    def resolve_photo_urls(obj: Any) -> list[str]:
        return [f"{FILES_URL}{k}" for k in obj.photo_keys or []]

    @staticmethod
    def resolve_lines(obj: Any) -> list[Any]:
        return list(obj.lines.all())

    @staticmethod
    def resolve_timeline(obj: Any) -> list[Any]:
        return list(obj.events.all())

    @staticmethod
    def resolve_total_gross_volume(obj: Any) -> Decimal | None:
        values = [ln.gross_volume for ln in obj.lines.all() if ln.gross_volume is not None]
        return sum(values, Decimal("0")) if values else None

    @staticmethod
    def resolve_total_net_volume(obj: Any) -> Decimal | None:
        values = [ln.net_volume for ln in obj.lines.all() if ln.net_volume is not None]
        return sum(values, Decimal("0")) if values else None


class DeliveryTicketQuery(ListParams):
    sales_order_id: int | None = Field(None, ge=1)
    status: Literal["open", "delivered", "void"] | None = None


class DeliveryTicketGenerateQuery(Schema):
    sales_order_id: int = Field(..., ge=1)
    split_by_po: bool = Field(False, description="One ticket per PO number among the order's lines")
    po_number: str | None = Field(None, max_length=60, description="Only the ticket of this PO")


class DeliveryEntryLineIn(Schema):
    line_item_id: int = Field(..., ge=1)
    delivered_quantity: Decimal | None = Field(
        None,
        ge=0,
        max_digits=14,
        decimal_places=3,
        description="Default: net gallons at 60 °F for a corrected fuel, else the gross volume",
    )
    gross_volume: Decimal | None = Field(
        None, ge=0, max_digits=14, decimal_places=3, description="Default: meter_end - meter_start"
    )
    meter_start: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=3)
    meter_end: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=3)
    temperature_f: Decimal | None = Field(None, ge=-50, le=300, max_digits=5, decimal_places=1)
    level_before_percent: Decimal | None = Field(
        None,
        ge=0,
        le=100,
        max_digits=5,
        decimal_places=1,
        description="The tank's gauge before the drop, % (0-100)",
    )
    tank_id: int | None = Field(None, ge=1, description="A tank (customer asset) of the order's customer")
    tank: str | None = Field(None, max_length=200, description="The tank as written, when not a known one")


class DeliveryEntryIn(Schema):
    lines: list[DeliveryEntryLineIn] = Field(..., min_length=1, max_length=200)
    signer_name: str = Field("", max_length=200)
    signature_key: str | None = Field(None, max_length=500, description="An upload of purpose `signature`")
    photo_keys: list[str] = Field(
        default_factory=list, max_length=10, description="Uploads of purpose `photo`"
    )
    latitude: Decimal | None = Field(None, ge=-90, le=90, max_digits=9, decimal_places=6)
    longitude: Decimal | None = Field(None, ge=-180, le=180, max_digits=9, decimal_places=6)
    delivered_at: dt.datetime | None = None
    reference: str = Field("", max_length=60, description="The paper ticket's number")
    complete: bool = Field(True, description="End the delivery (deliver); false records quantities only")


class DeliveryEntryLineOut(Schema):
    line_item_id: int
    position: int
    product_id: int
    product_name: str
    product_code: str
    sold_as: str
    is_fuel: bool
    api_gravity: Decimal | None
    vcf_group: str
    po_number: str
    ordered_quantity: Decimal
    delivered_quantity: Decimal | None
    tank_id: int | None
    gross_volume: Decimal | None
    net_volume: Decimal | None
    meter_start: Decimal | None
    meter_end: Decimal | None
    temperature_f: Decimal | None
    level_before_percent: Decimal | None = None


class DeliveryEntryTank(Schema):
    id: int
    asset_name: str
    product_id: int | None


class DeliveryEntryTicketRef(Schema):
    id: int
    number: str
    status: str
    po_number: str


class DeliveryEntryOut(Schema):
    sales_order_id: int
    sales_order_number: str
    status: str
    customer_name: str
    ship_to_name: str
    po_number: str
    planned_date: dt.date
    driver_name: str
    lines: list[DeliveryEntryLineOut]
    tanks: list[DeliveryEntryTank]
    tickets: list[DeliveryEntryTicketRef]
    signer_name: str
    reference: str
