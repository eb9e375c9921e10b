"""Reads of the pricing domain, and the loader of what the engine needs (a bounded number of queries,
whatever the number of lines)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from core.listing import AnyOf, ListParams, paginate
from core.rows import fill_grouped, fill_related_ids, kept_by_ids
from django.db import connection
from django.db.models import OuterRef, Q, QuerySet, Subquery

from tenants.catalog import selectors as catalog_selectors
from tenants.parties import selectors as parties_selectors
from tenants.pricing import engine
from tenants.pricing.models import (
    BuyingPrice,
    CustomerPrice,
    Fee,
    PaymentMethod,
    PaymentTerm,
    PricingRule,
    Tax,
    TaxRate,
    fee_subtotal,
    rule_scope_chips,
    term_summary,
)
from tenants.pricing.schemas import TaxRateOut


def filter_payment_terms(qs: QuerySet[PaymentTerm], params: Any) -> QuerySet[PaymentTerm]:
    return qs.filter(is_default=params.is_default) if params.is_default is not None else qs


def filter_payment_methods(qs: QuerySet[PaymentMethod], params: Any) -> QuerySet[PaymentMethod]:
    return qs.filter(is_active=params.is_active) if params.is_active is not None else qs


# --- facts of the engine -------------------------------------------------------------------------
def customer_facts(customer_id: int) -> engine.CustomerFacts:
    row = parties_selectors.customer_pricing_facts(customer_id)
    if row is None:
        raise engine.PricingError(f"Customer {customer_id} not found.", code="unknown_customer")
    return engine.CustomerFacts(
        id=row["id"],
        name=row["name"],
        company_type_id=row["company_type_id"],
        tax_exempt=row["tax_exempt"],
        tax_exempt_certificate=row["tax_exempt_certificate"],
        tax_exempt_expires=row["tax_exempt_expires"],
        pricing_type=row["customer_pricing_type"] or "standard",
        status=row["status"],
    )


def ship_to_facts(ship_to_id: int | None, customer_id: int) -> engine.ShipToFacts | None:
    if ship_to_id is None:
        return None
    row = parties_selectors.ship_to_pricing_facts(ship_to_id)
    if row is None:
        raise engine.PricingError(f"Ship-to {ship_to_id} not found.", code="unknown_ship_to")
    if row["customer_id"] != customer_id:
        raise engine.PricingError(
            f"Ship-to {ship_to_id} is not a delivery location of customer {customer_id}.", code="bad_ship_to"
        )
    return engine.ShipToFacts(**row)


def assumed_ship_to(customer_id: int) -> tuple[engine.ShipToFacts | None, int]:
    """A price that names no ship-to is for the customer's only active ship-to (one customer, one
    product, one day: one price). Answers (that ship-to or None, how many were found: 0, 1 or 2 for
    "several")."""
    rows = parties_selectors.active_ship_tos_for_pricing(customer_id, limit=2)
    return (engine.ShipToFacts(**rows[0]) if len(rows) == 1 else None), len(rows)


def product_facts(product_ids: Iterable[int]) -> dict[int, engine.ProductFacts]:
    rows = catalog_selectors.product_pricing_facts(set(product_ids))
    return {
        pid: engine.ProductFacts(
            id=pid,
            name=r["name"],
            code=r["code"],
            category_id=r["category_id"],
            list_price=r["unit_price"],
            sold_as=r["sold_as"],
        )
        for pid, r in rows.items()
    }


RULE_FIELDS = [f.name for f in engine.RuleFacts.__dataclass_fields__.values()]


def rule_facts(row: dict[str, Any]) -> engine.RuleFacts:
    return engine.RuleFacts(**{k: row[k] for k in RULE_FIELDS})


def candidate_rules(
    customer: engine.CustomerFacts,
    ship_to: engine.ShipToFacts | None,
    products: Sequence[engine.ProductFacts],
    on: dt.date,
) -> list[engine.RuleFacts]:
    """Active rules in effect on the date whose every scope field is empty or this order's value."""

    def any_or(field: str, values: Iterable[Any]) -> Q:
        vals = [v for v in values if v is not None]
        return Q(**{f"{field}__isnull": True}) | (Q(**{f"{field}__in": vals}) if vals else Q(pk__in=[]))

    qs = PricingRule.objects.filter(
        Q(is_active=True),
        Q(effective_from__isnull=True) | Q(effective_from__lte=on),
        Q(effective_to__isnull=True) | Q(effective_to__gte=on),
        any_or("customer_id", [customer.id]),
        any_or("company_type_id", [customer.company_type_id]),
        any_or("ship_to_id", [ship_to.id if ship_to else None]),
        any_or("state_id", [ship_to.state_id if ship_to else None]),
        any_or("product_id", [p.id for p in products]),
        any_or("category_id", [p.category_id for p in products]),
    )
    return [rule_facts(r) for r in qs.values(*RULE_FIELDS)]


