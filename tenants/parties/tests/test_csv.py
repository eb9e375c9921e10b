"""CSV import (preview, confirm, all or nothing, the worker for large files) and export."""

import csv
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT

from conftest import Api, token_for
from tenants.parties.tests.helpers import CUSTOMERS, SHIP_TOS, TERMINALS, customer, place

CUSTOMER_CSV_WITH_A_BAD_ROW = """Name,Account Number,Status,Company Type,City,State,Email,Credit Limit
Acme Construction,ACME-1,active,Construction,Houston,TX,ap@acme.test,1000
Bad Email Co,BAD-1,active,,Houston,TX,not-an-email,
Beta Farms,BETA-1,On Hold,,Tulsa,OK,,2500.50
"""


def upload(api: Api, path: str, text: str, name: str = "rows.csv"):
    file = SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/csv")
    return api.post(f"{path}/import", {"file": file}, content_type=MULTIPART_CONTENT)


def rows_of(res) -> list[dict]:
    body = b"".join(res.streaming_content).decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(body)))


def test_import_preview_then_confirm_all_or_nothing(api_a, in_tenant, tenant_a):
    place(in_tenant, tenant_a, "TX", "Houston")
    place(in_tenant, tenant_a, "OK", "Tulsa")
    api_a.post("/api/customer-company-type", {"company_type": "Construction"})

    res = upload(api_a, CUSTOMERS, CUSTOMER_CSV_WITH_A_BAD_ROW)
    assert res.status_code == 200, res.json()
    preview = res.json()["data"]
    assert preview["status"] == "invalid"
    assert (preview["total_rows"], preview["valid_rows"], preview["error_rows"]) == (3, 2, 1)
    assert preview["errors"] == [
        {"row": 3, "field": "email", "message": "Value error, enter a valid email address"}
    ]
    assert [s["name"] for s in preview["sample"]] == ["Acme Construction", "Beta Farms"]
    assert preview["columns"] == [
        "name",
        "account_number",
        "status",
        "company_type",
        "city",
        "state",
        "email",
        "credit_limit",
    ]
    assert api_a.get(CUSTOMERS).json()["data"]["total"] == 0  # the preview writes nothing

    res = api_a.post(f"{CUSTOMERS}/import/{preview['import_id']}/confirm")
    assert res.status_code == 422
    assert res.json()["detail"] == (
        "Nothing was imported: 1 of 3 rows have errors. Fix them and upload the file again."
    )
    assert res.json()["errors"][0]["row"] == 3
    assert api_a.get(CUSTOMERS).json()["data"]["total"] == 0

    fixed = CUSTOMER_CSV_WITH_A_BAD_ROW.replace("not-an-email", "ap@bad.test")
    preview = upload(api_a, CUSTOMERS, fixed).json()["data"]
    assert preview["status"] == "ready" and preview["errors"] == [] and preview["valid_rows"] == 3
    res = api_a.post(f"{CUSTOMERS}/import/{preview['import_id']}/confirm")
    assert res.status_code == 200, res.json()
    done = res.json()["data"]
    assert done["status"] == "completed" and done["created_rows"] == 3
    assert res.json()["message"] == "Imported 3 customer rows."
    items = {c["account_number"]: c for c in api_a.get(CUSTOMERS).json()["data"]["items"]}
    assert set(items) == {"ACME-1", "BAD-1", "BETA-1"}
    assert items["ACME-1"]["company_type"]["company_type"] == "Construction"
    assert items["ACME-1"]["city"]["name"] == "Houston" and items["BETA-1"]["state"]["code"] == "OK"
    assert items["BETA-1"]["status"] == "on_hold"

    again = api_a.post(f"{CUSTOMERS}/import/{preview['import_id']}/confirm")
    assert again.status_code == 409 and again.json()["detail"] == "This file has already been imported."
    status = api_a.get(f"{CUSTOMERS}/import/{preview['import_id']}").json()["data"]
    assert status["status"] == "completed" and status["processed"] == 3


