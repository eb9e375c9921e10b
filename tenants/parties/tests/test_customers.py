from conftest import Api, token_for
from tenants.parties.tests.helpers import CUSTOMERS, customer, place, ship_to


def test_customer_crud(api_a, in_tenant, tenant_a):
    tx, houston = place(in_tenant, tenant_a)
    kind = api_a.post("/api/customer-company-type", {"company_type": "Construction"}).json()["data"]
    body = {
        "name": "Acme Construction",
        "account_number": "ACME-01",
        "company_type_id": kind["id"],
        "address_one": "100 Main St",
        "city_id": houston,
        "zip_code": "77002",
        "phone": "713-555-0100",
        "email": "AP@Acme.test",
        "tax_exempt": True,
        "tax_exempt_certificate": "TX-EX-1234",
        "credit_limit": "25000.00",
        "notes": "Gate code 1234",
    }
    res = api_a.post(CUSTOMERS, body)
    assert res.status_code == 201, res.json()
    assert res.json()["message"] == "Customer created successfully"
    c = res.json()["data"]
    assert c["status"] == "active" and c["customer_pricing_type"] == "standard"
    assert c["state_id"] == tx and c["state"]["code"] == "TX"  # the city sets its state
    assert c["city"] == {"id": houston, "name": "Houston"}
    assert c["company_type"] == {"id": kind["id"], "company_type": "Construction"}
    assert c["email"] == "ap@acme.test" and c["payment_term_id"] is None

    assert api_a.get(f"{CUSTOMERS}/{c['id']}").json()["data"]["account_number"] == "ACME-01"
    res = api_a.put(
        f"{CUSTOMERS}/{c['id']}", {"name": "Acme Construction LLC", "email": None, "credit_limit": None}
    )
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["name"] == "Acme Construction LLC"
    assert res.json()["data"]["email"] == "" and res.json()["data"]["credit_limit"] is None
    assert res.json()["data"]["account_number"] == "ACME-01"

    all_rows = api_a.get(f"{CUSTOMERS}/all").json()["data"]
    assert [r["id"] for r in all_rows] == [c["id"]]
    assert api_a.delete(f"{CUSTOMERS}/{c['id']}").status_code == 200
    assert api_a.get(f"{CUSTOMERS}/{c['id']}").status_code == 404


def test_account_numbers_are_generated_and_unique(api_a):
    first = customer(api_a, "First")
    assert first["account_number"] == f"C{first['id']:06d}"
    customer(api_a, "Second", account_number="X-1")
    res = api_a.post(CUSTOMERS, {"name": "Third", "account_number": "x-1"})
    assert res.status_code == 409
    assert res.json()["detail"] == "A customer with this account number already exists."


def test_customer_validation(api_a, in_tenant, tenant_a):
    _, houston = place(in_tenant, tenant_a)
    ok_state, _ = place(in_tenant, tenant_a, "OK", "Tulsa")
    cases = [
        ({"name": ""}, "name"),
        ({"name": "X", "email": "not-an-email"}, "email"),
        ({"name": "X", "credit_limit": "-5"}, "credit_limit"),
        ({"name": "X", "status": "bankrupt"}, "status"),
        (
            {"name": "X", "state_id": ok_state, "city_id": houston},
            "city_id: this city is not in the chosen state.",
        ),
        (
            {"name": "X", "company_type_id": 999999},
            "company_type_id: no customer company type with id 999999.",
        ),
        ({"name": "X", "payment_term_id": 999999}, "payment_term_id"),
    ]
    for body, expected in cases:
        res = api_a.post(CUSTOMERS, body)
        assert res.status_code == 422, (body, res.json())
        assert expected in res.json()["detail"], (body, res.json())
    # Statuses are forgiving about spelling.
    assert customer(api_a, "Y", status="On Hold")["status"] == "on_hold"


def test_status_change(api_a):
    c = customer(api_a)
    res = api_a.put(f"{CUSTOMERS}/{c['id']}/status?status=credit_hold")
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["status"] == "credit_hold"
    assert res.json()["message"] == "Customer status updated successfully"
    res = api_a.put(f"{CUSTOMERS}/{c['id']}/status/?status=on-hold")
    assert res.json()["data"]["status"] == "on_hold"
    res = api_a.put(f"{CUSTOMERS}/{c['id']}/status?status=vip")
    assert res.status_code == 422
    assert (
        res.json()["detail"]
        == "Unknown status 'vip'. Allowed values: active, on_hold, credit_hold, inactive."
    )
    assert res.json()["allowed"] == ["active", "on_hold", "credit_hold", "inactive"]
    assert api_a.put(f"{CUSTOMERS}/{c['id']}/status").status_code == 422
    assert api_a.put(f"{CUSTOMERS}/999999/status?status=active").status_code == 404


