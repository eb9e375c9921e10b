"""The pickers (`/all`), single reads, CSV exports and import templates of the parties lists: what
a user sees in a form's drop-down, on a detail screen, and in a downloaded spreadsheet."""

import csv
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT

from tenants.parties.tests.helpers import (
    ALIASES,
    ASSETS,
    CONTACTS,
    SHIP_TOS,
    SUPPLIERS,
    TERMINALS,
    asset,
    created,
    customer,
    product,
    ship_to,
    supplier,
    terminal,
)


def csv_rows(res):
    assert res.status_code == 200 and res["Content-Type"].startswith("text/csv")
    body = b"".join(res.streaming_content) if res.streaming else res.content
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def column(rows, name):
    index = rows[0].index(name)
    return [r[index] for r in rows[1:]]


def test_company_types_picker_read_export_and_delete(api_a):
    farm = created(api_a.post("/api/customer-company-type", {"company_type": "Farm"}))
    created(api_a.post("/api/customer-company-type", {"company_type": "Construction"}))
    types = [t["company_type"] for t in api_a.get("/api/customer-company-type/all").json()["data"]]
    assert types.index("Construction") < types.index("Farm")
    assert api_a.get(f"/api/customer-company-type/{farm['id']}").json()["data"]["company_type"] == "Farm"
    rows = csv_rows(api_a.get("/api/customer-company-type/export", {"search": "farm"}))
    assert column(rows, "company_type") == ["Farm"]
    # In use: refused; once free: deleted.
    c = customer(api_a, "Green Acres", company_type_id=farm["id"])
    assert api_a.delete(f"/api/customer-company-type/{farm['id']}").status_code == 409
    assert api_a.delete(f"/api/customer/customers/{c['id']}").status_code == 200
    assert api_a.delete(f"/api/customer-company-type/{farm['id']}").status_code == 200
    assert api_a.get(f"/api/customer-company-type/{farm['id']}").status_code == 404


def test_contact_services_and_contacts_read_and_export(api_a):
    services = {s["code"]: s for s in api_a.get(f"{CONTACTS}/services").json()["data"]}
    invoices = services["invoices"]
    got = api_a.get(f"/api/customer-contact-service/{invoices['id']}").json()["data"]
    assert (got["code"], got["name"]) == ("invoices", "Invoices")
    rows = csv_rows(api_a.get("/api/customer-contact-service/export", {"sort_by": "code"}))
    assert column(rows, "code") == sorted(services)

    c = customer(api_a, "Acme")
    created(api_a.post(CONTACTS, {"customer_id": c["id"], "name": "Pat Payable", "email": "pat@acme.test"}))
    rows = csv_rows(api_a.get(f"{CONTACTS}/export", {"customer_id": c["id"]}))
    assert column(rows, "name") == ["Pat Payable"] and column(rows, "email") == ["pat@acme.test"]


def test_ship_tos_picker_export_and_import_status(api_a):
    acme = customer(api_a, "Acme", account_number="C-ACME")
    north = ship_to(api_a, acme["id"], "North yard")
    ship_to(api_a, acme["id"], "South yard")
    names = [s["name"] for s in api_a.get(f"{SHIP_TOS}/all").json()["data"]]
    assert names.index("North yard") < names.index("South yard")
    rows = csv_rows(api_a.get(f"{SHIP_TOS}/export", {"search": "north"}))
    assert column(rows, "name") == ["North yard"] and str(north["id"]) in column(rows, "id")

    file = SimpleUploadedFile("sites.csv", b"customer,name\nC-ACME,East yard\n", content_type="text/csv")
    preview = api_a.post(f"{SHIP_TOS}/import", {"file": file}, content_type=MULTIPART_CONTENT).json()["data"]
    res = api_a.get(f"{SHIP_TOS}/import/{preview['import_id']}")
    assert res.status_code == 200 and res.json()["data"]["status"] == "ready"
    assert res.json()["data"]["sample"][0]["name"] == "East yard"


def test_customer_and_terminal_import_templates(api_a):
    header = csv_rows(api_a.get("/api/customer/customers/import/template"))[0]
    assert header[:2] == ["name", "account_number"]
    header = csv_rows(api_a.get(f"{TERMINALS}/import/template"))[0]
    assert header[:2] == ["name", "terminal_code"]


def test_suppliers_terminals_and_aliases_pickers_and_exports(api_a):
    gulf = supplier(api_a, "Gulf Coast Fuels")
    supplier(api_a, "Bayou Petroleum")
    assert [s["name"] for s in api_a.get(f"{SUPPLIERS}/all").json()["data"]][:2] == [
        "Bayou Petroleum",
        "Gulf Coast Fuels",
    ]
    rows = csv_rows(api_a.get(f"{SUPPLIERS}/export", {"search": "gulf"}))
    assert column(rows, "name") == ["Gulf Coast Fuels"]

    terminal(api_a, "T-76-TX-2001", "Galena Park")
    rows = csv_rows(api_a.get(f"{TERMINALS}/export"))
    assert column(rows, "terminal_code") == ["T-76-TX-2001"]

    ulsd = product(api_a, "ULSD")
    alias = created(
        api_a.post(ALIASES, {"supplier_id": gulf["id"], "product_id": ulsd["id"], "alias_name": "ULS #2"})
    )
    got = api_a.get(f"{ALIASES}/{alias['id']}").json()["data"]
    assert got["alias_name"] == "ULS #2" and got["supplier"]["name"] == "Gulf Coast Fuels"
    rows = csv_rows(api_a.get(f"{ALIASES}/export"))
    assert column(rows, "alias_name") == ["ULS #2"]


def test_customer_assets_read_and_export(api_a):
    acme = customer(api_a, "Acme")
    site = ship_to(api_a, acme["id"], "North yard")
    tank = asset(api_a, site["id"], "Tank 7")
    got = api_a.get(f"{ASSETS}/{tank['id']}").json()["data"]
    assert got["asset_name"] == "Tank 7" and got["ship_to_id"] == site["id"]
    rows = csv_rows(api_a.get(f"{ASSETS}/export", {"customer_id": acme["id"]}))
    assert column(rows, "asset_name") == ["Tank 7"]
