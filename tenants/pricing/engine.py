"""The pricing engine: pure functions over plain frozen dataclasses. No ORM, no I/O.

`tenants.pricing.services.price_document` loads a `PricingContext` in a bounded number of queries
and calls `price(context, lines, fees)`. Everything a price is made of is in its breakdown.

Rounding (documented in docs/pricing.md): per-unit prices to 4 dp (after the rule's own rounding
step), money to 2 dp, ROUND_HALF_UP. A line's amount is round2(unit_price x quantity); each tax is
rounded per line; a document's taxes are the sums of its lines' rounded taxes, so every total is the
exact sum of what is shown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

# Rounding lives in `money.py`, the one home of money.
from tenants.pricing.money import HUNDRED, UNIT, ZERO, money, round_to_step, unit


class PricingError(Exception):
    """A price cannot be computed (no price for a product, unknown customer or ship-to…).

    `message` is a sentence for the user; callers answer it as a 409 (or 422 for bad input)."""

    def __init__(self, message: str, *, code: str = "no_price", product_id: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.product_id = product_id


# --- requests and results (the public interface) -------------------------------------------------
@dataclass(frozen=True)
class LineRequest:
    key: str  # the caller's line reference, echoed back
    product_id: int
    quantity: Decimal
    unit_price_override: Decimal | None = None  # a price fixed earlier (e.g. at order verification)

    @classmethod
    def of(
        cls,
        key: str,
        product_id: int,
        quantity: Decimal,
        *,
        fixed: Decimal | None = None,
        typed: Decimal | None = None,
    ) -> LineRequest:
        """A document line's request, where "a fixed price wins" is decided once for every document:
        a price fixed earlier (an order line's at verification, a purchase line's cost) over a price
        the user typed, over the engine's own (rules, contract, list). The engine prices either as
        basis `override`: its amount and taxes are the engine's, never the caller's."""
        return cls(key, product_id, quantity, fixed if fixed is not None else typed)


@dataclass(frozen=True)
class FeeRequest:
    key: str
    fee_id: int
    quantity: Decimal | None = None  # None: the fee's own default


@dataclass(frozen=True)
class TaxAmount:
    tax_id: int
    name: str
    code: str
    kind: str
    rate: Decimal
    rate_id: int | None
    taxable_base: Decimal
    amount: Decimal


@dataclass(frozen=True)
class FeeAmount:
    key: str
    fee_id: int
    name: str
    fee_type: str
    rate: Decimal
    quantity: Decimal
    subtotal: Decimal


@dataclass(frozen=True)
class PricedLine:
    key: str
    product_id: int
    quantity: Decimal
    unit_price: Decimal
    amount: Decimal
    taxes: tuple[TaxAmount, ...]
    breakdown: dict[str, Any]  # JSON-serialisable (decimals as strings)

    @property
    def tax_total(self) -> Decimal:
        return sum((t.amount for t in self.taxes), ZERO)

    @property
    def tax_amount(self) -> Decimal:
        """The line's tax to store and show: its taxes' sum to the cent (the one tax rounding)."""
        return money(self.tax_total)


@dataclass(frozen=True)
class PricedDocument:
    lines: tuple[PricedLine, ...]
    fees: tuple[FeeAmount, ...]
    taxes: tuple[TaxAmount, ...]  # aggregated per tax
    subtotal: Decimal
    fee_total: Decimal
    tax_total: Decimal
    total: Decimal
    pricing_date: dt.date
    document_taxes: tuple[TaxAmount, ...] = ()  # `fixed` taxes, once per document (also in `taxes`)
    notes: tuple[str, ...] = ()
    ship_to: ShipToFacts | None = None  # where the document was priced for (named or assumed)
    ship_to_assumed: bool = False  # no ship-to was named: the customer's only one was assumed
    ship_to_choices: int = 0  # named none: the customer's active ship-tos (0, 1, 2 = several)


# --- facts the engine needs (loaded by the selector) ---------------------------------------------
@dataclass(frozen=True)
class CustomerFacts:
    id: int
    name: str
    company_type_id: int | None = None
    tax_exempt: bool = False
    tax_exempt_certificate: str = ""
    tax_exempt_expires: dt.date | None = None
    pricing_type: str = "standard"
    status: str = "active"


@dataclass(frozen=True)
class ShipToFacts:
    id: int
    customer_id: int
    name: str = ""
    state_id: int | None = None
    city_id: int | None = None


@dataclass(frozen=True)
class ProductFacts:
    id: int
    name: str
    code: str = ""
    category_id: int | None = None
    list_price: Decimal | None = None
    sold_as: str = "gallon"


@dataclass(frozen=True)
class RackQuote:
    """One supplier's buying price in force at a terminal for a product on the pricing date."""

    buying_price_id: int
    supplier_id: int
    terminal_id: int
    product_id: int
    price: Decimal
    effective_from: dt.date
    effective_to: dt.date | None = None


