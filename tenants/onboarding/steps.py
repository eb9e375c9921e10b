"""The built-in onboarding steps: each one or two EXISTS queries over the owning app's models.

Other apps (QuickBooks, Google mail) register their own steps from their `AppConfig.ready()`
(see registry.py)."""

from __future__ import annotations

from tenants.catalog.models import Product
from tenants.company.models import CompanySettings
from tenants.documents.models import DocumentTemplate
from tenants.fleet.models import CompanyAsset, Driver
from tenants.invoicing.models import Invoice
from tenants.onboarding.registry import StepState, register_step
from tenants.parties.models import Customer, ShipTo
from tenants.pricing.models import BuyingPrice, CustomerPrice, Tax
from tenants.sales.models import SalesOrder


def company_profile() -> StepState:
    row = (
        CompanySettings.objects.values("company_name", "address_one", "phone_number", "email", "logo")
        .order_by("id")
        .first()
    )
    if row is None:
        return StepState.todo("Add your company's name, address and logo")
    missing = []
    if not (row["company_name"] or "").strip():
        missing.append("name")
    if not (row["address_one"] or "").strip():
        missing.append("address")
    if not (row["phone_number"] or row["email"]):
        missing.append("phone or email")
    if not row["logo"]:
        missing.append("logo")
    if missing:
        return StepState.todo("Missing: " + ", ".join(missing))
    return StepState.done()


def customer_with_ship_to() -> StepState:
    if ShipTo.objects.exists():
        return StepState.done()
    if Customer.objects.exists():
        return StepState.todo("Add a ship-to (delivery address) to a customer")
    return StepState.todo()


def products() -> bool:
    return Product.objects.filter(is_active=True).exists()


def taxes() -> bool:
    return Tax.objects.exists()


def a_price() -> bool:
    return BuyingPrice.objects.exists() or CustomerPrice.objects.exists()


# Asset categories that drive to a customer (a trailer or "other" alone delivers nothing).
DELIVERY_VEHICLES = ("truck", "bobtail", "tank_wagon")


def truck_and_driver() -> StepState:
    truck = CompanyAsset.objects.filter(is_active=True, asset_type__category__in=DELIVERY_VEHICLES).exists()
    driver = Driver.objects.exists()
    if truck and driver:
        return StepState.done()
    if truck:
        return StepState.todo("Add a driver", link="/driver")
    if driver:
        return StepState.todo("Add a truck", link="/company-asset")
    return StepState.todo()


def invoice_template() -> bool:
    return DocumentTemplate.objects.filter(type=DocumentTemplate.Type.INVOICE).exists()


DELIVERED = ("delivered", "completed", "archive")


def first_order_invoiced() -> StepState:
    if Invoice.objects.exclude(status=Invoice.Status.VOID).filter(sales_order__status__in=DELIVERED).exists():
        return StepState.done()
    if SalesOrder.objects.filter(status__in=DELIVERED).exists():
        return StepState.todo("Create the invoice of a delivered order", link="/invoice")
    return StepState.todo()


def register_builtin_steps() -> None:
    register_step(
        "company_profile",
        "Complete your company profile",
        "Name, address, contact and logo: they print on your invoices and delivery tickets.",
        "/company-settings",
        10,
        company_profile,
    )
    register_step(
        "customer",
        "Add your first customer with a ship-to",
        "A customer and the address you deliver to.",
        "/customer",
        20,
        customer_with_ship_to,
    )
    register_step("products", "Add your products", "The fuels and goods you sell.", "/product", 30, products)
    register_step(
        "taxes", "Set up your taxes", "Excise, sales and other taxes with their rates.", "/tax", 40, taxes
    )
    register_step(
        "price",
        "Enter a price",
        "A supplier's rack (buying) price or a customer's price, so orders price themselves.",
        "/buying-price",
        50,
        a_price,
    )
    register_step(
        "truck_and_driver",
        "Add a truck and a driver",
        "A delivery vehicle of your fleet and a driver to assign orders to.",
        "/company-asset",
        60,
        truck_and_driver,
    )
    register_step(
        "invoice_template",
        "Design your invoice",
        "An invoice template in the template designer.",
        "/template-designer",
        70,
        invoice_template,
    )
    register_step(
        "first_invoice",
        "Deliver and invoice your first order",
        "An order delivered to a customer and invoiced.",
        "/sales-order",
        100,
        first_order_invoiced,
    )
