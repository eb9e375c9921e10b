import datetime as dt
import math
from typing import Any, Literal

from core.crud import Crud
from core.csv_io import CsvImport, Lookup
from core.envelope import Answer, Envelope, Message, ok
from core.errors import ApiError
from core.listing import ListSpec
from core.permissions import perm, register_resource
from django.db import transaction
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from tenants.catalog.models import Product
from tenants.parties import selectors as parties_selectors
from tenants.parties.models import Supplier, Terminal
from tenants.pricing import engine, selectors, services
from tenants.pricing.models import (
    SCOPE_NAME_COLUMNS,
    BuyingPrice,
    CustomerPrice,
    Fee,
    PaymentMethod,
    PaymentTerm,
    PricingRule,
    Tax,
    TaxRate,
)
from tenants.pricing.schemas import (
    MAX_ID,
    BuyingPriceIn,
    BuyingPriceOut,
    BuyingPriceQuery,
    CustomerPricingIn,
    CustomerPricingOut,
    Day,
    ExplainQuery,
    FeeDefinitionIn,
    FeeOut,
    FeeQuery,
    FinalPriceOut,
    PaymentMethodIn,
    PaymentMethodOut,
    PaymentMethodQuery,
    PaymentTermIn,
    PaymentTermOut,
    PaymentTermQuery,
    PricedDocumentOut,
    PricingRuleIn,
    PricingRuleOut,
    PricingRuleQuery,
    RackBoardOut,
    RackHistoryOut,
    RackSheetIn,
    RackSheetOut,
    TaxIn,
    TaxOut,
    TaxQuery,
    TaxRateIn,
    TaxRateOut,
    TaxSummaryMissing,
    TaxSummaryOut,
)
from tenants.pricing.services import PricingError

payment_term_router = Router(tags=["payment-term"])
payment_method_router = Router(tags=["payment-method"])
ALL_OPS = ("list", "all", "get", "create", "update", "delete")

Crud(
    router=payment_term_router,
    resource="payment_term",
    label="Payment term",
    model=PaymentTerm,
    out=PaymentTermOut,
    create_in=PaymentTermIn,
    ops=ALL_OPS,
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("summary",),
    fill_rows=selectors.fill_payment_term_rows,
    filters=PaymentTermQuery,
    apply_filters=selectors.filter_payment_terms,
    create=services.create_payment_term,
    update=services.save_payment_term,
    spec=ListSpec(
        search=("name",),
        sort={
            "name": "name",
            "net_days": "net_days",
            "discount_percent": "discount_percent",
            "is_default": "is_default",
            "created_at": "created_at",
        },
        filters={
            "name": ("name", "str"),
            "net_days": ("net_days", "int"),
            "discount_percent": ("discount_percent", "decimal"),
            "is_default": ("is_default", "bool"),
        },
        default_sort="net_days",
    ),
)

Crud(
    router=payment_method_router,
    resource="payment_method",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="Payment method",
    model=PaymentMethod,
    out=PaymentMethodOut,
    create_in=PaymentMethodIn,
    ops=ALL_OPS,
    default_size=25,
    filters=PaymentMethodQuery,
    apply_filters=selectors.filter_payment_methods,
    spec=ListSpec(
        search=("name", "code"),
        sort={"name": "name", "code": "code", "is_active": "is_active", "created_at": "created_at"},
        filters={"name": ("name", "str"), "code": ("code", "str"), "is_active": ("is_active", "bool")},
        default_sort="name",
    ),
)


# --- taxes ---------------------------------------------------------------------------------------
tax_router = Router(tags=["tax"])
tax_crud = Crud(
    router=tax_router,
    resource="tax",
    label="Tax",
    plural="Taxes",
    model=Tax,
    out=TaxOut,
    create_in=TaxIn,
    ops=("list", "get", "create", "update", "delete"),
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("state_ids", "city_ids", "product_ids", "category_ids", "rates", "current_rate"),
    fill_rows=selectors.fill_tax_rows,  # today's rate: the clock is read here, not in the statements
    queryset=selectors.taxes,
    filters=TaxQuery,
    apply_filters=selectors.filter_taxes,
    create=services.create_tax,
    update=services.save_tax,
    spec=ListSpec(
        search=("name", "code", "description"),
        sort={
            "name": "name",
            "code": "code",
            "kind": "kind",
            "sequence": "sequence",
            "created_at": "created_at",
        },
        filters={"name": ("name", "str"), "code": ("code", "str"), "kind": ("kind", "str")},
        default_sort="sequence",
    ),
)


