from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated

from ninja import Schema
from pydantic import Field

from tenants.geo.schemas import StrippedIn

MAX_ID = 2**63 - 1
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Day = Annotated[dt.date, Field(ge=dt.date(1900, 1, 1), le=dt.date(2999, 12, 31))]


class QuoteRequestIn(StrippedIn):
    quote_date: Day = Field(..., description="The day the prices are for; accepted prices start then")
    quantity: Decimal = Field(..., ge=0, max_digits=14, decimal_places=3, description="Gallons per load")
    product_ids: list[Id] = Field(..., min_length=1, max_length=100)
    terminal_ids: list[Id] = Field(..., min_length=1, max_length=100)
    supplier_ids: list[Id] = Field(..., min_length=1, max_length=100)
    notes: str = Field("", max_length=5000)


class QuoteLineIn(Schema):
    product_id: Id
    terminal_id: Id
    price: Decimal = Field(..., ge=0, max_digits=14, decimal_places=4)


class QuoteIn(StrippedIn):
    supplier_id: Id
    lines: list[QuoteLineIn] = Field(..., min_length=1, max_length=500)
    notes: str = Field("", max_length=5000)


class QuoteRefOut(Schema):
    id: int
    name: str


class QuoteTerminalOut(Schema):
    id: int
    name: str
    terminal_code: str


class QuoteProductOut(Schema):
    id: int
    name: str
    code: str


class QuoteRecipientOut(Schema):
    id: int
    supplier: QuoteRefOut
    email: str
    message_id: str
    email_status: str | None


class QuoteLineOut(Schema):
    id: int
    product: QuoteRefOut
    terminal: QuoteRefOut
    price: Decimal
    effective_from: dt.date
    accepted_at: dt.datetime | None
    buying_price_id: int | None


class QuoteOut(Schema):
    id: int
    supplier: QuoteRefOut
    received_at: dt.datetime
    source_message_id: int | None
    notes: str
    lines: list[QuoteLineOut]


class QuoteRequestListOut(Schema):
    id: int
    number: str
    quote_date: dt.date
    quantity: Decimal
    status: str
    created_at: dt.datetime
    created_by_name: str
    recipient_count: int
    quote_count: int


class ReplyDestinationOut(Schema):
    address: str = Field(..., description="The Reply-To of the request emails; empty: none")
    read_by_inbox: bool = Field(..., description="The inbox agent reads the replies and matches them")
    note: str = Field(..., description="Where replies go, in words (a warning when not read_by_inbox)")


class QuoteRequestOut(Schema):
    id: int
    number: str
    quote_date: dt.date
    quantity: Decimal
    status: str
    notes: str
    reply_to: str = Field(..., description="Where the suppliers' replies go (the emails' Reply-To)")
    created_at: dt.datetime
    created_by_name: str
    products: list[QuoteProductOut]
    terminals: list[QuoteTerminalOut]
    recipients: list[QuoteRecipientOut]
    quotes: list[QuoteOut]


class QuoteCellOut(Schema):
    supplier_id: int
    quote_line_id: int | None
    price: str | None
    is_lowest: bool
    gap_to_rack: str | None = Field(None, description="price − rack price (negative: below the rack)")
    accepted: bool
    effective_from: dt.date | None


class QuoteRowOut(Schema):
    terminal: QuoteRefOut
    product: QuoteRefOut
    rack_price: str | None = Field(None, description="The lowest buying price in force today here")
    cells: list[QuoteCellOut]


class QuoteComparisonOut(Schema):
    request_id: int
    number: str
    rack_date: dt.date
    suppliers: list[QuoteRefOut]
    rows: list[QuoteRowOut]


class QuoteListQuery(Schema):
    page: int = Field(1, ge=1, le=1_000_000)
    size: int = Field(50, ge=1, le=100)
