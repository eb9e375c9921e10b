"""Reads of customers, suppliers and their satellites. Every list joins (or prefetches) what its
answer shows, so a page costs the same few queries whatever its size."""

from __future__ import annotations

from typing import Any

from core import rows
from core.errors import ApiError
from core.listing import sort_aliases
from django.db.models import Prefetch, QuerySet

from tenants.parties.models import (
    ContactService,
    Customer,
    CustomerAsset,
    CustomerCompanyType,
    CustomerContact,
    ShipTo,
    Supplier,
    SupplierProductAlias,
    Terminal,
)
from tenants.parties.schemas import ContactServiceOut, SupplierRef, TerminalRef

INVALID_DELIVERY_LOCATION = "Invalid delivery location"


def company_types() -> QuerySet[CustomerCompanyType]:
    return CustomerCompanyType.objects.all()


# The customer list sorts by these aliases (api.py maps sort_by=name → sort_name, …): the text sorts,
# whose order follows what people search by (a name or an account number starts with what they type).
CUSTOMER_SORT_ALIASES = {
    "sort_name": "name",
    "sort_account_number": "account_number",
    "sort_status": "status",
}


def customers() -> QuerySet[Customer]:
    qs = (
        Customer.objects.select_related("company_type", "state", "city")
        # The output shows {id, company_type} of the type: not its timestamps (two datetime loads a row).
        .defer("company_type__description", "company_type__created_at", "company_type__updated_at")
    )
    return sort_aliases(qs, CUSTOMER_SORT_ALIASES, unindexed=False)


def filter_customers(qs: QuerySet[Customer], params: Any) -> QuerySet[Customer]:
    """Status, company type, and the sort keys of a search.

    Unfiltered, `ORDER BY name, id LIMIT 100` reads the first rows of the (name, id) index. With a
    search term, the planner would still walk that index in order, filtering, expecting matches to be
    spread evenly along it; but people search by what a name starts with, so the matches of "johnson"
    sit together in the middle of the alphabet and it reads tens of thousands of rows to find them
    (240 ms at 100,000 customers). With a search the sort keys are therefore expressions no index has:
    the matches come from the trigram indexes (BitmapOr), then a top-N sort of just those rows. (Dates
    and amounts have nothing to do with the search term: the planner's guess holds for those sorts.)
    """
    from tenants.parties.services import parse_status

    if params.search and params.search.strip():
        qs = sort_aliases(qs, CUSTOMER_SORT_ALIASES, unindexed=True)
    if params.status:
        qs = qs.filter(status=parse_status(params.status, Customer.Status))
    if params.company_type_id:
        qs = qs.filter(company_type_id=params.company_type_id)
    return qs


def ship_tos() -> QuerySet[ShipTo]:
    return sort_aliases(
        ShipTo.objects.select_related("customer", "state", "city"), {"sort_name": "name"}, unindexed=False
    )


def filter_ship_tos(qs: QuerySet[ShipTo], params: Any) -> QuerySet[ShipTo]:
    """The customer and active filters, and the name sort key: with a search term an index-free one,
    so the matches come from the search indexes and are top-N sorted (as for customers above)."""
    if params.search and params.search.strip():
        qs = sort_aliases(qs, {"sort_name": "name"}, unindexed=True)
    if params.customer_id:
        qs = qs.filter(customer_id=params.customer_id)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs


def assets() -> QuerySet[CustomerAsset]:
    return CustomerAsset.objects.select_related("customer", "ship_to", "product")


def parse_ship_to_id(raw: str | None) -> int | None:
    if raw is None:
        return None
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < 1:
        raise ApiError(422, INVALID_DELIVERY_LOCATION)
    return int(text)


def filter_assets(qs: QuerySet[CustomerAsset], params: Any) -> QuerySet[CustomerAsset]:
    ship_to_id = parse_ship_to_id(params.ship_to_id)
    if ship_to_id is None and not params.customer_id:
        raise ApiError(422, "Listing assets needs a customer_id or a ship_to_id.")
    if ship_to_id is not None:
        qs = qs.filter(ship_to_id=ship_to_id)
    if params.customer_id:
        qs = qs.filter(customer_id=params.customer_id)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs


def contact_services() -> QuerySet[ContactService]:
    return ContactService.objects.all()


# The order many-to-many references are shown in (a terminal's suppliers, a supplier's terminals, a
# contact's services), on validated and fast rows alike.
REFS_ORDER = ("name", "id")


def contacts() -> QuerySet[CustomerContact]:
    return CustomerContact.objects.select_related("customer", "ship_to", "user_account").prefetch_related(
        Prefetch("services", queryset=ContactService.objects.order_by(*REFS_ORDER))
    )