class TaxRateQuery(Schema):
    tax_id: int = Field(..., ge=1, le=MAX_ID)


@tax_router.post(
    "/tax-rate",
    response={201: Envelope[TaxRateOut]},
    auth=perm("tax.change"),
    operation_id="tax_rate_create",
    summary="Add a rate to a tax (from a date; an open rate before it ends the day before)",
)
def add_tax_rate(request: HttpRequest, q: Query[TaxRateQuery], payload: TaxRateIn) -> Answer:
    with transaction.atomic():
        rate = services.add_tax_rate(q.tax_id, payload.dict())
    return ok(rate, "Tax rate added successfully", status=201)


@tax_router.delete(
    "/tax-rate/{int:id}",
    response=Message,
    auth=perm("tax.change"),
    operation_id="tax_rate_delete",
    summary="Delete a tax rate",
)
def delete_tax_rate(request: HttpRequest, id: int) -> Answer:
    rate = TaxRate.objects.filter(pk=id).first()
    if rate is None:
        raise ApiError(404, "Tax rate not found")
    rate.delete()
    return ok(None, "Tax rate deleted successfully")


def _summary_route(kind: str, label: str, permission: str) -> None:
    """A document's tax summary needs the document's own view permission (it shows its quantities,
    amounts and taxes), not the tax catalogue's."""

    def summary(request: HttpRequest, id: int) -> Answer:
        summary = services.document_tax_summary(kind, id, label.capitalize())
        return ok(summary, f"Taxes of the {label} retrieved successfully")

    tax_router.get(
        f"/{kind}/taxes/{{int:id}}",
        response={200: Envelope[TaxSummaryOut], 404: TaxSummaryMissing},
        auth=perm(permission),
        operation_id=f"tax_summary_{kind.replace('-', '_')}",
        summary=f"Tax summary of a {label}",
        description="{total_tax_amount, taxable_items}. An unknown id: 404 whose body also carries the "
        "empty default (total_tax_amount 0, taxable_items []).",
    )(summary)


_summary_route("purchase-orders", "purchase order", "purchase_order.view")
_summary_route("invoices", "invoice", "invoice.view")


# --- fees ----------------------------------------------------------------------------------------
fee_router = Router(tags=["fee"])
Crud(
    router=fee_router,
    resource="fee",
    label="Fee",
    model=Fee,
    out=FeeOut,
    create_in=FeeDefinitionIn,
    ops=("list", "get", "create", "update", "delete"),
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("subtotal", "customer_name"),
    extra_columns=("customer__name",),
    fill_rows=selectors.fill_fee_rows,
    queryset=selectors.fees,
    filters=FeeQuery,
    apply_filters=selectors.filter_fees,
    spec=ListSpec(
        search=("name", "fee_code", "erp_code", "description"),
        sort={
            "name": "name",
            "fee_code": "fee_code",
            "fee_type": "fee_type",
            "rate": "rate",
            "created_at": "created_at",
        },
        filters={"name": ("name", "str"), "fee_code": ("fee_code", "str"), "rate": ("rate", "decimal")},
        default_sort="name",
    ),
)


# --- buying prices -------------------------------------------------------------------------------
buying_price_router = Router(tags=["buying-price"])


def _import_buying_price(data: dict[str, Any]) -> BuyingPrice:
    bp, _ = services.save_buying_price(data)
    return bp


BUYING_PRICE_IMPORT = CsvImport(
    columns={
        "supplier": "Required. The supplier's name or code (or a supplier_id column).",
        "terminal": "Required. The terminal's code or name (or a terminal_id column).",
        "product": "Required. Our product code or name (or a product_id column).",
        "price": "Required. Price per unit, up to 6 decimals.",
        "effective_from": "Required. First day, YYYY-MM-DD.",
        "effective_to": "Last day; empty: until the next price.",
    },
    required=(
        ("supplier", "supplier_id"),
        ("terminal", "terminal_id"),
        ("product", "product_id"),
        "price",
        "effective_from",
    ),
    lookups=(
        Lookup("supplier", "supplier_id", Supplier, ("code", "name")),
        Lookup("terminal", "terminal_id", Terminal, ("terminal_code", "name")),
        Lookup("product", "product_id", Product, ("code", "name")),
    ),
)

