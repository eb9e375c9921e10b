"""Routes of buying prices (the rack): one price, a day's sheet, the board and the history."""

import datetime as dt
from typing import Any, Literal

from core.crud import Crud
from core.csv_io import CsvImport, Lookup
from core.envelope import Answer, Envelope, Message, ok
from core.listing import ListSpec
from core.permissions import perm, register_resource
from django.db import transaction
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from tenants.catalog.models import Product
from tenants.parties.models import Supplier, Terminal
from tenants.pricing import selectors, services
from tenants.pricing.models import (
    BuyingPrice,
)
from tenants.pricing.schemas import (
    MAX_ID,
    BuyingPriceIn,
    BuyingPriceOut,
    BuyingPriceQuery,
    Day,
    RackBoardOut,
    RackHistoryOut,
    RackSheetIn,
    RackSheetOut,
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
