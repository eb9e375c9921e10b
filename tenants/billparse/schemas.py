"""Schemas of the bill parser's API (prefixed BillParse… : OpenAPI names are unique across apps)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from ninja import Field, Schema
from pydantic import ConfigDict


class BillParseDocOut(Schema):
    id: int
    batch: str
    file_name: str
    size: int
    status: str
    message: str
    pages: int
    supplier_id: int | None
    supplier_name: str | None = None
    bill_id: int | None
    layout_matched: bool
    low_confidence: int = Field(0, description="How many fields read with a confidence under the mark")
    created_at: datetime

    @staticmethod
    def resolve_supplier_name(obj: Any) -> str | None:
        if isinstance(obj, dict):  # already rendered (the detail is built as a dict)
            return obj.get("supplier_name")
        return obj.supplier.name if obj.supplier_id and obj.supplier else None

    @staticmethod
    def resolve_low_confidence(obj: Any) -> int:
        from tenants.billparse.extract import LOW_CONFIDENCE

        if isinstance(obj, dict):
            return int(obj.get("low_confidence") or 0)
        result = obj.result or {}
        count = 0
        for f in (result.get("fields") or {}).values():
            if f.get("confidence", 0) < LOW_CONFIDENCE:
                count += 1
        for ln in [*(result.get("lines") or []), *(result.get("taxes") or [])]:
            for key in ("product", "net", "unit_price", "amount"):
                f = ln.get(key) or {}
                if f.get("value") is not None and f.get("confidence", 0) < LOW_CONFIDENCE:
                    count += 1
        return count


class BillParseUploadOut(Schema):
    batch: str
    job_queued: bool
    documents: list[BillParseDocOut]


class BillParsePORef(Schema):
    id: int
    number: str
    status: str


class BillParseDetailOut(BillParseDocOut):
    result: dict[str, Any]
    review: dict[str, Any]
    names: dict[str, dict[str, str]] = Field(default_factory=dict)
    suggested_purchase_order: BillParsePORef | None = None
    low_mark: float = 0.8


class BillParseListQuery(Schema):
    batch: str | None = Field(None, max_length=32)
    page: int = Field(1, ge=1, le=1_000_000)
    size: int = Field(20, ge=1, le=100)


class BillParseLineIn(Schema):
    model_config = ConfigDict(extra="forbid")

    product_id: int | None = None
    description: str = Field("", max_length=200)
    gross: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=3)
    net: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=3)
    unit_price: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=6)
    amount: Decimal | None = Field(None, max_digits=14, decimal_places=2)
    bol: str = Field("", max_length=40)


class BillParseTaxIn(Schema):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., min_length=1, max_length=120)
    amount: Decimal = Field(..., max_digits=14, decimal_places=2)


class BillParseReviewIn(Schema):
    """The bill draft as the user reviewed it."""

    model_config = ConfigDict(extra="forbid")

    supplier_id: int | None = None
    bill_number: str = Field("", max_length=60)
    bill_date: date | None = None
    due_date: date | None = None
    terminal_id: int | None = None
    bol_numbers: list[str] = Field(default_factory=list, max_length=200)
    total: Decimal | None = Field(None, max_digits=14, decimal_places=2)
    lines: list[BillParseLineIn] = Field(default_factory=list, max_length=500)
    taxes: list[BillParseTaxIn] = Field(default_factory=list, max_length=100)
    purchase_order_id: int | None = None
    total_override_reason: str = Field(
        "",
        max_length=500,
        description="Why the bill may differ from the document's total (lines + taxes != total): "
        "without it such a bill is refused (409); with it the reason is kept on the bill.",
    )


class BillParseChoice(Schema):
    id: int
    name: str


class BillParseChoicesOut(Schema):
    suppliers: list[BillParseChoice]
    terminals: list[BillParseChoice]
    products: list[BillParseChoice]


class BillParseCreatedOut(Schema):
    parse_id: int
    bill_id: int
    purchase_order_id: int | None
    layout_labels: int = Field(0, description="How many of the supplier's labels are now known")
