"""Product categories and sub-categories, the product picker, and the product import's template and
status (what the import dialog shows while it waits)."""

import csv
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT


def csv_rows(res):
    assert res.status_code == 200 and res["Content-Type"].startswith("text/csv")
    body = b"".join(res.streaming_content) if res.streaming else res.content
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_category_crud_list_all_and_export(api_a):
    res = api_a.post("/api/product-category", {"name": "Lubricants", "description": "Oils and greases"})
    assert res.status_code == 201, res.json()
    lubes = res.json()["data"]
    api_a.post("/api/product-category", {"name": "Fuel"})
    assert api_a.post("/api/product-category", {"name": "fuel"}).status_code == 409

    page = api_a.get("/api/product-category", {"sort_by": "name"}).json()["data"]
    assert [c["name"] for c in page["items"]] == ["Fuel", "Lubricants"]
    assert [c["name"] for c in api_a.get("/api/product-category/all").json()["data"]] == [
        "Fuel",
        "Lubricants",
    ]
    assert (
        api_a.get(f"/api/product-category/{lubes['id']}").json()["data"]["description"] == "Oils and greases"
    )

    res = api_a.put(f"/api/product-category/{lubes['id']}", {"name": "Lubes"})
    assert res.status_code == 200 and res.json()["data"]["name"] == "Lubes"
    rows = csv_rows(api_a.get("/api/product-category/export", {"search": "lub"}))
    assert len(rows) == 2 and "Lubes" in rows[1]

    assert api_a.delete(f"/api/product-category/{lubes['id']}").status_code == 200
    assert api_a.get(f"/api/product-category/{lubes['id']}").status_code == 404


def test_sub_category_crud_list_all_and_export(api_a):
    fuel = api_a.post("/api/product-category", {"name": "Fuel"}).json()["data"]
    res = api_a.post("/api/product-sub-category", {"name": "Diesel", "category_id": fuel["id"]})
    assert res.status_code == 201, res.json()
    diesel = res.json()["data"]
    api_a.post("/api/product-sub-category", {"name": "Gasoline", "category_id": fuel["id"]})

    page = api_a.get("/api/product-sub-category", {"search": "dies"}).json()["data"]
    assert [s["name"] for s in page["items"]] == ["Diesel"]
    assert {"Diesel", "Gasoline"} <= {
        s["name"] for s in api_a.get("/api/product-sub-category/all").json()["data"]
    }
    got = api_a.get(f"/api/product-sub-category/{diesel['id']}").json()["data"]
    assert got["name"] == "Diesel" and got["category_id"] == fuel["id"]

    res = api_a.put(f"/api/product-sub-category/{diesel['id']}", {"name": "Clear diesel"})
    assert res.status_code == 200 and res.json()["data"]["name"] == "Clear diesel"
    rows = csv_rows(api_a.get("/api/product-sub-category/export", {"search": "clear"}))
    assert len(rows) == 2 and "Clear diesel" in rows[1]

    # A category in use cannot go; its sub-category can.
    assert api_a.delete(f"/api/product-category/{fuel['id']}").status_code == 409
    assert api_a.delete(f"/api/product-sub-category/{diesel['id']}").status_code == 200
    assert api_a.get(f"/api/product-sub-category/{diesel['id']}").status_code == 404


def test_product_picker_lists_every_product(api_a):
    for code, name in (("ULSD", "Clear Diesel"), ("DEF", "Diesel Exhaust Fluid")):
        res = api_a.post("/api/product/products", {"name": name, "code": code, "sold_as": "gallon"})
        assert res.status_code == 201, res.json()
    products = api_a.get("/api/product/products/all").json()["data"]
    assert [p["code"] for p in products] == ["ULSD", "DEF"]  # by name


def test_product_import_template_and_status(api_a):
    rows = csv_rows(api_a.get("/api/product/products/import/template"))
    assert rows == [
        [
            "name",
            "code",
            "sold_as",
            "category",
            "sub_category",
            "description",
            "is_fuel",
            "is_active",
            "unit_price",
        ]
    ]

    file = SimpleUploadedFile("p.csv", b"name,code,sold_as\nGrease,GR-1,each\n", content_type="text/csv")
    preview = api_a.post(
        "/api/product/products/import", {"file": file}, content_type=MULTIPART_CONTENT
    ).json()["data"]
    res = api_a.get(f"/api/product/products/import/{preview['import_id']}")
    assert res.status_code == 200
    status = res.json()["data"]
    assert (status["status"], status["total_rows"], status["valid_rows"]) == ("ready", 1, 1)
    assert res.json()["message"] == "All 1 rows are valid. Confirm to import them."
    assert api_a.get("/api/product/products/import/999999").status_code == 404