# Rack quotes in force: for each (terminal, product) pair, a skip scan over its suppliers on the
# unique index (terminal, product, supplier, effective_from) then the newest row on or before the
# date per supplier: O(pairs x suppliers x log n), whatever the history's length. The index carries
# the price, the end date and the id (INCLUDE), so both steps are index-only scans.
_RACK_SQL = """
WITH RECURSIVE pairs(t, p) AS (SELECT * FROM unnest(%(terminals)s::bigint[], %(products)s::bigint[])),
sup(t, p, s) AS (
    SELECT pairs.t, pairs.p, (SELECT min(b.supplier_id) FROM pricing_buyingprice b
                              WHERE b.terminal_id = pairs.t AND b.product_id = pairs.p)
    FROM pairs
    UNION ALL
    SELECT sup.t, sup.p, (SELECT min(b.supplier_id) FROM pricing_buyingprice b
                          WHERE b.terminal_id = sup.t AND b.product_id = sup.p
                            AND b.supplier_id > sup.s)
    FROM sup WHERE sup.s IS NOT NULL
)
SELECT bp.id, bp.supplier_id, bp.terminal_id, bp.product_id, bp.price, bp.effective_from, bp.effective_to
FROM sup CROSS JOIN LATERAL (
    SELECT b.id, b.supplier_id, b.terminal_id, b.product_id, b.price, b.effective_from, b.effective_to
    FROM pricing_buyingprice b
    WHERE b.terminal_id = sup.t AND b.product_id = sup.p AND b.supplier_id = sup.s
      AND b.effective_from <= %(on)s
    ORDER BY b.effective_from DESC LIMIT 1
) bp
WHERE sup.s IS NOT NULL AND (bp.effective_to IS NULL OR bp.effective_to >= %(on)s)
"""

# A named supplier needs no walk over the suppliers: one probe of the same index per pair. (The
# recursive form filtered on the supplier cost twice the planning time, which is most of a
# single pair's cost.)
_RACK_NAMED_SQL = """
SELECT bp.id, bp.supplier_id, bp.terminal_id, bp.product_id, bp.price, bp.effective_from, bp.effective_to
FROM unnest(%(terminals)s::bigint[], %(products)s::bigint[]) AS pairs(t, p) CROSS JOIN LATERAL (
    SELECT b.id, b.supplier_id, b.terminal_id, b.product_id, b.price, b.effective_from, b.effective_to
    FROM pricing_buyingprice b
    WHERE b.terminal_id = pairs.t AND b.product_id = pairs.p AND b.supplier_id = %(supplier)s
      AND b.effective_from <= %(on)s
    ORDER BY b.effective_from DESC LIMIT 1
) bp
WHERE bp.effective_to IS NULL OR bp.effective_to >= %(on)s
"""