buying_price_crud = Crud(
    router=buying_price_router,
    resource="buying_price",
    label="Buying price",
    model=BuyingPrice,
    out=BuyingPriceOut,
    create_in=BuyingPriceIn,
    ops=("list", "get"),
    default_size=100,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    queryset=selectors.buying_prices,
    filters=BuyingPriceQuery,
    apply_filters=selectors.filter_buying_prices,
    create=_import_buying_price,
    importer=BUYING_PRICE_IMPORT,
    spec=ListSpec(
        sort={
            "effective_from": "effective_from",
            "price": "price",
            "supplier": "supplier__name",
            "terminal": "terminal__name",
            "product": "product__name",
        },
        filters={"price": ("price", "decimal"), "effective_from": ("effective_from", "date")},
        default_sort="-effective_from",
    ),
)
register_resource("buying_price", "Buying prices", ("add", "change", "delete"))


@buying_price_router.post(
    "",
    response={200: Envelope[BuyingPriceOut], 201: Envelope[BuyingPriceOut]},
    auth=perm("buying_price.add"),
    operation_id="buying_price_save",
    summary="Add a buying price, or update the one with the same supplier, terminal, product and start",
)
def save_buying_price(request: HttpRequest, payload: BuyingPriceIn) -> Answer:
    with transaction.atomic():
        bp, created = services.save_buying_price(payload.dict())
    return ok(
        buying_price_crud.get_object(bp.pk),
        "Buying price saved successfully!",
        status=201 if created else 200,
    )


@buying_price_router.delete(
    "/{int:id}",
    response=Message,
    auth=perm("buying_price.delete"),
    operation_id="buying_price_delete",
    summary="Delete a buying price",
)
def delete_buying_price(request: HttpRequest, id: int) -> Answer:
    with transaction.atomic():
        services.delete_buying_price(buying_price_crud.get_object(id))
    return ok(None, "Buying price deleted successfully!")


@buying_price_router.post(
    "/sheet",
    response=Envelope[RackSheetOut],
    auth=perm("buying_price.add"),
    operation_id="buying_price_sheet",
    summary="Save a supplier's rack for a day (terminal x product grid): all rows or none",
)
def save_rack_sheet(request: HttpRequest, payload: RackSheetIn) -> Answer:
    with transaction.atomic():
        counts = services.save_rack_sheet(
            payload.supplier_id, payload.effective_from, [r.dict() for r in payload.rows]
        )
    return ok(counts, f"Rack sheet saved: {counts['created']} added, {counts['updated']} updated.")


class RackBoardQuery(Schema):
    date: Day | None = Field(None, description="Default today")
    supplier_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="One supplier's rack (else across suppliers)"
    )
    basis: Literal["lowest", "average"] = "lowest"


@buying_price_router.get(
    "/board",
    response=Envelope[RackBoardOut],
    auth=perm("buying_price.view"),
    operation_id="buying_price_board",
    summary="The rack on a date by terminal x product, with the change from the day before",
)
def rack_board(request: HttpRequest, q: Query[RackBoardQuery]) -> Answer:
    return ok(
        selectors.rack_board(q.date or dt.date.today(), q.supplier_id, q.basis),
        "Rack board retrieved successfully",
    )


class HistoryQuery(Schema):
    terminal_id: int = Field(..., ge=1, le=MAX_ID)
    product_id: int = Field(..., ge=1, le=MAX_ID)
    days: int = Field(30, ge=1, le=366)
    end: Day | None = Field(None, description="Last day, default today")


@buying_price_router.get(
    "/history",
    response=Envelope[RackHistoryOut],
    auth=perm("buying_price.view"),
    operation_id="buying_price_history",
    summary="Each supplier's price per day at a terminal for a product",
)
def rack_history(request: HttpRequest, q: Query[HistoryQuery]) -> Answer:
    end = q.end or dt.date.today()
    start = end - dt.timedelta(days=q.days - 1)
    points = selectors.rack_history(q.terminal_id, q.product_id, start, end)
    return ok(
        {"terminal_id": q.terminal_id, "product_id": q.product_id, "points": points},
        "Buying price history retrieved successfully",
    )