@dataclass(frozen=True)
class RuleFacts:
    id: int
    name: str
    priority: int = 0
    customer_id: int | None = None
    company_type_id: int | None = None
    ship_to_id: int | None = None
    state_id: int | None = None
    product_id: int | None = None
    category_id: int | None = None
    basis: str = "rack"  # rack | last_cost | fixed
    rack_mode: str = "lowest"  # named | lowest | average
    terminal_id: int | None = None
    supplier_id: int | None = None
    fixed_price: Decimal | None = None
    margin_type: str = "per_unit"  # per_unit | percent
    margin: Decimal = ZERO
    freight_per_unit: Decimal = ZERO
    minimum_price: Decimal | None = None
    minimum_margin: Decimal | None = None
    rounding: Decimal = UNIT
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    is_active: bool = True


@dataclass(frozen=True)
class CustomerPriceFacts:
    id: int
    customer_id: int
    product_id: int
    unit_price: Decimal | None = None
    margin: Decimal = ZERO
    terminal_id: int | None = None
    supplier_id: int | None = None
    freight_per_unit: Decimal = ZERO


@dataclass(frozen=True)
class TaxFacts:
    id: int
    name: str
    code: str
    kind: str  # percent | per_unit | fixed
    rate: Decimal | None  # the rate in force on the pricing date (None: no rate, the tax is skipped)
    rate_id: int | None = None
    applies_to_all_states: bool = False
    applies_to_all_cities: bool = False
    applies_to_all_products: bool = False
    applies_to_all_product_categories: bool = False
    state_ids: frozenset[int] = frozenset()
    city_ids: frozenset[int] = frozenset()
    product_ids: frozenset[int] = frozenset()
    category_ids: frozenset[int] = frozenset()
    is_taxable: bool = False
    sequence: int = 0
    exemptible: bool = True
    is_active: bool = True


@dataclass(frozen=True)
class FeeFacts:
    id: int
    name: str
    fee_type: str = "flat"  # flat | per_unit | percentage
    amount_type: str = "fixed_amount"  # fixed_amount | percentage
    rate: Decimal = ZERO
    quantity: Decimal = Decimal("1")
    customer_id: int | None = None
    fee_code: str = ""

    @property
    def is_percentage(self) -> bool:
        return self.fee_type == "percentage" or self.amount_type == "percentage"


@dataclass(frozen=True)
class PricingContext:
    pricing_date: dt.date
    customer: CustomerFacts
    ship_to: ShipToFacts | None
    products: Mapping[int, ProductFacts]
    rules: Sequence[RuleFacts] = ()
    ship_to_assumed: bool = False  # see PricedDocument
    ship_to_choices: int = 0
    customer_prices: Mapping[int, CustomerPriceFacts] = field(default_factory=dict)  # by product id
    # (terminal_id, product_id) → the suppliers' quotes in force on the date
    racks: Mapping[tuple[int, int], Sequence[RackQuote]] = field(default_factory=dict)
    last_costs: Mapping[int, RackQuote] = field(default_factory=dict)  # product id → latest buying price
    taxes: Sequence[TaxFacts] = ()
    fees: Mapping[int, FeeFacts] = field(default_factory=dict)


# --- rack ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RackPrice:
    """A rack price chosen from the quotes: one row (named, lowest) or the average of several."""

    price: Decimal
    mode: str
    terminal_id: int | None
    supplier_id: int | None
    buying_price_id: int | None
    buying_price_ids: tuple[int, ...]
    effective_from: dt.date | None

    def as_breakdown(self) -> dict[str, Any]:
        return {
            "rack_mode": self.mode,
            "rack_price": str(self.price),
            "terminal_id": self.terminal_id,
            "supplier_id": self.supplier_id,
            "buying_price_id": self.buying_price_id,
            "buying_price_ids": list(self.buying_price_ids),
            "rack_effective_from": self.effective_from.isoformat() if self.effective_from else None,
        }


