from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from core.listing import ListParams
from core.workflow import WorkflowEventOut, timeline
from ninja import Field, Schema
from pydantic import ConfigDict, ModelWrapValidatorHandler, ValidationInfo, model_validator

Quantity = Decimal
StatusName = str


class AttrOut(Schema):
    """Read straight from attributes by pydantic (no DjangoGetter per field): lists of 50+ rows."""

    @model_validator(mode="wrap")
    @classmethod
    def _run_root_validator(
        cls, values: Any, handler: ModelWrapValidatorHandler[Any], info: ValidationInfo
    ) -> Any:
        return handler(values)


# --- input -----------------------------------------------------------------------------------------
class LineIn(Schema):
    model_config = ConfigDict(str_strip_whitespace=True)

    id: int | None = Field(None, ge=1, description="An existing line of this order (omit for a new line)")
    product_id: int = Field(..., ge=1)
    quantity: Decimal = Field(..., gt=0, max_digits=14, decimal_places=3)
    unit_price_override: Decimal | None = Field(
        None,
        ge=0,
        max_digits=14,
        decimal_places=4,
        description="A price typed by the user: the line is priced at it (the answer's `unit_price` is "
        "the engine's price, this one when set)",
    )
    customer_asset_id: int | None = Field(None, ge=1, description="The customer's tank it goes into")
    po_number: str = Field("", max_length=60)

    @model_validator(mode="before")
    @classmethod
    def _refuse_old_price_name(cls, data: Any) -> Any:
        # `unit_price` in was renamed `unit_price_override` (issue 24); an old client's typed price is
        # refused with the new name rather than silently dropped (unknown fields are ignored).
        raw = getattr(data, "_obj", data)  # ninja hands a DjangoGetter around the body's dict
        if isinstance(raw, dict) and raw.get("unit_price") is not None:
            raise ValueError(
                "unit_price is the engine's price (read-only): send a typed price as unit_price_override"
            )
        return data


class FeeIn(Schema):
    id: int | None = Field(None, ge=1, description="An existing fee of this order (omit for a new one)")
    fee_id: int = Field(..., ge=1)
    quantity: Decimal | None = Field(None, gt=0, max_digits=14, decimal_places=3)


class SalesOrderIn(Schema):
    model_config = ConfigDict(str_strip_whitespace=True)

    customer_id: int = Field(..., ge=1)
    ship_to_id: int | None = Field(None, ge=1)
    po_number: str = Field("", max_length=60)
    planned_date: dt.date | None = Field(None, description="Delivery day; today when left out")
    planned_time_from: dt.time | None = None
    planned_time_to: dt.time | None = None
    instructions: str = Field("", max_length=5000)
    line_items: list[LineIn] = Field(default_factory=list, max_length=100)
    fees: list[FeeIn] = Field(default_factory=list, max_length=50)


class SalesOrderUpdate(Schema):
    """Partial: only what is sent changes. `line_items` / `fees`, when sent, are the full lists."""

    model_config = ConfigDict(str_strip_whitespace=True)

    id: int | None = Field(None, ge=1, description="The order (for PUT without an id in the path)")
    customer_id: int | None = Field(None, ge=1)
    ship_to_id: int | None = Field(None, ge=1)
    po_number: str | None = Field(None, max_length=60)
    planned_date: dt.date | None = None
    planned_time_from: dt.time | None = None
    planned_time_to: dt.time | None = None
    instructions: str | None = Field(None, max_length=5000)
    line_items: list[LineIn] | None = Field(None, max_length=100)
    fees: list[FeeIn] | None = Field(None, max_length=50)


class SalesOrderQuery(ListParams):
    status: str | None = Field(
        None, max_length=200, description="A status, several comma-separated, or `archive` (the archive tab)"
    )
    planned_date_start: dt.date | None = None
    planned_date_end: dt.date | None = None
    customer_id: int | None = Field(None, ge=1)
    ship_to_id: int | None = Field(None, ge=1)
    driver_id: int | None = Field(None, ge=1)
    truck_id: int | None = Field(None, ge=1)


