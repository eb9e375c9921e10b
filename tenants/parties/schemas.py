from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from core.fields import Email
from ninja import Field, Schema
from pydantic import BeforeValidator, ModelWrapValidatorHandler, ValidationInfo, model_validator

from tenants.catalog.schemas import ProductRef, blank_to_none
from tenants.geo.schemas import CityRef, Latitude, Longitude, StateRef, StrippedIn

if TYPE_CHECKING:
    from tenants.parties.models import ContactService, CustomerContact, Supplier, Terminal


def _status(value: object) -> object:
    from tenants.parties.services import normalize_status

    return normalize_status(value)


CustomerStatus = Annotated[Literal["active", "on_hold", "credit_hold", "inactive"], BeforeValidator(_status)]
SupplierStatus = Annotated[Literal["active", "inactive"], BeforeValidator(_status)]
TankType = Literal["above_ground", "underground", "skid", "portable", "equipment", "vehicle", "other"]
OptionalEmail = Annotated[Email | None, BeforeValidator(blank_to_none)]


class AddressIn(StrippedIn):
    address_one: str = Field("", max_length=200)
    address_two: str = Field("", max_length=200)
    state_id: int | None = Field(None, ge=1)
    city_id: int | None = Field(
        None, ge=1, description="Must be in state_id; sets state_id when that is empty"
    )
    zip_code: str = Field("", max_length=20)


class AddressOut(Schema):
    address_one: str
    address_two: str
    state_id: int | None
    state: StateRef | None
    city_id: int | None
    city: CityRef | None
    zip_code: str


class AttributeOut(Schema):
    """An output schema read straight from the object's attributes by pydantic (in Rust).

    ninja's Schema wraps every object in a DjangoGetter that resolves each field in Python (resolvers,
    managers, files, callables): ~30 fields x 100 rows made that 2-3x the cost of this path on the
    customer list (15-20 ms a page here). Only for schemas without resolve_* methods whose fields are
    plain model attributes (columns, foreign-key objects, properties), which is what these are.
    """

    @model_validator(mode="wrap")
    @classmethod
    def _run_root_validator(
        cls, values: Any, handler: ModelWrapValidatorHandler[Any], info: ValidationInfo
    ) -> Any:
        return handler(values)


# --- customer company types ----------------------------------------------------------------------
class CompanyTypeIn(StrippedIn):
    company_type: str = Field(..., min_length=1, max_length=100, description="e.g. Construction, Agriculture")
    description: str = Field("", max_length=300)


class CompanyTypeRef(AttributeOut):
    id: int
    company_type: str


class CompanyTypeOut(CompanyTypeRef):
    description: str
    created_at: dt.datetime
    updated_at: dt.datetime


# --- customers -----------------------------------------------------------------------------------
class CustomerIn(AddressIn):
    name: str = Field(..., min_length=1, max_length=200)
    account_number: str = Field("", max_length=50, description="Unique; generated (C000123) when blank")
    status: CustomerStatus = "active"
    company_type_id: int | None = Field(None, ge=1)
    phone: str = Field("", max_length=40)
    email: OptionalEmail = None
    payment_term_id: int | None = Field(None, ge=1, description="A payment term of the pricing app")
    payment_method_id: int | None = Field(None, ge=1, description="A payment method of the pricing app")
    tax_exempt: bool = False
    tax_exempt_certificate: str = Field("", max_length=100, description="Certificate number when tax exempt")
    tax_exempt_expires: dt.date | None = Field(
        None, description="The exemption certificate's expiry; from the next day taxes are charged again"
    )
    credit_limit: Decimal | None = Field(None, ge=0, max_digits=14, decimal_places=2)
    notes: str = Field("", max_length=5000)
    customer_pricing_type: str = Field("standard", min_length=1, max_length=30)


class CustomerRef(AttributeOut):
    id: int
    name: str
    account_number: str


