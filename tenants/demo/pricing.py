"""Demo data of the pricing app: fuel taxes with their rates, fees, a week of rack prices from every
supplier at its terminals, and pricing rules, so that a new user sees real prices (and the price
check explains one) from the first minute.

`seed()` is idempotent: taxes by code, fees by code, rules by name, rack prices by their key
(supplier, terminal, product, day); nothing users changed is touched.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from typing import Any

RATES_FROM = dt.date(2026, 1, 1)
# code, name, kind, rate, states ("*": all), categories or sub-categories, taxable, sequence, exemptible
TAXES: list[tuple[str, str, str, str, str, list[str], bool, int, bool]] = [
    ("FET-DSL", "Federal diesel excise", "per_unit", "0.244", "*", ["Diesel", "Kerosene"], True, 1, False),
    ("FET-GAS", "Federal gasoline excise", "per_unit", "0.184", "*", ["Gasoline"], True, 1, False),
    ("TX-MFT", "Texas motor fuel tax", "per_unit", "0.20", "TX", ["Diesel", "Gasoline"], False, 2, True),
    ("LA-MFT", "Louisiana motor fuel tax", "per_unit", "0.20", "LA", ["Diesel", "Gasoline"], False, 2, True),
    ("OK-MFT", "Oklahoma motor fuel tax", "per_unit", "0.19", "OK", ["Diesel", "Gasoline"], False, 2, True),
    ("TX-SALES", "Texas sales tax", "percent", "6.25", "TX", ["DEF", "Lubricants", "Goods"], False, 9, True),
]
# code, name, type, rate, quantity
FEES: list[tuple[str, str, str, str, str]] = [
    ("DEL", "Delivery", "flat", "75.00", "1"),
    ("ENV", "Environmental recovery", "percentage", "1.00", "1"),
    ("HAZ", "Hazmat handling", "flat", "25.00", "1"),
    ("SML", "Small load (under 500 gal)", "flat", "50.00", "1"),
]
RACK_BASE = {
    "ULSD-CLR": "2.3500",
    "ULSD-DYED": "2.3000",
    "ULSD-WIN": "2.4600",
    "UNL-87": "2.0500",
    "MID-89": "2.3100",
    "PREM-91": "2.5600",
    "PREM-93": "2.7100",
    "KERO-1K": "2.6200",
}
RACK_DAYS = 7


def seed(today: dt.date | None = None) -> None:
    from tenants.catalog.models import Product, ProductCategory, ProductSubCategory
    from tenants.geo.models import State
    from tenants.parties.models import Customer, Supplier
    from tenants.pricing.models import BuyingPrice, Fee, PricingRule, Tax, TaxRate

    today = today or dt.date.today()
    states = {s.code: s for s in State.objects.all()}
    cats = {c.name: c for c in ProductCategory.objects.all()}
    subs = {s.name: s for s in ProductSubCategory.objects.all()}
    products = {p.code: p for p in Product.objects.all()}

    for code, name, kind, rate, state, groups, taxable, seq, exemptible in TAXES:
        tax = Tax.objects.filter(code__iexact=code).first()
        if tax is not None:
            continue
        tax = Tax.objects.create(
            code=code,
            name=name,
            kind=kind,
            applies_to_all_states=state == "*",
            is_taxable=taxable,
            sequence=seq,
            exemptible=exemptible,
        )
        tax.states.set(list(states.values()) if state == "*" else [states[state]] if state in states else [])
        wanted: list[Any] = []
        for g in groups:
            if g in cats:
                tax.categories.add(cats[g])
            elif g in subs:
                wanted += [p for p in products.values() if p.sub_category_id == subs[g].pk]
        tax.products.set(wanted)
        TaxRate.objects.create(tax=tax, rate=Decimal(rate), effective_from=RATES_FROM)

    for code, name, fee_type, rate, qty in FEES:
        if not Fee.objects.filter(fee_code__iexact=code).exists():
            Fee.objects.create(
                fee_code=code, name=name, fee_type=fee_type, rate=Decimal(rate), quantity=Decimal(qty)
            )

    rng = random.Random(42)  # noqa: S311 (demo prices, not secrets)
    start = today - dt.timedelta(days=RACK_DAYS - 1)
    for supplier in Supplier.objects.prefetch_related("terminals").order_by("id"):
        spread = Decimal(rng.randint(-30, 30)) / 1000
        for terminal in supplier.terminals.all():
            for code, base in RACK_BASE.items():
                product = products.get(code)
                if product is None:
                    continue
                if BuyingPrice.objects.filter(supplier=supplier, terminal=terminal, product=product).exists():
                    continue
                price = Decimal(base) + spread + Decimal(rng.randint(-20, 20)) / 1000
                rows = []
                for i in range(RACK_DAYS):
                    day = start + dt.timedelta(days=i)
                    price = max(Decimal("0.5"), price + Decimal(rng.randint(-25, 25)) / 1000)
                    last = i == RACK_DAYS - 1
                    rows.append(
                        BuyingPrice(
                            supplier=supplier,
                            terminal=terminal,
                            product=product,
                            price=price.quantize(Decimal("0.0001")),
                            effective_from=day,
                            effective_to=None if last else day,
                        )
                    )
                BuyingPrice.objects.bulk_create(rows)

    galena = _terminal("T-76-TX-2004")
    baton_rouge = _terminal("T-72-LA-2350")
    rules = [
        (
            "Fuel: lowest rack at Galena Park + 18c",
            dict(category=cats.get("Fuel"), terminal=galena, margin="0.18"),
        ),
        (
            "Louisiana fuel: lowest rack at Baton Rouge + 20c",
            dict(
                category=cats.get("Fuel"),
                state=states.get("LA"),
                terminal=baton_rouge,
                margin="0.20",
                priority=1,
            ),
        ),
    ]
    for name, kw in rules:
        if PricingRule.objects.filter(name=name).exists() or kw.get("terminal") is None:
            continue
        PricingRule.objects.create(
            name=name,
            basis="rack",
            rack_mode="lowest",
            margin=Decimal(str(kw.pop("margin"))),
            freight_per_unit=Decimal("0.06"),
            minimum_margin=Decimal("0.05"),
            rounding=Decimal("0.001"),
            **kw,
        )
    # One customer with contract prices, to show the other pricing types.
    contract = (
        Customer.objects.filter(customer_pricing_type="standard", tax_exempt=False).order_by("id").first()
    )
    if contract is not None and "ULSD-CLR" in products:
        from tenants.pricing.models import CustomerPrice

        if not CustomerPrice.objects.filter(customer=contract).exists():
            Customer.objects.filter(pk=contract.pk).update(customer_pricing_type="fixed")
            CustomerPrice.objects.create(
                customer=contract, product=products["ULSD-CLR"], unit_price=Decimal("2.9500")
            )


def _terminal(code: str) -> Any:
    from tenants.parties.models import Terminal

    return Terminal.objects.filter(terminal_code=code).first()