def test_customer_list_filters_sorts_and_searches(api_a, django_assert_max_num_queries, in_tenant, tenant_a):
    _, houston = place(in_tenant, tenant_a)
    kind = api_a.post("/api/customer-company-type", {"company_type": "Farm"}).json()["data"]
    statuses = ["active", "on_hold", "credit_hold", "inactive"]
    for i in range(36):
        customer(
            api_a,
            f"Customer {i:02d}",
            account_number=f"A{i:03d}",
            status=statuses[i % 4],
            city_id=houston,
            company_type_id=kind["id"] if i < 5 else None,
            credit_limit=str(i * 1000),
        )
    with django_assert_max_num_queries(8):
        res = api_a.get(CUSTOMERS, {"page": 1})
    page = res.json()["data"]
    assert page["size"] == 100 and page["total"] == 36 and page["items"][0]["name"] == "Customer 00"
    assert (
        page["items"][0]["city"]["name"] == "Houston"
        and page["items"][0]["company_type"]["company_type"] == "Farm"
    )

    page = api_a.get(CUSTOMERS, {"status": "on_hold", "size": 5}).json()["data"]
    assert page["total"] == 9 and page["pages"] == 2 and {r["status"] for r in page["items"]} == {"on_hold"}
    res = api_a.get(CUSTOMERS, {"status": "gold"})
    assert res.status_code == 422 and "Allowed values" in res.json()["detail"]

    page = api_a.get(CUSTOMERS, {"sort_by": "account_number", "order": "desc", "size": 3}).json()["data"]
    assert [r["account_number"] for r in page["items"]] == ["A035", "A034", "A033"]
    assert api_a.get(CUSTOMERS, {"search": "customer 1"}).json()["data"]["total"] == 10
    assert api_a.get(CUSTOMERS, {"search": "a03"}).json()["data"]["total"] == 6
    assert api_a.get(CUSTOMERS, {"company_type_id": kind["id"]}).json()["data"]["total"] == 5
    page = api_a.get(
        CUSTOMERS, {"filter_field": "credit_limit", "filter_operator": "greaterThan", "filter_value": "32000"}
    ).json()["data"]
    assert page["total"] == 3
    page = api_a.get(
        CUSTOMERS, {"filter_field": "name", "filter_operator": "endsWith", "filter_value": "5"}
    ).json()
    assert page["data"]["total"] == 4


def test_deleting_a_customer_with_ship_tos_is_refused(api_a):
    c = customer(api_a)
    ship_to(api_a, c["id"], "North yard")
    ship_to(api_a, c["id"], "South yard")
    res = api_a.delete(f"{CUSTOMERS}/{c['id']}")
    assert res.status_code == 409
    assert res.json()["detail"] == (
        "This record cannot be deleted because it is used by 2 ship-tos. Deactivate it instead."
    )
    assert api_a.put(f"{CUSTOMERS}/{c['id']}/status?status=inactive").status_code == 200


def test_customer_permissions(tenant_a, api_a):
    c = customer(api_a)
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get(CUSTOMERS).status_code == 403
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    assert dispatcher.get(CUSTOMERS).status_code == 200
    res = dispatcher.post(CUSTOMERS, {"name": "Nope"})
    assert (
        res.status_code == 403 and res.json()["detail"] == "You do not have permission to create customers."
    )
    assert dispatcher.put(f"{CUSTOMERS}/{c['id']}", {"name": "Nope"}).status_code == 403
    assert dispatcher.put(f"{CUSTOMERS}/{c['id']}/status?status=inactive").status_code == 403
    assert dispatcher.delete(f"{CUSTOMERS}/{c['id']}").status_code == 403
    sales = Api(token_for(tenant_a, role="Sales"))
    assert sales.put(f"{CUSTOMERS}/{c['id']}/status?status=on_hold").status_code == 200


def test_company_types(api_a, tenant_a):
    path = "/api/customer-company-type"
    created = api_a.post(path, {"company_type": "  Oil & Gas  "}).json()["data"]
    assert created["company_type"] == "Oil & Gas"
    assert api_a.post(path, {"company_type": "oil & gas"}).status_code == 409
    assert api_a.post(path, {"company_type": ""}).status_code == 422
    for name in ("Municipal", "Agriculture", "Marine"):
        api_a.post(path, {"company_type": name})
    page = api_a.get(path).json()["data"]
    assert page["size"] == 25 and [r["company_type"] for r in page["items"]][:2] == ["Agriculture", "Marine"]
    assert api_a.put(f"{path}/{created['id']}", {"company_type": "Oil and Gas"}).json()["data"][
        "company_type"
    ] == ("Oil and Gas")
    customer(api_a, company_type_id=created["id"])
    res = api_a.delete(f"{path}/{created['id']}")
    assert res.status_code == 409 and "1 customer" in res.json()["detail"]
    assert Api(token_for(tenant_a, role="Driver")).get(path).status_code == 403