def choose_rack(quotes: Sequence[RackQuote], mode: str, supplier_id: int | None = None) -> RackPrice | None:
    """The rack from the quotes in force: the named supplier's, the lowest, or the average (4 dp)."""
    if mode == "named":
        quotes = [q for q in quotes if q.supplier_id == supplier_id]
    if not quotes:
        return None
    if mode == "average":
        avg = unit(sum((q.price for q in quotes), ZERO) / len(quotes))
        terminals = {q.terminal_id for q in quotes}
        return RackPrice(
            price=avg,
            mode=mode,
            terminal_id=terminals.pop() if len(terminals) == 1 else None,
            supplier_id=None,
            buying_price_id=None,
            buying_price_ids=tuple(sorted(q.buying_price_id for q in quotes)),
            effective_from=max(q.effective_from for q in quotes),
        )
    best = min(quotes, key=lambda q: (q.price, q.supplier_id, q.terminal_id))
    return RackPrice(
        price=best.price,
        mode=mode,
        terminal_id=best.terminal_id,
        supplier_id=best.supplier_id,
        buying_price_id=best.buying_price_id,
        buying_price_ids=(best.buying_price_id,),
        effective_from=best.effective_from,
    )


# --- rules ---------------------------------------------------------------------------------------
# Specificity: each scope dimension has a weight (a power of two, so each set of dimensions has its
# own score); who the customer is counts more than what is sold, the narrower the more.
SCOPE_WEIGHTS: dict[str, int] = {
    "ship_to_id": 32,
    "customer_id": 16,
    "company_type_id": 8,
    "state_id": 4,
    "product_id": 2,
    "category_id": 1,
}


def specificity(rule: RuleFacts) -> int:
    return scope_weight(lambda name: getattr(rule, name))


def scope_weight(scope_id: Callable[[str], Any]) -> int:
    """The specificity of a rule whose scope column `name` holds `scope_id(name)` (None: not set)."""
    return sum(w for name, w in SCOPE_WEIGHTS.items() if scope_id(name) is not None)


def in_effect(start: dt.date | None, end: dt.date | None, on: dt.date) -> bool:
    return (start is None or start <= on) and (end is None or end >= on)


def rate_in_force(rates: Iterable[tuple[dt.date, dt.date | None, Decimal]], on: dt.date) -> Decimal | None:
    """The rate of the first of `rates` ((effective_from, effective_to, rate), newest start first) in
    force on the day, or None: a tax's `current_rate` (its list rows and its schema)."""
    for start, end, rate in rates:
        if in_effect(start, end, on):
            return Decimal(rate)
    return None


def rule_matches(
    rule: RuleFacts,
    *,
    customer: CustomerFacts,
    ship_to: ShipToFacts | None,
    product: ProductFacts,
    on: dt.date,
) -> bool:
    if not rule.is_active or not in_effect(rule.effective_from, rule.effective_to, on):
        return False
    checks = (
        (rule.customer_id, customer.id),
        (rule.company_type_id, customer.company_type_id),
        (rule.ship_to_id, ship_to.id if ship_to else None),
        (rule.state_id, ship_to.state_id if ship_to else None),
        (rule.product_id, product.id),
        (rule.category_id, product.category_id),
    )
    return all(want is None or want == have for want, have in checks)


def choose_rule(
    rules: Sequence[RuleFacts],
    *,
    customer: CustomerFacts,
    ship_to: ShipToFacts | None,
    product: ProductFacts,
    on: dt.date,
) -> RuleFacts | None:
    """The most specific matching rule, then the highest priority (saving refuses true ties; the
    id breaks what is left, so the answer never depends on the order rows were read in)."""
    matching = [
        r for r in rules if rule_matches(r, customer=customer, ship_to=ship_to, product=product, on=on)
    ]
    if not matching:
        return None
    return max(matching, key=lambda r: (specificity(r), r.priority, -r.id))


