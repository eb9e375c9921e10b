"""'Export all our data': an admin starts it, the worker builds the zip with progress, the admin downloads
every list as CSV, every document as PDF and every uploaded file; nobody else may; tenants never cross."""

from __future__ import annotations

import csv
import io
import zipfile

from conftest import Api, token_for
from tenants.delivery.tests.helpers import TICKETS, fuel_order, png_bytes, upload

EXPORT = "/api/data-export"


def _build(api: Api, jobs, capture) -> dict:
    with capture(execute=True):
        res = api.post(EXPORT)
    assert res.status_code == 201, res.json()
    started = res.json()["data"]
    assert started["status"] == "queued" and started["done"] == 0
    assert api.get(f"{EXPORT}/{started['id']}/download").status_code == 409  # not ready yet
    assert jobs() == 1
    done = api.get(f"{EXPORT}/{started['id']}").json()["data"]
    assert done["status"] == "ready", done
    assert done["done"] == done["total"] > 0 and done["size"] > 0
    return done


def test_an_admin_downloads_every_list_document_and_file_of_the_company(
    api_a, api_b, tenant_a, in_tenant, jobs, django_capture_on_commit_callbacks
):
    with in_tenant(tenant_a):
        md = fuel_order()
    tickets = api_a.get(f"{TICKETS}/generate", {"sales_order_id": md["order"].pk}).json()["data"]
    logo_key = upload(api_a, "logo", "logo.png", png_bytes("blue"))

    done = _build(api_a, jobs, django_capture_on_commit_callbacks)
    res = api_a.get(f"{EXPORT}/{done['id']}/download")
    assert res.status_code == 200 and res["Content-Type"] == "application/zip"
    zf = zipfile.ZipFile(io.BytesIO(res.content))
    names = zf.namelist()

    # Every list, as its own CSV export: the customer of the order is in the customers' list.
    assert {"lists/customer.csv", "lists/product.csv", "lists/user.csv"} <= set(names)
    customers = list(csv.DictReader(io.StringIO(zf.read("lists/customer.csv").decode("utf-8-sig"))))
    assert md["order"].customer.name in {row["name"] for row in customers}
    # Every record, lists or not (the order and its lines), without credentials.
    orders = list(csv.DictReader(io.StringIO(zf.read("tables/sales_salesorder.csv").decode("utf-8-sig"))))
    assert str(md["order"].pk) in {row["id"] for row in orders}
    users = zf.read("tables/accounts_user.csv").decode("utf-8-sig")
    assert "email" in users.splitlines()[0] and "password" not in users.splitlines()[0]
    # Every document as PDF: the delivery ticket.
    ticket_pdfs = [n for n in names if n.startswith("documents/delivery_ticket/")]
    assert len(ticket_pdfs) == len(tickets) >= 1
    assert all(zf.read(n).startswith(b"%PDF-") for n in ticket_pdfs)
    # Every uploaded file, byte for byte.
    prefix = f"tenants/{tenant_a.schema}/"
    assert zf.read(f"files/{logo_key.removeprefix(prefix)}") == png_bytes("blue")
    assert not [n for n in names if n.startswith("files/export/")]  # earlier exports are not re-exported
    assert "README.txt" in names

    # Another company sees neither the export nor its zip.
    assert api_b.get(f"{EXPORT}/{done['id']}").status_code == 404
    assert api_b.get(f"{EXPORT}/{done['id']}/download").status_code == 404
    assert api_b.get(EXPORT).json()["data"]["items"] == []


def test_only_an_admin_may_export_and_one_export_runs_at_a_time(
    api_a, tenant_a, jobs, django_capture_on_commit_callbacks
):
    for role in ("Accounting", "Dispatcher", "Driver"):
        other = Api(token_for(tenant_a, role=role))
        assert other.post(EXPORT).status_code == 403
        assert other.get(EXPORT).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        assert api_a.post(EXPORT).status_code == 201
    again = api_a.post(EXPORT)
    assert again.status_code == 409 and "already" in again.json()["detail"]
    assert jobs() == 1
    assert api_a.get(EXPORT).json()["data"]["items"][0]["status"] == "ready"