def test_rows_are_checked_against_each_other_and_against_changes_before_confirm(api_a):
    text = "name,account_number\nOne,DUP-1\nTwo,dup-1\n"
    preview = upload(api_a, CUSTOMERS, text).json()["data"]
    assert preview["status"] == "invalid"
    assert preview["errors"] == [
        {"row": 3, "field": None, "message": "A customer with this account number already exists."}
    ]

    preview = upload(api_a, CUSTOMERS, "name,account_number\nOne,N-1\nTwo,N-2\n").json()["data"]
    assert preview["status"] == "ready"
    customer(api_a, "Someone else", account_number="N-2")  # written between the preview and the confirm
    res = api_a.post(f"{CUSTOMERS}/import/{preview['import_id']}/confirm")
    assert res.status_code == 422 and res.json()["detail"].startswith(
        "Nothing was imported: 1 of 2 rows failed."
    )
    assert api_a.get(CUSTOMERS, {"search": "N-1"}).json()["data"]["total"] == 0
    assert api_a.get(f"{CUSTOMERS}/import/{preview['import_id']}").json()["data"]["status"] == "failed"


def test_file_level_problems(api_a):
    res = upload(api_a, CUSTOMERS, "company,phone\nAcme,1\n")
    assert res.status_code == 422 and res.json()["detail"].startswith("The file has no column for: name.")
    assert upload(api_a, CUSTOMERS, "").json()["detail"] == "The file is empty."
    assert (
        upload(api_a, CUSTOMERS, "name,phone\n").json()["detail"] == "The file has no rows under its header."
    )
    file = SimpleUploadedFile("x.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00", content_type="text/csv")
    res = api_a.post(f"{CUSTOMERS}/import", {"file": file}, content_type=MULTIPART_CONTENT)
    assert res.status_code == 422 and "not a CSV file" in res.json()["detail"]
    # Semicolons, a BOM, extra columns and Windows-1252 text are fine.
    text = "\ufeffName;Account Number;Colour\nCafé Fuel;CF-1;blue\n"
    preview = upload(api_a, CUSTOMERS, text).json()["data"]
    assert preview["status"] == "ready" and preview["ignored_columns"] == ["colour"]
    file = SimpleUploadedFile("x.csv", "name\nCafé Ñ\n".encode("cp1252"), content_type="text/csv")
    res = api_a.post(f"{CUSTOMERS}/import", {"file": file}, content_type=MULTIPART_CONTENT)
    assert res.json()["data"]["sample"][0]["name"] == "Café Ñ"
    assert api_a.get(f"{CUSTOMERS}/import/999999").status_code == 404


def test_ship_to_import_finds_customers_by_account_number(api_a, in_tenant, tenant_a):
    place(in_tenant, tenant_a, "LA", "Baton Rouge")
    acme = customer(api_a, "Acme", account_number="ACME-1")
    customer(api_a, "Twin", account_number="T-1")
    customer(api_a, "Twin", account_number="T-2")
    text = (
        "customer,name,city,state,latitude,longitude\n"
        "acme-1,Plant,Baton Rouge,LA,30.45,-91.18\n"
        "Twin,Yard,,,,\n"
        "NOPE,Yard,,,,\n"
        "ACME-1,Far away,,,95,0\n"
        "ACME-1,Elsewhere,Nowhere,LA,,\n"
    )
    preview = upload(api_a, SHIP_TOS, text).json()["data"]
    errors = {e["row"]: e for e in preview["errors"]}
    assert preview["valid_rows"] == 1 and set(errors) == {3, 4, 5, 6}
    assert errors[3]["field"] == "customer" and errors[3]["message"].startswith(
        "More than one customer matches"
    )
    assert errors[4]["message"] == "No customer matches 'NOPE'."
    assert errors[5]["field"] == "latitude"
    assert errors[6] == {"row": 6, "field": "city", "message": "No city matches 'Nowhere'."}

    preview = upload(api_a, SHIP_TOS, "\n".join(text.splitlines()[:2]) + "\n").json()["data"]
    res = api_a.post(f"{SHIP_TOS}/import/{preview['import_id']}/confirm")
    assert res.status_code == 200, res.json()
    site = api_a.get(SHIP_TOS, {"customer_id": acme["id"]}).json()["data"]["items"][0]
    assert site["name"] == "Plant" and site["city"]["name"] == "Baton Rouge" and site["latitude"] == 30.45