def rules_conflict(a: RuleFacts, b: RuleFacts) -> bool:
    """Would these two rules tie for some line? Same scope, same priority, overlapping dates."""
    if not (a.is_active and b.is_active) or a.priority != b.priority:
        return False
    if any(getattr(a, name) != getattr(b, name) for name in SCOPE_WEIGHTS):
        return False
    a_start, a_end = a.effective_from or dt.date.min, a.effective_to or dt.date.max
    b_start, b_end = b.effective_from or dt.date.min, b.effective_to or dt.date.max
    return a_start <= b_end and b_start <= a_end


# --- one line's unit price -----------------------------------------------------------------------
def _dec(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _no_price(product: ProductFacts, why: str) -> PricingError:
    return PricingError(f"No price found for {product.name} ({product.code}): {why}", product_id=product.id)


def _rack_for(
    ctx: PricingContext, product: ProductFacts, terminal_id: int | None, mode: str, supplier_id: int | None
) -> RackPrice | None:
    if terminal_id is not None:
        quotes = list(ctx.racks.get((terminal_id, product.id), ()))
    else:  # no terminal named: every terminal the context loaded for this product
        quotes = [q for (t, p), qs in ctx.racks.items() if p == product.id for q in qs]
    return choose_rack(quotes, mode, supplier_id)


def _apply_markups(
    base: Decimal,
    *,
    margin_type: str,
    margin: Decimal,
    freight: Decimal,
    minimum: Decimal | None,
    rounding: Decimal,
) -> tuple[Decimal, dict[str, Any]]:
    margin_amount = unit(base * margin / HUNDRED) if margin_type == "percent" else margin
    raw = base + margin_amount + freight
    floored = max(raw, minimum) if minimum is not None else raw
    final = round_to_step(floored, rounding)
    return final, {
        "basis_price": str(base),
        "margin_type": margin_type,
        "margin": str(margin),
        "margin_amount": str(margin_amount),
        "freight_per_unit": str(freight),
        "before_rounding": str(floored),
        "minimum_price": _dec(minimum),
        "minimum_applied": minimum is not None and raw < minimum,
        "rounding": str(rounding),
    }


def unit_price_for(
    ctx: PricingContext, product: ProductFacts, override: Decimal | None = None
) -> tuple[Decimal, dict[str, Any]]:
    """The unit price of one product for the context's customer, with its breakdown."""
    if override is not None:
        return unit(override), {"basis": "override", "unit_price": str(unit(override))}

    customer = ctx.customer
    cp = ctx.customer_prices.get(product.id)
    ptype = customer.pricing_type or "standard"
    if cp is not None and ptype != "standard":
        bd: dict[str, Any] = {"customer_price_id": cp.id, "customer_pricing_type": ptype}
        if ptype == "fixed":
            if cp.unit_price is None:
                raise _no_price(product, "the customer's fixed price has no unit price.")
            price, extra = _apply_markups(
                cp.unit_price,
                margin_type="per_unit",
                margin=cp.margin,
                freight=cp.freight_per_unit,
                minimum=None,
                rounding=UNIT,
            )
            return price, {"basis": "contract", **bd, **extra}
        if ptype == "rack_plus":
            rack = _rack_for(
                ctx, product, cp.terminal_id, "named" if cp.supplier_id else "lowest", cp.supplier_id
            )
            if rack is None:
                raise _no_price(product, "no rack price in force for the customer's rack-plus terminal.")
            price, extra = _apply_markups(
                rack.price,
                margin_type="per_unit",
                margin=cp.margin,
                freight=cp.freight_per_unit,
                minimum=None,
                rounding=UNIT,
            )
            return price, {"basis": "rack", **bd, **rack.as_breakdown(), **extra, "cost": str(rack.price)}
        if ptype == "cost_plus":
            cost = ctx.last_costs.get(product.id)
            if cost is None:
                raise _no_price(product, "no buying price recorded (cost plus needs our last cost).")
            price, extra = _apply_markups(
                cost.price,
                margin_type="per_unit",
                margin=cp.margin,
                freight=cp.freight_per_unit,
                minimum=None,
                rounding=UNIT,
            )
            return price, {
                "basis": "last_cost",
                **bd,
                "buying_price_id": cost.buying_price_id,
                "supplier_id": cost.supplier_id,
                "terminal_id": cost.terminal_id,
                "cost": str(cost.price),
                **extra,
            }

    rule = choose_rule(
        ctx.rules, customer=customer, ship_to=ctx.ship_to, product=product, on=ctx.pricing_date
    )
    if rule is not None:
        rule_bd: dict[str, Any] = {
            "rule_id": rule.id,
            "rule_name": rule.name,
            "rule_specificity": specificity(rule),
            "rule_priority": rule.priority,
        }
        rule_cost: Decimal | None
        if rule.basis == "fixed":
            if rule.fixed_price is None:
                raise _no_price(product, f"rule '{rule.name}' has no fixed price.")
            base, src, rule_cost = rule.fixed_price, {}, None
        elif rule.basis == "last_cost":
            last = ctx.last_costs.get(product.id)
            if last is None:
                raise _no_price(product, f"rule '{rule.name}' uses our last cost and none is recorded.")
            base, rule_cost = last.price, last.price
            src = {
                "buying_price_id": last.buying_price_id,
                "supplier_id": last.supplier_id,
                "terminal_id": last.terminal_id,
            }
        else:
            rack = _rack_for(ctx, product, rule.terminal_id, rule.rack_mode, rule.supplier_id)
            if rack is None:
                where = f"terminal {rule.terminal_id}" if rule.terminal_id else "any terminal"
                raise _no_price(
                    product, f"rule '{rule.name}' needs a rack price at {where} and none is in force."
                )
            base, rule_cost, src = rack.price, rack.price, rack.as_breakdown()
        price, extra = _apply_markups(
            base,
            margin_type=rule.margin_type,
            margin=rule.margin,
            freight=rule.freight_per_unit,
            minimum=rule.minimum_price,
            rounding=rule.rounding,
        )
        margin_bd: dict[str, Any] = {}
        if rule_cost is not None:
            # What we keep per unit after cost and freight; the margin guard compares it.
            realised = price - rule_cost - rule.freight_per_unit
            margin_bd = {
                "cost": str(rule_cost),
                "margin_per_unit": str(realised),
                "minimum_margin": _dec(rule.minimum_margin),
                "margin_ok": rule.minimum_margin is None or realised >= rule.minimum_margin,
            }
        return price, {"basis": rule.basis, **rule_bd, **src, **extra, **margin_bd}

    if product.list_price is not None:
        return unit(product.list_price), {"basis": "list", "list_price": str(product.list_price)}
    raise _no_price(product, "no pricing rule matches and the product has no list price.")


# --- taxes ---------------------------------------------------------------------------------------
def tax_applies(tax: TaxFacts, *, product: ProductFacts, ship_to: ShipToFacts | None) -> bool:
    """Product side: all products, or the product listed, or its category listed (flag or list).
    Place side: all states, or the ship-to's state listed; and all cities, or its city listed. A tax
    scoped to places does not apply without a ship-to."""
    if not tax.is_active or tax.rate is None:
        return False
    product_ok = (
        tax.applies_to_all_products
        or (tax.applies_to_all_product_categories and product.category_id is not None)
        or product.id in tax.product_ids
        or (product.category_id is not None and product.category_id in tax.category_ids)
    )
    if not product_ok:
        return False
    state_id = ship_to.state_id if ship_to else None
    city_id = ship_to.city_id if ship_to else None
    # A tax named for cities only (no state list, no all-states flag): the city decides.
    city_only = not tax.applies_to_all_states and not tax.state_ids and bool(tax.city_ids)
    state_ok = city_only or tax.applies_to_all_states or (state_id is not None and state_id in tax.state_ids)
    city_ok = (
        tax.applies_to_all_cities or not tax.city_ids or (city_id is not None and city_id in tax.city_ids)
    )
    return state_ok and city_ok


def customer_is_exempt(customer: CustomerFacts, on: dt.date) -> bool:
    return customer.tax_exempt and (customer.tax_exempt_expires is None or customer.tax_exempt_expires >= on)


def _ordered_taxes(taxes: Sequence[TaxFacts]) -> list[TaxFacts]:
    return sorted(taxes, key=lambda t: (t.sequence, t.id))


def line_taxes(
    ctx: PricingContext, product: ProductFacts, quantity: Decimal, amount: Decimal, exempt: bool
) -> tuple[TaxAmount, ...]:
    out: list[TaxAmount] = []
    taxable_extra = ZERO  # amounts of earlier taxes that later percent taxes include (tax on tax)
    for tax in _ordered_taxes(ctx.taxes):
        if tax.kind == "fixed" or not tax_applies(tax, product=product, ship_to=ctx.ship_to):
            continue
        if exempt and tax.exemptible:
            continue
        assert tax.rate is not None
        if tax.kind == "per_unit":
            base = quantity
            value = money(tax.rate * quantity)
        else:
            base = amount + taxable_extra
            value = money(base * tax.rate / HUNDRED)
        out.append(TaxAmount(tax.id, tax.name, tax.code, tax.kind, tax.rate, tax.rate_id, base, value))
        if tax.is_taxable:
            taxable_extra += value
    return tuple(out)


def document_taxes(
    ctx: PricingContext, products: Sequence[ProductFacts], exempt: bool
) -> tuple[TaxAmount, ...]:
    """`fixed` taxes: once per document when any line's product and the ship-to are in scope."""
    out = []
    for tax in _ordered_taxes(ctx.taxes):
        if tax.kind != "fixed" or (exempt and tax.exemptible):
            continue
        if any(tax_applies(tax, product=p, ship_to=ctx.ship_to) for p in products):
            assert tax.rate is not None
            out.append(
                TaxAmount(
                    tax.id, tax.name, tax.code, tax.kind, tax.rate, tax.rate_id, Decimal("1"), money(tax.rate)
                )
            )
    return tuple(out)


def aggregate_taxes(groups: Sequence[Sequence[TaxAmount]]) -> tuple[TaxAmount, ...]:
    by_id: dict[int, TaxAmount] = {}
    for group in groups:
        for t in group:
            prev = by_id.get(t.tax_id)
            if prev is None:
                by_id[t.tax_id] = t
            else:
                by_id[t.tax_id] = TaxAmount(
                    t.tax_id,
                    t.name,
                    t.code,
                    t.kind,
                    t.rate,
                    t.rate_id,
                    prev.taxable_base + t.taxable_base,
                    prev.amount + t.amount,
                )
    return tuple(by_id.values())


# --- fees ----------------------------------------------------------------------------------------
def fee_amount(
    fee: FeeFacts, key: str, quantity: Decimal | None, *, subtotal: Decimal, units: Decimal
) -> FeeAmount:
    """flat: rate x quantity (default the fee's, 1); per_unit: rate x quantity (default the
    document's units); percentage: rate % of the document's subtotal x quantity (default 1)."""
    if fee.is_percentage:
        qty = quantity if quantity is not None else (fee.quantity or Decimal("1"))
        value = money(subtotal * fee.rate / HUNDRED * qty)
        kind = "percentage"
    elif fee.fee_type == "per_unit":
        qty = quantity if quantity is not None else units
        value = money(fee.rate * qty)
        kind = "per_unit"
    else:
        qty = quantity if quantity is not None else fee.quantity
        value = money(fee.rate * qty)
        kind = "flat"
    return FeeAmount(key, fee.id, fee.name, kind, fee.rate, qty, value)


# --- the document --------------------------------------------------------------------------------
def price(
    ctx: PricingContext, lines: Sequence[LineRequest], fees: Sequence[FeeRequest] = ()
) -> PricedDocument:
    exempt = customer_is_exempt(ctx.customer, ctx.pricing_date)
    notes: list[str] = []
    if ctx.customer.tax_exempt:
        if exempt:
            cert = ctx.customer.tax_exempt_certificate or "no number"
            notes.append(f"Tax exempt (certificate {cert}): exemptible taxes not charged.")
        else:
            notes.append(
                f"Tax exemption certificate expired on {ctx.customer.tax_exempt_expires}: taxes charged."
            )
    priced: list[PricedLine] = []
    for req in lines:
        product = ctx.products.get(req.product_id)
        if product is None:
            raise PricingError(
                f"Product {req.product_id} not found.", code="unknown_product", product_id=req.product_id
            )
        if req.quantity < 0:
            raise PricingError(
                "A quantity cannot be negative.", code="bad_quantity", product_id=req.product_id
            )
        price_, breakdown = unit_price_for(ctx, product, req.unit_price_override)
        amount = money(price_ * req.quantity)
        taxes = line_taxes(ctx, product, req.quantity, amount, exempt)
        breakdown = {**breakdown, "unit_price": str(price_), "amount": str(amount), "exempt": exempt}
        priced.append(PricedLine(req.key, product.id, req.quantity, price_, amount, taxes, breakdown))

    subtotal = sum((pl.amount for pl in priced), ZERO)
    units = sum((pl.quantity for pl in priced), ZERO)
    fee_amounts: list[FeeAmount] = []
    for freq in fees:
        fee = ctx.fees.get(freq.fee_id)
        if fee is None:
            raise PricingError(f"Fee {freq.fee_id} not found.", code="unknown_fee")
        fee_amounts.append(fee_amount(fee, freq.key, freq.quantity, subtotal=subtotal, units=units))
    doc_taxes = document_taxes(ctx, [ctx.products[pl.product_id] for pl in priced], exempt) if priced else ()
    taxes = aggregate_taxes([pl.taxes for pl in priced] + [doc_taxes])
    fee_total = sum((f.subtotal for f in fee_amounts), ZERO)
    tax_total = sum((t.amount for t in taxes), ZERO)
    return PricedDocument(
        lines=tuple(priced),
        fees=tuple(fee_amounts),
        taxes=taxes,
        subtotal=money(subtotal),
        fee_total=money(fee_total),
        tax_total=money(tax_total),
        total=money(subtotal + fee_total + tax_total),
        pricing_date=ctx.pricing_date,
        document_taxes=doc_taxes,
        notes=tuple(notes),
        ship_to=ctx.ship_to,
        ship_to_assumed=ctx.ship_to_assumed,
        ship_to_choices=ctx.ship_to_choices,
    )


def assumptions(doc: PricedDocument, terminal_names: Mapping[int, str]) -> dict[str, Any]:
    """What a price of one line assumed that the request did not name: the ship-to (the customer's
    only one, when none was named) and the terminal its rack or cost came from. `note` says it in a
    sentence (empty when nothing was assumed)."""
    bd = doc.lines[0].breakdown if doc.lines else {}
    terminal_id = bd.get("terminal_id") if bd.get("basis") in ("rack", "last_cost") else None
    out: dict[str, Any] = {
        "ship_to_id": doc.ship_to.id if doc.ship_to_assumed and doc.ship_to else None,
        "ship_to_name": doc.ship_to.name if doc.ship_to_assumed and doc.ship_to else None,
        "terminal_id": terminal_id,
        "terminal_name": terminal_names.get(terminal_id) if terminal_id is not None else None,
    }
    sentences = []
    if out["ship_to_id"] is not None:
        sentences.append(
            f"No ship-to named: priced for {out['ship_to_name']}, the customer's only delivery location."
        )
    elif doc.ship_to is None and doc.ship_to_choices > 1:
        sentences.append(
            "No ship-to named and the customer has several: priced without one (rules for a ship-to "
            "or a state do not apply); name the ship-to for its price."
        )
    if terminal_id is not None:
        where = out["terminal_name"] or f"#{terminal_id}"
        sentences.append(f"Cost taken at terminal {where}.")
    out["note"] = " ".join(sentences)
    return out


def tax_summary(doc: PricedDocument | None) -> dict[str, Any]:
    """The spec's tax summary shape: {total_tax_amount, taxable_items}. None: the empty default."""
    if doc is None:
        return {"total_tax_amount": Decimal("0.00"), "taxable_items": []}
    items: list[dict[str, Any]] = []
    for line in doc.lines:
        if not line.taxes:
            continue
        items.append(
            {
                "key": line.key,
                "product_id": line.product_id,
                "quantity": line.quantity,
                "amount": line.amount,
                "tax_amount": line.tax_amount,
                "taxes": [tax_dict(t) for t in line.taxes],
            }
        )
    for t in doc.document_taxes:
        items.append(
            {
                "key": "document",
                "product_id": None,
                "quantity": None,
                "amount": None,
                "tax_amount": t.amount,
                "taxes": [tax_dict(t)],
            }
        )
    return {"total_tax_amount": doc.tax_total, "taxable_items": items}


def tax_dict(t: TaxAmount) -> dict[str, Any]:
    return {
        "tax_id": t.tax_id,
        "name": t.name,
        "code": t.code,
        "kind": t.kind,
        "rate": t.rate,
        "rate_id": t.rate_id,
        "taxable_base": t.taxable_base,
        "amount": t.amount,
    }