class CustomerOut(CustomerRef, AddressOut):
    status: str
    company_type_id: int | None
    company_type: CompanyTypeRef | None
    phone: str
    email: str
    payment_term_id: int | None
    payment_method_id: int | None
    tax_exempt: bool
    tax_exempt_certificate: str
    tax_exempt_expires: dt.date | None
    credit_limit: Decimal | None
    notes: str
    customer_pricing_type: str
    external_id: str = Field("", description="The id in the accounting system (set by the sync)")
    sync_state: str = Field("not_synced", description="not_synced, pending, synced or failed")
    last_sync_error: str = ""
    created_at: dt.datetime
    updated_at: dt.datetime


class CustomerQuery(Schema):
    status: str | None = Field(None, description="active, on_hold, credit_hold or inactive")
    company_type_id: int | None = Field(None, ge=1)


class StatusQuery(Schema):
    status: str | None = Field(None, max_length=30, description="The new status")


# --- ship-tos ------------------------------------------------------------------------------------
class ShipToIn(AddressIn):
    customer_id: int = Field(..., ge=1)
    name: str = Field(..., min_length=1, max_length=200)
    latitude: Latitude | None = None
    longitude: Longitude | None = None
    delivery_instructions: str = Field("", max_length=5000)
    access_hours: str = Field("", max_length=200, description="e.g. Mon-Fri 6am-4pm, gate code 1234")
    is_active: bool = True


class ShipToRef(Schema):
    id: int
    name: str
    customer_id: int


class ShipToOut(ShipToRef, AddressOut):
    customer: CustomerRef
    latitude: float | None
    longitude: float | None
    delivery_instructions: str
    access_hours: str
    is_active: bool
    created_at: dt.datetime
    updated_at: dt.datetime


class ShipToQuery(Schema):
    customer_id: int | None = Field(None, ge=1)
    is_active: bool | None = None


# --- customer assets (tanks) ---------------------------------------------------------------------
class AssetIn(StrippedIn):
    asset_name: str = Field(..., min_length=1, max_length=200)
    customer_id: int | None = Field(None, ge=1, description="Required unless ship_to_id is given")
    ship_to_id: int | None = Field(None, ge=1, description="Must be a ship-to of the customer")
    product_id: int | None = Field(None, ge=1, description="What the tank holds")
    capacity: Decimal | None = Field(None, ge=0, max_digits=12, decimal_places=2, description="Gallons")
    tank_type: TankType = "above_ground"
    serial_number: str = Field("", max_length=100)
    is_active: bool = True
    notes: str = Field("", max_length=5000)


class AssetOut(Schema):
    id: int
    asset_name: str
    customer_id: int
    customer: CustomerRef
    ship_to_id: int | None
    ship_to: ShipToRef | None
    product_id: int | None
    product: ProductRef | None
    capacity: Decimal | None
    tank_type: str
    serial_number: str
    is_active: bool
    notes: str
    created_at: dt.datetime
    updated_at: dt.datetime


class AssetQuery(Schema):
    customer_id: int | None = Field(None, ge=1)
    ship_to_id: str | None = Field(None, max_length=100, description="A positive ship-to id")
    is_active: bool | None = None


# --- contact services and contacts ---------------------------------------------------------------
class ContactServiceIn(StrippedIn):
    code: str = Field(..., min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_-]+$")
    name: str = Field(..., min_length=1, max_length=100)
    description: str = Field("", max_length=300)
    is_active: bool = True


class ContactServiceOut(Schema):
    id: int
    code: str
    name: str
    description: str
    is_active: bool


class ContactIn(StrippedIn):
    customer_id: int = Field(..., ge=1)
    ship_to_id: int | None = Field(None, ge=1, description="Must be a ship-to of the customer")
    name: str = Field(..., min_length=1, max_length=200)
    email: OptionalEmail = None
    phone: str = Field("", max_length=40)
    position: str = Field("", max_length=100, description="e.g. Accounts Payable, Site Manager")
    user_account: int | None = Field(None, ge=1, description="A user of this company; null for none")
    services: list[int] = Field(default_factory=list, max_length=50, description="Contact service ids")
    notes: str = Field("", max_length=5000)


class UserRef(Schema):
    id: int
    name: str
    email: str