def test_payment_term_and_method_are_foreign_keys(api_a):
    term = api_a.post("/api/payment-term", {"name": "Net 15", "net_days": 15}).json()["data"]
    method = api_a.post("/api/payment-method", {"name": "ACH", "code": "ACH"}).json()["data"]
    c = customer(api_a, payment_term_id=term["id"], payment_method_id=method["id"])
    assert c["payment_term_id"] == term["id"] and c["payment_method_id"] == method["id"]
    for field, label in (("payment_term_id", "payment term"), ("payment_method_id", "payment method")):
        res = api_a.put(f"{CUSTOMERS}/{c['id']}", {field: 987654})
        assert res.status_code == 422
        assert res.json()["detail"] == f"{field}: no {label} with id 987654."

    res = api_a.delete(f"/api/payment-term/{term['id']}")
    assert res.status_code == 409
    assert res.json()["detail"] == "This record cannot be deleted because it is used by 1 customer."
    res = api_a.delete(f"/api/payment-method/{method['id']}")
    assert res.status_code == 409 and "used by 1 customer" in res.json()["detail"]

    # Once no customer uses them they can go.
    res = api_a.put(f"{CUSTOMERS}/{c['id']}", {"payment_term_id": None, "payment_method_id": None})
    assert res.status_code == 200 and res.json()["data"]["payment_term_id"] is None
    assert api_a.delete(f"/api/payment-term/{term['id']}").status_code == 200
    assert api_a.delete(f"/api/payment-method/{method['id']}").status_code == 200


def test_search_looks_in_name_account_number_email_and_phone(api_a, in_tenant, tenant_a):
    _, houston = place(in_tenant, tenant_a)
    customer(api_a, "Lone Star Paving", account_number="LSP-7781", email="ap@lonestar.example.com")
    customer(api_a, "Brazos Farms", account_number="BF-1", phone="+1 979 555 0142", city_id=houston)
    customer(api_a, "Gulf Marine", account_number="GM-2", address_one="12 Lonestar Rd", zip_code="77002")

    def found(term: str) -> list[str]:
        page = api_a.get(CUSTOMERS, {"search": term, "sort_by": "name", "order": "asc"}).json()["data"]
        return [r["name"] for r in page["items"]]

    assert found("star pav") == ["Lone Star Paving"]
    assert found("lsp-77") == ["Lone Star Paving"]  # any case
    assert found("@LONESTAR.") == ["Lone Star Paving"]
    assert found("555 014") == ["Brazos Farms"]
    # Shorter than a trigram: the start of a name, number, email or phone (ap@lonestar…), from an index.
    assert found("a") == ["Lone Star Paving"]
    assert found("bf") == ["Brazos Farms"]
    assert found("100%") == [] and found("_") == []  # LIKE wildcards are literal
    # Address, ZIP and city are filters, not search terms.
    assert found("77002") == [] and found("houston") == []
    page = api_a.get(
        CUSTOMERS, {"filter_field": "zip_code", "filter_operator": "equals", "filter_value": "77002"}
    ).json()["data"]
    assert [r["name"] for r in page["items"]] == ["Gulf Marine"]
    page = api_a.get(
        CUSTOMERS, {"filter_field": "city", "filter_operator": "contains", "filter_value": "hous"}
    ).json()["data"]
    assert [r["name"] for r in page["items"]] == ["Brazos Farms"]


def test_customer_search_can_use_the_trigram_indexes(tenant_a, in_tenant):
    """With full scans priced out (the test table is tiny), each arm of the search's OR of icontains
    is answered from its GIN index: the lookups match the indexes' expressions."""
    from core.listing import ListParams
    from django.db import connection

    from tenants.parties.api import customer_crud
    from tenants.parties.schemas import CustomerQuery

    class Params(ListParams, CustomerQuery):
        pass

    params = Params.model_validate({"search": "acme", "sort_by": "name", "order": "asc"})
    with in_tenant(tenant_a):
        with connection.cursor() as cur:
            cur.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off")
        plan = customer_crud.list_queryset(params).explain()
        with connection.cursor() as cur:
            cur.execute("SET LOCAL enable_seqscan = on; SET LOCAL enable_indexscan = on")
    indexes = ("name", "account_number", "email", "phone")
    for index in indexes:
        assert f"customer_{index}_trgm" in plan, plan
