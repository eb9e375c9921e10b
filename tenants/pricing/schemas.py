import datetime as dt
from decimal import Decimal
from typing import Annotated, Any, Literal

from core.errors import ApiError
from ninja import Field, Schema

from tenants.geo.schemas import StrippedIn
from tenants.pricing.engine import rate_in_force, scope_weight
from tenants.pricing.models import MAX_TERM_DAYS, rule_scope_chips


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


# --- shared --------------------------------------------------------------------------------------
TaxKind = Literal["percent", "per_unit", "fixed"]
MAX_ID = 2**63 - 1  # a bigint: larger ids are a 422, not a 500
# Dates a business uses (and whose day before and after exist).
Day = Annotated[dt.date, Field(ge=dt.date(1900, 1, 1), le=dt.date(2999, 12, 31))]


def _ids(manager: Any) -> list[int]:
    return sorted(o.pk for o in manager.all())


# --- taxes ---------------------------------------------------------------------------------------
class TaxRateIn(Schema):
    rate: Decimal = Field(
        ..., ge=0, max_digits=14, decimal_places=6, description="Percent for percent taxes, money otherwise"
    )
    effective_from: Day
    effective_to: Day | None = None


class TaxRateOut(Schema):
    id: int
    tax_id: int
    rate: Decimal
    effective_from: Day
    effective_to: Day | None


class TaxIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=120, description="e.g. Federal diesel excise")
    code: str = Field(..., min_length=1, max_length=30, description="Unique, kept upper-case")
    kind: TaxKind = Field("percent", description="percent of the line, per_unit (gallon), fixed per document")
    description: str = Field("", max_length=300)
    applies_to_all_states: bool = False
    applies_to_all_cities: bool = False
    applies_to_all_products: bool = False
    applies_to_all_product_categories: bool = False
    state_ids: list[int] = Field(default_factory=list, max_length=5000)
    city_ids: list[int] = Field(default_factory=list, max_length=50000)
    product_ids: list[int] = Field(default_factory=list, max_length=5000)
    category_ids: list[int] = Field(default_factory=list, max_length=5000)
    is_taxable: bool = Field(False, description="Later percent taxes include this tax (tax on tax)")
    sequence: int = Field(0, ge=0, le=1000, description="Order of computation, lower first")
    exemptible: bool = Field(True, description="Not charged to tax-exempt customers")
    is_active: bool = True


class TaxOut(Schema):
    id: int
    name: str
    code: str
    kind: str
    description: str
    applies_to_all_states: bool
    applies_to_all_cities: bool
    applies_to_all_products: bool
    applies_to_all_product_categories: bool
    state_ids: list[int]
    city_ids: list[int]
    product_ids: list[int]
    category_ids: list[int]
    is_taxable: bool
    sequence: int
    exemptible: bool
    is_active: bool
    rates: list[TaxRateOut]
    current_rate: Decimal | None = Field(None, description="The rate in force today")
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_state_ids(obj: Any) -> list[int]:
        return _ids(obj.states)

    @staticmethod
    def resolve_city_ids(obj: Any) -> list[int]:
        return _ids(obj.cities)

    @staticmethod
    def resolve_product_ids(obj: Any) -> list[int]:
        return _ids(obj.products)

    @staticmethod
    def resolve_category_ids(obj: Any) -> list[int]:
        return _ids(obj.categories)

    @staticmethod
    def resolve_rates(obj: Any) -> list[Any]:
        return sorted(obj.rates.all(), key=lambda r: r.effective_from, reverse=True)

    @staticmethod
    def resolve_current_rate(obj: Any) -> Decimal | None:
        newest_first = sorted(obj.rates.all(), key=lambda r: r.effective_from, reverse=True)
        return rate_in_force(
            ((r.effective_from, r.effective_to, r.rate) for r in newest_first), dt.date.today()
        )


class TaxQuery(Schema):
    kind: TaxKind | None = None
    is_active: bool | None = None


class TaxSummaryOut(Schema):
    """A document's taxes (`/api/tax/<documents>/taxes/{id}`: sales orders, invoices, purchase orders)."""

    total_tax_amount: Decimal
    taxable_items: list[dict[str, Any]]


