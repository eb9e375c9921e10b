"""The roles every new company starts with. Admin holds all permissions; the others a starting set."""

from __future__ import annotations

from core.permissions import registered_permissions
from core.scoping import own_code

ADMIN = "Admin"
DRIVER = "Driver"
# Changing another user's email or password, or anyone's role: only Admin holds it by default, and
# seeding never gives it to another role (an admin may still grant it to a role by hand).
ADMINISTER_USERS = "user.administer"
# Approving a bill out of three-way match tolerance: Admin only by default (tenants/purchasing).
OVERRIDE_BILL_MATCH = "bill.override_match"
# The whole company's data in one zip (tenants/dataexport): Admin only.
EXPORT_COMPANY_DATA = "company_data.export"
ADMIN_ONLY_PERMISSIONS = frozenset({ADMINISTER_USERS, OVERRIDE_BILL_MATCH, EXPORT_COMPANY_DATA})

# The Driver role holds these resources' permissions on his own rows only (`<code>:own`): the orders
# assigned to him, their tickets and notes (core.scoping). The office grants are for office roles.
DRIVER_OWN_RESOURCES = frozenset({"sales_order", "delivery_ticket"})

# Resources each seeded role may work with (view/add/change/delete and workflow actions).
ROLE_RESOURCES: dict[str, tuple[str, set[str], set[str]]] = {
    # name: (description, resources with every action, resources with view only)
    "Dispatcher": (
        "Plans deliveries: orders, drivers, trucks and routes.",
        {
            "sales_order",
            "delivery_ticket",
            "driver",
            "company_asset",
            "asset_type",
            "yard",
            "region",
            "dispatch",
            "customer_ship_to",
            "asset",
            "route_plan",
            "routing_settings",
            "truck_routing",
            "driver_shift",
            "site_constraint",
        },
        {
            "customer",
            "product",
            "product_category",
            "product_sub_category",
            "state",
            "city",
            "terminal",
            "supplier",
            "company_settings",
            "dashboard",
            "onboarding",
        },
    ),
    "Accounting": (
        "Invoices, bills, pricing, taxes and payments.",
        {
            "invoice",
            "payment",
            "bill",
            "purchase_order",
            "tax",
            "fee",
            "payment_term",
            "payment_method",
            "pricing_rule",
            "customer_price",
            "buying_price",
            "job_log",
            "email",
            "credit",
            "document_template",
            "bill_parse",
            "price_quote",
            "email_agent",
            "quickbooks",
        },
        {
            "customer",
            "supplier",
            "product",
            "sales_order",
            "state",
            "city",
            "company_settings",
            "dashboard",
            "google_authentication",
            "onboarding",
        },
    ),
    "Sales": (
        "Customers, orders and quotes.",
        {"customer", "customer_ship_to", "asset", "customer_contact", "sales_order", "customer_price"},
        {
            "product",
            "product_category",
            "product_sub_category",
            "state",
            "city",
            "fee",
            "tax",
            "payment_term",
            "payment_method",
            "company_settings",
            "dashboard",
            "onboarding",
        },
    ),
    DRIVER: (
        "Sees and delivers today's orders on a phone.",
        set(),
        {
            "sales_order",
            "company_asset",
            "customer_ship_to",
            "asset",
            "product",
            "company_settings",
            "delivery_ticket",
        },
    ),
}


def seeded_role_permissions(name: str) -> list[str]:
    _description, full, view_only = ROLE_RESOURCES[name]
    codes = []
    for p in registered_permissions():
        if p.resource in full or (p.resource in view_only and p.action == "view"):
            codes.append(p.code)
    if name == DRIVER:
        codes += [
            p.code
            for p in registered_permissions()
            if p.code in {"sales_order.deliver", "sales_order.start_delivery"}
        ]
        # A driver sees and acts on his own stops only, on every route (core.scoping).
        codes = [driver_code(code) for code in codes]
    return sorted(set(codes) - ADMIN_ONLY_PERMISSIONS)


def driver_code(code: str) -> str:
    """The Driver role's grant of `code`: own rows only for the resources of his stops."""
    return own_code(code) if code.split(".")[0] in DRIVER_OWN_RESOURCES else code
