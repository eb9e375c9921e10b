"""Writes of the pricing domain, and the entry points other apps call to price documents.

Other apps price through `price_document` only (sales orders, invoices, purchase orders); errors
they must handle are `PricingError` (re-exported here): answer it with `as_http_error(exc)` (the one
mapping of its codes to HTTP statuses, `errors.py`). Rounding: `tenants.pricing.money`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from core.crud import save_object
from core.errors import ApiError
from django.db import transaction

from tenants.parties import selectors as parties_selectors
from tenants.parties import services as parties_services
from tenants.pricing import engine, selectors
from tenants.pricing.engine import (
    FeeAmount,
    FeeRequest,
    LineRequest,
    PricedDocument,
    PricedLine,
    PricingError,
    RackPrice,
    TaxAmount,
    tax_summary,
)
from tenants.pricing.errors import as_http_error
from tenants.pricing.models import BuyingPrice, CustomerPrice, Fee, PaymentTerm, PricingRule, Tax, TaxRate
from tenants.pricing.money import unit
from tenants.pricing.signals import rack_price_changed

__all__ = [
    "FeeAmount",
    "FeeRequest",
    "LineRequest",
    "PricedDocument",
    "PricedLine",
    "PricingError",
    "RackPrice",
    "TaxAmount",
    "as_http_error",
    "buying_price_in_force",
    "margin_guard",
    "price_document",
    "rack_price_changed",
    "tax_summary",
]


# --- pricing (the entry point of other apps) -----------------------------------------------------
def price_document(
    *,
    customer_id: int,
    ship_to_id: int | None,
    lines: Sequence[LineRequest],
    pricing_date: dt.date,
    fees: Sequence[FeeRequest] = (),
) -> PricedDocument:
    """Price a document's lines and fees for a customer (and ship-to) on a date.

    Loads what the engine needs in at most 10 statements, whatever the number of lines, then computes
    with `engine.price`. Raises `PricingError` (unknown customer, ship-to, product or fee; no price)."""
    ctx = selectors.load_context(
        customer_id=customer_id,
        ship_to_id=ship_to_id,
        product_ids={line.product_id for line in lines},
        pricing_date=pricing_date,
        fee_ids={f.fee_id for f in fees},
    )
    return engine.price(ctx, lines, fees)


@dataclass(frozen=True)
class QuotedPrice:
    """A customer's price of one product on a day (the price check, the final price, the line
    preview): the priced document, its explanation and what it assumed (`engine.assumptions`)."""

    doc: PricedDocument
    explanation: list[str]
    assumed: dict[str, Any]

    @property
    def line(self) -> PricedLine:
        return self.doc.lines[0]

    def explained(self) -> dict[str, Any]:
        """The price check's answer (`PricedDocumentOut`): the priced lines, fees and taxes with the
        explanation and what was assumed."""
        doc = self.doc
        return {
            "lines": [
                {
                    "key": ln.key,
                    "product_id": ln.product_id,
                    "quantity": ln.quantity,
                    "unit_price": ln.unit_price,
                    "amount": ln.amount,
                    "taxes": [engine.tax_dict(t) for t in ln.taxes],
                    "breakdown": ln.breakdown,
                }
                for ln in doc.lines
            ],
            "fees": [vars(f) for f in doc.fees],
            "taxes": [engine.tax_dict(t) for t in doc.taxes],
            "subtotal": doc.subtotal,
            "fee_total": doc.fee_total,
            "tax_total": doc.tax_total,
            "total": doc.total,
            "pricing_date": doc.pricing_date,
            "notes": list(doc.notes),
            "explanation": self.explanation,
            "assumed": self.assumed,
        }


def customer_price(
    *,
    customer_id: int,
    product_id: int,
    pricing_date: dt.date,
    ship_to_id: int | None = None,
    quantity: Decimal = Decimal("1"),
    fee_ids: Sequence[int] = (),
    unit_price_override: Decimal | None = None,
) -> QuotedPrice:
    """The one answer to "what does this customer pay for this product on this day": every screen and
    call that shows it comes here (and orders are priced by the same `price_document`), so they agree.
    With no ship-to named, the customer's only active ship-to is assumed, and the answer says so.
    `unit_price_override`: a price typed on an order line, priced as the order prices it (the engine
    decides what a fixed price means: its amount, its taxes), so the order form shows the server's
    figures, never its own."""
    doc = price_document(
        customer_id=customer_id,
        ship_to_id=ship_to_id,
        lines=[LineRequest("1", product_id, quantity, unit_price_override)],
        pricing_date=pricing_date,
        fees=[FeeRequest(str(i), fid) for i, fid in enumerate(fee_ids)],
    )
    names = selectors.names_for_explain(doc)
    assumed = engine.assumptions(doc, names.get("terminal", {}))
    explanation = explain_sentences(doc, names)
    if assumed["note"]:
        explanation.insert(0, assumed["note"])
    return QuotedPrice(doc, explanation, assumed)


def buying_price_in_force(
    *,
    product_id: int,
    terminal_id: int | None,
    supplier_id: int | None,
    on: dt.date,
    basis: str = "named",
) -> RackPrice | None:
    """The buying price in force on a date (a purchase order's default unit cost).

    basis `named`: the supplier's price (at the terminal, or its lowest across terminals when no
    terminal is given); `lowest` / `average`: across the suppliers at the terminal (or all
    terminals). None when nothing is in force."""
    if basis not in ("named", "lowest", "average"):
        raise PricingError(f"Unknown basis '{basis}': named, lowest or average.", code="bad_basis")
    if basis == "named" and supplier_id is None:
        raise PricingError("A named buying price needs a supplier.", code="bad_basis")
    named = supplier_id if basis == "named" else None
    if terminal_id is not None:
        quotes = selectors.rack_quotes([(terminal_id, product_id)], on, named).get(
            (terminal_id, product_id), []
        )
    else:
        quotes = selectors.rack_quotes_any_terminal(product_id, on, named)
    return engine.choose_rack(quotes, "lowest" if basis == "named" else basis, None)


def margin_guard(line: PricedLine) -> dict[str, Any] | None:
    """A line whose margin over its cost fell under its rule's minimum: what to show; else None."""
    bd = line.breakdown
    if bd.get("margin_ok", True) or bd.get("minimum_margin") is None:
        return None
    return {
        "key": line.key,
        "product_id": line.product_id,
        "rule_id": bd.get("rule_id"),
        "unit_price": str(line.unit_price),
        "cost": bd.get("cost"),
        "margin_per_unit": bd.get("margin_per_unit"),
        "minimum_margin": bd.get("minimum_margin"),
    }


