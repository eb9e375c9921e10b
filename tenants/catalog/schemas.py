import datetime as dt
from decimal import Decimal
from typing import Annotated, Any, ClassVar, Literal

from ninja import Field, Schema
from pydantic import BeforeValidator


def blank_to_none(value: Any) -> Any:
    """Blank text is 'not given': the service then answers the spec's 'Missing …' sentence."""
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


# Text that may be sent blank; the service decides whether it was required.
OptionalText = Annotated[str | None, BeforeValidator(blank_to_none)]

SoldAs = Literal[
    "gallon", "litre", "quart", "each", "case", "box", "pail", "drum", "tote", "pound", "kilogram"
]
VcfGroupName = Literal["gasoline", "distillate", "jet", "transition", "none"]
API_GRAVITY_DOC = "API gravity at 60 °F (fuel), for net gallons at 60 °F; 0.0 to 100.0"
VCF_GROUP_DOC = (
    "Table 6B product group for the volume correction to 60 °F: gasoline, distillate (diesel, fuel oils), "
    "jet (jet fuel, kerosene), transition, or none (no correction)"
)
SOLD_AS_SYNONYMS = {
    "gal": "gallon",
    "gallons": "gallon",
    "liter": "litre",
    "liters": "litre",
    "l": "litre",
    "litres": "litre",
    "qt": "quart",
    "ea": "each",
    "cs": "case",
    "lb": "pound",
    "lbs": "pound",
    "kg": "kilogram",
}


def _sold_as(value: Any) -> Any:
    value = blank_to_none(value)
    if isinstance(value, str):
        value = value.lower()
        return SOLD_AS_SYNONYMS.get(value, value)
    return value


class CategoryRef(Schema):
    id: int
    name: str


class ProductCategoryIn(Schema):
    name: OptionalText = Field(None, max_length=100, description="Required: 'Missing required field: name'")
    description: str = Field("", max_length=300)


class ProductCategoryOut(Schema):
    id: int
    name: str
    description: str
    created_at: dt.datetime
    updated_at: dt.datetime


class SubCategoryRef(Schema):
    id: int
    name: str
    category_id: int


class ProductSubCategoryIn(Schema):
    name: OptionalText = Field(None, max_length=100, description="Required")
    category_id: int | None = Field(None, ge=1, description="Required")
    description: str = Field("", max_length=300)


class ProductSubCategoryOut(Schema):
    id: int
    name: str
    category_id: int
    category: CategoryRef
    description: str
    created_at: dt.datetime
    updated_at: dt.datetime


class SubCategoryQuery(Schema):
    category_id: int | None = Field(None, ge=1)


class ProductIn(Schema):
    name: OptionalText = Field(None, max_length=200, description="Required")
    code: OptionalText = Field(None, max_length=50, description="Required; unique")
    sold_as: Annotated[SoldAs | None, BeforeValidator(_sold_as)] = Field(None, description="Required")
    category_id: int | None = Field(None, ge=1)
    sub_category_id: int | None = Field(
        None, ge=1, description="Its category is used when category_id is empty"
    )
    description: str = Field("", max_length=5000)
    is_active: bool = True
    is_fuel: bool = Field(False, description="Bulk fuel, delivered by the gallon and metered")
    unit_price: Decimal | None = Field(None, ge=0, max_digits=12, decimal_places=4, description="List price")
    api_gravity: Decimal | None = Field(
        None, ge=0, le=100, max_digits=5, decimal_places=1, description=API_GRAVITY_DOC
    )
    vcf_group: VcfGroupName = Field("none", description=VCF_GROUP_DOC)


class ProductUpdate(Schema):
    products_id: int | None = Field(
        None, ge=1, description="The product's id; must match the path when both given"
    )
    name: OptionalText = Field(None, max_length=200)
    code: OptionalText = Field(None, max_length=50)
    sold_as: Annotated[SoldAs | None, BeforeValidator(_sold_as)] = None
    category_id: int | None = Field(None, ge=1)
    sub_category_id: int | None = Field(None, ge=1)
    description: str | None = Field(None, max_length=5000)
    is_active: bool | None = None
    is_fuel: bool | None = None
    unit_price: Decimal | None = Field(None, ge=0, max_digits=12, decimal_places=4)
    api_gravity: Decimal | None = Field(
        None, ge=0, le=100, max_digits=5, decimal_places=1, description=API_GRAVITY_DOC
    )
    vcf_group: VcfGroupName | None = Field(None, description=VCF_GROUP_DOC)


class ProductOut(Schema):
    products_id: int
    id: int
    name: str
    code: str
    sold_as: str
    category_id: int | None
    sub_category_id: int | None
    category: CategoryRef | None
    sub_category: SubCategoryRef | None
    description: str
    is_active: bool
    is_fuel: bool
    unit_price: Decimal | None
    api_gravity: Decimal | None = Field(None, description=API_GRAVITY_DOC)
    vcf_group: str = Field("none", description=VCF_GROUP_DOC)
    external_id: str = Field("", description="The item id in the accounting system (set by the sync)")
    sync_state: str = Field("not_synced", description="not_synced, pending, synced or failed")
    last_sync_error: str = ""
    created_at: dt.datetime
    updated_at: dt.datetime

    # The fast lists read products_id from the id column (core.rows.column_copies).
    column_copies: ClassVar[dict[str, str]] = {"products_id": "id"}

    @staticmethod
    def resolve_products_id(obj: Any) -> int:
        return int(obj.id)


class ProductRef(Schema):
    products_id: int
    id: int
    name: str
    code: str
    sold_as: str

    # The fast lists read products_id from the id column (core.rows.column_copies).
    column_copies: ClassVar[dict[str, str]] = {"products_id": "id"}

    @staticmethod
    def resolve_products_id(obj: Any) -> int:
        return int(obj.id)


class ProductFilters(Schema):
    """The product list's filters other than the category (which the by-category route has in its path)."""

    sold_as: Annotated[SoldAs | None, BeforeValidator(_sold_as)] = None
    sub_category_id: int | None = Field(None, ge=1)
    is_active: bool | None = None
    is_fuel: bool | None = None


class ProductQuery(ProductFilters):
    category_id: int | None = Field(None, ge=1)
