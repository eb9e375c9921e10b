from typing import Any

from core.crud import ALL_OPS, Crud
from core.csv_io import CsvImport, Lookup
from core.envelope import Answer, Envelope, Message, Page, ok
from core.errors import ApiError
from core.listing import ListSpec, paginate
from core.permissions import perm
from core.scoping import not_found
from django.http import HttpRequest
from ninja import Query, Router

from tenants.catalog import selectors, services
from tenants.catalog.models import Product, ProductCategory, ProductSubCategory
from tenants.catalog.schemas import (
    ProductCategoryIn,
    ProductCategoryOut,
    ProductFilters,
    ProductIn,
    ProductOut,
    ProductQuery,
    ProductSubCategoryIn,
    ProductSubCategoryOut,
    ProductUpdate,
    SubCategoryQuery,
)

product_router = Router(tags=["product"])
category_router = Router(tags=["product-category"])
sub_category_router = Router(tags=["product-sub-category"])


def missing_id_routes(router: Router, path: str, resource: str, message: str) -> None:
    """PUT and DELETE with an id that is not one ('undefined', '0') answer the spec's sentence, not a
    404. Without any id the path is the collection's, which answers 405 like every collection's."""
    for method in ("PUT", "DELETE"):
        auth = perm(f"{resource}.{'change' if method == 'PUT' else 'delete'}")

        def missing_raw_id(request: HttpRequest, raw: str) -> Answer:
            raise ApiError(422, message)

        missing_raw_id.__name__ = f"missing_id_{method.lower()}_{resource}_raw"
        router.api_operation([method], f"{path}/{{raw}}", auth=auth, include_in_schema=False)(missing_raw_id)

    # A GET of the same not-an-id path is simply not found (not a 405 because PUT/DELETE match it).
    def not_an_id(request: HttpRequest, raw: str) -> Answer:
        raise ApiError(404, "Not found: this is not the id of a record.")

    not_an_id.__name__ = f"not_an_id_get_{resource}_raw"
    router.api_operation(["GET"], f"{path}/{{raw}}", auth=perm(f"{resource}.view"), include_in_schema=False)(
        not_an_id
    )


# --- categories ----------------------------------------------------------------------------------
category_crud = Crud(
    router=category_router,
    resource="product_category",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="Product category",
    plural="Product categories",
    model=ProductCategory,
    out=ProductCategoryOut,
    create_in=ProductCategoryIn,
    ops=ALL_OPS,
    default_size=100,
    queryset=selectors.categories,
    create=services.create_category,
    update=services.update_category,
    spec=ListSpec(
        search=("name", "description"),
        sort={"name": "name", "created_at": "created_at"},
        filters={"name": ("name", "str")},
        default_sort="name",
    ),
)
missing_id_routes(category_router, "", "product_category", services.MISSING_CATEGORY_ID)

# --- sub-categories ------------------------------------------------------------------------------
sub_category_crud = Crud(
    router=sub_category_router,
    resource="product_sub_category",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="Product sub-category",
    plural="Product sub-categories",
    model=ProductSubCategory,
    out=ProductSubCategoryOut,
    create_in=ProductSubCategoryIn,
    ops=ALL_OPS,
    default_size=100,
    queryset=selectors.sub_categories,
    filters=SubCategoryQuery,
    apply_filters=selectors.filter_sub_categories,
    create=services.create_sub_category,
    update=services.update_sub_category,
    spec=ListSpec(
        search=("name", "category__name"),
        sort={"name": "name", "category": "category__name", "created_at": "created_at"},
        filters={
            "name": ("name", "str"),
            "category": ("category__name", "str"),
            "category_id": ("category_id", "int"),
        },
        default_sort="name",
    ),
)

# --- products ------------------------------------------------------------------------------------
PRODUCT_IMPORT = CsvImport(
    columns={
        "name": "Required. The product's name.",
        "code": "Required. Our item code; unique.",
        "sold_as": "Required. gallon, litre, quart, each, case, box, pail, drum, tote, pound or kilogram.",
        "category": "A product category, by name (or a category_id column).",
        "sub_category": "A sub-category of that category, by name (or a sub_category_id column).",
        "description": "Free text.",
        "is_fuel": "true for bulk fuel sold by the gallon; default false.",
        "is_active": "Default true.",
        "unit_price": "List price, e.g. 3.4500.",
    },
    required=("name", "code", "sold_as"),
    lookups=(
        Lookup("category", "category_id", ProductCategory, ("name",)),
        Lookup(
            "sub_category",
            "sub_category_id",
            ProductSubCategory,
            ("name",),
            within=("category_id", "category_id"),
        ),
    ),
)