# --- payment terms -------------------------------------------------------------------------------
def save_payment_term(term: PaymentTerm, data: dict[str, Any]) -> PaymentTerm:
    """Save a term; making it the default takes the flag from the previous default (one default)."""
    if data.get("is_default"):
        PaymentTerm.objects.filter(is_default=True).exclude(pk=term.pk).update(is_default=False)
    return save_object(term, data)  # type: ignore[return-value]


def create_payment_term(data: dict[str, Any]) -> PaymentTerm:
    return save_payment_term(PaymentTerm(), data)


# --- buying prices -------------------------------------------------------------------------------
def _announce_rack_change(bp: BuyingPrice) -> None:
    payload = {
        "supplier_id": bp.supplier_id,
        "terminal_id": bp.terminal_id,
        "product_id": bp.product_id,
        "effective_from": bp.effective_from,
    }
    transaction.on_commit(lambda: rack_price_changed.send(sender=BuyingPrice, **payload))


def save_buying_price(data: dict[str, Any]) -> tuple[BuyingPrice, bool]:
    """Add a buying price, or update the one with the same supplier, terminal, product and start.

    An open-ended price (no end date) is closed by the next one: the previous open price of the same
    supplier/terminal/product ends the day before the new one starts, and a new open price entered
    before a later one ends the day before it. Any other overlap is refused (409)."""
    key = {k: data[k] for k in ("supplier_id", "terminal_id", "product_id", "effective_from")}
    existing = BuyingPrice.objects.select_for_update().filter(**key).first()
    created = existing is None
    bp = existing or BuyingPrice()
    same = BuyingPrice.objects.select_for_update().filter(
        supplier_id=data["supplier_id"], terminal_id=data["terminal_id"], product_id=data["product_id"]
    )
    if bp.pk:
        same = same.exclude(pk=bp.pk)
    start: dt.date = data["effective_from"]
    end: dt.date | None = data.get("effective_to")
    # The previous open-ended price ends the day before this one starts.
    prev_open = (
        same.filter(effective_from__lt=start, effective_to__isnull=True).order_by("-effective_from").first()
    )
    if prev_open is not None:
        prev_open.effective_to = start - dt.timedelta(days=1)
        prev_open.save(update_fields=["effective_to", "updated_at"])
    nxt = same.filter(effective_from__gt=start).order_by("effective_from").first()
    if end is None and nxt is not None:
        end = nxt.effective_from - dt.timedelta(days=1)
        data = {**data, "effective_to": end}
    clash = same.filter(effective_from__lte=end or dt.date.max).exclude(effective_to__lt=start).first()
    if clash is not None:
        until = clash.effective_to.isoformat() if clash.effective_to else "open-ended"
        raise ApiError(
            409,
            f"This price overlaps the supplier's price of {clash.price} from "
            f"{clash.effective_from.isoformat()} to {until} for this product at this terminal. "
            "Change or delete that price first.",
        )
    save_object(bp, data)
    _announce_rack_change(bp)
    return bp, created


