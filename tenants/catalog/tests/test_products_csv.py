import csv
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT

PRODUCTS = "/api/product/products"


def upload(api, text):
    file = SimpleUploadedFile("products.csv", text.encode(), content_type="text/csv")
    return api.post(f"{PRODUCTS}/import", {"file": file}, content_type=MULTIPART_CONTENT)


def test_product_import_resolves_categories_and_reports_missing_fields(api_a):
    fuel = api_a.post("/api/product-category", {"name": "Fuel"}).json()["data"]
    api_a.post("/api/product-sub-category", {"name": "Diesel", "category_id": fuel["id"]})
    text = (
        "name,code,sold_as,category,sub_category,is_fuel,unit_price\n"
        "Clear Diesel ULSD,ULSD,Gal,Fuel,Diesel,yes,3.4500\n"
        "Dyed Diesel,,gallon,Fuel,Diesel,true,3.1\n"
        "Grease tube,GR-1,each,Goods,,false,\n"
        "Hydraulic AW46,HYD-46,pail,Fuel,Gasoline,false,\n"
    )
    preview = upload(api_a, text).json()["data"]
    assert preview["status"] == "invalid" and preview["valid_rows"] == 1
    assert preview["errors"] == [
        {"row": 3, "field": "code", "message": "Missing required fields"},
        {"row": 4, "field": "category", "message": "No product category matches 'Goods'."},
        {"row": 5, "field": "sub_category", "message": "No product sub-category matches 'Gasoline'."},
    ]
    good = "\n".join(text.splitlines()[:2]) + "\n"
    preview = upload(api_a, good).json()["data"]
    res = api_a.post(f"{PRODUCTS}/import/{preview['import_id']}/confirm")
    assert res.status_code == 200, res.json()
    product = api_a.get(PRODUCTS).json()["data"]["items"][0]
    assert (product["code"], product["sold_as"], product["is_fuel"]) == ("ULSD", "gallon", True)
    assert product["sub_category"]["name"] == "Diesel" and product["category"]["name"] == "Fuel"


def test_product_export_with_a_search(api_a):
    for code in ("DEF-BULK", "DEF-TOTE", "UNL-87"):
        api_a.post(PRODUCTS, {"name": f"Item {code}", "code": code, "sold_as": "gallon"})
    res = api_a.get(f"{PRODUCTS}/export", {"search": "def", "sort_by": "code"})
    assert res.status_code == 200
    rows = list(csv.DictReader(io.StringIO(b"".join(res.streaming_content).decode("utf-8-sig"))))
    assert [r["code"] for r in rows] == ["DEF-BULK", "DEF-TOTE"]
    assert rows[0]["products_id"] == rows[0]["id"] and rows[0]["sold_as"] == "gallon"
