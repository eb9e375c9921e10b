import pytest

from conftest import Api, token_for

PRODUCTS = "/api/product/products"


def make_category(api: Api, name: str = "Fuel") -> dict:
    res = api.post("/api/product-category", {"name": name})
    assert res.status_code == 201, res.json()
    return res.json()["data"]


def make_product(api: Api, **fields) -> dict:
    body = {"name": "Clear Diesel ULSD", "code": "ULSD", "sold_as": "gallon", **fields}
    res = api.post(PRODUCTS, body)
    assert res.status_code == 201, res.json()
    return res.json()["data"]


def test_product_crud_uses_products_id(api_a):
    fuel = make_category(api_a)
    created = make_product(api_a, category_id=fuel["id"], is_fuel=True, unit_price="3.4500")
    assert created["products_id"] == created["id"]
    assert created["category"] == {"id": fuel["id"], "name": "Fuel"}
    assert created["unit_price"] in ("3.4500", 3.45)
    pid = created["products_id"]

    got = api_a.get(f"{PRODUCTS}/{pid}").json()["data"]
    assert got["code"] == "ULSD" and got["sold_as"] == "gallon" and got["is_fuel"] is True

    res = api_a.put(f"{PRODUCTS}/{pid}", {"products_id": pid, "name": "Clear Diesel #2 ULSD"})
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["name"] == "Clear Diesel #2 ULSD"
    assert res.json()["message"] == "Product updated successfully"

    # The spec's client sends products_id in the body of PUT /products.
    res = api_a.put(PRODUCTS, {"products_id": pid, "sold_as": "Gal"})
    assert res.status_code == 200 and res.json()["data"]["sold_as"] == "gallon"

    res = api_a.delete(f"{PRODUCTS}/{pid}")
    assert res.status_code == 200 and res.json()["message"] == "Product deleted successfully"
    assert api_a.get(f"{PRODUCTS}/{pid}").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"code": "X1", "sold_as": "gallon"},
        {"name": "  ", "code": "X1", "sold_as": "gallon"},
        {"name": "Thing", "code": "", "sold_as": "each"},
        {"name": "Thing", "code": "X1"},
        {"name": "Thing", "code": "X1", "sold_as": ""},
    ],
)
def test_product_add_needs_name_code_and_sold_as(api_a, body):
    res = api_a.post(PRODUCTS, body)
    assert res.status_code == 422
    assert res.json()["detail"] == "Missing required fields"


def test_product_update_and_delete_need_a_product_id(api_a):
    pid = make_product(api_a)["products_id"]
    for res in (
        api_a.put(PRODUCTS, {"name": "No id"}),
        api_a.put(f"{PRODUCTS}/undefined", {"name": "x"}),
        api_a.delete(PRODUCTS),
        api_a.delete(f"{PRODUCTS}/null"),
    ):
        assert res.status_code == 422 and res.json()["detail"] == "Missing product ID"
    res = api_a.put(f"{PRODUCTS}/{pid}", {"products_id": pid + 1000})
    assert res.status_code == 422 and "products_id" in res.json()["detail"]
    res = api_a.put(f"{PRODUCTS}/{pid}", {"name": ""})
    assert res.status_code == 422 and res.json()["detail"] == "Missing required fields"
    assert api_a.delete(f"{PRODUCTS}?product_id={pid}").status_code == 200


def test_product_codes_are_unique_and_sold_as_is_checked(api_a):
    make_product(api_a, code="DEF-BULK", name="DEF", sold_as="gallon")
    res = api_a.post(PRODUCTS, {"name": "Other", "code": "def-bulk", "sold_as": "each"})
    assert res.status_code == 409 and res.json()["detail"] == "A product with this code already exists."
    res = api_a.post(PRODUCTS, {"name": "Other", "code": "O1", "sold_as": "barrel"})
    assert res.status_code == 422 and "sold_as" in res.json()["detail"]
    res = api_a.post(PRODUCTS, {"name": "Other", "code": "O1", "sold_as": "each", "unit_price": "-1"})
    assert res.status_code == 422


def test_sub_category_must_be_in_the_category_and_sets_it(api_a):
    fuel = make_category(api_a, "Fuel")
    lubes = make_category(api_a, "Lubricants")
    diesel = api_a.post("/api/product-sub-category", {"name": "Diesel", "category_id": fuel["id"]}).json()[
        "data"
    ]
    created = make_product(api_a, sub_category_id=diesel["id"])
    assert created["category_id"] == fuel["id"]
    res = api_a.post(
        PRODUCTS,
        {
            "name": "Oil",
            "code": "OIL",
            "sold_as": "drum",
            "category_id": lubes["id"],
            "sub_category_id": diesel["id"],
        },
    )
    assert res.status_code == 422 and "not in the chosen category" in res.json()["detail"]