def delete_buying_price(bp: BuyingPrice) -> None:
    _announce_rack_change(bp)
    bp.delete()


def quantize_price(value: Decimal) -> Decimal:
    return unit(value)


# --- taxes ---------------------------------------------------------------------------------------
TAX_FLAG_LISTS = {
    "applies_to_all_states": ("state_ids", "states"),
    "applies_to_all_cities": ("city_ids", "cities"),
    "applies_to_all_products": ("product_ids", "products"),
    "applies_to_all_product_categories": ("category_ids", "categories"),
}


def _all_ids(field: str) -> list[int]:
    related = Tax._meta.get_field(field).related_model
    return list(related._default_manager.values_list("pk", flat=True))  # type: ignore[union-attr]


def save_tax(tax: Tax, data: dict[str, Any]) -> Tax:
    """Save a tax and its scope lists. As the spec says (section 5): a set apply-to-all flag whose id
    list is sent empty gets the list filled with every id of that kind."""
    data = dict(data)
    for flag, (ids_key, field) in TAX_FLAG_LISTS.items():
        if ids_key in data:
            data[field] = data.pop(ids_key)
        flag_on = data.get(flag, getattr(tax, flag) if tax.pk else False)
        if flag_on and field in data and not data[field]:
            data[field] = _all_ids(field)
        if not tax.pk and field not in data:
            data[field] = []
    return save_object(tax, data)  # type: ignore[return-value]


def create_tax(data: dict[str, Any]) -> Tax:
    return save_tax(Tax(), data)


def add_tax_rate(tax_id: int, data: dict[str, Any]) -> TaxRate:
    """A rate from a date; an open rate before it ends the day before; any other overlap is a 409."""
    tax = Tax.objects.select_for_update().filter(pk=tax_id).first()
    if tax is None:
        raise ApiError(404, "Tax not found")
    start: dt.date = data["effective_from"]
    end: dt.date | None = data.get("effective_to")
    if end is not None and end < start:
        raise ApiError(422, "effective_to: The end date is before the start date.")
    rates = TaxRate.objects.filter(tax=tax)
    prev_open = (
        rates.filter(effective_from__lt=start, effective_to__isnull=True).order_by("-effective_from").first()
    )
    if prev_open is not None:
        prev_open.effective_to = start - dt.timedelta(days=1)
        prev_open.save(update_fields=["effective_to", "updated_at"])
    nxt = rates.filter(effective_from__gt=start).order_by("effective_from").first()
    if end is None and nxt is not None:
        end = nxt.effective_from - dt.timedelta(days=1)
    clash = rates.filter(effective_from__lte=end or dt.date.max).exclude(effective_to__lt=start).first()
    if clash is not None:
        until = clash.effective_to.isoformat() if clash.effective_to else "open-ended"
        raise ApiError(
            409,
            f"This rate overlaps the rate of {clash.rate} from {clash.effective_from.isoformat()} "
            f"to {until}. "
            "Delete that rate or choose other dates.",
        )
    return save_object(TaxRate(tax=tax), {**data, "effective_to": end})  # type: ignore[return-value]