class TaxSummaryMissing(Schema):
    """404: an unknown document id carries the empty default; a path whose id is not a number is no
    route at all and answers the plain `{detail}` 404."""

    detail: str
    total_tax_amount: Decimal = Decimal("0.00")
    taxable_items: list[dict[str, Any]] = Field(default_factory=list)


# --- fees ----------------------------------------------------------------------------------------
class FeeDefinitionIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=120, description="e.g. Delivery, Environmental")
    fee_code: str = Field("", max_length=30, description="Unique when set, kept upper-case")
    erp_code: str = Field("", max_length=60, description="The item code in the accounting system")
    fee_type: Literal["flat", "per_unit", "percentage"] = "flat"
    amount_type: Literal["fixed_amount", "percentage"] = "fixed_amount"
    rate: Decimal = Field(Decimal("0"), ge=0, max_digits=14, decimal_places=4)
    quantity: Decimal = Field(Decimal("1"), ge=0, max_digits=14, decimal_places=4)
    customer_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="Only for this customer (empty: every customer)"
    )
    description: str = Field("", max_length=300)
    is_active: bool = True


class FeeOut(Schema):
    id: int
    name: str
    fee_code: str
    erp_code: str
    fee_type: str
    amount_type: str
    rate: Decimal
    quantity: Decimal
    subtotal: Decimal = Field(
        ..., description="rate x quantity (0 for a percentage fee: it needs a document)"
    )
    customer_id: int | None
    customer_name: str | None = None
    description: str
    is_active: bool
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_customer_name(obj: Any) -> str | None:
        return obj.customer.name if obj.customer_id else None


class FeeQuery(Schema):
    customer_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="Fees of this customer and fees for everyone"
    )
    fee_type: Literal["flat", "per_unit", "percentage"] | None = None
    is_active: bool | None = None


# --- buying prices -------------------------------------------------------------------------------
class BuyingPriceIn(Schema):
    supplier_id: int = Field(..., ge=1, le=MAX_ID)
    terminal_id: int = Field(..., ge=1, le=MAX_ID)
    product_id: int = Field(..., ge=1, le=MAX_ID)
    price: Decimal = Field(..., ge=0, max_digits=14, decimal_places=6, description="Per unit (gallon)")
    effective_from: Day
    effective_to: Day | None = Field(None, description="Empty: until the next price")


class NamedRef(Schema):
    id: int
    name: str


class BuyingPriceOut(Schema):
    id: int
    supplier_id: int
    terminal_id: int
    product_id: int
    supplier: NamedRef
    terminal: NamedRef
    product: NamedRef
    price: Decimal
    effective_from: Day
    effective_to: Day | None
    created_at: dt.datetime
    updated_at: dt.datetime


class BuyingPriceQuery(Schema):
    supplier_id: int | None = Field(None, ge=1, le=MAX_ID)
    terminal_id: int | None = Field(None, ge=1, le=MAX_ID)
    product_id: int | None = Field(None, ge=1, le=MAX_ID)
    effective_from: Day | None = Field(None, description="Prices in force on or after this date")
    effective_to: Day | None = Field(None, description="Prices in force on or before this date")
    on: Day | None = Field(None, description="Only the prices in force on this date")


class RackSheetRow(Schema):
    terminal_id: int = Field(..., ge=1, le=MAX_ID)
    product_id: int = Field(..., ge=1, le=MAX_ID)
    price: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=6, description="Empty: skip")


class RackSheetIn(Schema):
    supplier_id: int = Field(..., ge=1, le=MAX_ID)
    effective_from: Day
    rows: list[RackSheetRow] = Field(..., min_length=1, max_length=5000)


class RackSheetOut(Schema):
    created: int
    updated: int
    skipped: int


class RackCell(Schema):
    terminal_id: int
    product_id: int
    price: Decimal | None
    previous: Decimal | None
    change: Decimal | None
    supplier_id: int | None
    buying_price_id: int | None