class AssignIn(Schema):
    driver_id: int = Field(..., ge=1)
    truck_id: int = Field(..., ge=1, description="A company asset: the truck (or tank wagon, bobtail)")
    trailer_id: int | None = Field(None, ge=1, description="A company asset of the trailer category")
    stop_sequence: int | None = Field(
        None, ge=1, le=1000, description="Place in the truck's day (default: last)"
    )


class DeliveredLineIn(Schema):
    line_item_id: int = Field(..., ge=1)
    delivered_quantity: Decimal = Field(..., ge=0, max_digits=14, decimal_places=3)


class DeliverProductsIn(Schema):
    line_items: list[DeliveredLineIn] = Field(..., min_length=1, max_length=100)


class DeliverIn(Schema):
    line_items: list[DeliveredLineIn] = Field(default_factory=list, max_length=100)
    delivered_at: dt.datetime | None = None


class NoteIn(Schema):
    sales_order_id: int = Field(..., ge=1)
    body: str = Field(..., min_length=1, max_length=5000)


class NoteUpdate(Schema):
    body: str = Field(..., min_length=1, max_length=5000)


class NoteQuery(Schema):
    sales_order_id: int = Field(..., ge=1)


class ReorderIn(Schema):
    truck_id: int = Field(..., ge=1)
    date: dt.date
    order_ids: list[int] = Field(..., max_length=200)


class DispatchQuery(Schema):
    date: dt.date | None = Field(None, description="The day (default today)")
    region_id: int | None = Field(None, ge=1)
    yard_id: int | None = Field(None, ge=1)


class BoardQuery(Schema):
    planned_date_start: dt.date | None = None
    planned_date_end: dt.date | None = None
    customer_id: int | None = Field(None, ge=1)
    search: str | None = Field(None, max_length=200)
    per_column: int = Field(50, ge=1, le=200)


# --- output ----------------------------------------------------------------------------------------
class Move(Schema):
    action: str
    to: str
    label: str


class SalesCustomerRef(AttrOut):
    id: int
    name: str
    account_number: str
    status: str


class SalesShipToRef(AttrOut):
    id: int
    name: str
    address_one: str
    zip_code: str


class SalesDriverRef(AttrOut):
    id: int
    name: str


class UnitRef(AttrOut):
    id: int
    asset_number: str
    name: str


class SalesUserRef(AttrOut):
    id: int
    name: str


class SalesProductRef(AttrOut):
    id: int
    name: str
    code: str
    sold_as: str
    is_fuel: bool


class AssetRef(AttrOut):
    id: int
    asset_name: str


class LineOut(AttrOut):
    id: int
    position: int
    product_id: int
    product: SalesProductRef
    quantity: Decimal
    unit_price: Decimal | None
    amount: Decimal
    tax_amount: Decimal
    unit_price_override: Decimal | None
    price_fixed: bool
    price_error: str
    price_breakdown: dict[str, Any]
    customer_asset_id: int | None
    customer_asset: AssetRef | None
    po_number: str
    delivered_quantity: Decimal | None


class FeeRef(AttrOut):
    id: int
    name: str
    fee_code: str


class OrderFeeOut(AttrOut):
    id: int
    position: int
    fee_id: int
    fee: FeeRef
    name: str
    fee_type: str
    quantity: Decimal | None
    rate: Decimal
    applied_quantity: Decimal
    subtotal: Decimal


class NoteOut(AttrOut):
    id: int
    sales_order_id: int
    body: str
    # "system" for what the server wrote (a driver's refused action): only the office may change it.
    origin: Literal["user", "system"] = "user"
    created_by: SalesUserRef | None
    created_at: dt.datetime
    updated_at: dt.datetime


