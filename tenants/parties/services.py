"""Writes of customers, ship-tos, tanks, contacts, suppliers, terminals and aliases.

Each runs inside the CRUD helper's transaction (or a CSV import's); they check what spans rows
(a city in its state, a ship-to of the customer) and leave field rules to the schemas and models.
"""

from __future__ import annotations

import uuid
from typing import Any

from core.crud import save_object
from core.errors import ApiError
from core.scoping import not_found
from django.db import transaction

from tenants.geo.models import City
from tenants.parties.models import (
    ContactService,
    Customer,
    CustomerAsset,
    CustomerContact,
    ShipTo,
    Supplier,
    SupplierProductAlias,
    Terminal,
)

TEXT_FIELDS = (
    "address_one",
    "address_two",
    "zip_code",
    "phone",
    "email",
    "notes",
    "description",
    "delivery_instructions",
    "access_hours",
    "tax_exempt_certificate",
    "serial_number",
    "contact_name",
    "position",
    "code",
    "alias_code",
)
FLAG_FIELDS = ("is_active", "tax_exempt")

DEFAULT_CONTACT_SERVICES = [
    ("invoices", "Invoices", "Receives invoices by email."),
    ("delivery_tickets", "Delivery tickets", "Receives signed delivery tickets after each delivery."),
    ("price_notices", "Price notices", "Receives price changes and rack price notices."),
    ("statements", "Statements", "Receives monthly account statements."),
    ("order_confirmations", "Order confirmations", "Receives a confirmation when an order is scheduled."),
    (
        "delivery_notifications",
        "Delivery notifications",
        "Is told when a driver is on the way or has delivered.",
    ),
]


def _clean(data: dict[str, Any]) -> dict[str, Any]:
    """PUT may send null for text (clear it) and for flags (leave them): the columns are not null."""
    for name in TEXT_FIELDS:
        if name in data and data[name] is None:
            data[name] = ""
    for name in FLAG_FIELDS:
        if name in data and data[name] is None:
            data.pop(name)
    return data


def _require(data: dict[str, Any], *names: str) -> None:
    """An update may leave a required field out, but not empty it."""
    for name in names:
        if name in data and (data[name] is None or data[name] == ""):
            raise ApiError(422, f"{name}: this field cannot be empty.", fields=[name])


def check_place(data: dict[str, Any], current: Any = None) -> None:
    """The city must be in the state; a city alone sets the state."""
    state_id = data.get("state_id", getattr(current, "state_id", None))
    city_id = data.get("city_id", getattr(current, "city_id", None))
    if not city_id or ("city_id" not in data and "state_id" not in data):
        return
    city = City.objects.filter(pk=city_id).only("id", "state_id").first()
    if city is None:
        raise ApiError(422, f"city_id: no city with id {city_id}.")
    if state_id and state_id != city.state_id:
        raise ApiError(422, "city_id: this city is not in the chosen state.")
    data["state_id"] = city.state_id


# --- customers -----------------------------------------------------------------------------------
STATUS_ALIASES = {"hold": "on_hold", "credit": "credit_hold"}


def normalize_status(value: Any) -> Any:
    """'On Hold', 'on-hold' and 'on_hold' are the same status."""
    if not isinstance(value, str):
        return value
    raw = value.strip().lower()
    return STATUS_ALIASES.get(raw, raw.replace(" ", "_").replace("-", "_"))


def parse_status(value: str | None, choices: Any) -> str:
    allowed = [c.value for c in choices]
    if value is None or not value.strip():
        raise ApiError(422, f"A status is required. Allowed values: {', '.join(allowed)}.", allowed=allowed)
    status = normalize_status(value)
    if status not in allowed:
        raise ApiError(
            422, f"Unknown status '{value}'. Allowed values: {', '.join(allowed)}.", allowed=allowed
        )
    return str(status)


def _next_account_number(customer: Customer) -> str:
    base = f"C{customer.pk:06d}"
    candidate, n = base, 1
    while Customer.objects.filter(account_number__iexact=candidate).exclude(pk=customer.pk).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def create_customer(data: dict[str, Any]) -> Customer:
    data = _clean(data)
    check_place(data)
    generate = not data.get("account_number")
    if generate:
        data["account_number"] = f"new-{uuid.uuid4().hex[:20]}"  # replaced once the id is known
    customer: Customer = save_object(Customer(), data)  # type: ignore[assignment]
    if generate:
        customer.account_number = _next_account_number(customer)
        customer.save(update_fields=["account_number"])
    return customer


def update_customer(customer: Customer, data: dict[str, Any]) -> Customer:
    data = _clean(data)
    _require(data, "name", "status", "customer_pricing_type")
    if "account_number" in data and not data["account_number"]:
        data.pop("account_number")  # blank keeps the number it has
    check_place(data, customer)
    return save_object(customer, data)  # type: ignore[return-value]


def set_customer_status(customer: Customer, status: str | None) -> Customer:
    customer.status = parse_status(status, Customer.Status)
    with transaction.atomic():
        customer.save(update_fields=["status", "updated_at"])
    return customer


# --- ship-tos ------------------------------------------------------------------------------------
def create_ship_to(data: dict[str, Any]) -> ShipTo:
    data = _clean(data)
    check_place(data)
    return save_object(ShipTo(), data)  # type: ignore[return-value]


def update_ship_to(ship_to: ShipTo, data: dict[str, Any]) -> ShipTo:
    data = _clean(data)
    _require(data, "name", "customer_id")
    if "customer_id" in data and data["customer_id"] != ship_to.customer_id:
        in_use = ship_to.assets.count()
        if in_use:
            raise ApiError(
                409,
                f"This ship-to has {in_use} tank(s) of its customer: it cannot move to another "
                "customer. Create a new ship-to instead.",
            )
    check_place(data, ship_to)
    return save_object(ship_to, data)  # type: ignore[return-value]