def delete_tax_rate(rate_id: int) -> None:
    rate = TaxRate.objects.filter(pk=rate_id).first()
    if rate is None:
        raise ApiError(404, "Tax rate not found")
    rate.delete()


# Documents other apps own answer their tax summary through these hooks: the owning app registers
# `fn(document_id) -> PricedDocument | None` (None: no such document, the empty default).
TAX_DOCUMENT_SOURCES: dict[str, Callable[[int], PricedDocument | None]] = {}


def register_tax_document_source(kind: str, fn: Callable[[int], PricedDocument | None]) -> None:
    """kind: "purchase-orders" or "invoices" (the sales app mounts its own sales-orders route)."""
    TAX_DOCUMENT_SOURCES[kind] = fn


def document_tax_summary(kind: str, document_id: int, label: str) -> dict[str, Any]:
    """The summary of a document; an unknown id is a 404 whose body also carries the spec's empty
    default (`total_tax_amount` 0, `taxable_items` []), which is what the client shows on a 404."""
    source = TAX_DOCUMENT_SOURCES.get(kind)
    doc = source(document_id) if source is not None else None
    if doc is None:
        empty = tax_summary(None)
        raise ApiError(
            404, f"{label} not found", **{**empty, "total_tax_amount": str(empty["total_tax_amount"])}
        )
    return tax_summary(doc)


# --- fees ----------------------------------------------------------------------------------------
def calculate_fee(
    fee: Fee, *, subtotal: Decimal, units: Decimal, quantity: Decimal | None = None
) -> FeeAmount:
    """A fee on a document with this subtotal and quantity (the sales app's `fee/calculate`)."""
    facts = selectors.fee_facts([fee.pk])[fee.pk]
    return engine.fee_amount(facts, str(fee.pk), quantity, subtotal=subtotal, units=units)


# --- pricing rules -------------------------------------------------------------------------------
def save_pricing_rule(rule: PricingRule, data: dict[str, Any]) -> PricingRule:
    for key, value in data.items():
        setattr(rule, key, value)
    if rule.basis == PricingRule.Basis.RACK:
        if rule.terminal_id is None:
            raise ApiError(422, "terminal_id: A rack-based rule needs the terminal whose rack it uses.")
        if rule.rack_mode == PricingRule.RackMode.NAMED and rule.supplier_id is None:
            raise ApiError(422, "supplier_id: A named-supplier rack needs the supplier.")
    if rule.basis == PricingRule.Basis.FIXED and rule.fixed_price is None:
        raise ApiError(422, "fixed_price: A fixed-price rule needs its price.")
    if rule.effective_from and rule.effective_to and rule.effective_to < rule.effective_from:
        raise ApiError(422, "effective_to: The end date is before the start date.")
    if rule.ship_to_id is not None:
        owner = parties_selectors.ship_to_pricing_facts(rule.ship_to_id)
        if owner is not None and rule.customer_id is not None and owner["customer_id"] != rule.customer_id:
            raise ApiError(422, "ship_to_id: This ship-to belongs to another customer.")
    me = selectors.rule_facts({k: getattr(rule, k) for k in selectors.RULE_FIELDS if k != "id"} | {"id": 0})
    others = PricingRule.objects.filter(is_active=True, priority=rule.priority).exclude(pk=rule.pk)
    for other in others.values(*selectors.RULE_FIELDS):
        if engine.rules_conflict(me, selectors.rule_facts(other)):
            raise ApiError(
                409,
                f"This rule ties with rule '{other['name']}' (same scope, same priority, overlapping dates): "
                "give one of them another priority or other dates.",
            )
    return save_object(rule, {})  # type: ignore[return-value]


def create_pricing_rule(data: dict[str, Any]) -> PricingRule:
    return save_pricing_rule(PricingRule(), data)


