"""Writes of products and their categories. The spec's sentences are the API's `detail`."""

from __future__ import annotations

from typing import Any

from core.crud import save_object
from core.errors import ApiError

from tenants.catalog.models import Product, ProductCategory, ProductSubCategory

PRODUCT_REQUIRED = ("name", "code", "sold_as")
MISSING_FIELDS = "Missing required fields"
MISSING_PRODUCT_ID = "Missing product ID"
MISSING_NAME = "Missing required field: name"
MISSING_CATEGORY_ID = "Missing category ID"
MISSING_SUB_CATEGORY_ID = "Missing sub-category ID"
TEXT_FIELDS = ("description",)


def _blank_text_to_empty(data: dict[str, Any]) -> dict[str, Any]:
    for name in TEXT_FIELDS:
        if name in data and data[name] is None:
            data[name] = ""
    return data


def _check_required(data: dict[str, Any], required: tuple[str, ...], message: str, *, partial: bool) -> None:
    missing = [f for f in required if (f in data or not partial) and not data.get(f)]
    if missing:
        raise ApiError(422, message, fields=missing)


def _align_category(data: dict[str, Any], current: Product | None) -> None:
    """A product's sub-category must be in its category; the category follows from the sub-category."""
    category_id = data.get("category_id", current.category_id if current else None)
    sub_id = data.get("sub_category_id", current.sub_category_id if current else None)
    if not sub_id:
        return
    sub = ProductSubCategory.objects.filter(pk=sub_id).only("id", "category_id").first()
    if sub is None:
        raise ApiError(422, f"sub_category_id: no product sub-category with id {sub_id}.")
    if category_id and category_id != sub.category_id:
        if "category_id" in data and "sub_category_id" not in data:
            data["sub_category_id"] = None  # the category changed: the old sub-category no longer fits
            return
        raise ApiError(422, "sub_category_id: this sub-category is not in the chosen category.")
    data["category_id"] = sub.category_id


def create_product(data: dict[str, Any]) -> Product:
    _check_required(data, PRODUCT_REQUIRED, MISSING_FIELDS, partial=False)
    _align_category(data, None)
    return save_object(Product(), _blank_text_to_empty(data))  # type: ignore[return-value]


def update_product(product: Product, data: dict[str, Any]) -> Product:
    products_id = data.pop("products_id", None)
    if products_id is not None and products_id != product.pk:
        raise ApiError(422, "products_id does not match the product being updated.")
    _check_required(data, PRODUCT_REQUIRED, MISSING_FIELDS, partial=True)
    for flag in ("is_active", "is_fuel", "vcf_group"):
        if flag in data and data[flag] is None:
            data.pop(flag)
    _align_category(data, product)
    return save_object(product, _blank_text_to_empty(data))  # type: ignore[return-value]


def create_category(data: dict[str, Any]) -> ProductCategory:
    _check_required(data, ("name",), MISSING_NAME, partial=False)
    return save_object(ProductCategory(), data)  # type: ignore[return-value]


def update_category(category: ProductCategory, data: dict[str, Any]) -> ProductCategory:
    _check_required(data, ("name",), MISSING_NAME, partial=True)
    if data.get("description", "") is None:
        data["description"] = ""
    return save_object(category, data)  # type: ignore[return-value]


def create_sub_category(data: dict[str, Any]) -> ProductSubCategory:
    _check_required(data, ("name",), MISSING_NAME, partial=False)
    _check_required(data, ("category_id",), "Missing required field: category_id", partial=False)
    return save_object(ProductSubCategory(), data)  # type: ignore[return-value]


def update_sub_category(sub: ProductSubCategory, data: dict[str, Any]) -> ProductSubCategory:
    _check_required(data, ("name",), MISSING_NAME, partial=True)
    _check_required(data, ("category_id",), "Missing required field: category_id", partial=True)
    if data.get("description", "") is None:
        data["description"] = ""
    moved = "category_id" in data and data["category_id"] != sub.category_id
    save_object(sub, data)
    if moved:  # products keep their category in step with their sub-category
        sub.products.update(category_id=sub.category_id)
    return sub