def fill_contact_rows(items: list[dict[str, Any]]) -> None:
    """The contact list's services and their ids on its plain rows (core.crud `fill_rows`)."""
    rows.fill_related_refs(items, CustomerContact, "services", ContactServiceOut, REFS_ORDER)
    for item in items:
        item["service_ids"] = [service["id"] for service in item["services"]]


def filter_contacts(qs: QuerySet[CustomerContact], params: Any) -> QuerySet[CustomerContact]:
    if params.customer_id:
        qs = qs.filter(customer_id=params.customer_id)
    if params.ship_to_id:
        qs = qs.filter(ship_to_id=params.ship_to_id)
    if params.position and params.position.strip():
        qs = qs.filter(position__icontains=params.position.strip())
    if params.service:
        qs = qs.filter(services__code__iexact=params.service.strip()).distinct()
    return qs


def terminals() -> QuerySet[Terminal]:
    return Terminal.objects.select_related("state", "city").prefetch_related(
        Prefetch("suppliers", queryset=Supplier.objects.order_by(*REFS_ORDER))
    )


def fill_terminal_rows(items: list[dict[str, Any]]) -> None:
    """The terminal list's suppliers on its plain rows (core.crud `fill_rows`)."""
    rows.fill_related_refs(items, Terminal, "suppliers", SupplierRef, REFS_ORDER)


def filter_terminals(qs: QuerySet[Terminal], params: Any) -> QuerySet[Terminal]:
    if params.supplier_id:
        qs = qs.filter(suppliers__id=params.supplier_id)
    if params.state_id:
        qs = qs.filter(state_id=params.state_id)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs


def suppliers() -> QuerySet[Supplier]:
    return Supplier.objects.select_related("state", "city").prefetch_related(
        Prefetch("terminals", queryset=Terminal.objects.order_by(*REFS_ORDER))
    )


def fill_supplier_rows(items: list[dict[str, Any]]) -> None:
    """The supplier list's terminals on its plain rows (core.crud `fill_rows`)."""
    rows.fill_related_refs(items, Supplier, "terminals", TerminalRef, REFS_ORDER)


def filter_suppliers(qs: QuerySet[Supplier], params: Any) -> QuerySet[Supplier]:
    from tenants.parties.services import parse_status

    if params.status:
        qs = qs.filter(status=parse_status(params.status, Supplier.Status))
    if params.terminal_id:
        qs = qs.filter(terminals__id=params.terminal_id)
    return qs


def aliases() -> QuerySet[SupplierProductAlias]:
    return SupplierProductAlias.objects.select_related("supplier", "product")


def filter_aliases(qs: QuerySet[SupplierProductAlias], params: Any) -> QuerySet[SupplierProductAlias]:
    if params.supplier_id:
        qs = qs.filter(supplier_id=params.supplier_id)
    if params.product_id:
        qs = qs.filter(product_id=params.product_id)
    return qs


# --- facts other domains read (plain dicts: callers never touch these models) --------------------
def customer_pricing_facts(customer_id: int) -> dict[str, Any] | None:
    """What the pricing engine needs of a customer, in one query; None when there is no such id."""
    row = (
        Customer.objects.filter(pk=customer_id)
        .values(
            "id",
            "name",
            "status",
            "company_type_id",
            "tax_exempt",
            "tax_exempt_certificate",
            "tax_exempt_expires",
            "customer_pricing_type",
        )
        .first()
    )
    return dict(row) if row is not None else None


def ship_to_pricing_facts(ship_to_id: int) -> dict[str, Any] | None:
    """A ship-to's customer and place (state, city), in one query; None when there is no such id."""
    row = (
        ShipTo.objects.filter(pk=ship_to_id)
        .values("id", "customer_id", "name", "state_id", "city_id")
        .first()
    )
    return dict(row) if row is not None else None


def active_ship_tos_for_pricing(customer_id: int, limit: int = 2) -> list[dict[str, Any]]:
    """Up to `limit` of a customer's active ship-tos (as `ship_to_pricing_facts`), oldest first: the
    pricing engine assumes a customer's only delivery location when a price names none."""
    rows = (
        ShipTo.objects.filter(customer_id=customer_id, is_active=True)
        .order_by("id")
        .values("id", "customer_id", "name", "state_id", "city_id")[:limit]
    )
    return [dict(row) for row in rows]


def supplier_names(ids: Any) -> dict[int, str]:
    return dict(Supplier.objects.filter(pk__in=list(ids)).values_list("id", "name"))


def terminal_names(ids: Any) -> dict[int, str]:
    return dict(Terminal.objects.filter(pk__in=list(ids)).values_list("id", "name"))