product_crud = Crud(
    router=product_router,
    resource="product",
    label="Product",
    model=Product,
    out=ProductOut,
    create_in=ProductIn,
    update_in=ProductUpdate,
    path="/products",
    ops=ALL_OPS,
    default_size=100,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    queryset=selectors.products,
    filters=ProductQuery,
    apply_filters=selectors.filter_products,
    create=services.create_product,
    update=services.update_product,
    importer=PRODUCT_IMPORT,
    spec=ListSpec(
        search=("name", "code", "description"),
        sort={
            "name": "name",
            "code": "code",
            "sold_as": "sold_as",
            "unit_price": "unit_price",
            "category": "category__name",
            "created_at": "created_at",
            "updated_at": "updated_at",
        },
        filters={
            "name": ("name", "str"),
            "code": ("code", "str"),
            "sold_as": ("sold_as", "str"),
            "category": ("category__name", "str"),
            "category_id": ("category_id", "int"),
            "unit_price": ("unit_price", "decimal"),
            "is_active": ("is_active", "bool"),
            "is_fuel": ("is_fuel", "bool"),
            "created_at": ("created_at", "datetime"),
        },
        default_sort="name",
    ),
)


# No `category_id` here: the path carries it (one parameter, not a path and a query one).
ProductsOfCategoryQuery = product_crud.spec.query_schema("ProductsOfCategoryQuery", ProductFilters)


class _InCategory:
    """The list parameters with the path's category added (the list reads attributes only)."""

    def __init__(self, params: Any, category_id: int) -> None:
        self._params = params
        self.category_id = category_id

    def __getattr__(self, name: str) -> Any:
        return getattr(self._params, name)


@product_router.get(
    "/products/products_category/{category_id}",
    response=Envelope[Page[ProductOut]],
    auth=perm("product.view"),
    operation_id="product_list_by_category",
    summary="List the products of a category",
)
def products_of_category(
    request: HttpRequest,
    category_id: str,
    params: Query[ProductsOfCategoryQuery],  # type: ignore[valid-type]
) -> Answer:
    # ASCII digits only: "¹" is a digit to str.isdigit() but not to int().
    if not (category_id.isascii() and category_id.isdigit()) or len(category_id) > 18 or int(category_id) < 1:
        raise ApiError(422, services.MISSING_CATEGORY_ID)
    if not ProductCategory.objects.filter(pk=int(category_id)).exists():
        raise not_found(ProductCategory)
    in_category = _InCategory(params, int(category_id))
    qs = product_crud.list_queryset(in_category)
    return ok(paginate(qs, params, product_crud.default_size), "Products retrieved successfully")


@product_router.get("/products/products_category", auth=perm("product.view"), include_in_schema=False)
def products_of_no_category(request: HttpRequest) -> Answer:
    raise ApiError(422, services.MISSING_CATEGORY_ID)


@product_router.put(
    "/products",
    response=Envelope[ProductOut],
    auth=perm("product.change"),
    operation_id="product_update_by_body",
    summary="Update a product named by products_id in the body",
)
def update_product_by_body(request: HttpRequest, payload: ProductUpdate) -> Answer:
    data = payload.dict(exclude_unset=True)
    if not data.get("products_id"):
        raise ApiError(422, services.MISSING_PRODUCT_ID)
    product = product_crud.do_update(product_crud.get_object(data["products_id"]), data)
    return ok(product, "Product updated successfully")


@product_router.delete(
    "/products",
    response=Message,
    auth=perm("product.delete"),
    operation_id="product_delete_by_query",
    summary="Delete a product named by product_id",
)
def delete_product_by_query(request: HttpRequest, product_id: int | None = None) -> Answer:
    if not product_id or product_id < 1:
        raise ApiError(422, services.MISSING_PRODUCT_ID)
    product_crud.do_delete(product_crud.get_object(product_id))
    return ok(None, "Product deleted successfully")


missing_id_routes(product_router, "/products", "product", services.MISSING_PRODUCT_ID)
missing_id_routes(sub_category_router, "", "product_sub_category", services.MISSING_SUB_CATEGORY_ID)

routes = [
    ("/product", product_router),
    ("/product-category", category_router),
    ("/product-sub-category", sub_category_router),
]
