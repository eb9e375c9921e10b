from conftest import Api, token_for
from tenants.parties.tests.helpers import CONTACTS, created, customer, ship_to

SERVICES = "/api/customer-contact-service"


def service_ids(api: Api) -> dict[str, int]:
    res = api.get(f"{CONTACTS}/services")
    assert res.status_code == 200, res.json()
    return {s["code"]: s["id"] for s in res.json()["data"]}


def test_default_services_come_with_the_company(api_a):
    codes = service_ids(api_a)
    assert {"invoices", "delivery_tickets", "price_notices"} <= set(codes)
    page = api_a.get(SERVICES).json()["data"]
    assert page["size"] == 50 and page["total"] == len(codes)
    extra = created(api_a.post(SERVICES, {"code": "quotes", "name": "Quotes"}))
    assert api_a.post(SERVICES, {"code": "QUOTES", "name": "Again"}).status_code == 409
    assert api_a.post(SERVICES, {"code": "has space", "name": "Bad"}).status_code == 422
    assert (
        api_a.put(f"{SERVICES}/{extra['id']}", {"name": "Price quotes"}).json()["data"]["name"]
        == "Price quotes"
    )
    assert api_a.delete(f"{SERVICES}/{extra['id']}").status_code == 200


def test_a_new_company_has_the_default_services_before_any_read(tenant_a, in_tenant):
    from tenants.parties.models import ContactService

    with in_tenant(tenant_a):
        codes = set(ContactService.objects.values_list("code", flat=True))
    assert {"invoices", "delivery_tickets", "price_notices", "statements"} <= codes


def test_reading_the_services_writes_nothing(api_a, tenant_a, in_tenant):
    from tenants.parties.models import ContactService

    with in_tenant(tenant_a):
        ContactService.objects.all().delete()  # a company that removed every service
    res = api_a.get(f"{CONTACTS}/services")
    assert res.status_code == 200 and res.json()["data"] == []
    assert api_a.get(SERVICES).json()["data"]["total"] == 0
    assert api_a.get(f"{SERVICES}/all").json()["data"] == []
    with in_tenant(tenant_a):
        assert ContactService.objects.count() == 0


def test_the_migration_seeds_existing_companies_but_not_the_template(tenant_a, in_tenant):
    import importlib
    from types import SimpleNamespace

    from django.apps import apps
    from django.db import connection

    from tenants.parties.models import ContactService

    migration = importlib.import_module("tenants.parties.migrations.0005_seed_default_contact_services")
    with in_tenant(tenant_a):
        ContactService.objects.all().delete()
        migration.seed(apps, SimpleNamespace(connection=SimpleNamespace(schema_name="tenant_template")))
        assert ContactService.objects.count() == 0
        migration.seed(apps, SimpleNamespace(connection=connection))
        assert set(ContactService.objects.values_list("code", flat=True)) == {
            code for code, _, _ in migration.DEFAULTS
        }
        ContactService.objects.filter(code="statements").delete()
        migration.seed(apps, SimpleNamespace(connection=connection))  # a company with services: untouched
        assert not ContactService.objects.filter(code="statements").exists()


def test_contact_crud_with_services_and_user_account(api_a, tenant_a, in_tenant):
    codes = service_ids(api_a)
    c = customer(api_a)
    site = ship_to(api_a, c["id"])
    with in_tenant(tenant_a):
        from tenants.accounts.models import User

        user_id = User.objects.get(email=tenant_a.admin_email).pk
    res = api_a.post(
        CONTACTS,
        {
            "customer_id": c["id"],
            "ship_to_id": site["id"],
            "name": "Pat Payable",
            "email": "pat@acme.test",
            "position": "Accounts Payable",
            "services": [codes["invoices"], codes["statements"], codes["invoices"]],
            "user_account": user_id,
        },
    )
    assert res.status_code == 201, res.json()
    contact = res.json()["data"]
    assert contact["service_ids"] == sorted([codes["invoices"], codes["statements"]])
    assert {s["code"] for s in contact["services"]} == {"invoices", "statements"}
    assert contact["user_account"] == user_id and contact["user"]["email"] == tenant_a.admin_email

    res = api_a.put(
        f"{CONTACTS}/{contact['id']}", {"services": [codes["price_notices"]], "user_account": None}
    )
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["service_ids"] == [codes["price_notices"]]
    assert res.json()["data"]["user_account"] is None

    res = api_a.put(f"{CONTACTS}/{contact['id']}", {"services": [999999]})
    assert res.status_code == 422 and res.json()["detail"].startswith("services: no customer contact service")
    assert api_a.get(f"{CONTACTS}/{contact['id']}").json()["data"]["service_ids"] == [codes["price_notices"]]
    assert api_a.delete(f"{CONTACTS}/{contact['id']}").status_code == 200