# --- customer assets -----------------------------------------------------------------------------
def _asset_owner(data: dict[str, Any], current: CustomerAsset | None) -> None:
    customer_id = data.get("customer_id", current.customer_id if current else None)
    ship_to_id = data.get("ship_to_id", current.ship_to_id if current else None)
    if ship_to_id:
        ship_to = ShipTo.objects.filter(pk=ship_to_id).only("id", "customer_id").first()
        if ship_to is None:
            raise ApiError(422, f"ship_to_id: no ship-to with id {ship_to_id}.")
        if customer_id and customer_id != ship_to.customer_id:
            raise ApiError(422, "ship_to_id: this ship-to belongs to another customer.")
        data["customer_id"] = ship_to.customer_id
    elif not customer_id:
        raise ApiError(422, "customer_id: a customer (or a ship-to) is required.", fields=["customer_id"])


def create_asset(data: dict[str, Any]) -> CustomerAsset:
    data = _clean(data)
    _asset_owner(data, None)
    return save_object(CustomerAsset(), data)  # type: ignore[return-value]


def update_asset(asset: CustomerAsset, data: dict[str, Any]) -> CustomerAsset:
    data = _clean(data)
    _require(data, "asset_name", "tank_type")
    if data.get("customer_id", 0) is None:
        data.pop("customer_id")
    _asset_owner(data, asset)
    return save_object(asset, data)  # type: ignore[return-value]


# --- contact services and contacts ---------------------------------------------------------------
def ensure_default_services() -> None:
    """The services every company starts with. Rows cannot live in the (row-less) template schema, so
    they are made when a company is provisioned (the `tenant_provisioned` signal) and, for the
    companies that existed before, by migration 0005. Reads never make them."""
    if ContactService.objects.exists():
        return
    with transaction.atomic():
        ContactService.objects.bulk_create(
            [
                ContactService(code=code, name=name, description=text)
                for code, name, text in DEFAULT_CONTACT_SERVICES
            ],
            ignore_conflicts=True,
        )


def update_contact_service(service: ContactService, data: dict[str, Any]) -> ContactService:
    data = _clean(data)
    _require(data, "code", "name")
    return save_object(service, data)  # type: ignore[return-value]


def _contact_refs(data: dict[str, Any], current: CustomerContact | None) -> dict[str, Any]:
    if "user_account" in data:
        data["user_account_id"] = data.pop("user_account")
    customer_id = data.get("customer_id", current.customer_id if current else None)
    ship_to_id = data.get("ship_to_id", current.ship_to_id if current else None)
    if ship_to_id and ("ship_to_id" in data or "customer_id" in data):
        owner = ShipTo.objects.filter(pk=ship_to_id).values_list("customer_id", flat=True).first()
        if owner is None:
            raise ApiError(422, f"ship_to_id: no ship-to with id {ship_to_id}.")
        if owner != customer_id:
            raise ApiError(422, "ship_to_id: this ship-to belongs to another customer.")
    if "services" in data and data["services"] is not None:
        data["services"] = sorted(set(data["services"]))
    return data


def create_contact(data: dict[str, Any]) -> CustomerContact:
    return save_object(CustomerContact(), _contact_refs(_clean(data), None))  # type: ignore[return-value]


def update_contact(contact: CustomerContact, data: dict[str, Any]) -> CustomerContact:
    data = _clean(data)
    _require(data, "name", "customer_id")
    return save_object(contact, _contact_refs(data, contact))  # type: ignore[return-value]


# --- terminals, suppliers, aliases ---------------------------------------------------------------
def create_terminal(data: dict[str, Any]) -> Terminal:
    data = _clean(data)
    check_place(data)
    return save_object(Terminal(), data)  # type: ignore[return-value]


def update_terminal(terminal: Terminal, data: dict[str, Any]) -> Terminal:
    data = _clean(data)
    _require(data, "name", "terminal_code")
    check_place(data, terminal)
    return save_object(terminal, data)  # type: ignore[return-value]


def create_supplier(data: dict[str, Any]) -> Supplier:
    data = _clean(data)
    check_place(data)
    return save_object(Supplier(), data)  # type: ignore[return-value]


def update_supplier(supplier: Supplier, data: dict[str, Any]) -> Supplier:
    data = _clean(data)
    _require(data, "name", "status")
    check_place(data, supplier)
    return save_object(supplier, data)  # type: ignore[return-value]


def set_supplier_status(supplier: Supplier, status: str | None) -> Supplier:
    supplier.status = parse_status(status, Supplier.Status)
    with transaction.atomic():
        supplier.save(update_fields=["status", "updated_at"])
    return supplier


def update_alias(alias: SupplierProductAlias, data: dict[str, Any]) -> SupplierProductAlias:
    data = _clean(data)
    _require(data, "supplier_id", "product_id", "alias_name")
    return save_object(alias, data)  # type: ignore[return-value]


# --- for the pricing app -------------------------------------------------------------------------
CUSTOMER_PRICING_TYPES = ("standard", "fixed", "rack_plus", "cost_plus")


def set_customer_pricing_type(customer_id: int, pricing_type: str) -> None:
    """Set how a customer is priced (the pricing app owns the meaning of each type)."""
    if pricing_type not in CUSTOMER_PRICING_TYPES:
        raise ApiError(
            422,
            f"customer_pricing_type must be one of {', '.join(CUSTOMER_PRICING_TYPES)}.",
        )
    updated = Customer.objects.filter(pk=customer_id).update(customer_pricing_type=pricing_type)
    if not updated:
        raise not_found(Customer)