def rack_quotes(
    pairs: Iterable[tuple[int, int]], on: dt.date, supplier_id: int | None = None
) -> dict[tuple[int, int], list[engine.RackQuote]]:
    """The suppliers' buying prices in force on `on` for each (terminal, product), in one query."""
    pairs = sorted(set(pairs))
    out: dict[tuple[int, int], list[engine.RackQuote]] = defaultdict(list)
    if not pairs:
        return out
    params: dict[str, Any] = {
        "terminals": [t for t, _ in pairs],
        "products": [p for _, p in pairs],
        "on": on,
        "supplier": supplier_id,
    }
    with connection.cursor() as cur:
        cur.execute(_RACK_SQL if supplier_id is None else _RACK_NAMED_SQL, params)
        for row in cur.fetchall():
            q = engine.RackQuote(*row)
            out[(q.terminal_id, q.product_id)].append(q)
    return out


def rack_quotes_any_terminal(
    product_id: int, on: dt.date, supplier_id: int | None = None
) -> list[engine.RackQuote]:
    """Quotes in force for a product at every terminal (a purchase order with no terminal yet):
    the terminals come from the product's history (one query), then `rack_quotes`."""
    qs = BuyingPrice.objects.filter(product_id=product_id, effective_from__lte=on)
    if supplier_id is not None:
        qs = qs.filter(supplier_id=supplier_id)
    terminals = set(qs.order_by().values_list("terminal_id", flat=True).distinct())
    found = rack_quotes(((t, product_id) for t in terminals), on, supplier_id)
    return [q for qs_ in found.values() for q in qs_]


_LAST_COST_SQL = """
SELECT lc.id, lc.supplier_id, lc.terminal_id, lc.product_id, lc.price, lc.effective_from, lc.effective_to
FROM unnest(%(products)s::bigint[]) AS p(id)
CROSS JOIN LATERAL (
    SELECT b.id, b.supplier_id, b.terminal_id, b.product_id, b.price, b.effective_from, b.effective_to
    FROM pricing_buyingprice b
    WHERE b.product_id = p.id AND b.effective_from <= %(on)s
    ORDER BY b.effective_from DESC, b.price ASC, b.id DESC LIMIT 1
) lc
"""


def last_costs(product_ids: Iterable[int], on: dt.date) -> dict[int, engine.RackQuote]:
    """Our last cost of each product: the newest buying price on or before the date, any supplier or
    terminal (the lowest of that day). One query."""
    ids = sorted(set(product_ids))
    if not ids:
        return {}
    with connection.cursor() as cur:
        cur.execute(_LAST_COST_SQL, {"products": ids, "on": on})
        return {row[3]: engine.RackQuote(*row) for row in cur.fetchall()}


TAX_SCOPES = {
    "states": "state_id",
    "cities": "city_id",
    "products": "product_id",
    "categories": "productcategory_id",
}


def tax_facts(on: dt.date) -> list[engine.TaxFacts]:
    """Active taxes with the rate in force on the date and their scope lists: two queries."""
    rate_in_force = TaxRate.objects.filter(
        Q(tax=OuterRef("pk")),
        Q(effective_from__lte=on),
        Q(effective_to__isnull=True) | Q(effective_to__gte=on),
    ).order_by("-effective_from", "-id")
    rows = list(
        Tax.objects.filter(is_active=True)
        .annotate(
            rate_id_=Subquery(rate_in_force.values("id")[:1]),
            rate_=Subquery(rate_in_force.values("rate")[:1]),
        )
        .values(
            "id",
            "name",
            "code",
            "kind",
            "applies_to_all_states",
            "applies_to_all_cities",
            "applies_to_all_products",
            "applies_to_all_product_categories",
            "is_taxable",
            "sequence",
            "exemptible",
            "rate_id_",
            "rate_",
        )
    )
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    # The four scope lists in one round trip.
    scope: dict[str, dict[int, set[int]]] = {name: defaultdict(set) for name in TAX_SCOPES}
    parts = []
    for name, column in TAX_SCOPES.items():
        table = getattr(Tax, name).through._meta.db_table
        # Table and column names come from the models, never from input.
        parts.append(f"SELECT '{name}', tax_id, {column} FROM {table} WHERE tax_id = ANY(%(ids)s)")  # noqa: S608
    with connection.cursor() as cur:
        cur.execute(" UNION ALL ".join(parts), {"ids": ids})
        for name, tax_id, other in cur.fetchall():
            scope[name][tax_id].add(other)
    return [
        engine.TaxFacts(
            id=r["id"],
            name=r["name"],
            code=r["code"],
            kind=r["kind"],
            rate=r["rate_"],
            rate_id=r["rate_id_"],
            applies_to_all_states=r["applies_to_all_states"],
            applies_to_all_cities=r["applies_to_all_cities"],
            applies_to_all_products=r["applies_to_all_products"],
            applies_to_all_product_categories=r["applies_to_all_product_categories"],
            state_ids=frozenset(scope["states"].get(r["id"], ())),
            city_ids=frozenset(scope["cities"].get(r["id"], ())),
            product_ids=frozenset(scope["products"].get(r["id"], ())),
            category_ids=frozenset(scope["categories"].get(r["id"], ())),
            is_taxable=r["is_taxable"],
            sequence=r["sequence"],
            exemptible=r["exemptible"],
        )
        for r in rows
    ]