# --- pricing rules -------------------------------------------------------------------------------
pricing_rule_router = Router(tags=["pricing-rule"])
Crud(
    router=pricing_rule_router,
    resource="pricing_rule",
    label="Pricing rule",
    model=PricingRule,
    out=PricingRuleOut,
    create_in=PricingRuleIn,
    ops=("list", "get", "create", "update", "delete"),
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("specificity", "scope"),
    extra_columns=SCOPE_NAME_COLUMNS,
    fill_rows=selectors.fill_pricing_rule_rows,
    queryset=selectors.pricing_rules,
    filters=PricingRuleQuery,
    apply_filters=selectors.filter_pricing_rules,
    create=services.create_pricing_rule,
    update=services.save_pricing_rule,
    spec=ListSpec(
        search=("name", "customer__name", "product__name", "category__name"),
        sort={"name": "name", "priority": "priority", "basis": "basis", "created_at": "created_at"},
        filters={"name": ("name", "str"), "basis": ("basis", "str"), "priority": ("priority", "int")},
        default_sort="-priority",
    ),
)


# --- customer pricing and the price check --------------------------------------------------------
customer_price_router = Router(tags=["customer-price"])
register_resource("customer_price", "Customer pricing", ("view", "add", "change", "delete"))


def _pricing_error(exc: PricingError) -> ApiError:
    status = (
        404 if exc.code in ("unknown_customer", "unknown_product", "unknown_ship_to", "unknown_fee") else 409
    )
    if exc.code in ("bad_ship_to", "bad_quantity", "bad_basis"):
        status = 422
    return ApiError(status, exc.message)


class CustomerPriceIndexQuery(Schema):
    customer_id: int | None = Field(None, ge=1, le=MAX_ID)
    sales_order_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="The sales order's price list (simple_prices)"
    )
    page: int = Field(1, ge=1, le=1_000_000)
    size: int = Field(50, ge=1, le=500)
    pricing_date: Day | None = Field(None, description="Date of the final prices, default today")


def _final_prices(customer_id: int, items: list[CustomerPrice], on: dt.date) -> dict[int, tuple[Any, str]]:
    """Each item's final price on the date, through the engine (one pricing of all the items)."""
    if not items:
        return {}
    out: dict[int, tuple[Any, str]] = {}
    try:
        ctx = pricing_selectors_load(customer_id, [i.product_id for i in items], on)
    except PricingError as exc:
        return {i.pk: (None, exc.message) for i in items}
    for item in items:
        product = ctx.products[item.product_id]
        try:
            price, _bd = engine.unit_price_for(ctx, product)
            out[item.pk] = (price, "")
        except PricingError as exc:
            out[item.pk] = (None, exc.message)
    return out


def pricing_selectors_load(customer_id: int, product_ids: list[int], on: dt.date) -> engine.PricingContext:
    return selectors.load_context(
        customer_id=customer_id, ship_to_id=None, product_ids=product_ids, pricing_date=on
    )


@customer_price_router.get(
    "",
    response=Envelope[CustomerPricingOut],
    auth=perm("customer_price.view"),
    operation_id="customer_price_index",
    summary="A customer's pricing type and price items (paged, default 50) with today's final prices",
    description="With `sales_order_id` instead: the order's price list (`simple_prices`), answered by "
    "the sales app through `services.register_sales_order_prices`.",
)
def customer_price_index(request: HttpRequest, q: Query[CustomerPriceIndexQuery]) -> Answer:
    if q.sales_order_id is not None:
        return services.sales_order_prices(q.sales_order_id)
    if q.customer_id is None:
        raise ApiError(422, "customer_id is required.")
    facts = parties_selectors.customer_pricing_facts(q.customer_id)
    if facts is None:
        raise ApiError(404, "Customer not found")
    qs = selectors.customer_prices(q.customer_id)
    total = qs.count()
    items = list(qs[(q.page - 1) * q.size : q.page * q.size])
    finals = _final_prices(q.customer_id, items, q.pricing_date or dt.date.today())
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
    data = {
        "customer_id": facts["id"],
        "customer_name": facts["name"],
        "customer_pricing_type": facts["customer_pricing_type"],
        "pricings": rows,
        "total": total,
        "page": q.page,
        "size": q.size,
        "pages": math.ceil(total / q.size) if q.size else 0,
    }
    return ok(data, "Customer pricing retrieved successfully")


def _pricing_message(data: dict[str, Any], created: int, updated: int, verb: str) -> str:
    parts = []
    if data.get("customer_pricing_type"):
        parts.append("pricing type")
    if created or updated:
        parts.append(f"{created + updated} pricing item{'s' if created + updated != 1 else ''}")
    return f"Customer pricing {verb} successfully" + (f" ({', '.join(parts)})" if parts else "")


