"""What an office reads back: one tax, fee, rule or buying price by id, each list as CSV (the same
filters as the screen), and the rack import's template and status."""

from __future__ import annotations

import csv
import io

from django.core.files.uploadedfile import SimpleUploadedFile

from tenants.pricing.models import Tax
from tenants.pricing.tests.factories import make_world


def csv_rows(res) -> list[list[str]]:
    assert res.status_code == 200 and res["Content-Type"].startswith("text/csv")
    body = b"".join(res.streaming_content) if res.streaming else res.content
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def column(rows: list[list[str]], name: str) -> list[str]:
    i = rows[0].index(name)
    return [r[i] for r in rows[1:]]


def test_one_row_by_id_and_404_for_an_unknown_one(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
    fee = next(iter(w.fees.values()))
    rule = api_a.get(f"/api/pricing-rule/{w.rule.id}")
    assert rule.status_code == 200 and rule.json()["data"]["name"] == w.rule.name
    got = api_a.get(f"/api/fee/{fee.id}")
    assert got.status_code == 200 and got.json()["data"]["name"] == fee.name
    prices = api_a.get(f"/api/buying-price?product_id={w.diesel.id}&supplier_id={w.supplier.id}").json()[
        "data"
    ]
    one = prices["items"][0]
    res = api_a.get(f"/api/buying-price/{one['id']}")
    assert res.status_code == 200
    assert (res.json()["data"]["price"], res.json()["data"]["supplier"]["name"]) == (
        one["price"],
        "Gulf Coast Fuels",
    )
    for path in ("/api/pricing-rule/999999", "/api/fee/999999", "/api/buying-price/999999"):
        assert api_a.get(path).status_code == 404, path


def test_lists_export_as_csv_with_the_screens_filters(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
        tax_codes = sorted(Tax.objects.values_list("code", flat=True))
    taxes = csv_rows(api_a.get("/api/tax/export"))
    assert sorted(column(taxes, "code")) == tax_codes and len(tax_codes) >= 1
    fees = csv_rows(api_a.get("/api/fee/export"))
    assert sorted(column(fees, "name")) == sorted(f.name for f in w.fees.values())
    rules = csv_rows(api_a.get("/api/pricing-rule/export"))
    assert column(rules, "name") == [w.rule.name]
    only_b = csv_rows(api_a.get(f"/api/buying-price/export?supplier_id={w.supplier_b.id}"))
    assert len(only_b) - 1 == 2  # two products, one terminal
    every = csv_rows(api_a.get("/api/buying-price/export"))
    assert len(every) - 1 == 4


def test_rack_import_template_and_the_status_the_dialog_polls(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        make_world()
    template = csv_rows(api_a.get("/api/buying-price/import/template"))
    assert template[0][:5] == ["supplier", "terminal", "product", "price", "effective_from"]
    csv_body = (
        b"supplier,terminal,product,price,effective_from\nGulf Coast Fuels,T-76-TX-2000,ULSD,2.3,2026-03-12\n"
    )
    up = api_a.client.post(
        "/api/buying-price/import",
        {"file": SimpleUploadedFile("rack.csv", csv_body, "text/csv")},
        HTTP_AUTHORIZATION=f"Bearer {api_a.token}",
    )
    assert up.status_code == 200, up.json()
    status = api_a.get(f"/api/buying-price/import/{up.json()['data']['import_id']}")
    assert status.status_code == 200
    data = status.json()["data"]
    assert (data["status"], data["total_rows"], data["valid_rows"]) == ("ready", 1, 1)
    assert api_a.get("/api/buying-price/import/999999").status_code == 404
