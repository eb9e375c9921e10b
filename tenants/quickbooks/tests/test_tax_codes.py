"""Sales tax outside the US: each QBO invoice line names one of the company's tax codes, chosen on
the QuickBooks Online page (`GET /quickbook/tax-codes`, `PUT /quickbook/tax-settings`)."""

from __future__ import annotations

from typing import Any

from conftest import Api, token_for
from infra.fakes.qbo import FakeQbo
from tenants.quickbooks.tests.conftest import connect
from tenants.quickbooks.tests.test_sync import PUSHED, issued_invoice, map_everything, qbo_invoices


def _connect_canadian(api: Api, fake: FakeQbo) -> str:
    fake.next_authorize_realm = fake.add_realm("9341453000777001", "Maple Fuels", country="CA").realm_id
    conn = connect(api, fake)
    assert conn["tax_mode"] == "codes"
    return str(conn["realm_id"])


def test_a_us_company_posts_tax_and_non_and_needs_no_codes(api_a: Api, fake_qbo: FakeQbo) -> None:
    conn = connect(api_a, fake_qbo)
    assert conn["tax_mode"] == "us"
    assert (conn["sales_tax_code"], conn["exempt_tax_code"]) == ("", "")


def test_outside_the_us_the_lines_carry_the_chosen_tax_codes(
    api_a: Api, fake_qbo: FakeQbo, tenant_a: Any, in_tenant: Any, jobs: Any
) -> None:
    realm = _connect_canadian(api_a, fake_qbo)
    invoice = issued_invoice(api_a, in_tenant, tenant_a)
    map_everything(api_a, jobs)

    # Not chosen yet: the push says what to do, and QBO receives nothing.
    r = api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push")
    assert r.status_code == 409
    assert "choose the tax codes of invoice lines" in r.json()["detail"]
    assert qbo_invoices(fake_qbo, realm) == []

    codes = api_a.get("/api/quickbook/tax-codes")
    assert codes.status_code == 200, codes.content
    by_name = {c["name"]: c["id"] for c in codes.json()["data"]}
    assert set(by_name) == {"Standard rate", "Zero-rated", "Exempt"}

    # An id QBO does not have is refused and nothing is kept.
    r = api_a.put(
        "/api/quickbook/tax-settings", {"sales_tax_code": "999", "exempt_tax_code": by_name["Exempt"]}
    )
    assert r.status_code == 422
    assert "sales_tax_code" in r.json()["detail"]
    assert api_a.get("/api/quickbook/connection").json()["data"]["sales_tax_code"] == ""

    r = api_a.put(
        "/api/quickbook/tax-settings",
        {"sales_tax_code": by_name["Standard rate"], "exempt_tax_code": by_name["Exempt"]},
    )
    assert r.status_code == 200, r.content
    assert r.json()["message"] == "Tax codes saved"
    assert r.json()["data"]["exempt_tax_code"] == by_name["Exempt"]

    r = api_a.post(f"/api/quickbook/invoice/{invoice.pk}/push")
    assert r.status_code == 200, r.content
    assert r.json()["message"] == PUSHED
    [qbo] = qbo_invoices(fake_qbo, realm)
    used = {line["SalesItemLineDetail"]["TaxCodeRef"]["value"] for line in qbo["Line"]}
    # The excise-only lines carry no percent sales tax: every line is exempt.
    assert used == {by_name["Exempt"]}
    assert "TxnTaxDetail" not in qbo


def test_a_viewer_cannot_change_the_tax_codes(api_a: Api, fake_qbo: FakeQbo, tenant_a: Any) -> None:
    _connect_canadian(api_a, fake_qbo)
    clerk = Api(token_for(tenant_a, role="Dispatcher"))
    r = clerk.put("/api/quickbook/tax-settings", {"sales_tax_code": "1", "exempt_tax_code": "2"})
    assert r.status_code == 403