def fee_facts(fee_ids: Iterable[int]) -> dict[int, engine.FeeFacts]:
    ids = set(fee_ids)
    if not ids:
        return {}
    rows = Fee.objects.filter(pk__in=ids).values(
        "id", "name", "fee_type", "amount_type", "rate", "quantity", "customer_id", "fee_code"
    )
    return {r["id"]: engine.FeeFacts(**r) for r in rows}


def customer_price_facts(
    customer_id: int, product_ids: Iterable[int]
) -> dict[int, engine.CustomerPriceFacts]:
    rows = CustomerPrice.objects.filter(customer_id=customer_id, product_id__in=list(product_ids)).values(
        "id",
        "customer_id",
        "product_id",
        "unit_price",
        "margin",
        "terminal_id",
        "supplier_id",
        "freight_per_unit",
    )
    return {r["product_id"]: engine.CustomerPriceFacts(**r) for r in rows}


def load_context(
    *,
    customer_id: int,
    ship_to_id: int | None,
    product_ids: Iterable[int],
    pricing_date: dt.date,
    fee_ids: Iterable[int] = (),
) -> engine.PricingContext:
    """Everything `engine.price` needs, in at most 10 queries whatever the number of lines."""
    customer = customer_facts(customer_id)
    ship_to = ship_to_facts(ship_to_id, customer_id)
    choices = 1 if ship_to is not None else 0
    if ship_to_id is None:
        ship_to, choices = assumed_ship_to(customer.id)
    wanted = set(product_ids)
    products = product_facts(wanted)
    missing = wanted - set(products)
    if missing:
        pid = min(missing)
        raise engine.PricingError(f"Product {pid} not found.", code="unknown_product", product_id=pid)
    plist = list(products.values())
    cps = customer_price_facts(customer.id, wanted) if customer.pricing_type != "standard" else {}
    rules = candidate_rules(customer, ship_to, plist, pricing_date)
    # Which racks and costs could be needed: the terminals the candidate rules and the customer's
    # prices name, for every product of the order.
    pairs: set[tuple[int, int]] = set()
    need_cost = customer.pricing_type == "cost_plus"
    for rule in rules:
        if rule.basis == "rack" and rule.terminal_id is not None:
            pairs.update((rule.terminal_id, p.id) for p in plist)
        elif rule.basis == "last_cost":
            need_cost = True
    for cp in cps.values():
        if customer.pricing_type == "rack_plus" and cp.terminal_id is not None:
            pairs.add((cp.terminal_id, cp.product_id))
    racks = rack_quotes(pairs, pricing_date)
    costs = last_costs(wanted, pricing_date) if need_cost else {}
    return engine.PricingContext(
        pricing_date=pricing_date,
        customer=customer,
        ship_to=ship_to,
        ship_to_assumed=ship_to_id is None and ship_to is not None,
        ship_to_choices=choices,
        products=products,
        rules=rules,
        customer_prices=cps,
        racks=racks,
        last_costs=costs,
        taxes=tax_facts(pricing_date),
        fees=fee_facts(fee_ids),
    )