@customer_price_router.post(
    "/{int:customer_id}",
    response={201: Message},
    auth=perm("customer_price.add"),
    operation_id="customer_price_add",
    summary="Add pricing items to a customer (and set its pricing type)",
)
def add_customer_pricing(request: HttpRequest, customer_id: int, payload: CustomerPricingIn) -> Answer:
    data = payload.dict()
    with transaction.atomic():
        created, updated = services.save_customer_pricing(customer_id, data)
    return ok(None, _pricing_message(data, created, updated, "added"), status=201)


@customer_price_router.put(
    "/{int:customer_id}",
    response=Message,
    auth=perm("customer_price.change"),
    operation_id="customer_price_update",
    summary="Change a customer's pricing type and items (an empty pricings list changes the type only)",
)
def update_customer_pricing(request: HttpRequest, customer_id: int, payload: CustomerPricingIn) -> Answer:
    data = payload.dict()
    with transaction.atomic():
        created, updated = services.save_customer_pricing(customer_id, data)
    return ok(None, _pricing_message(data, created, updated, "updated"))


class DeletePricingQuery(Schema):
    id: int | None = Field(
        None, ge=1, le=MAX_ID, description="The pricing item to delete; empty: all of them"
    )


@customer_price_router.delete(
    "/{int:customer_id}",
    response=Message,
    auth=perm("customer_price.delete"),
    operation_id="customer_price_delete",
    summary="Delete a customer's pricing item (id), or all its items (the type goes back to standard)",
)
def delete_customer_pricing(request: HttpRequest, customer_id: int, q: Query[DeletePricingQuery]) -> Answer:
    with transaction.atomic():
        services.delete_customer_pricing(customer_id, q.id)
    what = "Pricing item" if q.id else "Customer pricing"
    return ok(None, f"{what} deleted successfully")


class FinalPriceQuery(Schema):
    product_id: int = Field(..., ge=1, le=MAX_ID)
    customer_id: int = Field(..., ge=1, le=MAX_ID)
    pricing_date: Day | None = Field(None, description="Default today")
    ship_to_id: int | None = Field(None, ge=1, le=MAX_ID)


@customer_price_router.get(
    "/specific/fields",
    response=Envelope[FinalPriceOut],
    auth=perm("customer_price.view"),
    operation_id="customer_price_final",
    summary="What a customer pays per unit for a product on a date (final_price), with its breakdown",
)
def final_price(request: HttpRequest, q: Query[FinalPriceQuery]) -> Answer:
    on = q.pricing_date or dt.date.today()
    try:
        quoted = services.customer_price(
            customer_id=q.customer_id, product_id=q.product_id, pricing_date=on, ship_to_id=q.ship_to_id
        )
    except PricingError as exc:
        raise _pricing_error(exc) from exc
    data = {
        "product_id": q.product_id,
        "customer_id": q.customer_id,
        "pricing_date": on,
        "final_price": quoted.line.unit_price,
        "breakdown": quoted.line.breakdown,
        "assumed": quoted.assumed,
    }
    return ok(data, "Final price retrieved successfully")


def _document_out(doc: Any, sentences: list[str], assumed: dict[str, Any]) -> dict[str, Any]:
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
        "explanation": sentences,
        "assumed": assumed,
    }


@customer_price_router.get(
    "/explain",
    response=Envelope[PricedDocumentOut],
    auth=perm("customer_price.view"),
    operation_id="customer_price_explain",
    summary="Price check: what a customer pays for a quantity of a product at a ship-to on a date, explained",
)
def explain(request: HttpRequest, q: Query[ExplainQuery]) -> Answer:
    fee_ids: list[int] = []
    for part in (q.fee_ids or "").split(","):
        if part.strip():
            if not part.strip().isdigit():
                raise ApiError(422, "fee_ids: comma-separated fee ids, e.g. 3,7.")
            fee_ids.append(int(part.strip()))
    try:
        quoted = services.customer_price(
            customer_id=q.customer_id,
            product_id=q.product_id,
            pricing_date=q.pricing_date or dt.date.today(),
            ship_to_id=q.ship_to_id,
            quantity=q.quantity,
            fee_ids=fee_ids,
        )
    except PricingError as exc:
        raise _pricing_error(exc) from exc
    return ok(_document_out(quoted.doc, quoted.explanation, quoted.assumed), "Price explained")


routes = [
    ("/payment-term", payment_term_router),
    ("/payment-method", payment_method_router),
    ("/tax", tax_router),
    ("/fee", fee_router),
    ("/buying-price", buying_price_router),
    ("/pricing-rule", pricing_rule_router),
    ("/customer-price", customer_price_router),
]