def test_large_files_run_in_the_worker_with_progress(api_a, jobs, django_capture_on_commit_callbacks):
    lines = ["name,terminal_code"] + [f"Terminal {i},T-76-TX-{5000 + i}" for i in range(320)]
    with django_capture_on_commit_callbacks(execute=True):
        res = upload(api_a, TERMINALS, "\n".join(lines) + "\n")
    assert res.status_code == 202, res.json()
    queued = res.json()["data"]
    assert queued["status"] == "validating" and queued["total_rows"] == 320 and queued["processed"] == 0
    status_path = f"{TERMINALS}/import/{queued['import_id']}"
    assert jobs() == 1
    checked = api_a.get(status_path).json()["data"]
    assert checked["status"] == "ready" and checked["processed"] == 320 and checked["valid_rows"] == 320
    assert api_a.get(TERMINALS).json()["data"]["total"] == 0

    with django_capture_on_commit_callbacks(execute=True):
        res = api_a.post(f"{status_path}/confirm")
    assert res.status_code == 202 and res.json()["data"]["status"] == "importing"
    assert api_a.post(f"{status_path}/confirm").json()["detail"] == "This file is already being imported."
    assert jobs() == 1
    done = api_a.get(status_path).json()["data"]
    assert done["status"] == "completed" and done["created_rows"] == 320
    assert api_a.get(TERMINALS).json()["data"]["total"] == 320


def test_import_needs_the_add_permission(tenant_a):
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    res = upload(dispatcher, CUSTOMERS, "name\nX\n")
    assert (
        res.status_code == 403 and res.json()["detail"] == "You do not have permission to create customers."
    )
    assert dispatcher.get(f"{CUSTOMERS}/import/template").status_code == 403


def test_import_template(api_a):
    res = api_a.get(f"{SHIP_TOS}/import/template")
    assert res.status_code == 200 and res["Content-Type"].startswith("text/csv")
    header = res.content.decode("utf-8-sig").strip().split(",")
    assert header[:2] == ["customer", "name"] and "latitude" in header


def test_export_honours_the_list_filters(api_a):
    for i, status in enumerate(["active", "on_hold", "on_hold", "inactive"]):
        customer(api_a, f"Customer {i}", account_number=f"E-{i}", status=status)
    customer(api_a, '=HYPERLINK("http://evil.test")', account_number="E-9", status="on_hold")
    res = api_a.get(
        f"{CUSTOMERS}/export", {"status": "on_hold", "sort_by": "account_number", "order": "desc"}
    )
    assert res.status_code == 200 and res["Content-Type"] == "text/csv; charset=utf-8"
    assert res["Content-Disposition"].startswith('attachment; filename="customers-')
    assert res["X-Total-Count"] == "3"
    rows = rows_of(res)
    assert [r["account_number"] for r in rows] == ["E-9", "E-2", "E-1"]
    assert rows[0]["name"].startswith("'=HYPERLINK")  # a spreadsheet shows it, never runs it
    assert {"id", "name", "status", "city", "state", "company_type", "credit_limit"} <= set(rows[0])
    rows = rows_of(api_a.get(f"{CUSTOMERS}/export/", {"search": "customer 3"}))
    assert [r["name"] for r in rows] == ["Customer 3"]
    assert api_a.get(f"{CUSTOMERS}/export", {"sort_by": "bogus"}).status_code == 422


def test_an_export_imports_into_another_company(api_a, api_b, in_tenant, tenant_a, tenant_b):
    for handle in (tenant_a, tenant_b):
        place(in_tenant, handle, "TX", "Houston")
    _, houston = place(in_tenant, tenant_a, "TX", "Houston")
    customer(
        api_a,
        "Round Trip Fuel",
        account_number="RT-1",
        city_id=houston,
        credit_limit="1500.00",
        phone="+1 713 555 0100",
    )
    exported = b"".join(api_a.get(f"{CUSTOMERS}/export").streaming_content).decode("utf-8-sig")
    preview = upload(api_b, CUSTOMERS, exported).json()["data"]
    assert preview["status"] == "ready", preview["errors"]
    assert api_b.post(f"{CUSTOMERS}/import/{preview['import_id']}/confirm").status_code == 200
    got = api_b.get(CUSTOMERS).json()["data"]["items"][0]
    assert (got["account_number"], got["city"]["name"], got["phone"]) == (
        "RT-1",
        "Houston",
        "+1 713 555 0100",
    )
    assert got["credit_limit"] in ("1500.00", 1500)