# --- lists ---------------------------------------------------------------------------------------
def taxes() -> QuerySet[Tax]:
    return Tax.objects.prefetch_related("states", "cities", "products", "categories", "rates")


# TaxOut's scope: (the many-to-many field, the list of ids it is shown as).
TAX_SCOPE_IDS = (
    ("states", "state_ids"),
    ("cities", "city_ids"),
    ("products", "product_ids"),
    ("categories", "category_ids"),
)


def fill_tax_rows(items: list[dict[str, Any]]) -> None:
    """The tax list's scope ids, rates (newest first) and today's rate on its plain rows (core.crud
    `fill_rows`); TaxOut's resolvers say the same of a model instance."""
    for field, key in TAX_SCOPE_IDS:
        fill_related_ids(items, Tax, field, key)
    keys = tuple(TaxRateOut.model_fields)
    statement = kept_by_ids(
        ("rates of taxes", TaxRate, keys),
        lambda ids: (
            TaxRate.objects.filter(AnyOf("tax_id", ids))
            .order_by("tax_id", "-effective_from", "id")
            .values_list("tax_id", *keys)
        ),
    )
    fill_grouped(items, "rates", statement, lambda row: dict(zip(keys, row[1:], strict=True)))
    today = dt.date.today()
    for item in items:
        item["current_rate"] = engine.rate_in_force(
            ((r["effective_from"], r["effective_to"], r["rate"]) for r in item["rates"]), today
        )


def filter_taxes(qs: QuerySet[Tax], params: Any) -> QuerySet[Tax]:
    if params.kind:
        qs = qs.filter(kind=params.kind)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs


def fees() -> QuerySet[Fee]:
    return Fee.objects.select_related("customer")


def filter_fees(qs: QuerySet[Fee], params: Any) -> QuerySet[Fee]:
    if params.customer_id is not None:
        qs = qs.filter(Q(customer_id=params.customer_id) | Q(customer_id__isnull=True))
    if params.fee_type:
        qs = qs.filter(fee_type=params.fee_type)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs


def buying_prices() -> QuerySet[BuyingPrice]:
    return BuyingPrice.objects.select_related("supplier", "terminal", "product").only(
        *[f.name for f in BuyingPrice._meta.concrete_fields],
        "supplier__name",
        "terminal__name",
        "product__name",
    )


def filter_buying_prices(qs: QuerySet[BuyingPrice], params: Any) -> QuerySet[BuyingPrice]:
    for name in ("supplier_id", "terminal_id", "product_id"):
        if getattr(params, name) is not None:
            qs = qs.filter(**{name: getattr(params, name)})
    if params.on is not None:
        qs = qs.filter(
            Q(effective_to__isnull=True) | Q(effective_to__gte=params.on), effective_from__lte=params.on
        )
    if params.effective_from is not None:  # in force on or after
        qs = qs.filter(Q(effective_to__isnull=True) | Q(effective_to__gte=params.effective_from))
    if params.effective_to is not None:  # in force on or before
        qs = qs.filter(effective_from__lte=params.effective_to)
    return qs


def pricing_rules() -> QuerySet[PricingRule]:
    return PricingRule.objects.select_related(
        "customer", "company_type", "ship_to", "state", "product", "category"
    )


def fill_pricing_rule_rows(items: list[dict[str, Any]]) -> None:
    """The pricing-rule list's specificity and scope chips on its plain rows (core.crud `fill_rows`,
    the chips' names read as `SCOPE_NAME_COLUMNS`); PricingRuleOut's resolvers say the same of a
    model instance."""

    def shown_in(item: dict[str, Any]) -> Callable[[str, str], str | None]:
        return lambda relation, column: (
            None if item[f"{relation}_id"] is None else item[f"{relation}__{column}"]
        )

    for item in items:
        item["specificity"] = engine.scope_weight(item.__getitem__)
        item["scope"] = rule_scope_chips(shown_in(item))


