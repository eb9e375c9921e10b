"""`GET /api/onboarding`: the built-in steps follow the company's data as it appears, with the
detail and link of what is missing; progress counts; drivers are refused; a handful of queries."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from conftest import Api, token_for
from tenants.invoicing.tests.helpers import delivered_order, fuel_tax, master_data
from tenants.onboarding import registry

URL = "/api/onboarding"
BUILTIN = [
    "company_profile",
    "customer",
    "products",
    "taxes",
    "price",
    "truck_and_driver",
    "invoice_template",
    "first_invoice",
]


def checklist(api: Api) -> dict[str, Any]:
    r = api.get(URL)
    assert r.status_code == 200, r.content
    assert r.json()["message"] == "Onboarding checklist retrieved successfully"
    return dict(r.json()["data"])


def steps(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["key"]: s for s in data["steps"]}


def test_a_new_company_sees_every_builtin_step_to_do_in_order(api_a: Api) -> None:
    data = checklist(api_a)  # sign-up makes no company settings row: the profile screen does
    keys = [s["key"] for s in data["steps"]]
    assert [k for k in keys if k in BUILTIN] == BUILTIN
    by_key = steps(data)
    assert {k: by_key[k]["state"] for k in BUILTIN} == dict.fromkeys(BUILTIN, "todo")
    assert by_key["company_profile"]["detail"] == "Add your company's name, address and logo"
    assert by_key["company_profile"]["link"] == "/company-settings"
    assert by_key["price"]["title"] == "Enter a price" and by_key["price"]["link"] == "/buying-price"
    assert data["total"] == len(data["steps"])
    assert data["done"] == sum(1 for s in data["steps"] if s["state"] == "done")


def test_a_partial_profile_says_what_is_missing(api_a: Api, tenant_a: Any, in_tenant: Any) -> None:
    from tenants.company.models import CompanySettings

    with in_tenant(tenant_a):
        CompanySettings.objects.create(company_name="Alpha Fuels", email="office@alpha.test")
    step = steps(checklist(api_a))["company_profile"]
    assert (step["state"], step["detail"]) == ("todo", "Missing: address, logo")


def test_steps_turn_done_as_the_data_appears(api_a: Api, tenant_a: Any, in_tenant: Any) -> None:
    from tenants.company.models import CompanySettings
    from tenants.documents.models import DocumentTemplate
    from tenants.fleet.models import AssetType, CompanyAsset, Driver
    from tenants.parties.models import Customer
    from tenants.pricing.models import CustomerPrice

    with in_tenant(tenant_a):
        Customer.objects.create(name="No Site Yet", account_number="NS-1")
        truck_type = AssetType.objects.create(name="Bobtail B", category="bobtail")
        CompanyAsset.objects.create(asset_number="B-1", name="Bobtail", asset_type=truck_type)
    by_key = steps(checklist(api_a))
    assert by_key["customer"] == {
        **by_key["customer"],
        "state": "todo",
        "detail": "Add a ship-to (delivery address) to a customer",
    }
    # A truck and no driver: the step links to the drivers' screen.
    assert (by_key["truck_and_driver"]["detail"], by_key["truck_and_driver"]["link"]) == (
        "Add a driver",
        "/driver",
    )

    with in_tenant(tenant_a):
        Driver.objects.create(name="Dee")
        md = master_data()  # a customer with a ship-to, products
        fuel_tax()
        CustomerPrice.objects.create(customer=md["customer"], product=md["diesel"], unit_price=Decimal("3.1"))
        order = delivered_order(md, lines=(("diesel", "1000", "3.0000", "990"),))
        CompanySettings.objects.create(
            company_name="Alpha Fuels",
            address_one="1 Tank Rd",
            phone_number="555-0100",
            logo=[{"file_key": "logo.png"}],
        )
        DocumentTemplate.objects.create(name="Our invoice", type="invoice")
    before = steps(checklist(api_a))
    assert before["first_invoice"] == {
        **before["first_invoice"],
        "state": "todo",
        "detail": "Create the invoice of a delivered order",
        "link": "/invoice",
    }

    r = api_a.post(f"/api/invoice/create?sales_order_id={order.pk}")
    assert r.status_code == 200, r.content
    data = checklist(api_a)
    by_key = steps(data)
    assert {k: (by_key[k]["state"], by_key[k]["detail"]) for k in BUILTIN} == dict.fromkeys(
        BUILTIN, ("done", "")
    )
    assert data["done"] == sum(1 for s in data["steps"] if s["state"] == "done") >= len(BUILTIN)


def test_a_voided_invoice_or_an_undelivered_order_does_not_count(
    api_a: Api, tenant_a: Any, in_tenant: Any
) -> None:
    from tenants.invoicing.models import Invoice

    with in_tenant(tenant_a):
        md = master_data()
        order = delivered_order(md)
        Invoice.objects.create(
            number="INV-V1",
            status="void",
            sales_order=order,
            customer=md["customer"],
            invoice_date=dt.date(2026, 12, 1),
            due_date=dt.date(2026, 12, 31),
        )
        delivered_order(md, status="in_delivery")
    assert steps(checklist(api_a))["first_invoice"]["state"] == "todo"


def _data_queries(ctx: CaptureQueriesContext) -> list[str]:
    # django-tenants sets the search_path before statements; count the reads.
    return [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith("SET search_path")]


def test_the_page_costs_a_handful_of_queries(
    api_a: Api, tenant_a: Any, in_tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with in_tenant(tenant_a):
        master_data()
    checklist(api_a)  # the session is cached as on a signed-in user's next request
    with CaptureQueriesContext(connection) as ctx:
        data = checklist(api_a)
    # At most two EXISTS-sized reads per step (a second one says what is missing), nothing per row.
    assert len(_data_queries(ctx)) <= 2 * data["total"], _data_queries(ctx)

    # The built-in steps alone: 12 reads at most, however much data the company has.
    monkeypatch.setattr(registry, "_STEPS", {k: v for k, v in registry._STEPS.items() if k in BUILTIN})
    with in_tenant(tenant_a):
        for i in range(30):
            master_data(name=f"Customer {i}")
    with CaptureQueriesContext(connection) as ctx:
        assert checklist(api_a)["total"] == len(BUILTIN)
    assert len(_data_queries(ctx)) <= 12, _data_queries(ctx)
    assert all(" LIMIT 1" in q for q in _data_queries(ctx)), _data_queries(ctx)


def test_drivers_and_strangers_are_refused(tenant_a: Any, anon: Api) -> None:
    driver = Api(token_for(tenant_a, role="Driver"))
    r = driver.get(URL)
    assert r.status_code == 403
    assert r.json() == {"detail": "You do not have permission to view onboarding checklist."}
    assert anon.get(URL).status_code == 401
    # A user whose role holds no permission at all (issue 23): the checklist needs onboarding.view.
    nobody = Api(token_for(tenant_a, role=None))
    assert nobody.get(URL).status_code == 403
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    assert dispatcher.get(URL).status_code == 200
