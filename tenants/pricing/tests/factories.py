"""Rows the pricing tests price against (inside the active tenant schema)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal as D
from typing import Any

from tenants.catalog.models import Product, ProductCategory
from tenants.geo.models import City, State
from tenants.parties.models import Customer, ShipTo, Supplier, Terminal
from tenants.pricing.models import BuyingPrice, Fee, PricingRule, Tax, TaxRate

DAY = dt.date(2026, 3, 10)


@dataclass
class World:
    state: State
    city: City
    fuel: ProductCategory
    diesel: Product
    gas: Product
    customer: Customer
    ship_to: ShipTo
    supplier: Supplier
    supplier_b: Supplier
    terminal: Terminal
    rule: PricingRule
    taxes: dict[str, Tax]
    fees: dict[str, Fee]


def make_world(n_products: int = 2, **rule_kw: Any) -> World:
    state = State.objects.create(name="Texas", code="TX")
    city = City.objects.create(name="Houston", state=state)
    fuel = ProductCategory.objects.create(name="Fuel")
    diesel = Product.objects.create(
        name="ULSD Clear", code="ULSD", sold_as="gallon", category=fuel, is_fuel=True
    )
    gas = Product.objects.create(
        name="Unleaded 87", code="UNL87", sold_as="gallon", category=fuel, is_fuel=True
    )
    for i in range(max(0, n_products - 2)):
        Product.objects.create(name=f"Fuel {i}", code=f"F{i:03}", sold_as="gallon", category=fuel)
    customer = Customer.objects.create(name="Acme Construction", account_number="C-ACME")
    ship_to = ShipTo.objects.create(customer=customer, name="Yard 1", state=state, city=city)
    supplier = Supplier.objects.create(name="Gulf Coast Fuels")
    supplier_b = Supplier.objects.create(name="Lone Star Petroleum")
    terminal = Terminal.objects.create(name="Galena Park", terminal_code="T-76-TX-2000")
    for p in Product.objects.all():
        BuyingPrice.objects.create(
            supplier=supplier, terminal=terminal, product=p, price=D("2.15"), effective_from=DAY
        )
        BuyingPrice.objects.create(
            supplier=supplier_b, terminal=terminal, product=p, price=D("2.19"), effective_from=DAY
        )
    rule = PricingRule.objects.create(
        name="Fuel rack + 15c",
        category=fuel,
        basis="rack",
        rack_mode="named",
        terminal=terminal,
        supplier=supplier,
        margin=D("0.15"),
        freight_per_unit=D("0.08"),
        **rule_kw,
    )
    fet = Tax.objects.create(
        name="Federal excise",
        code="FET",
        kind="per_unit",
        applies_to_all_states=True,
        applies_to_all_products=True,
        is_taxable=True,
        sequence=1,
        exemptible=False,
    )
    txd = Tax.objects.create(name="Texas diesel excise", code="TXD", kind="per_unit", sequence=2)
    txd.states.set([state])
    txd.products.set([diesel])
    st = Tax.objects.create(
        name="Sales tax", code="ST", kind="percent", applies_to_all_products=True, sequence=9
    )
    st.states.set([state])
    city_tax = Tax.objects.create(name="Houston fuel fee", code="HOU", kind="percent", sequence=10)
    city_tax.cities.set([city])
    city_tax.categories.set([fuel])
    TaxRate.objects.create(tax=fet, rate=D("0.244"), effective_from=DAY - dt.timedelta(days=30))
    TaxRate.objects.create(tax=txd, rate=D("0.20"), effective_from=DAY - dt.timedelta(days=30))
    TaxRate.objects.create(
        tax=st,
        rate=D("6"),
        effective_from=DAY - dt.timedelta(days=30),
        effective_to=DAY - dt.timedelta(days=1),
    )
    TaxRate.objects.create(tax=st, rate=D("6.25"), effective_from=DAY)
    TaxRate.objects.create(tax=city_tax, rate=D("0"), effective_from=DAY)
    env = Fee.objects.create(name="Environmental", fee_code="ENV", fee_type="percentage", rate=D("2"))
    delivery = Fee.objects.create(name="Delivery", fee_code="DEL", fee_type="flat", rate=D("75"))
    return World(
        state,
        city,
        fuel,
        diesel,
        gas,
        customer,
        ship_to,
        supplier,
        supplier_b,
        terminal,
        rule,
        {"FET": fet, "TXD": txd, "ST": st, "HOU": city_tax},
        {"ENV": env, "DEL": delivery},
    )
