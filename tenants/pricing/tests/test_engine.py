"""The pricing engine on plain data: hand-worked examples and properties (no database)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenants.pricing import engine as e

DAY = dt.date(2026, 3, 10)
DIESEL = e.ProductFacts(id=1, name="ULSD Clear", code="ULSD", category_id=100)
GAS = e.ProductFacts(id=2, name="Unleaded 87", code="UNL87", category_id=101)
TX, HOUSTON = 48, 4801
CUSTOMER = e.CustomerFacts(id=7, name="Acme Construction", company_type_id=3)
SHIP_TO = e.ShipToFacts(id=70, customer_id=7, state_id=TX, city_id=HOUSTON)

RACK = e.RackQuote(
    buying_price_id=501, supplier_id=11, terminal_id=21, product_id=1, price=D("2.15"), effective_from=DAY
)
RACK_B = e.RackQuote(
    buying_price_id=502, supplier_id=12, terminal_id=21, product_id=1, price=D("2.19"), effective_from=DAY
)
RULE = e.RuleFacts(
    id=1,
    name="Diesel rack + 15c",
    product_id=1,
    basis="rack",
    rack_mode="named",
    terminal_id=21,
    supplier_id=11,
    margin=D("0.15"),
    freight_per_unit=D("0.08"),
)
FED = e.TaxFacts(
    id=1,
    name="Federal excise",
    code="FET",
    kind="per_unit",
    rate=D("0.244"),
    rate_id=91,
    applies_to_all_states=True,
    applies_to_all_products=True,
    is_taxable=True,
    sequence=1,
    exemptible=False,
)
STATE_EXCISE = e.TaxFacts(
    id=2,
    name="Texas diesel excise",
    code="TXD",
    kind="per_unit",
    rate=D("0.20"),
    rate_id=92,
    state_ids=frozenset({TX}),
    product_ids=frozenset({1}),
    sequence=2,
)
SALES = e.TaxFacts(
    id=3,
    name="Sales tax",
    code="ST",
    kind="percent",
    rate=D("6.25"),
    rate_id=93,
    state_ids=frozenset({TX}),
    applies_to_all_products=True,
    sequence=9,
)
PCT_FEE = e.FeeFacts(id=1, name="Environmental", fee_type="percentage", rate=D("2"))
DELIVERY = e.FeeFacts(id=2, name="Delivery", fee_type="flat", rate=D("75"))


def ctx(**kw):
    base = dict(
        pricing_date=DAY,
        customer=CUSTOMER,
        ship_to=SHIP_TO,
        products={1: DIESEL, 2: GAS},
        rules=[RULE],
        racks={(21, 1): [RACK, RACK_B]},
        taxes=[FED, STATE_EXCISE, SALES],
        fees={1: PCT_FEE, 2: DELIVERY},
    )
    base.update(kw)
    return e.PricingContext(**base)


def test_rack_plus_margin_plus_freight_with_excise_and_sales_tax_and_fees():
    doc = e.price(
        ctx(),
        [e.LineRequest("L1", 1, D("3000"))],
        [e.FeeRequest("F1", 1), e.FeeRequest("F2", 2)],
    )
    (line,) = doc.lines
    # 2.15 rack + 0.15 margin + 0.08 freight
    assert line.unit_price == D("2.3800") and line.amount == D("7140.00")
    bd = line.breakdown
    assert bd["basis"] == "rack" and bd["supplier_id"] == 11 and bd["terminal_id"] == 21
    assert bd["buying_price_id"] == 501 and bd["rule_id"] == 1
    assert (bd["margin_amount"], bd["freight_per_unit"]) == ("0.15", "0.08")
    taxes = {t.code: t for t in line.taxes}
    assert taxes["FET"].amount == D("732.00")  # 0.244 x 3000
    assert taxes["TXD"].amount == D("600.00")  # 0.20 x 3000
    # 6.25 % of the amount plus the taxable federal excise: (7140 + 732) x 6.25 %
    assert taxes["ST"].taxable_base == D("7872.00") and taxes["ST"].amount == D("492.00")
    assert taxes["ST"].rate_id == 93
    assert [f.subtotal for f in doc.fees] == [D("142.80"), D("75.00")]  # 2 % of 7140; 75 x 1
    assert doc.subtotal == D("7140.00") and doc.fee_total == D("217.80") and doc.tax_total == D("1824.00")
    assert doc.total == D("9181.80")
    summary = e.tax_summary(doc)
    assert summary["total_tax_amount"] == D("1824.00")
    assert summary["taxable_items"][0]["tax_amount"] == D("1824.00")


def test_exempt_customer_pays_only_non_exemptible_taxes_until_the_certificate_expires():
    exempt = replace(CUSTOMER, tax_exempt=True, tax_exempt_certificate="TX-01-555", tax_exempt_expires=DAY)
    doc = e.price(ctx(customer=exempt), [e.LineRequest("L1", 1, D("3000"))])
    assert [(t.code, t.amount) for t in doc.taxes] == [("FET", D("732.00"))]
    assert "TX-01-555" in doc.notes[0]
    expired = e.price(
        ctx(customer=exempt, pricing_date=DAY + dt.timedelta(days=1)), [e.LineRequest("L1", 1, D("3000"))]
    )
    assert expired.tax_total == D("1824.00") and "expired" in expired.notes[0]


def test_fixed_contract_price():
    fixed = replace(CUSTOMER, pricing_type="fixed")
    cp = e.CustomerPriceFacts(id=9, customer_id=7, product_id=1, unit_price=D("2.4999"))
    doc = e.price(
        ctx(customer=fixed, customer_prices={1: cp}, taxes=[]), [e.LineRequest("L1", 1, D("1234.5"))]
    )
    (line,) = doc.lines
    assert line.unit_price == D("2.4999") and line.amount == D("3086.13")  # 3086.12655 half-up
    assert line.breakdown["basis"] == "contract" and line.breakdown["customer_price_id"] == 9


def test_percent_margin_minimum_and_rounding_step():
    rule = replace(RULE, margin_type="percent", margin=D("3"), freight_per_unit=D("0"), rounding=D("0.001"))
    (line,) = e.price(ctx(rules=[rule], taxes=[]), [e.LineRequest("L", 1, D("1"))]).lines
    # 2.15 + 3 % (0.0645) = 2.2145 → to the next 0.001, half up: 2.215
    assert line.unit_price == D("2.2150") and line.breakdown["before_rounding"] == "2.2145"
    floor = replace(rule, minimum_price=D("2.50"))
    (line,) = e.price(ctx(rules=[floor], taxes=[]), [e.LineRequest("L", 1, D("1"))]).lines
    assert line.unit_price == D("2.5000") and line.breakdown["minimum_applied"] is True


def test_lowest_and_average_rack_and_margin_guard():
    lowest = replace(RULE, rack_mode="lowest", supplier_id=None, margin=D("0.10"), freight_per_unit=D("0"))
    (line,) = e.price(ctx(rules=[lowest], taxes=[]), [e.LineRequest("L", 1, D("10"))]).lines
    assert line.unit_price == D("2.2500") and line.breakdown["supplier_id"] == 11
    avg = replace(lowest, rack_mode="average", minimum_margin=D("0.12"))
    (line,) = e.price(ctx(rules=[avg], taxes=[]), [e.LineRequest("L", 1, D("10"))]).lines
    assert line.unit_price == D("2.2700")  # (2.15 + 2.19) / 2 + 0.10
    assert line.breakdown["buying_price_ids"] == [501, 502] and line.breakdown["margin_ok"] is False


def test_no_price_is_a_pricing_error_with_a_sentence():
    with pytest.raises(e.PricingError) as err:
        e.price(ctx(rules=[]), [e.LineRequest("L", 1, D("1"))])
    assert "No price found for ULSD Clear (ULSD)" in err.value.message
    with pytest.raises(e.PricingError):
        e.price(ctx(racks={}), [e.LineRequest("L", 1, D("1"))])
    # a list price is the last resort
    listed = replace(DIESEL, list_price=D("3.1"))
    (line,) = e.price(ctx(rules=[], products={1: listed}, taxes=[]), [e.LineRequest("L", 1, D("2"))]).lines
    assert line.unit_price == D("3.1000") and line.breakdown["basis"] == "list"


def test_override_keeps_an_earlier_price_and_fixed_document_tax():
    fixed_tax = e.TaxFacts(
        id=5,
        name="Inspection",
        code="INSP",
        kind="fixed",
        rate=D("5"),
        applies_to_all_states=True,
        product_ids=frozenset({1}),
    )
    doc = e.price(
        ctx(taxes=[fixed_tax]),
        [e.LineRequest("a", 1, D("100"), D("2.11119")), e.LineRequest("b", 1, D("50"), D("2"))],
    )
    assert [ln.unit_price for ln in doc.lines] == [D("2.1112"), D("2.0000")]
    assert doc.tax_total == D("5.00") and e.tax_summary(doc)["taxable_items"][0]["key"] == "document"


def test_tax_scope_by_state_city_and_category():
    city_only = e.TaxFacts(
        id=8,
        name="Houston",
        code="HOU",
        kind="percent",
        rate=D("1"),
        city_ids=frozenset({HOUSTON}),
        category_ids=frozenset({100}),
    )
    assert e.tax_applies(city_only, product=DIESEL, ship_to=SHIP_TO)
    assert not e.tax_applies(city_only, product=GAS, ship_to=SHIP_TO)
    assert not e.tax_applies(city_only, product=DIESEL, ship_to=replace(SHIP_TO, city_id=1))
    assert not e.tax_applies(SALES, product=DIESEL, ship_to=None)
    assert e.tax_applies(FED, product=DIESEL, ship_to=None)


def test_rules_conflict_only_on_the_same_scope_priority_and_dates():
    a = replace(RULE, id=1)
    assert e.rules_conflict(a, replace(RULE, id=2))
    assert not e.rules_conflict(a, replace(RULE, id=2, priority=1))
    assert not e.rules_conflict(a, replace(RULE, id=2, customer_id=7))
    assert not e.rules_conflict(
        replace(a, effective_to=DAY), replace(RULE, id=2, effective_from=DAY + dt.timedelta(1))
    )


# --- properties ----------------------------------------------------------------------------------
decimals = st.decimals(
    min_value=D("0"), max_value=D("50000"), places=3, allow_nan=False, allow_infinity=False
)
prices = st.decimals(min_value=D("0.5"), max_value=D("9"), places=4, allow_nan=False, allow_infinity=False)


@st.composite
def documents(draw):
    n = draw(st.integers(1, 12))
    lines = [
        e.LineRequest(
            f"L{i}", draw(st.sampled_from([1, 2])), draw(decimals), draw(st.one_of(st.none(), prices))
        )
        for i in range(n)
    ]
    rack = replace(RACK, price=draw(prices))
    rule = replace(
        RULE,
        margin=draw(prices) / 10,
        margin_type=draw(st.sampled_from(["per_unit", "percent"])),
        rounding=draw(st.sampled_from([D("0.0001"), D("0.001"), D("0.01"), D("0.05")])),
    )
    gas_rule = e.RuleFacts(id=2, name="Gas fixed", product_id=2, basis="fixed", fixed_price=draw(prices))
    exempt = draw(st.booleans())
    customer = replace(CUSTOMER, tax_exempt=exempt)
    taxes = [
        replace(t, rate=draw(st.decimals(min_value=D("0"), max_value=D("12"), places=3)))
        for t in (FED, STATE_EXCISE, SALES)
    ]
    return ctx(rules=[rule, gas_rule], racks={(21, 1): [rack]}, taxes=taxes, customer=customer), lines


@settings(max_examples=200, deadline=None)
@given(documents(), st.booleans())
def test_totals_add_up_and_rounding_never_drifts(doc_and_lines, with_fees):
    context, lines = doc_and_lines
    fees = [e.FeeRequest("F1", 1), e.FeeRequest("F2", 2)] if with_fees else []
    doc = e.price(context, lines, fees)
    assert doc.subtotal == sum(ln.amount for ln in doc.lines)
    assert doc.tax_total == sum(t.amount for t in doc.taxes) == sum(ln.tax_total for ln in doc.lines)
    assert doc.fee_total == sum(f.subtotal for f in doc.fees)
    assert doc.total == doc.subtotal + doc.fee_total + doc.tax_total
    for ln in doc.lines:
        assert abs(ln.amount - ln.unit_price * ln.quantity) <= D("0.005")
        assert ln.unit_price == ln.unit_price.quantize(D("0.0001"))
        for t in ln.taxes:
            exact = t.rate * ln.quantity if t.kind == "per_unit" else t.taxable_base * t.rate / 100
            assert abs(t.amount - exact) <= D("0.005")
    if context.customer.tax_exempt:
        exemptible = {t.id for t in context.taxes if t.exemptible}
        assert not any(t.tax_id in exemptible for t in doc.taxes)


scope_values = {
    "customer_id": st.sampled_from([None, 7, 8]),
    "company_type_id": st.sampled_from([None, 3, 4]),
    "ship_to_id": st.sampled_from([None, 70, 71]),
    "state_id": st.sampled_from([None, TX, 22]),
    "product_id": st.sampled_from([None, 1, 2]),
    "category_id": st.sampled_from([None, 100, 101]),
}


@st.composite
def rule_sets(draw):
    n = draw(st.integers(1, 10))
    return [
        e.RuleFacts(
            id=i + 1,
            name=f"r{i}",
            basis="fixed",
            fixed_price=D(i + 1),
            priority=draw(st.integers(0, 3)),
            **{k: draw(v) for k, v in scope_values.items()},
        )
        for i in range(n)
    ]


@settings(max_examples=300, deadline=None)
@given(rule_sets())
def test_the_chosen_rule_is_the_most_specific_then_highest_priority(rules):
    chosen = e.choose_rule(rules, customer=CUSTOMER, ship_to=SHIP_TO, product=DIESEL, on=DAY)
    matching = [
        r for r in rules if e.rule_matches(r, customer=CUSTOMER, ship_to=SHIP_TO, product=DIESEL, on=DAY)
    ]
    if not matching:
        assert chosen is None
        return
    assert chosen in matching
    for r in matching:
        assert (e.specificity(r), r.priority) <= (e.specificity(chosen), chosen.priority)
        # a rule narrower in every way the chosen one is narrow, and more, would have won
        dims_r = {k for k in e.SCOPE_WEIGHTS if getattr(r, k) is not None}
        dims_c = {k for k in e.SCOPE_WEIGHTS if getattr(chosen, k) is not None}
        assert not dims_c < dims_r
