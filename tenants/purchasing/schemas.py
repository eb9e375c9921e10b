"""Purchasing's ninja schemas. Names carry a Purchase/PO/Bill prefix (OpenAPI names are global)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from core.listing import ListParams
from core.workflow import WorkflowEventOut, timeline
from ninja import Field, Schema
from pydantic import ConfigDict


# --- purchase orders: input ------------------------------------------------------------------------
class POLineIn(Schema):
    id: int | None = Field(None, ge=1, description="An existing line of this order (omit for a new line)")
    product_id: int = Field(..., ge=1)
    quantity: Decimal = Field(..., gt=0, max_digits=14, decimal_places=3)
    unit_cost: Decimal | None = Field(
        None,
        ge=0,
        description="Empty: the supplier's buying price in force on the order date (at the terminal)",
        max_digits=14,
        decimal_places=4,
    )


class PurchaseOrderIn(Schema):
    model_config = ConfigDict(str_strip_whitespace=True)

    supplier_id: int = Field(..., ge=1)
    terminal_id: int | None = Field(None, ge=1)
    order_date: dt.date | None = Field(None, description="Today when left out")
    expected_date: dt.date | None = None
    reference: str = Field("", max_length=60)
    notes: str = Field("", max_length=5000)
    lines: list[POLineIn] = Field(default_factory=list, max_length=100)


class PurchaseOrderUpdate(Schema):
    """Partial: only what is sent changes; `lines`, when sent, is the full list (draft only)."""

    model_config = ConfigDict(str_strip_whitespace=True)

    supplier_id: int | None = Field(None, ge=1)
    terminal_id: int | None = Field(None, ge=1)
    order_date: dt.date | None = None
    expected_date: dt.date | None = None
    reference: str | None = Field(None, max_length=60)
    notes: str | None = Field(None, max_length=5000)
    lines: list[POLineIn] | None = Field(None, max_length=100)


class PurchaseOrderQuery(ListParams):
    status: str | None = Field(None, max_length=200, description="A status or several, comma-separated")
    supplier_id: int | None = Field(None, ge=1)
    terminal_id: int | None = Field(None, ge=1)
    order_date_start: dt.date | None = None
    order_date_end: dt.date | None = None


class ReceiptLineIn(Schema):
    line_id: int = Field(..., ge=1, description="A line of the purchase order")
    gross_quantity: Decimal = Field(..., ge=0, max_digits=14, decimal_places=3)
    net_quantity: Decimal = Field(..., ge=0, max_digits=14, decimal_places=3)


class ReceiptIn(Schema):
    model_config = ConfigDict(str_strip_whitespace=True)

    bol_number: str = Field(..., min_length=1, max_length=60, description="Bill of lading number")
    received_on: dt.date | None = Field(None, description="Today when left out")
    notes: str = Field("", max_length=500)
    lines: list[ReceiptLineIn] = Field(..., min_length=1, max_length=100)


class POActionIn(Schema):
    reason: str = Field("", max_length=500)


class DefaultCostQuery(Schema):
    supplier_id: int = Field(..., ge=1)
    product_id: int = Field(..., ge=1)
    terminal_id: int | None = Field(None, ge=1)
    order_date: dt.date | None = Field(None, description="Today when left out")


# --- purchase orders: output -----------------------------------------------------------------------
class PurchaseMove(Schema):
    action: str
    to: str
    label: str


class PurchaseSupplierRef(Schema):
    id: int
    name: str
    code: str


class PurchaseTerminalRef(Schema):
    id: int
    name: str
    terminal_code: str


class PurchaseProductRef(Schema):
    id: int
    name: str
    code: str
    sold_as: str


class POLineOut(Schema):
    id: int
    position: int
    product_id: int
    product: PurchaseProductRef
    quantity: Decimal
    unit_cost: Decimal | None
    unit_cost_source: str
    buying_price_id: int | None
    amount: Decimal
    tax_amount: Decimal
    received_gross: Decimal
    received_net: Decimal
    billed_quantity: Decimal


class ReceiptLineOut(Schema):
    id: int
    line_id: int
    gross_quantity: Decimal
    net_quantity: Decimal


class ReceiptOut(Schema):
    id: int
    bol_number: str
    received_on: dt.date
    notes: str
    created_at: dt.datetime
    lines: list[ReceiptLineOut]

    @staticmethod
    def resolve_lines(obj: Any) -> list[Any]:
        return list(obj.lines.all())


class POBillRef(Schema):
    id: int
    bill_number: str
    bill_date: dt.date
    status: str
    match_status: str
    total: Decimal


class PurchaseOrderRow(Schema):
    id: int
    number: str
    status: str
    supplier_id: int
    supplier: PurchaseSupplierRef
    terminal_id: int | None
    terminal: PurchaseTerminalRef | None
    order_date: dt.date
    expected_date: dt.date | None
    reference: str
    subtotal: Decimal
    tax_total: Decimal
    total: Decimal
    created_at: dt.datetime
    updated_at: dt.datetime
    allowed_actions: list[PurchaseMove]

    @staticmethod
    def resolve_allowed_actions(obj: Any) -> list[dict[str, str]]:
        from tenants.purchasing.workflow.po import allowed_actions

        return allowed_actions(obj.status)


class PurchaseOrderOut(PurchaseOrderRow):
    notes: str
    ordered_at: dt.datetime | None
    lines: list[POLineOut]
    receipts: list[ReceiptOut]
    bills: list[POBillRef]
    timeline: list[WorkflowEventOut]

    @staticmethod
    def resolve_lines(obj: Any) -> list[Any]:
        return list(obj.lines.all())

    @staticmethod
    def resolve_receipts(obj: Any) -> list[Any]:
        return list(obj.receipts.all())

    @staticmethod
    def resolve_bills(obj: Any) -> list[Any]:
        return list(obj.bills.all())

    @staticmethod
    def resolve_timeline(obj: Any) -> list[Any]:
        return timeline(obj)


class DefaultCostOut(Schema):
    product_id: int
    unit_cost: Decimal | None
    buying_price_id: int | None
    detail: str = ""


# --- bills: input ----------------------------------------------------------------------------------
class BillLineIn(Schema):
    model_config = ConfigDict(str_strip_whitespace=True)

    id: int | None = Field(None, ge=1, description="An existing line of this bill (omit for a new line)")
    product_id: int | None = Field(None, ge=1)
    description: str = Field("", max_length=300)
    purchase_order_line_id: int | None = Field(
        None, ge=1, description="Empty: the order's line of the same product, when the bill has an order"
    )
    bol_number: str = Field("", max_length=60)
    gross_quantity: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=3)
    quantity: Decimal = Field(
        ..., gt=0, description="Billed quantity (net gallons for fuel)", max_digits=14, decimal_places=3
    )
    unit_price: Decimal = Field(..., ge=0, max_digits=14, decimal_places=4)
    amount: Decimal | None = Field(
        None,
        ge=0,
        description="Empty: quantity x unit price",
        max_digits=14,
        decimal_places=2,
    )


class BillChargeIn(Schema):
    model_config = ConfigDict(str_strip_whitespace=True)

    kind: Literal["tax", "fee"] = "tax"
    name: str = Field(..., min_length=1, max_length=200)
    tax_id: int | None = Field(None, ge=1)
    amount: Decimal = Field(..., ge=0, max_digits=14, decimal_places=2)


class BillIn(Schema):
    model_config = ConfigDict(str_strip_whitespace=True)

    supplier_id: int = Field(..., ge=1)
    bill_number: str = Field(..., min_length=1, max_length=60)
    bill_date: dt.date
    due_date: dt.date | None = Field(None, description="Empty: bill date + the supplier's payment term")
    payment_term_id: int | None = Field(None, ge=1)
    purchase_order_id: int | None = Field(None, ge=1)
    terminal_id: int | None = Field(None, ge=1)
    freight: Decimal = Field(Decimal("0"), ge=0, max_digits=14, decimal_places=2)
    notes: str = Field("", max_length=5000)
    lines: list[BillLineIn] = Field(default_factory=list, max_length=200)
    charges: list[BillChargeIn] = Field(default_factory=list, max_length=50)


class BillUpdate(Schema):
    model_config = ConfigDict(str_strip_whitespace=True)

    supplier_id: int | None = Field(None, ge=1)
    bill_number: str | None = Field(None, min_length=1, max_length=60)
    bill_date: dt.date | None = None
    due_date: dt.date | None = None
    payment_term_id: int | None = Field(None, ge=1)
    purchase_order_id: int | None = Field(None, ge=1)
    terminal_id: int | None = Field(None, ge=1)
    freight: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=2)
    notes: str | None = Field(None, max_length=5000)
    lines: list[BillLineIn] | None = Field(None, max_length=200)
    charges: list[BillChargeIn] | None = Field(None, max_length=50)


class BillQuery(ListParams):
    status: str | None = Field(None, max_length=200, description="A status or several, comma-separated")
    supplier_id: int | None = Field(None, ge=1)
    purchase_order_id: int | None = Field(None, ge=1)
    match_status: str | None = Field(None, max_length=40)
    bill_date_start: dt.date | None = None
    bill_date_end: dt.date | None = None
    due_date_end: dt.date | None = None


class BillApproveIn(Schema):
    override: bool = Field(False, description="Approve out of tolerance (permission bill.override_match)")
    reason: str = Field("", max_length=500)


class BillVoidIn(Schema):
    reason: str = Field("", max_length=500)


class MatchSettingsIn(Schema):
    quantity_tolerance_percent: Decimal = Field(..., ge=0, le=100, max_digits=6, decimal_places=3)
    price_tolerance_per_unit: Decimal = Field(..., ge=0, max_digits=10, decimal_places=4)
    price_tolerance_percent: Decimal = Field(Decimal("0"), ge=0, le=100, max_digits=6, decimal_places=3)


class SupplierTermIn(Schema):
    payment_term_id: int | None = Field(None, ge=1, description="Empty: the company's default term")


# --- bills: output ---------------------------------------------------------------------------------
class BillPORef(Schema):
    id: int
    number: str
    status: str


class BillTermRef(Schema):
    id: int
    name: str
    net_days: int


class BillLineOut(Schema):
    id: int
    position: int
    product_id: int | None
    product: PurchaseProductRef | None
    description: str
    purchase_order_line_id: int | None
    bol_number: str
    gross_quantity: Decimal | None
    quantity: Decimal
    unit_price: Decimal
    amount: Decimal


class BillChargeOut(Schema):
    id: int
    position: int
    kind: str
    name: str
    tax_id: int | None
    amount: Decimal


class MatchLineOut(Schema):
    bill_line_id: int
    position: int
    description: str
    product_id: int | None
    purchase_order_line_id: int | None
    bol_number: str
    amount: Decimal
    ordered_quantity: Decimal | None
    received_quantity: Decimal | None
    billed_elsewhere: Decimal | None
    available_quantity: Decimal | None
    billed_quantity: Decimal
    quantity_variance: Decimal | None
    quantity_variance_percent: Decimal | None
    quantity_tolerance: Decimal | None
    quantity_ok: bool
    unit_cost: Decimal | None
    billed_unit_price: Decimal
    price_variance: Decimal | None
    price_variance_percent: Decimal | None
    price_tolerance: Decimal | None
    price_ok: bool
    quantity_variance_amount: Decimal | None
    price_variance_amount: Decimal | None
    within_tolerance: bool
    reason: str


class MatchSettingsOut(Schema):
    quantity_tolerance_percent: Decimal
    price_tolerance_per_unit: Decimal
    price_tolerance_percent: Decimal


class BillMatchOut(Schema):
    status: str
    purchase_order_id: int | None
    tolerances: MatchSettingsOut
    lines: list[MatchLineOut]
    out_of_tolerance: list[int]


class BillRow(Schema):
    id: int
    bill_number: str
    status: str
    match_status: str
    match_overridden: bool
    supplier_id: int
    supplier: PurchaseSupplierRef
    purchase_order_id: int | None
    purchase_order: BillPORef | None
    bill_date: dt.date
    due_date: dt.date
    subtotal: Decimal
    tax_total: Decimal
    freight: Decimal
    total: Decimal
    source: str
    created_at: dt.datetime
    updated_at: dt.datetime
    allowed_actions: list[PurchaseMove]

    @staticmethod
    def resolve_allowed_actions(obj: Any) -> list[dict[str, str]]:
        from tenants.purchasing.workflow.bill import allowed_actions

        return allowed_actions(obj.status)


class BillOut(BillRow):
    payment_term_id: int | None
    payment_term: BillTermRef | None
    terminal_id: int | None
    terminal: PurchaseTerminalRef | None
    notes: str
    source_file: str
    approved_at: dt.datetime | None
    paid_at: dt.datetime | None
    document_total: Decimal | None = Field(
        None, description="The total printed on the supplier's document the bill was read from"
    )
    total_override_reason: str = Field(
        "", description="Why the bill was created although it differs from the document's total"
    )
    total_override_at: dt.datetime | None = None
    lines: list[BillLineOut]
    charges: list[BillChargeOut]
    match: BillMatchOut
    timeline: list[WorkflowEventOut]

    @staticmethod
    def resolve_lines(obj: Any) -> list[Any]:
        return list(obj.lines.all())

    @staticmethod
    def resolve_charges(obj: Any) -> list[Any]:
        return list(obj.charges.all())

    @staticmethod
    def resolve_match(obj: Any) -> dict[str, Any]:
        from tenants.purchasing.matching import match_bill

        return match_bill(obj)

    @staticmethod
    def resolve_timeline(obj: Any) -> list[Any]:
        return timeline(obj)


class SupplierTermOut(Schema):
    supplier_id: int
    supplier_name: str
    payment_term_id: int | None
    payment_term_name: str
    net_days: int