class RackBoardOut(Schema):
    date: Day
    previous_date: Day
    basis: str
    supplier_id: int | None
    terminals: list[NamedRef]
    products: list[NamedRef]
    cells: list[RackCell]


class RackHistoryPoint(Schema):
    date: Day
    supplier_id: int
    supplier_name: str
    price: Decimal


class RackHistoryOut(Schema):
    terminal_id: int
    product_id: int
    points: list[RackHistoryPoint]


# --- pricing rules -------------------------------------------------------------------------------
class PricingRuleIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=120)
    priority: int = Field(0, ge=-1000, le=1000, description="Higher wins among equally specific rules")
    customer_id: int | None = Field(None, ge=1, le=MAX_ID)
    company_type_id: int | None = Field(None, ge=1, le=MAX_ID)
    ship_to_id: int | None = Field(None, ge=1, le=MAX_ID)
    state_id: int | None = Field(None, ge=1, le=MAX_ID)
    product_id: int | None = Field(None, ge=1, le=MAX_ID)
    category_id: int | None = Field(None, ge=1, le=MAX_ID)
    basis: Literal["rack", "last_cost", "fixed"] = "rack"
    rack_mode: Literal["named", "lowest", "average"] = "lowest"
    terminal_id: int | None = Field(None, ge=1, le=MAX_ID, description="Required for a rack basis")
    supplier_id: int | None = Field(None, ge=1, le=MAX_ID, description="Required for a named rack")
    fixed_price: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=4)
    margin_type: Literal["per_unit", "percent"] = "per_unit"
    margin: Decimal = Field(Decimal("0"), ge=-1000, le=1000, max_digits=14, decimal_places=4)
    freight_per_unit: Decimal = Field(Decimal("0"), ge=0, max_digits=14, decimal_places=4)
    minimum_price: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=4)
    minimum_margin: Decimal | None = Field(None, ge=-1000, le=1000, max_digits=14, decimal_places=4)
    rounding: Decimal = Field(Decimal("0.0001"), ge=Decimal("0.0001"), le=1, max_digits=8, decimal_places=4)
    effective_from: Day | None = None
    effective_to: Day | None = None
    is_active: bool = True


class PricingRuleOut(Schema):
    id: int
    name: str
    priority: int
    customer_id: int | None
    company_type_id: int | None
    ship_to_id: int | None
    state_id: int | None
    product_id: int | None
    category_id: int | None
    basis: str
    rack_mode: str
    terminal_id: int | None
    supplier_id: int | None
    fixed_price: Decimal | None
    margin_type: str
    margin: Decimal
    freight_per_unit: Decimal
    minimum_price: Decimal | None
    minimum_margin: Decimal | None
    rounding: Decimal
    effective_from: Day | None
    effective_to: Day | None
    is_active: bool
    specificity: int
    scope: list[str] = Field(..., description="Readable scope chips, e.g. 'Customer: Acme'")
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_specificity(obj: Any) -> int:
        return scope_weight(lambda name: getattr(obj, name))

    @staticmethod
    def resolve_scope(obj: Any) -> list[str]:
        return rule_scope_chips(
            lambda relation, column: (
                None if getattr(obj, f"{relation}_id") is None else getattr(getattr(obj, relation), column)
            )
        )


class PricingRuleQuery(Schema):
    customer_id: int | None = Field(None, ge=1, le=MAX_ID)
    product_id: int | None = Field(None, ge=1, le=MAX_ID)
    basis: Literal["rack", "last_cost", "fixed"] | None = None
    is_active: bool | None = None


# --- customer pricing ----------------------------------------------------------------------------
CustomerPricingType = Literal["standard", "fixed", "rack_plus", "cost_plus"]


class CustomerPriceItemIn(Schema):
    id: int | None = Field(None, ge=1, le=MAX_ID, description="An existing item to change")
    product_id: int = Field(..., ge=1, le=MAX_ID)
    unit_price: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=4)
    product_price: Decimal | None = Field(
        None, ge=0, max_digits=14, decimal_places=4, description="Another name of unit_price"
    )
    margin: Decimal = Field(Decimal("0"), ge=-1000, le=1000, max_digits=14, decimal_places=4)
    terminal_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="Rack-plus: the terminal whose rack is used"
    )
    supplier_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="Rack-plus: that supplier's rack (else the lowest)"
    )
    freight_per_unit: Decimal = Field(Decimal("0"), ge=0, max_digits=14, decimal_places=4)