# --- customer pricing ----------------------------------------------------------------------------
def save_customer_pricing(customer_id: int, data: dict[str, Any]) -> tuple[int, int]:
    """Set the customer's pricing type (when given) and add or change its items (by id or product).
    Returns (created, updated) counts."""
    if parties_selectors.customer_pricing_facts(customer_id) is None:
        raise ApiError(404, "Customer not found")
    if data.get("customer_pricing_type"):
        parties_services.set_customer_pricing_type(customer_id, data["customer_pricing_type"])
    created = updated = 0
    for item in data.get("pricings") or []:
        item = dict(item)
        item_id = item.pop("id", None)
        product_price = item.pop("product_price", None)
        if item.get("unit_price") is None and product_price is not None:
            item["unit_price"] = product_price
        qs = CustomerPrice.objects.filter(customer_id=customer_id)
        cp = qs.filter(pk=item_id).first() if item_id else qs.filter(product_id=item["product_id"]).first()
        if item_id and cp is None:
            raise ApiError(404, f"Pricing item {item_id} not found for this customer.")
        if cp is None:
            cp, created = CustomerPrice(customer_id=customer_id), created + 1
        else:
            updated += 1
        save_object(cp, item)
    return created, updated


def delete_customer_pricing(customer_id: int, item_id: int | None) -> int:
    """Delete one pricing item (by id) or, without an id, every item (the type goes back to standard)."""
    if parties_selectors.customer_pricing_facts(customer_id) is None:
        raise ApiError(404, "Customer not found")
    qs = CustomerPrice.objects.filter(customer_id=customer_id)
    if item_id is not None:
        deleted, _ = qs.filter(pk=item_id).delete()
        if not deleted:
            raise ApiError(404, "Pricing item not found")
        return deleted
    deleted, _ = qs.delete()
    parties_services.set_customer_pricing_type(customer_id, "standard")
    return deleted


# --- rack sheets ---------------------------------------------------------------------------------
def save_rack_sheet(
    supplier_id: int, effective_from: dt.date, rows: Sequence[dict[str, Any]]
) -> dict[str, int]:
    """A supplier's rack for a day, terminal x product, in one transaction (all rows or none)."""
    created = updated = skipped = 0
    seen: set[tuple[int, int]] = set()
    for row in rows:
        if row.get("price") is None:
            skipped += 1
            continue
        pair = (row["terminal_id"], row["product_id"])
        if pair in seen:
            raise ApiError(422, f"Terminal {pair[0]} and product {pair[1]} appear twice in the sheet.")
        seen.add(pair)
        _, was_created = save_buying_price(
            {
                "supplier_id": supplier_id,
                "terminal_id": row["terminal_id"],
                "product_id": row["product_id"],
                "price": row["price"],
                "effective_from": effective_from,
            }
        )
        created, updated = (created + 1, updated) if was_created else (created, updated + 1)
    return {"created": created, "updated": updated, "skipped": skipped}


