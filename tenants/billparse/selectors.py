"""Reads of the bill parser: the hints the extraction needs (suppliers with their aliases, terminals,
confirmed layouts) in a bounded number of queries, and the parsed documents."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from tenants.billparse.extract import AliasHint, ParseHints, SupplierHint, TerminalHint
from tenants.billparse.models import ParsedBill, SupplierLayout
from tenants.catalog.models import Product
from tenants.parties.models import Supplier, SupplierProductAlias, Terminal
from tenants.purchasing import selectors as purchasing_selectors
from tenants.purchasing.models import PurchaseOrder

HINT_LIMIT = 2000


def parse_hints() -> ParseHints:
    """Everything the parser may recognise, read in four queries."""
    suppliers = (
        Supplier.objects.select_related("state", "city")
        .prefetch_related(Prefetch("product_aliases", queryset=SupplierProductAlias.objects.order_by("id")))
        .order_by("id")[:HINT_LIMIT]
    )
    sup_hints = []
    for s in suppliers:
        place = ", ".join(
            p for p in (s.city.name if s.city else "", s.state.code if s.state else "", s.zip_code) if p
        )
        sup_hints.append(
            SupplierHint(
                id=s.pk,
                name=s.name,
                code=s.code,
                address=", ".join(p for p in (s.address_one, place) if p),
                aliases=tuple(
                    AliasHint(name=a.alias_name, code=a.alias_code, product=a.product_id)
                    for a in s.product_aliases.all()
                ),
            )
        )
    terminals = tuple(
        TerminalHint(id=t.pk, name=t.name, code=t.terminal_code)
        for t in Terminal.objects.filter(is_active=True).order_by("id")[:HINT_LIMIT]
    )
    layouts = {lay.supplier_id: dict(lay.labels) for lay in SupplierLayout.objects.all()[:HINT_LIMIT]}
    return ParseHints(suppliers=tuple(sup_hints), terminals=terminals, layouts=layouts)


def parsed_bills() -> QuerySet[ParsedBill]:
    return ParsedBill.objects.select_related("supplier").order_by("-id")


def names_for(result: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Names of the suppliers, terminals and products a result refers to (by id), for the review."""
    fields = result.get("fields", {})
    sup = fields.get("supplier", {}).get("value")
    term = fields.get("terminal", {}).get("value")
    products = {ln.get("product", {}).get("value") for ln in result.get("lines", [])} - {None}
    out: dict[str, dict[str, str]] = {"suppliers": {}, "terminals": {}, "products": {}}
    if isinstance(sup, int):
        out["suppliers"] = {str(k): v for k, v in Supplier.objects.filter(pk=sup).values_list("pk", "name")}
    if isinstance(term, int):
        out["terminals"] = {str(k): v for k, v in Terminal.objects.filter(pk=term).values_list("pk", "name")}
    ids = [p for p in products if isinstance(p, int)]
    if ids:
        out["products"] = {str(k): v for k, v in Product.objects.filter(pk__in=ids).values_list("pk", "name")}
    return out


def choices() -> dict[str, list[dict[str, Any]]]:
    """The options of the review form's pickers."""
    return {
        "suppliers": [
            {"id": pk, "name": name}
            for pk, name in Supplier.objects.filter(status=Supplier.Status.ACTIVE)
            .order_by("name")
            .values_list("pk", "name")[:500]
        ],
        "terminals": [
            {"id": pk, "name": name}
            for pk, name in Terminal.objects.filter(is_active=True)
            .order_by("name")
            .values_list("pk", "name")[:500]
        ],
        "products": [
            {"id": pk, "name": name}
            for pk, name in Product.objects.filter(is_active=True)
            .order_by("name")
            .values_list("pk", "name")[:1000]
        ],
    }


def suggest_purchase_order(
    *, supplier_id: int, terminal_id: int | None, product_ids: set[int], bol_numbers: set[str]
) -> PurchaseOrder | None:
    """The open purchase order a parsed bill belongs to: one that received one of its BOL numbers,
    else the most recent open order of that supplier (at that terminal when the bill names one)
    carrying all the bill's products."""
    by_bol = purchasing_selectors.open_purchase_order_for(supplier_id=supplier_id, bol_numbers=bol_numbers)
    if by_bol is not None or not product_ids:
        return by_bol
    open_qs = PurchaseOrder.objects.filter(
        supplier_id=supplier_id, status__in=(PurchaseOrder.Status.ORDERED, PurchaseOrder.Status.RECEIVED)
    ).order_by("-order_date", "-id")
    if terminal_id:
        open_qs = open_qs.filter(terminal_id=terminal_id)
    for po in open_qs.prefetch_related("lines")[:50]:
        if product_ids <= {ln.product_id for ln in po.lines.all()}:
            return po
    return None


def po_ref(po: PurchaseOrder | None) -> dict[str, Any] | None:
    return {"id": po.pk, "number": po.number, "status": po.status} if po is not None else None


def draft_of(row: ParsedBill) -> dict[str, Any]:
    """The draft the review starts from: the user's saved review, else what the parser read."""
    if row.review:
        return dict(row.review)
    result = row.result or {}
    fields = result.get("fields", {})

    def value(name: str) -> Any:
        return (fields.get(name) or {}).get("value")

    return {
        "supplier_id": value("supplier"),
        "terminal_id": value("terminal"),
        "bol_numbers": value("bol_numbers") or [],
        "lines": [{"product_id": (ln.get("product") or {}).get("value")} for ln in result.get("lines", [])],
    }


def suggestion_for(row: ParsedBill) -> dict[str, Any] | None:
    draft = draft_of(row)
    supplier_id = draft.get("supplier_id")
    if not isinstance(supplier_id, int):
        return None
    terminal_id = draft.get("terminal_id")
    products = {ln.get("product_id") for ln in draft.get("lines") or []}
    po = suggest_purchase_order(
        supplier_id=supplier_id,
        terminal_id=terminal_id if isinstance(terminal_id, int) else None,
        product_ids={p for p in products if isinstance(p, int)},
        bol_numbers={str(b) for b in draft.get("bol_numbers") or []},
    )
    return po_ref(po)


def layout_labels(supplier_id: int) -> int:
    labels = SupplierLayout.objects.filter(supplier_id=supplier_id).values_list("labels", flat=True).first()
    return len(labels or {})