def filter_pricing_rules(qs: QuerySet[PricingRule], params: Any) -> QuerySet[PricingRule]:
    if params.customer_id is not None:
        qs = qs.filter(customer_id=params.customer_id)
    if params.product_id is not None:
        qs = qs.filter(product_id=params.product_id)
    if params.basis:
        qs = qs.filter(basis=params.basis)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs


def customer_prices(customer_id: int) -> QuerySet[CustomerPrice]:
    return (
        CustomerPrice.objects.filter(customer_id=customer_id)
        .select_related("product")
        .order_by("product__name", "id")
    )


def final_prices(customer_id: int, items: Sequence[CustomerPrice], on: dt.date) -> dict[int, tuple[Any, str]]:
    """Each price item's final price on the date (or the engine's sentence why there is none), by
    item id: one context load for all the items, then the engine per product (an item without a
    price does not hide the others')."""
    if not items:
        return {}
    try:
        ctx = load_context(
            customer_id=customer_id,
            ship_to_id=None,
            product_ids=[i.product_id for i in items],
            pricing_date=on,
        )
    except engine.PricingError as exc:
        return {i.pk: (None, exc.message) for i in items}
    out: dict[int, tuple[Any, str]] = {}
    for item in items:
        try:
            price, _bd = engine.unit_price_for(ctx, ctx.products[item.product_id])
            out[item.pk] = (price, "")
        except engine.PricingError as exc:
            out[item.pk] = (None, exc.message)
    return out


def customer_price_page(customer_id: int, page: int, size: int, on: dt.date) -> dict[str, Any] | None:
    """A customer's pricing type and a page of its price items with their final prices on the date
    (`GET /api/customer-price`); None for an unknown customer. Paged by the kit (`core.listing`)."""
    facts = parties_selectors.customer_pricing_facts(customer_id)
    if facts is None:
        return None
    listed = paginate(
        customer_prices(customer_id), ListParams.model_validate({"page": page, "size": size}), size
    )
    items: list[CustomerPrice] = listed.pop("items")
    finals = final_prices(customer_id, items, on)
    rows = [
        {
            "id": i.pk,
            "customer_id": i.customer_id,
            "product_id": i.product_id,
            "product_name": i.product.name,
            "product_code": i.product.code,
            "unit_price": i.unit_price,
            "product_price": i.unit_price,
            "margin": i.margin,
            "terminal_id": i.terminal_id,
            "supplier_id": i.supplier_id,
            "freight_per_unit": i.freight_per_unit,
            "final_price": finals.get(i.pk, (None, ""))[0],
            "final_price_note": finals.get(i.pk, (None, ""))[1],
        }
        for i in items
    ]
    return {
        "customer_id": facts["id"],
        "customer_name": facts["name"],
        "customer_pricing_type": facts["customer_pricing_type"],
        "pricings": rows,
        **listed,
    }


