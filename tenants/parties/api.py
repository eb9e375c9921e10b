from core.crud import ALL_OPS, Crud
from core.csv_io import CsvImport, Lookup
from core.envelope import Answer, Envelope, ok
from core.listing import ListSpec
from core.permissions import perm
from django.http import HttpRequest
from ninja import Query, Router

from tenants.geo.models import City, State
from tenants.parties import selectors, services
from tenants.parties.models import (
    CUSTOMER_SEARCH_FIELDS,
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
from tenants.parties.schemas import (
    AliasIn,
    AliasOut,
    AliasQuery,
    AssetIn,
    AssetOut,
    AssetQuery,
    CompanyTypeIn,
    CompanyTypeOut,
    ContactIn,
    ContactOut,
    ContactQuery,
    ContactServiceIn,
    ContactServiceOut,
    CustomerIn,
    CustomerOut,
    CustomerQuery,
    ShipToIn,
    ShipToOut,
    ShipToQuery,
    StatusQuery,
    SupplierIn,
    SupplierOut,
    SupplierQuery,
    TerminalIn,
    TerminalOut,
    TerminalQuery,
)

company_type_router = Router(tags=["customer-company-type"])
customer_router = Router(tags=["customer"])
ship_to_router = Router(tags=["customer-ship-to"])
asset_router = Router(tags=["asset"])
contact_service_router = Router(tags=["customer-contact-service"])
contact_router = Router(tags=["customer-contact"])
supplier_router = Router(tags=["supplier"])
terminal_router = Router(tags=["terminal"])
alias_router = Router(tags=["supplier-product-alias"])

# Address columns shared by the imports: a state by code or name, a city by name within it.
STATE_LOOKUP = Lookup("state", "state_id", State, ("code", "name"))
CITY_LOOKUP = Lookup("city", "city_id", City, ("name",), within=("state_id", "state_id"))
ADDRESS_COLUMNS = {
    "address_one": "Street address.",
    "address_two": "Suite, unit, building.",
    "city": "City name (within the state when one is given), or a city_id column.",
    "state": "State code (TX) or name (Texas), or a state_id column.",
    "zip_code": "ZIP code.",
}
ADDRESS_SEARCH = ("address_one", "city__name", "zip_code")

# --- customer company types ----------------------------------------------------------------------
Crud(
    router=company_type_router,
    resource="customer_company_type",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="Customer company type",
    model=CustomerCompanyType,
    out=CompanyTypeOut,
    create_in=CompanyTypeIn,
    ops=ALL_OPS,
    default_size=25,
    queryset=selectors.company_types,
    spec=ListSpec(
        search=("company_type", "description"),
        sort={"company_type": "company_type", "created_at": "created_at"},
        filters={"company_type": ("company_type", "str")},
        default_sort="company_type",
    ),
)

# --- customers -----------------------------------------------------------------------------------
CUSTOMER_IMPORT = CsvImport(
    columns={
        "name": "Required. The customer's name.",
        "account_number": "Unique; generated (C000123) when blank.",
        "status": "active (default), on_hold, credit_hold or inactive.",
        "company_type": "A customer company type, by name (or a company_type_id column).",
        **ADDRESS_COLUMNS,
        "phone": "Phone number.",
        "email": "Billing email.",
        "tax_exempt": "true or false (default false).",
        "tax_exempt_certificate": "Certificate number when tax exempt.",
        "credit_limit": "Amount, e.g. 25000.00.",
        "payment_term_id": "Id of a payment term.",
        "payment_method_id": "Id of a payment method.",
        "customer_pricing_type": "Default standard.",
        "notes": "Free text.",
    },
    required=("name",),
    lookups=(
        Lookup("company_type", "company_type_id", CustomerCompanyType, ("company_type",)),
        STATE_LOOKUP,
        CITY_LOOKUP,
    ),
)

customer_crud = Crud(
    router=customer_router,
    resource="customer",
    label="Customer",
    model=Customer,
    out=CustomerOut,
    create_in=CustomerIn,
    path="/customers",
    ops=ALL_OPS,
    default_size=100,
    queryset=selectors.customers,
    filters=CustomerQuery,
    apply_filters=selectors.filter_customers,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    create=services.create_customer,
    update=services.update_customer,
    importer=CUSTOMER_IMPORT,
    spec=ListSpec(
        # Trigram-indexed (models.CUSTOMER_SEARCH_FIELDS); address, city and ZIP are filters instead.
        search=CUSTOMER_SEARCH_FIELDS,
        prefix_below=3,  # one or two letters: the start of a name/number (btree prefix indexes)
        sort={  # sort_name, sort_status: see selectors.filter_customers
            "name": "sort_name",
            "account_number": "sort_account_number",
            "status": "sort_status",
            "city": "city__name",
            "state": "state__code",
            "credit_limit": "credit_limit",
            "created_at": "created_at",
            "updated_at": "updated_at",
        },
        filters={
            "name": ("name", "str"),
            "account_number": ("account_number", "str"),
            "status": ("status", "str"),
            "email": ("email", "str"),
            "phone": ("phone", "str"),
            "address_one": ("address_one", "str"),
            "zip_code": ("zip_code", "str"),
            "city": ("city__name", "str"),
            "state": ("state__code", "str"),
            "company_type": ("company_type__company_type", "str"),
            "credit_limit": ("credit_limit", "decimal"),
            "tax_exempt": ("tax_exempt", "bool"),
            "created_at": ("created_at", "datetime"),
        },
        default_sort="sort_name",
    ),
)


@customer_router.put(
    "/customers/{int:id}/status",
    response=Envelope[CustomerOut],
    auth=perm("customer.change"),
    operation_id="customer_set_status",
    summary="Change a customer's status",
)
def set_customer_status(request: HttpRequest, id: int, params: Query[StatusQuery]) -> Answer:
    customer = services.set_customer_status(customer_crud.get_object(id), params.status)
    return ok(customer_crud.get_object(customer.pk), "Customer status updated successfully")


# --- ship-tos ------------------------------------------------------------------------------------
SHIP_TO_IMPORT = CsvImport(
    columns={
        "customer": "Required. The customer's account number (or exact name), or a customer_id column.",
        "name": "Required. The location's name, e.g. 'North yard'.",
        **ADDRESS_COLUMNS,
        "latitude": "Decimal degrees, -90 to 90.",
        "longitude": "Decimal degrees, -180 to 180.",
        "delivery_instructions": "Free text for the driver.",
        "access_hours": "e.g. Mon-Fri 6am-4pm.",
        "is_active": "Default true.",
    },
    required=(("customer", "customer_id"), "name"),
    lookups=(
        Lookup("customer", "customer_id", Customer, ("account_number", "name")),
        STATE_LOOKUP,
        CITY_LOOKUP,
    ),
)

Crud(
    router=ship_to_router,
    resource="customer_ship_to",
    label="Ship-to",
    model=ShipTo,
    out=ShipToOut,
    create_in=ShipToIn,
    ops=ALL_OPS,
    default_size=100,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    queryset=selectors.ship_tos,
    filters=ShipToQuery,
    apply_filters=selectors.filter_ship_tos,
    create=services.create_ship_to,
    update=services.update_ship_to,
    importer=SHIP_TO_IMPORT,
    spec=ListSpec(
        search=("name", "customer__name", "customer__account_number", *ADDRESS_SEARCH),
        sort={
            "name": "sort_name",
            "customer": "customer__name",
            "city": "city__name",
            "created_at": "created_at",
        },
        prefix_below=3,  # one or two letters: the start of a name, address or ZIP (btree prefix indexes)
        filters={
            "name": ("name", "str"),
            "customer": ("customer__name", "str"),
            "city": ("city__name", "str"),
            "zip_code": ("zip_code", "str"),
            "is_active": ("is_active", "bool"),
            "customer_id": ("customer_id", "int"),
        },
        default_sort="sort_name",
    ),
)

# --- customer assets -----------------------------------------------------------------------------
Crud(
    router=asset_router,
    resource="asset",
    label="Asset",
    model=CustomerAsset,
    out=AssetOut,
    create_in=AssetIn,
    default_size=100,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    queryset=selectors.assets,
    filters=AssetQuery,
    apply_filters=selectors.filter_assets,
    create=services.create_asset,
    update=services.update_asset,
    spec=ListSpec(
        search=("asset_name", "serial_number", "ship_to__name", "product__name"),
        sort={
            "asset_name": "asset_name",
            "capacity": "capacity",
            "ship_to": "ship_to__name",
            "product": "product__name",
            "created_at": "created_at",
        },
        filters={
            "asset_name": ("asset_name", "str"),
            "tank_type": ("tank_type", "str"),
            "capacity": ("capacity", "decimal"),
            "product_id": ("product_id", "int"),
            "is_active": ("is_active", "bool"),
        },
        default_sort="asset_name",
    ),
)

# --- contact services and contacts ---------------------------------------------------------------
Crud(
    router=contact_service_router,
    resource="customer_contact_service",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="Contact service",
    model=ContactService,
    out=ContactServiceOut,
    create_in=ContactServiceIn,
    ops=ALL_OPS,
    default_size=50,
    queryset=selectors.contact_services,
    update=services.update_contact_service,
    spec=ListSpec(
        search=("name", "code", "description"),
        sort={"name": "name", "code": "code"},
        filters={"name": ("name", "str"), "code": ("code", "str"), "is_active": ("is_active", "bool")},
        default_sort="name",
    ),
)


@contact_router.get(
    "/services",
    response=Envelope[list[ContactServiceOut]],
    auth=perm("customer_contact.view"),
    operation_id="customer_contact_services",
    summary="The services contacts can subscribe to",
)
def contact_services(request: HttpRequest) -> Answer:
    return ok(
        list(selectors.contact_services().order_by("name", "id")), "Contact services retrieved successfully"
    )


Crud(
    router=contact_router,
    resource="customer_contact",
    label="Customer contact",
    model=CustomerContact,
    out=ContactOut,
    create_in=ContactIn,
    default_size=50,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("services", "service_ids"),
    fill_rows=selectors.fill_contact_rows,
    queryset=selectors.contacts,
    filters=ContactQuery,
    apply_filters=selectors.filter_contacts,
    create=services.create_contact,
    update=services.update_contact,
    spec=ListSpec(
        search=("name", "email", "phone", "position", "customer__name"),
        sort={
            "id": "id",
            "name": "name",
            "email": "email",
            "position": "position",
            "customer": "customer__name",
            "created_at": "created_at",
        },
        filters={
            "name": ("name", "str"),
            "email": ("email", "str"),
            "position": ("position", "str"),
            "customer": ("customer__name", "str"),
        },
        default_sort="name",
    ),
)

# --- terminals -----------------------------------------------------------------------------------
TERMINAL_IMPORT = CsvImport(
    columns={
        "name": "Required. The terminal's name.",
        "terminal_code": "Required. Terminal control number (TCN), e.g. T-76-TX-2000; unique.",
        **ADDRESS_COLUMNS,
        "latitude": "Decimal degrees, -90 to 90.",
        "longitude": "Decimal degrees, -180 to 180.",
        "is_active": "Default true.",
        "notes": "Free text.",
    },
    required=("name", "terminal_code"),
    lookups=(STATE_LOOKUP, CITY_LOOKUP),
)

terminal_crud = Crud(
    router=terminal_router,
    resource="terminal",
    label="Terminal",
    model=Terminal,
    out=TerminalOut,
    create_in=TerminalIn,
    ops=ALL_OPS,
    default_size=10,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("suppliers",),
    fill_rows=selectors.fill_terminal_rows,
    queryset=selectors.terminals,
    filters=TerminalQuery,
    apply_filters=selectors.filter_terminals,
    create=services.create_terminal,
    update=services.update_terminal,
    importer=TERMINAL_IMPORT,
    spec=ListSpec(
        search=("name", "terminal_code", *ADDRESS_SEARCH),
        sort={
            "name": "name",
            "terminal_code": "terminal_code",
            "city": "city__name",
            "state": "state__code",
            "created_at": "created_at",
        },
        filters={
            "name": ("name", "str"),
            "terminal_code": ("terminal_code", "str"),
            "city": ("city__name", "str"),
            "state": ("state__code", "str"),
            "is_active": ("is_active", "bool"),
        },
        default_sort="name",
    ),
)

# --- suppliers -----------------------------------------------------------------------------------
supplier_crud = Crud(
    router=supplier_router,
    resource="supplier",
    label="Supplier",
    model=Supplier,
    out=SupplierOut,
    create_in=SupplierIn,
    ops=ALL_OPS,
    default_size=100,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("terminals",),
    fill_rows=selectors.fill_supplier_rows,
    queryset=selectors.suppliers,
    filters=SupplierQuery,
    apply_filters=selectors.filter_suppliers,
    create=services.create_supplier,
    update=services.update_supplier,
    spec=ListSpec(
        search=("name", "code", "contact_name", "email", "phone"),
        sort={"name": "name", "code": "code", "status": "status", "created_at": "created_at"},
        filters={
            "name": ("name", "str"),
            "code": ("code", "str"),
            "status": ("status", "str"),
            "email": ("email", "str"),
            "city": ("city__name", "str"),
        },
        default_sort="name",
    ),
)


@supplier_router.get(
    "/{int:id}/terminals",
    response=Envelope[list[TerminalOut]],
    auth=perm("supplier.view"),
    operation_id="supplier_terminals",
    summary="The terminals a supplier loads at",
)
def supplier_terminals(request: HttpRequest, id: int) -> Answer:
    supplier = supplier_crud.get_object(id)
    rows = selectors.terminals().filter(suppliers=supplier).order_by("name", "id")
    return ok(list(rows), "Terminals retrieved successfully")


@supplier_router.put(
    "/{int:id}/status",
    response=Envelope[SupplierOut],
    auth=perm("supplier.change"),
    operation_id="supplier_set_status",
    summary="Change a supplier's status",
)
def set_supplier_status(request: HttpRequest, id: int, params: Query[StatusQuery]) -> Answer:
    supplier = services.set_supplier_status(supplier_crud.get_object(id), params.status)
    return ok(supplier_crud.get_object(supplier.pk), "Supplier status updated successfully")


# --- supplier product aliases --------------------------------------------------------------------
Crud(
    router=alias_router,
    resource="supplier_product_alias",
    label="Supplier product alias",
    plural="Supplier product aliases",
    model=SupplierProductAlias,
    out=AliasOut,
    create_in=AliasIn,
    default_size=50,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    queryset=selectors.aliases,
    filters=AliasQuery,
    apply_filters=selectors.filter_aliases,
    update=services.update_alias,
    spec=ListSpec(
        search=("alias_name", "alias_code", "product__name", "product__code", "supplier__name"),
        sort={
            "id": "id",
            "alias_name": "alias_name",
            "alias_code": "alias_code",
            "supplier": "supplier__name",
            "product": "product__name",
            "created_at": "created_at",
        },
        filters={
            "alias_name": ("alias_name", "str"),
            "alias_code": ("alias_code", "str"),
            "supplier": ("supplier__name", "str"),
            "product": ("product__name", "str"),
        },
        default_sort="id",
    ),
)

routes = [
    ("/customer-company-type", company_type_router),
    ("/customer", customer_router),
    ("/customer-ship-to", ship_to_router),
    ("/asset", asset_router),
    ("/customer-contact-service", contact_service_router),
    ("/customer-contact", contact_router),
    ("/supplier", supplier_router),
    ("/terminal", terminal_router),
    ("/supplier-product-alias", alias_router),
]