def test_contact_validation(api_a):
    c = customer(api_a)
    other = customer(api_a, "Other")
    site = ship_to(api_a, other["id"])
    res = api_a.post(CONTACTS, {"customer_id": c["id"], "ship_to_id": site["id"], "name": "X"})
    assert (
        res.status_code == 422
        and res.json()["detail"] == "ship_to_id: this ship-to belongs to another customer."
    )
    assert api_a.post(CONTACTS, {"customer_id": c["id"], "name": "X", "email": "nope"}).status_code == 422
    assert (
        api_a.post(CONTACTS, {"customer_id": c["id"], "name": "X", "user_account": 999999}).status_code == 422
    )
    assert api_a.post(CONTACTS, {"customer_id": c["id"], "name": ""}).status_code == 422


def test_contact_list_filters_and_sorts(api_a, django_assert_max_num_queries):
    codes = service_ids(api_a)
    a, b = customer(api_a, "Alpha"), customer(api_a, "Beta")
    site = ship_to(api_a, a["id"])
    positions = ["Accounts Payable", "Site Manager", "Owner"]
    for i in range(32):
        owner = a if i % 2 else b
        created(
            api_a.post(
                CONTACTS,
                {
                    "customer_id": owner["id"],
                    "name": f"Contact {i:02d}",
                    "email": f"c{i}@x.test",
                    "position": positions[i % 3],
                    "ship_to_id": site["id"] if owner is a and i % 4 == 1 else None,
                    "services": [codes["invoices"]]
                    if i % 2
                    else [codes["invoices"], codes["delivery_tickets"]],
                },
            )
        )
    with django_assert_max_num_queries(9):
        page = api_a.get(CONTACTS).json()["data"]
    assert page["size"] == 50 and page["total"] == 32 and page["items"][0]["name"] == "Contact 00"
    assert all(item["services"] for item in page["items"])

    page = api_a.get(
        CONTACTS, {"sort_by": "id", "order": "asc", "customer_id": a["id"], "page": 1, "size": 50}
    ).json()["data"]
    assert page["total"] == 16 and [r["id"] for r in page["items"]] == sorted(r["id"] for r in page["items"])
    assert api_a.get(CONTACTS, {"ship_to_id": site["id"]}).json()["data"]["total"] == 8
    assert api_a.get(CONTACTS, {"position": "payable"}).json()["data"]["total"] == 11
    assert api_a.get(CONTACTS, {"service": "delivery_tickets"}).json()["data"]["total"] == 16
    page = api_a.get(CONTACTS, {"sort_by": "name", "order": "desc", "size": 2}).json()["data"]
    assert [r["name"] for r in page["items"]] == ["Contact 31", "Contact 30"]


def test_contact_permissions(tenant_a, api_a):
    c = customer(api_a)
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get(CONTACTS).status_code == 403
    assert driver.get(f"{CONTACTS}/services").status_code == 403
    sales = Api(token_for(tenant_a, role="Sales"))
    assert sales.post(CONTACTS, {"customer_id": c["id"], "name": "Ok"}).status_code == 201
    assert sales.post(SERVICES, {"code": "x", "name": "X"}).status_code == 403