class ContactOut(Schema):
    id: int
    customer_id: int
    customer: CustomerRef
    ship_to_id: int | None
    ship_to: ShipToRef | None
    name: str
    email: str
    phone: str
    position: str
    user_account: int | None
    user: UserRef | None
    services: list[ContactServiceOut]
    service_ids: list[int]
    notes: str
    created_at: dt.datetime
    updated_at: dt.datetime

    # The fast list reads these from the user_account foreign key (core.rows.column_copies).
    column_copies: ClassVar[dict[str, str]] = {"user_account": "user_account_id", "user": "user_account"}

    @staticmethod
    def resolve_user_account(obj: object) -> int | None:
        return getattr(obj, "user_account_id", None)

    @staticmethod
    def resolve_user(obj: object) -> object:
        return getattr(obj, "user_account", None)

    @staticmethod
    def resolve_services(obj: CustomerContact) -> list[ContactService]:
        return list(obj.services.all())

    @staticmethod
    def resolve_service_ids(obj: CustomerContact) -> list[int]:
        return [s.pk for s in obj.services.all()]


class ContactQuery(Schema):
    customer_id: int | None = Field(None, ge=1)
    ship_to_id: int | None = Field(None, ge=1)
    position: str | None = Field(None, max_length=100, description="Contacts whose position contains this")
    service: str | None = Field(None, max_length=60, description="Contacts subscribed to this service code")


# --- terminals and suppliers ---------------------------------------------------------------------
class TerminalIn(AddressIn):
    name: str = Field(..., min_length=1, max_length=200)
    terminal_code: str = Field(..., min_length=1, max_length=30, description="TCN, e.g. T-76-TX-2000; unique")
    latitude: Latitude | None = None
    longitude: Longitude | None = None
    is_active: bool = True
    notes: str = Field("", max_length=5000)
    suppliers: list[int] = Field(
        default_factory=list, max_length=200, description="Ids of suppliers loading here"
    )


class TerminalRef(Schema):
    id: int
    name: str
    terminal_code: str


class SupplierRef(Schema):
    id: int
    name: str
    code: str


class TerminalOut(TerminalRef, AddressOut):
    latitude: float | None
    longitude: float | None
    is_active: bool
    notes: str
    suppliers: list[SupplierRef]
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_suppliers(obj: Terminal) -> list[Supplier]:
        return list(obj.suppliers.all())


class SupplierIn(AddressIn):
    name: str = Field(..., min_length=1, max_length=200)
    code: str = Field("", max_length=50, description="Vendor number; unique when set")
    status: SupplierStatus = "active"
    contact_name: str = Field("", max_length=200)
    email: OptionalEmail = None
    phone: str = Field("", max_length=40)
    notes: str = Field("", max_length=5000)
    terminals: list[int] = Field(
        default_factory=list, max_length=500, description="Ids of terminals it loads at"
    )


class SupplierOut(SupplierRef, AddressOut):
    status: str
    contact_name: str
    email: str
    phone: str
    notes: str
    terminals: list[TerminalRef]
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_terminals(obj: Supplier) -> list[Terminal]:
        return list(obj.terminals.all())


class SupplierQuery(Schema):
    status: str | None = Field(None, description="active or inactive")
    terminal_id: int | None = Field(None, ge=1, description="Suppliers that load at this terminal")


class TerminalQuery(Schema):
    supplier_id: int | None = Field(None, ge=1, description="Terminals where this supplier loads")
    state_id: int | None = Field(None, ge=1)
    is_active: bool | None = None


# --- supplier product aliases --------------------------------------------------------------------
class AliasIn(StrippedIn):
    supplier_id: int = Field(..., ge=1)
    product_id: int = Field(..., ge=1)
    alias_name: str = Field(
        ..., min_length=1, max_length=200, description="The supplier's name for the product"
    )
    alias_code: str = Field("", max_length=100, description="The supplier's item code")


class AliasOut(Schema):
    id: int
    supplier_id: int
    supplier: SupplierRef
    product_id: int
    product: ProductRef
    alias_name: str
    alias_code: str
    created_at: dt.datetime
    updated_at: dt.datetime


class AliasQuery(Schema):
    supplier_id: int | None = Field(None, ge=1)
    product_id: int | None = Field(None, ge=1)
