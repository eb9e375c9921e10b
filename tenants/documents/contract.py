"""The data contract of each printable document: what the invoice, delivery-ticket and sales-order
domains hand the renderer. Stable: fields are only ever added. docs/documents.md lists it.

A template refers to a value by its dotted `variableName` (`customer.name`, `totals.total`) and to
a list by its `tableType` (`line_items`, `fees`, `taxes`); `VARIABLES` and `TABLE_COLUMNS` below
are the catalogue the designer offers.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

DocumentType = Literal["invoice", "delivery_ticket", "sales_order"]
DOCUMENT_TYPES: tuple[str, ...] = ("invoice", "delivery_ticket", "sales_order")
DOCUMENT_LABELS = {"invoice": "Invoice", "delivery_ticket": "Delivery ticket", "sales_order": "Sales order"}


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Party(_Part):
    name: str = ""
    account_number: str = ""
    # Address lines as printed, top to bottom (street, second line, "City, ST 12345").
    address: list[str] = Field(default_factory=list)
    phone: str = ""
    email: str = ""


class Company(Party):
    website: str = ""
    # The logo as a data: URI (PNG/JPEG/GIF/WebP). Remote URLs are never fetched by the renderer.
    logo: str = ""


class DocumentInfo(_Part):
    number: str = ""
    title: str = ""  # "Invoice", "Delivery Ticket"… defaults to the type's label
    date: dt.date | None = None
    due_date: dt.date | None = None
    order_number: str = ""
    po_number: str = ""
    payment_terms: str = ""
    status: str = ""
    notes: str = ""
    delivered_at: dt.datetime | None = None
    driver: str = ""
    truck: str = ""


class Line(_Part):
    line_no: int = 0
    product_code: str = ""
    product_name: str = ""
    description: str = ""
    unit: str = ""
    quantity_ordered: Decimal | None = None
    quantity_delivered: Decimal | None = None
    gross_volume: Decimal | None = None
    net_volume: Decimal | None = None
    # What `amount` is computed from: net gallons for fuel billed at 60 °F, else the delivered quantity.
    quantity_billed: Decimal | None = None
    temperature: Decimal | None = None  # °F
    meter_start: Decimal | None = None
    meter_end: Decimal | None = None
    tank: str = ""
    unit_price: Decimal | None = None  # 4 dp
    amount: Decimal | None = None  # 2 dp


class Fee(_Part):
    name: str = ""
    quantity: Decimal | None = None
    rate: Decimal | None = None
    amount: Decimal = Decimal("0")


class Tax(_Part):
    name: str = ""
    rate: Decimal | None = None  # as printed: percent or per-unit, see rate_label
    rate_label: str = ""
    taxable_amount: Decimal | None = None
    amount: Decimal = Decimal("0")


class Totals(_Part):
    subtotal: Decimal | None = None
    fees: Decimal | None = None
    tax: Decimal | None = None
    total: Decimal | None = None
    amount_paid: Decimal | None = None
    balance_due: Decimal | None = None
    gross_volume: Decimal | None = None
    net_volume: Decimal | None = None
    # What was ordered and delivered of the lines sold by the gallon (goods counted in other units
    # are not added to gallons: each line shows its own quantity and unit).
    gallons_ordered: Decimal | None = None
    gallons_delivered: Decimal | None = None


class Signature(_Part):
    signer_name: str = ""
    signed_at: dt.datetime | None = None
    image: str = ""  # data: URI of the signature drawing
    location: str = ""  # "lat, lon" when the phone gave one
    photos: list[str] = Field(default_factory=list)  # data: URIs


class DocumentData(_Part):
    type: DocumentType = "invoice"
    company: Company = Field(default_factory=Company)
    customer: Party = Field(default_factory=Party)
    ship_to: Party = Field(default_factory=Party)
    document: DocumentInfo = Field(default_factory=DocumentInfo)
    lines: list[Line] = Field(default_factory=list)
    fees: list[Fee] = Field(default_factory=list)
    taxes: list[Tax] = Field(default_factory=list)
    totals: Totals = Field(default_factory=Totals)
    signature: Signature = Field(default_factory=Signature)


# --- the catalogue the designer offers -------------------------------------------------------------
FieldType = Literal["text", "multiline", "date", "datetime", "currency", "number", "quantity", "image"]

# variableName → (label, fieldType, document types it is filled for)
ALL = DOCUMENT_TYPES
VARIABLES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "company.name": ("Company name", "text", ALL),
    "company.address": ("Company address", "multiline", ALL),
    "company.phone": ("Company phone", "text", ALL),
    "company.email": ("Company email", "text", ALL),
    "company.website": ("Company website", "text", ALL),
    "company.logo": ("Company logo", "image", ALL),
    "document.title": ("Document title", "text", ALL),
    "document.number": ("Document number", "text", ALL),
    "document.date": ("Date", "date", ALL),
    "document.due_date": ("Due date", "date", ("invoice",)),
    "document.order_number": ("Order number", "text", ALL),
    "document.po_number": ("PO number", "text", ALL),
    "document.payment_terms": ("Payment terms", "text", ("invoice", "sales_order")),
    "document.status": ("Status", "text", ALL),
    "document.notes": ("Notes", "multiline", ALL),
    "document.delivered_at": ("Delivered at", "datetime", ("delivery_ticket", "sales_order")),
    "document.driver": ("Driver", "text", ("delivery_ticket", "sales_order")),
    "document.truck": ("Truck", "text", ("delivery_ticket", "sales_order")),
    "customer.name": ("Customer name", "text", ALL),
    "customer.account_number": ("Account number", "text", ALL),
    "customer.address": ("Bill-to address", "multiline", ALL),
    "customer.phone": ("Customer phone", "text", ALL),
    "customer.email": ("Customer email", "text", ALL),
    "ship_to.name": ("Ship-to name", "text", ALL),
    "ship_to.address": ("Ship-to address", "multiline", ALL),
    "totals.subtotal": ("Subtotal", "currency", ("invoice", "sales_order")),
    "totals.fees": ("Fees total", "currency", ("invoice", "sales_order")),
    "totals.tax": ("Tax total", "currency", ("invoice", "sales_order")),
    "totals.total": ("Total", "currency", ("invoice", "sales_order")),
    "totals.amount_paid": ("Amount paid", "currency", ("invoice",)),
    "totals.balance_due": ("Balance due", "currency", ("invoice",)),
    "totals.gross_volume": ("Total gross volume", "quantity", ALL),
    "totals.net_volume": ("Total net volume", "quantity", ALL),
    "totals.gallons_ordered": ("Total gallons ordered", "quantity", ("delivery_ticket",)),
    "totals.gallons_delivered": ("Total gallons delivered", "quantity", ("delivery_ticket",)),
    "signature.signer_name": ("Signed by", "text", ("delivery_ticket",)),
    "signature.signed_at": ("Signed at", "datetime", ("delivery_ticket",)),
    "signature.image": ("Signature", "image", ("delivery_ticket",)),
    "signature.location": ("GPS position", "text", ("delivery_ticket",)),
}

# tableType → {column key: (label, fieldType)}
TABLE_COLUMNS: dict[str, dict[str, tuple[str, str]]] = {
    "line_items": {
        "line_no": ("#", "number"),
        "product_code": ("Code", "text"),
        "product_name": ("Product", "text"),
        "description": ("Description", "text"),
        "unit": ("Unit", "text"),
        "quantity_ordered": ("Ordered", "quantity"),
        "quantity_delivered": ("Delivered", "quantity"),
        "gross_volume": ("Gross gal", "quantity"),
        "net_volume": ("Net gal", "quantity"),
        "quantity_billed": ("Billed qty", "quantity"),
        "temperature": ("Temp °F", "number"),
        "meter_start": ("Meter start", "quantity"),
        "meter_end": ("Meter end", "quantity"),
        "tank": ("Tank", "text"),
        "unit_price": ("Unit price", "price"),
        "amount": ("Amount", "currency"),
    },
    "fees": {
        "name": ("Fee", "text"),
        "quantity": ("Qty", "quantity"),
        "rate": ("Rate", "price"),
        "amount": ("Amount", "currency"),
    },
    "taxes": {
        "name": ("Tax", "text"),
        "rate_label": ("Rate", "text"),
        "taxable_amount": ("Taxable", "currency"),
        "amount": ("Amount", "currency"),
    },
}
