"""Shapes of the QuickBooks Online API (docs/quickbooks.md). Tokens never appear in any of them."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from ninja import Field, Schema


class PendingOut(Schema):
    customers: int
    items: int
    invoices: int


class ConnectionOut(Schema):
    state: Literal["disconnected", "connected", "reconnect"]
    realm_id: str
    company_name: str
    connected_at: dt.datetime | None
    last_sync_at: dt.datetime | None
    last_error: str
    pending: PendingOut
    # "us": lines carry TAX/NON; "codes": the company's country uses QBO tax codes, set below.
    tax_mode: Literal["us", "codes"]
    sales_tax_code: str
    exempt_tax_code: str


class ConnectOut(Schema):
    authorization_url: str


class CallbackIn(Schema):
    code: str = Field(..., min_length=1, max_length=2000)
    state: str = Field(..., min_length=1, max_length=2000)
    realmId: str = Field(..., min_length=1, max_length=40)


class JobOut(Schema):
    job_id: str = Field(..., description="The message id; the job log entry shows its progress")
    kind: str


class CustomerSyncIn(Schema):
    customer_ids: list[int] | None = Field(None, max_length=10_000, description="null: every customer")


class SyncRowOut(Schema):
    id: int
    name: str
    external_id: str
    sync_state: str
    last_sync_error: str


class QboItemOut(Schema):
    id: str
    name: str
    type: str
    active: bool


class Suggestion(Schema):
    id: str
    name: str


ItemKind = Literal["product", "fee", "tax"]


class ItemMapRowOut(Schema):
    kind: ItemKind
    local_id: int
    local_name: str
    qbo_item_id: str | None
    qbo_item_name: str | None
    suggestion: Suggestion | None
    sync_state: str
    last_sync_error: str


class TaxCodeOut(Schema):
    id: str
    name: str
    active: bool


class TaxSettingsIn(Schema):
    sales_tax_code: str = Field(
        ..., min_length=1, max_length=40, description="The QBO tax code of lines that carry sales tax"
    )
    exempt_tax_code: str = Field(
        ..., min_length=1, max_length=40, description="The QBO tax code of lines without sales tax"
    )


class ItemMapIn(Schema):
    kind: ItemKind
    local_id: int = Field(..., ge=1)
    qbo_item_id: str | None = Field(None, max_length=40)


class ItemRef(Schema):
    kind: ItemKind
    local_id: int = Field(..., ge=1)


class SyncItemsIn(Schema):
    items: list[ItemRef] = Field(..., min_length=1, max_length=5000)


class ListQuery(Schema):
    page: int = Field(1, ge=1, le=1_000_000)
    size: int = Field(25, ge=1, le=200)
    search: str = Field("", max_length=200)
