import datetime as dt
from decimal import Decimal

from ninja import Field, Schema

from tenants.geo.schemas import StrippedIn
from tenants.pricing.models import MAX_TERM_DAYS


# --- payment terms -------------------------------------------------------------------------------
class PaymentTermIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=80, description="e.g. Net 30, 2/10 Net 30, COD")
    net_days: int = Field(
        30, ge=0, le=MAX_TERM_DAYS, description="Days after the invoice date it is due; 0: on receipt"
    )
    discount_percent: Decimal = Field(
        Decimal("0"),
        ge=0,
        le=100,
        max_digits=5,
        decimal_places=2,
        description="Early-payment discount, percent",
    )
    discount_days: int = Field(0, ge=0, le=MAX_TERM_DAYS, description="Days the discount applies for")
    is_default: bool = Field(
        False, description="The term new customers get; setting it clears the previous default"
    )


class PaymentTermOut(Schema):
    id: int
    name: str
    net_days: int
    discount_percent: Decimal
    discount_days: int
    is_default: bool
    summary: str = Field(..., description="e.g. '2% 10, Net 30' or 'Due on receipt'")
    created_at: dt.datetime
    updated_at: dt.datetime


class PaymentTermQuery(Schema):
    is_default: bool | None = None


# --- payment methods -----------------------------------------------------------------------------
class PaymentMethodIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=80, description="e.g. ACH, Check, Credit Card")
    code: str = Field(..., min_length=1, max_length=20, description="Short unique code, kept upper-case")
    is_active: bool = True


class PaymentMethodOut(Schema):
    id: int
    name: str
    code: str
    is_active: bool
    created_at: dt.datetime
    updated_at: dt.datetime


class PaymentMethodQuery(Schema):
    is_active: bool | None = None