class CustomerPricingIn(Schema):
    customer_pricing_type: CustomerPricingType | None = None
    pricings: list[CustomerPriceItemIn] = Field(default_factory=list, max_length=2000)


class CustomerPriceItemOut(Schema):
    id: int
    customer_id: int
    product_id: int
    product_name: str
    product_code: str
    unit_price: Decimal | None
    product_price: Decimal | None
    margin: Decimal
    terminal_id: int | None
    supplier_id: int | None
    freight_per_unit: Decimal
    final_price: Decimal | None = Field(None, description="What the customer pays per unit today")
    final_price_note: str = ""


class CustomerPricingOut(Schema):
    customer_id: int
    customer_name: str
    customer_pricing_type: str
    pricings: list[CustomerPriceItemOut]
    total: int
    page: int
    size: int
    pages: int


class PriceAssumedOut(Schema):
    """What a customer's price assumed that the request did not name."""

    ship_to_id: int | None = Field(
        ..., description="No ship-to named: the customer's only active ship-to, which the price is for"
    )
    ship_to_name: str | None
    terminal_id: int | None = Field(..., description="The terminal the rack price or our cost came from")
    terminal_name: str | None
    note: str = Field(..., description="The assumptions in a sentence (empty when none)")


class FinalPriceOut(Schema):
    product_id: int
    customer_id: int
    pricing_date: Day
    final_price: Decimal
    breakdown: dict[str, Any]
    assumed: PriceAssumedOut


# --- explain -------------------------------------------------------------------------------------
class TaxAmountOut(Schema):
    tax_id: int
    name: str
    code: str
    kind: str
    rate: Decimal
    rate_id: int | None
    taxable_base: Decimal
    amount: Decimal


class FeeAmountOut(Schema):
    key: str
    fee_id: int
    name: str
    fee_type: str
    rate: Decimal
    quantity: Decimal
    subtotal: Decimal


class PricedLineOut(Schema):
    key: str
    product_id: int
    quantity: Decimal
    unit_price: Decimal
    amount: Decimal
    taxes: list[TaxAmountOut]
    breakdown: dict[str, Any]


class PricedDocumentOut(Schema):
    lines: list[PricedLineOut]
    fees: list[FeeAmountOut]
    taxes: list[TaxAmountOut]
    subtotal: Decimal
    fee_total: Decimal
    tax_total: Decimal
    total: Decimal
    pricing_date: Day
    notes: list[str]
    explanation: list[str] = Field(
        ..., description="The breakdown in sentences, in the order it was computed"
    )
    assumed: PriceAssumedOut


class ExplainQuery(Schema):
    customer_id: int = Field(..., ge=1, le=MAX_ID)
    ship_to_id: int | None = Field(None, ge=1, le=MAX_ID)
    product_id: int = Field(..., ge=1, le=MAX_ID)
    quantity: Decimal = Field(Decimal("1"), gt=0, le=10_000_000, max_digits=14, decimal_places=4)
    pricing_date: Day | None = Field(None, description="Default today")
    fee_ids: str | None = Field(None, max_length=200, description="Comma-separated fee ids to add")
    unit_price_override: Decimal | None = Field(
        None,
        ge=0,
        max_digits=14,
        decimal_places=4,
        description="A price typed on an order line: priced as the order will price it (the order "
        "form's live preview)",
    )

    def fee_id_list(self) -> list[int]:
        """`fee_ids` as ids; anything but digits and commas is a 422."""
        fee_ids: list[int] = []
        for part in (self.fee_ids or "").split(","):
            if part.strip():
                if not part.strip().isdigit():
                    raise ApiError(422, "fee_ids: comma-separated fee ids, e.g. 3,7.")
                fee_ids.append(int(part.strip()))
        return fee_ids