def test_products_of_a_category(api_a):
    fuel = make_category(api_a, "Fuel")
    make_product(api_a, code="A", category_id=fuel["id"])
    make_product(api_a, code="B")
    res = api_a.get(f"{PRODUCTS}/products_category/{fuel['id']}/")
    assert res.status_code == 200, res.json()
    assert [p["code"] for p in res.json()["data"]["items"]] == ["A"]
    for bad in ("0", "abc", "\u00b9", "99999999999999999999999"):
        res = api_a.get(f"{PRODUCTS}/products_category/{bad}")
        assert res.status_code == 422 and res.json()["detail"] == "Missing category ID"
    assert api_a.get(f"{PRODUCTS}/products_category/999999").status_code == 404


def test_product_list_pages_searches_sorts_and_filters(api_a, django_assert_max_num_queries):
    fuel = make_category(api_a, "Fuel")
    goods = make_category(api_a, "Goods")
    for i in range(35):
        make_product(
            api_a,
            name=f"Item {i:02d}",
            code=f"IT{i:02d}",
            sold_as="each" if i % 2 else "gallon",
            category_id=(fuel if i % 3 else goods)["id"],
            unit_price=str(i),
        )
    with django_assert_max_num_queries(8):
        res = api_a.get(f"{PRODUCTS}/", {"page": 1})
    body = res.json()["data"]
    assert body["size"] == 100 and body["total"] == 35 and len(body["items"]) == 35
    assert body["items"][0]["name"] == "Item 00"

    body = api_a.get(PRODUCTS, {"size": 10, "page": 2, "sort_by": "code", "order": "desc"}).json()["data"]
    assert body["pages"] == 4 and body["items"][0]["code"] == "IT24"

    body = api_a.get(PRODUCTS, {"search": "item 1"}).json()["data"]
    assert body["total"] == 10
    body = api_a.get(
        PRODUCTS, {"filter_field": "unit_price", "filter_operator": "between", "filter_value": "10,12"}
    ).json()["data"]
    assert sorted(p["code"] for p in body["items"]) == ["IT10", "IT11", "IT12"]
    body = api_a.get(PRODUCTS, {"category_id": goods["id"]}).json()["data"]
    assert body["total"] == 12
    body = api_a.get(PRODUCTS, {"category_id": goods["id"], "sold_as": "gallon"}).json()["data"]
    assert body["total"] == 6
    res = api_a.get(PRODUCTS, {"sort_by": "nonsense"})
    assert res.status_code == 422 and "Sortable fields" in res.json()["detail"]


def test_deleting_a_product_in_use_is_refused(api_a, in_tenant, tenant_a):
    pid = make_product(api_a)["products_id"]
    customer = api_a.post("/api/customer/customers", {"name": "Acme"}).json()["data"]
    res = api_a.post("/api/asset", {"asset_name": "Tank 1", "customer_id": customer["id"], "product_id": pid})
    assert res.status_code == 201, res.json()
    res = api_a.delete(f"{PRODUCTS}/{pid}")
    assert res.status_code == 409
    assert res.json()["detail"] == (
        "This record cannot be deleted because it is used by 1 customer asset. Deactivate it instead."
    )
    assert api_a.put(f"{PRODUCTS}/{pid}", {"is_active": False}).json()["data"]["is_active"] is False


def test_roles_without_the_permission_are_refused(tenant_a, api_a):
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get(PRODUCTS).status_code == 200  # drivers may view products
    res = driver.post(PRODUCTS, {"name": "X", "code": "X", "sold_as": "each"})
    assert res.status_code == 403 and res.json()["detail"] == "You do not have permission to create products."
    pid = make_product(api_a)["products_id"]
    assert driver.put(f"{PRODUCTS}/{pid}", {"name": "Y"}).status_code == 403
    assert driver.delete(f"{PRODUCTS}/{pid}").status_code == 403
    assert driver.post("/api/product-category", {"name": "Z"}).status_code == 403
    assert driver.get("/api/product-category/all").status_code == 403


def test_unsigned_requests_are_refused(anon, db):  # the tenant middleware reads Domains
    assert anon.get(PRODUCTS).status_code == 401
