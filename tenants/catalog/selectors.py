"""Reads of the catalog: every list joins what its answer shows, so a page costs a fixed few queries."""

from typing import Any

from django.db.models import QuerySet

from tenants.catalog.models import Product, ProductCategory, ProductSubCategory


def products() -> QuerySet[Product]:
    return Product.objects.select_related("category", "sub_category")


def categories() -> QuerySet[ProductCategory]:
    return ProductCategory.objects.all()


def sub_categories() -> QuerySet[ProductSubCategory]:
    return ProductSubCategory.objects.select_related("category")


def filter_products(qs: QuerySet[Product], params: Any) -> QuerySet[Product]:
    if params.category_id:
        qs = qs.filter(category_id=params.category_id)
    if params.sub_category_id:
        qs = qs.filter(sub_category_id=params.sub_category_id)
    if params.sold_as:
        qs = qs.filter(sold_as=params.sold_as)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    if params.is_fuel is not None:
        qs = qs.filter(is_fuel=params.is_fuel)
    return qs


def filter_sub_categories(qs: QuerySet[ProductSubCategory], params: Any) -> QuerySet[ProductSubCategory]:
    return qs.filter(category_id=params.category_id) if params.category_id else qs


def product_pricing_facts(product_ids: Any) -> dict[int, dict[str, Any]]:
    """What the pricing engine needs of these products (category, list price), in one query."""
    rows = Product.objects.filter(pk__in=list(product_ids)).values(
        "id", "name", "code", "category_id", "unit_price", "sold_as"
    )
    return {row["id"]: dict(row) for row in rows}