class SalesOrderRow(Schema):
    """A row of the list (and a card of the board, a stop of the dispatch center)."""

    id: int
    number: str
    status: str
    customer_id: int
    customer: SalesCustomerRef
    ship_to_id: int | None
    ship_to: SalesShipToRef | None
    po_number: str
    planned_date: dt.date
    planned_time_from: dt.time | None
    planned_time_to: dt.time | None
    driver_id: int | None
    driver: SalesDriverRef | None
    truck_id: int | None
    truck: UnitRef | None
    trailer_id: int | None
    trailer: UnitRef | None
    stop_sequence: int | None
    subtotal: Decimal
    fee_total: Decimal
    tax_total: Decimal
    total: Decimal
    created_by: SalesUserRef | None
    created_at: dt.datetime
    updated_at: dt.datetime
    allowed_actions: list[Move]

    @staticmethod
    def resolve_allowed_actions(obj: Any) -> list[dict[str, str]]:
        from tenants.sales.workflow import allowed_actions

        return allowed_actions(obj.status)


class SalesOrderOut(SalesOrderRow):
    instructions: str
    verified_at: dt.datetime | None
    delivery_started_at: dt.datetime | None
    delivered_at: dt.datetime | None
    line_items: list[LineOut]
    fees: list[OrderFeeOut]
    notes: list[NoteOut]
    timeline: list[WorkflowEventOut]

    @staticmethod
    def resolve_line_items(obj: Any) -> list[Any]:
        return list(obj.line_items.all())

    @staticmethod
    def resolve_fees(obj: Any) -> list[Any]:
        return list(obj.fees.all())

    @staticmethod
    def resolve_notes(obj: Any) -> list[Any]:
        return list(obj.notes.all())

    @staticmethod
    def resolve_timeline(obj: Any) -> list[Any]:
        return timeline(obj)


class StopOut(SalesOrderRow):
    """An order on the dispatch center: the row plus its lines (what the truck carries)."""

    line_items: list[LineOut]

    @staticmethod
    def resolve_line_items(obj: Any) -> list[Any]:
        return list(obj.line_items.all())


class LoadOut(Schema):
    product_id: int
    product_name: str
    quantity: Decimal
    over_capacity: Decimal


class CompartmentOut(Schema):
    unit: str
    number: int
    capacity: Decimal
    product_id: int | None
    product_name: str
    quantity: Decimal


class YardRef(AttrOut):
    id: int
    name: str
    code: str


class TruckOut(Schema):
    truck: UnitRef
    trailer: UnitRef | None
    home_yard: YardRef | None
    drivers: list[tuple[int, str]]
    capacity: Decimal
    load_total: Decimal
    loads: list[LoadOut]
    compartments: list[CompartmentOut]
    over_capacity: bool
    orders: list[StopOut]


class DispatchDriverOut(AttrOut):
    id: int
    name: str
    phone: str
    home_yard_id: int | None
    region_id: int | None


class DispatchDayOut(Schema):
    date: dt.date
    trucks: list[TruckOut]
    drivers: list[DispatchDriverOut]
    unassigned: list[StopOut]
    assigned_elsewhere: list[StopOut]


class BoardColumnOut(Schema):
    status: str
    label: str
    total: int
    cards: list[SalesOrderRow]


class BoardOut(Schema):
    columns: list[BoardColumnOut]
    transitions: dict[str, list[Move]]


# --- pricing views of an order ---------------------------------------------------------------------
class FeeCalculationQuery(Schema):
    fee_id: int = Field(..., ge=1)
    sales_order_id: int = Field(..., ge=1)
    quantity: Decimal | None = Field(None, gt=0, max_digits=14, decimal_places=3)


class FeeCalculationOut(Schema):
    fee_id: int
    name: str
    fee_type: str
    rate: Decimal
    quantity: Decimal
    subtotal: Decimal


class SpecificPriceQuery(Schema):
    sales_order_id: int = Field(..., ge=1)
    product_id: int = Field(..., ge=1)


class UnitPriceOut(Schema):
    sales_order_id: int
    product_id: int
    unit_price: Decimal | None
    price_fixed: bool
    breakdown: dict[str, Any]
    detail: str = ""


class SimplePriceOut(Schema):
    line_item_id: int
    product_id: int
    product_name: str
    quantity: Decimal
    unit_price: Decimal | None
    amount: Decimal
    price_fixed: bool


class SalesOrderPricesOut(Schema):
    sales_order_id: int
    customer_id: int
    pricing_date: dt.date
    simple_prices: list[SimplePriceOut]