# --- the rack board and history ------------------------------------------------------------------
def rack_board(on: dt.date, supplier_id: int | None, basis: str = "lowest") -> dict[str, Any]:
    """Every (terminal, product) with a price in force on the date or the day before: the price on the
    date (the named supplier's, or the lowest / average across suppliers) and the change since."""
    prev = on - dt.timedelta(days=1)
    qs = BuyingPrice.objects.filter(
        Q(effective_to__isnull=True) | Q(effective_to__gte=prev), effective_from__lte=on
    ).select_related("terminal", "product")
    if supplier_id is not None:
        qs = qs.filter(supplier_id=supplier_id)
    rows = list(
        qs.values(
            "id",
            "supplier_id",
            "terminal_id",
            "product_id",
            "price",
            "effective_from",
            "effective_to",
            "terminal__name",
            "product__name",
        )[:20000]
    )
    terminals: dict[int, str] = {}
    products: dict[int, str] = {}
    by_pair: dict[tuple[int, int], list[engine.RackQuote]] = defaultdict(list)
    for r in rows:
        terminals[r["terminal_id"]] = r["terminal__name"]
        products[r["product_id"]] = r["product__name"]
        by_pair[(r["terminal_id"], r["product_id"])].append(
            engine.RackQuote(
                r["id"],
                r["supplier_id"],
                r["terminal_id"],
                r["product_id"],
                r["price"],
                r["effective_from"],
                r["effective_to"],
            )
        )
    mode = "named" if supplier_id is not None else basis
    cells = []
    for (t, p), quotes in sorted(by_pair.items()):
        today = [q for q in quotes if engine.in_effect(q.effective_from, q.effective_to, on)]
        before = [q for q in quotes if engine.in_effect(q.effective_from, q.effective_to, prev)]
        now = engine.choose_rack(today, mode, supplier_id)
        then = engine.choose_rack(before, mode, supplier_id)
        cells.append(
            {
                "terminal_id": t,
                "product_id": p,
                "price": now.price if now else None,
                "previous": then.price if then else None,
                "change": (now.price - then.price) if now and then else None,
                "supplier_id": now.supplier_id if now else None,
                "buying_price_id": now.buying_price_id if now else None,
            }
        )
    return {
        "date": on,
        "previous_date": prev,
        "basis": mode,
        "supplier_id": supplier_id,
        "terminals": [{"id": k, "name": v} for k, v in sorted(terminals.items(), key=lambda kv: kv[1])],
        "products": [{"id": k, "name": v} for k, v in sorted(products.items(), key=lambda kv: kv[1])],
        "cells": cells,
    }


def rack_history(terminal_id: int, product_id: int, start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    """Each supplier's price per day over the window (a step series for the chart)."""
    rows = (
        BuyingPrice.objects.filter(terminal_id=terminal_id, product_id=product_id, effective_from__lte=end)
        .filter(Q(effective_to__isnull=True) | Q(effective_to__gte=start))
        .values("supplier_id", "supplier__name", "price", "effective_from", "effective_to")
        .order_by("supplier_id", "effective_from")
    )
    points = []
    for r in rows:
        day = max(r["effective_from"], start)
        last = min(r["effective_to"] or end, end)
        while day <= last:
            points.append(
                {
                    "date": day,
                    "supplier_id": r["supplier_id"],
                    "supplier_name": r["supplier__name"],
                    "price": r["price"],
                }
            )
            day += dt.timedelta(days=1)
    points.sort(key=lambda p: (p["date"], p["supplier_id"]))
    return points


def names_for_explain(doc: engine.PricedDocument) -> dict[str, dict[int, str]]:
    """Names of the suppliers and terminals a priced document's breakdown refers to (two queries)."""
    sup: set[int] = set()
    ter: set[int] = set()
    for line in doc.lines:
        if line.breakdown.get("supplier_id"):
            sup.add(line.breakdown["supplier_id"])
        if line.breakdown.get("terminal_id"):
            ter.add(line.breakdown["terminal_id"])
    return {
        "supplier": parties_selectors.supplier_names(sup) if sup else {},
        "terminal": parties_selectors.terminal_names(ter) if ter else {},
    }


def fill_payment_term_rows(items: list[dict[str, Any]]) -> None:
    """The payment-term list's computed field on its plain rows (core.crud `fill_rows`)."""
    for item in items:
        item["summary"] = term_summary(item["net_days"], item["discount_percent"], item["discount_days"])


def fill_fee_rows(items: list[dict[str, Any]]) -> None:
    """The fee list's computed fields on its plain rows (core.crud `fill_rows`)."""
    for item in items:
        item["subtotal"] = fee_subtotal(item["fee_type"], item["amount_type"], item["rate"], item["quantity"])
        item["customer_name"] = item["customer__name"] if item["customer_id"] else None