# --- explaining a price --------------------------------------------------------------------------
def explain_sentences(doc: PricedDocument, names: dict[str, dict[int, str]]) -> list[str]:
    """The breakdown of a priced document in plain sentences (the price check screen shows them)."""
    out: list[str] = []

    def name(kind: str, ident: Any) -> str:
        return names.get(kind, {}).get(ident, f"#{ident}") if ident is not None else "-"

    for line in doc.lines:
        bd = line.breakdown
        basis = bd.get("basis")
        if basis == "override":
            out.append(f"Unit price {line.unit_price} was fixed earlier on the document.")
        elif basis == "contract":
            out.append(f"Contract price of the customer: {bd['basis_price']}.")
        elif basis == "list":
            out.append(f"No rule matches: the product's list price {bd['list_price']}.")
        else:
            if bd.get("rule_id") is not None:
                out.append(
                    f"Rule '{bd['rule_name']}' (specificity {bd['rule_specificity']}, "
                    f"priority {bd['rule_priority']}) applies."
                )
            elif bd.get("customer_price_id") is not None:
                out.append(f"The customer's {bd['customer_pricing_type'].replace('_', ' ')} price applies.")
            if basis == "rack":
                mode = bd.get("rack_mode")
                where = name("terminal", bd.get("terminal_id"))
                if mode == "average":
                    out.append(
                        f"Rack: the average of {len(bd['buying_price_ids'])} suppliers at {where}: "
                        f"{bd['rack_price']}."
                    )
                else:
                    out.append(
                        f"Rack: {name('supplier', bd.get('supplier_id'))} at {where} "
                        f"({'lowest' if mode == 'lowest' else 'named supplier'}), {bd['rack_price']} "
                        f"from {bd.get('rack_effective_from')} (buying price #{bd.get('buying_price_id')})."
                    )
            elif basis == "last_cost":
                out.append(
                    f"Our last cost {bd['cost']} ({name('supplier', bd.get('supplier_id'))} at "
                    f"{name('terminal', bd.get('terminal_id'))}, buying price #{bd.get('buying_price_id')})."
                )
            elif basis == "fixed":
                out.append(f"Fixed price {bd['basis_price']}.")
            margin = bd.get("margin_amount")
            if margin is not None:
                pct = f" ({bd['margin']} %)" if bd.get("margin_type") == "percent" else ""
                out.append(
                    f"+ margin {margin}{pct} + freight {bd.get('freight_per_unit')} "
                    f"= {bd['before_rounding']}."
                )
            if bd.get("minimum_applied"):
                out.append(f"Raised to the minimum price {bd['minimum_price']}.")
            if bd.get("rounding") and bd.get("before_rounding") != str(line.unit_price):
                out.append(f"Rounded to {bd['rounding']}: {line.unit_price}.")
        out.append(f"{line.quantity} x {line.unit_price} = {line.amount}.")
        for t in line.taxes:
            if t.kind == "per_unit":
                out.append(f"{t.name}: {t.rate} per unit x {t.taxable_base} = {t.amount}.")
            else:
                out.append(f"{t.name}: {t.rate} % of {t.taxable_base} = {t.amount}.")
        if bd.get("margin_ok") is False:
            out.append(
                f"Margin guard: the margin {bd['margin_per_unit']} is under the rule's minimum "
                f"{bd['minimum_margin']}."
            )
    for t in doc.document_taxes:
        out.append(f"{t.name}: {t.amount} once per document.")
    for f in doc.fees:
        out.append(f"Fee {f.name} ({f.fee_type}): {f.subtotal}.")
    out.extend(doc.notes)
    out.append(f"Total: {doc.subtotal} + fees {doc.fee_total} + taxes {doc.tax_total} = {doc.total}.")
    return out


# --- hooks of the sales app ----------------------------------------------------------------------
# `GET /api/customer-price?sales_order_id=` lives on this app's route (one path, one handler); the
# sales app registers the function that answers it (the `simple_prices` envelope).
SALES_ORDER_PRICES: list[Callable[[int], Any]] = []


def register_sales_order_prices(fn: Callable[[int], Any]) -> None:
    SALES_ORDER_PRICES[:] = [fn]


def sales_order_prices(sales_order_id: int) -> Any:
    if not SALES_ORDER_PRICES:
        raise ApiError(404, "Sales order not found")
    return SALES_ORDER_PRICES[0](sales_order_id)


# --- purchases (the purchasing app's entry point) ------------------------------------------------
def price_purchase(
    *,
    lines: Sequence[LineRequest],
    pricing_date: dt.date,
    state_id: int | None = None,
    city_id: int | None = None,
) -> PricedDocument:
    """Taxes of a purchase document (a purchase order): each line carries its unit cost as the
    override, so no pricing rule is read; the taxes in force on the date whose scope takes the product
    and the place (the terminal's state and city). No customer: no exemption. Three queries."""
    wanted = {line.product_id for line in lines}
    products = selectors.product_facts(wanted)
    missing = wanted - set(products)
    if missing:
        pid = min(missing)
        raise PricingError(f"Product {pid} not found.", code="unknown_product", product_id=pid)
    place = (
        engine.ShipToFacts(id=0, customer_id=0, name="terminal", state_id=state_id, city_id=city_id)
        if state_id is not None or city_id is not None
        else None
    )
    ctx = engine.PricingContext(
        pricing_date=pricing_date,
        customer=engine.CustomerFacts(id=0, name="purchase"),
        ship_to=place,
        products=products,
        taxes=selectors.tax_facts(pricing_date),
    )
    return engine.price(ctx, lines)
