"""Ninja schemas of invoicing (names prefixed `Invoice…`/`Payment…`/`Aging…`: unique across apps)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from core.workflow import WorkflowEventOut
from ninja import Field, Schema


class InvoiceCustomerRef(Schema):
    id: int
    customer_name: str


class InvoiceCustomerOut(InvoiceCustomerRef):
    account_number: str = ""
    email: str = ""
    phone: str = ""
    address: list[str] = []


class InvoiceShipToOut(Schema):
    id: int
    name: str
    address: list[str] = []


class InvoiceRow(Schema):
    id: int
    invoice_no: str
    status: str
    status_label: str
    is_overdue: bool
    days_overdue: int
    customer: InvoiceCustomerRef
    sales_order_id: int
    sales_order_number: str
    invoice_date: dt.date
    due_date: dt.date
    po_number: str
    subtotal: Decimal
    fee_total: Decimal
    tax_total: Decimal
    total: Decimal
    amount_paid: Decimal
    balance: Decimal
    email_sent_at: dt.datetime | None
    sync_state: str
    created_at: dt.datetime


class InvoiceLineOut(Schema):
    id: int
    invoice_id: int
    kind: str
    position: int
    sales_line_id: int | None
    product_id: int | None
    product_code: str
    fee_id: int | None
    description: str
    unit: str
    quantity: Decimal
    unit_price: Decimal
    amount: Decimal
    tax_amount: Decimal
    taxes: list[dict[str, Any]]
    po_number: str
    price_breakdown: dict[str, Any]


class InvoicePaymentOut(Schema):
    allocation_id: int
    payment_id: int
    payment_number: str
    payment_date: dt.date
    payment_method: str
    reference: str
    amount: Decimal


class InvoiceActionOut(Schema):
    action: str
    to: str
    label: str


class InvoiceOut(InvoiceRow):
    customer: InvoiceCustomerOut  # type: ignore[assignment]
    ship_to: InvoiceShipToOut | None
    payment_term_id: int | None
    payment_term_name: str
    notes: str
    taxes: list[dict[str, Any]]
    pricing_notes: list[str]
    line_items: list[InvoiceLineOut]
    fees: list[InvoiceLineOut]
    payments: list[InvoicePaymentOut]
    events: list[WorkflowEventOut]
    allowed_actions: list[InvoiceActionOut]
    issued_at: dt.datetime | None
    voided_at: dt.datetime | None
    void_reason: str
    external_id: str
    last_sync_error: str
    updated_at: dt.datetime


class InvoiceSummary(Schema):
    created: int
    updated: int
    removed: int


class InvoiceCreateOut(InvoiceOut):
    summary: InvoiceSummary
    is_new: bool


class InvoiceListExtra(Schema):
    status: str | None = Field(
        None,
        max_length=200,
        description="draft, issued, partially_paid, paid, void, overdue (open and past due) or open; "
        "several comma-separated",
    )
    invoice_date_start: dt.date | None = None
    invoice_date_end: dt.date | None = None
    customer_id: int | None = Field(None, ge=1)
    sales_order_id: int | None = Field(None, ge=1)
    sort_direction: Literal["asc", "desc"] | None = Field(None, description="Sort direction (also `order`)")


class InvoiceLineQuery(Schema):
    invoice_id: int | None = Field(None, ge=1)
    kind: Literal["product", "fee"] | None = None


class InvoiceUpdateIn(Schema):
    notes: str | None = Field(None, max_length=5000)
    po_number: str | None = Field(None, max_length=60)


class InvoiceDayIn(Schema):
    day: dt.date


class InvoiceJobOut(Schema):
    job_id: int | None
    day: dt.date
    orders: int


# --- payments -----------------------------------------------------------------------------------
class PaymentAllocationIn(Schema):
    invoice_id: int = Field(..., ge=1)
    amount: Decimal = Field(..., gt=0, max_digits=14, decimal_places=2)


class PaymentIn(Schema):
    customer_id: int = Field(..., ge=1)
    payment_date: dt.date
    amount: Decimal = Field(..., gt=0, max_digits=14, decimal_places=2)
    payment_method_id: int | None = Field(None, ge=1)
    reference: str = Field("", max_length=100)
    notes: str = Field("", max_length=2000)
    allocations: list[PaymentAllocationIn] | None = Field(
        None,
        max_length=500,
        description="Where the money goes. Left out (null): the oldest due invoices first. An empty "
        "list: nothing applied now (all of it is the customer's credit).",
    )


class PaymentAllocateIn(Schema):
    allocations: list[PaymentAllocationIn] | None = Field(None, max_length=500)


class PaymentCustomerRef(Schema):
    id: int
    customer_name: str


class PaymentAllocationOut(Schema):
    id: int
    invoice_id: int
    invoice_no: str
    amount: Decimal


class PaymentOut(Schema):
    id: int
    number: str
    customer: PaymentCustomerRef
    payment_date: dt.date
    amount: Decimal
    payment_method_id: int | None
    payment_method: str
    reference: str
    notes: str
    allocated: Decimal
    unapplied: Decimal
    created_at: dt.datetime
    allocations: list[PaymentAllocationOut]


class PaymentListExtra(Schema):
    customer_id: int | None = Field(None, ge=1)
    date_start: dt.date | None = None
    date_end: dt.date | None = None
    with_credit: bool | None = Field(None, description="Only payments with an unapplied amount")


# --- statement and aging ------------------------------------------------------------------------
class StatementEntryOut(Schema):
    date: dt.date
    kind: str
    id: int
    reference: str
    description: str
    charge: Decimal
    credit: Decimal
    balance: Decimal


class StatementOpenInvoiceOut(Schema):
    id: int
    invoice_no: str
    invoice_date: dt.date
    due_date: dt.date
    total: Decimal
    balance: Decimal
    days_overdue: int


class StatementOut(Schema):
    customer: InvoiceCustomerOut
    start: dt.date
    end: dt.date
    opening_balance: Decimal
    entries: list[StatementEntryOut]
    closing_balance: Decimal
    total_charges: Decimal
    total_credits: Decimal
    open_invoices: list[StatementOpenInvoiceOut]
    open_balance: Decimal
    credit: Decimal


class StatementQuery(Schema):
    start: dt.date | None = Field(None, description="Default: 90 days before `end`")
    end: dt.date | None = Field(None, description="Default: today")


class AgingBucketOut(Schema):
    key: str
    label: str


class AgingRowOut(Schema):
    customer_id: int | None = None
    customer_name: str = ""
    current: Decimal
    days_1_30: Decimal
    days_31_60: Decimal
    days_61_90: Decimal
    over_90: Decimal
    total: Decimal
    credit: Decimal
    net: Decimal
    invoices: int = 0


class AgingOut(Schema):
    as_of: dt.date
    buckets: list[AgingBucketOut]
    rows: list[AgingRowOut]
    totals: AgingRowOut


class AgingQuery(Schema):
    as_of: dt.date | None = Field(None, description="Default: today")
    customer_id: int | None = Field(None, ge=1)
