import datetime as dt
from decimal import Decimal

from conftest import Api, token_for


def test_payment_term_crud(api_a):
    res = api_a.post(
        "/api/payment-term",
        {"name": "2/10 Net 30", "net_days": 30, "discount_percent": "2", "discount_days": 10},
    )
    assert res.status_code == 201, res.json()
    assert res.json()["message"] == "Payment term created successfully"
    term = res.json()["data"]
    assert Decimal(term["discount_percent"]) == Decimal("2") and term["summary"] == "2% 10, Net 30"
    assert term["is_default"] is False

    res = api_a.put(f"/api/payment-term/{term['id']}", {"discount_percent": 1.5})
    assert res.status_code == 200 and res.json()["message"] == "Payment term updated successfully"
    assert res.json()["data"]["summary"] == "1.5% 10, Net 30"
    assert api_a.get(f"/api/payment-term/{term['id']}").json()["data"]["name"] == "2/10 Net 30"

    cod = api_a.post("/api/payment-term", {"name": "COD", "net_days": 0}).json()["data"]
    assert cod["summary"] == "Due on receipt"
    page = api_a.get("/api/payment-term").json()["data"]
    assert page["size"] == 25 and [t["name"] for t in page["items"]] == ["COD", "2/10 Net 30"]
    assert [t["name"] for t in api_a.get("/api/payment-term/all").json()["data"]] == ["COD", "2/10 Net 30"]

    res = api_a.delete(f"/api/payment-term/{term['id']}")
    assert res.status_code == 200 and res.json()["message"] == "Payment term deleted successfully"


def test_payment_term_validation(api_a):
    def detail(body):
        res = api_a.post("/api/payment-term", body)
        assert res.status_code == 422, res.json()
        return res.json()["detail"]

    assert (
        detail({"name": "Odd", "net_days": 30, "discount_percent": 2, "discount_days": 40})
        == "discount_days: The discount period (40 days) cannot be longer than the net period (30 days)."
    )
    assert "needs the number of days" in detail({"name": "Odd", "net_days": 30, "discount_percent": 2})
    assert "discount percent is 0" in detail({"name": "Odd", "net_days": 30, "discount_days": 5})
    assert detail({"name": "Odd", "net_days": 400}).startswith("Invalid input: net_days")
    assert detail({"name": "Odd", "discount_percent": 101, "discount_days": 1}).startswith(
        "Invalid input: discount_percent"
    )
    assert detail({"name": "Odd", "discount_percent": "1.234", "discount_days": 1}).startswith(
        "Invalid input: discount_percent"
    )
    api_a.post("/api/payment-term", {"name": "Net 30"})
    res = api_a.post("/api/payment-term", {"name": "net 30"})
    assert res.status_code == 409 and res.json()["detail"] == "A payment term with this name already exists."


def test_only_one_payment_term_is_the_default(api_a):
    net15 = api_a.post("/api/payment-term", {"name": "Net 15", "net_days": 15, "is_default": True}).json()[
        "data"
    ]
    net30 = api_a.post("/api/payment-term", {"name": "Net 30", "net_days": 30, "is_default": True}).json()[
        "data"
    ]
    assert net30["is_default"] is True
    assert api_a.get(f"/api/payment-term/{net15['id']}").json()["data"]["is_default"] is False
    api_a.put(f"/api/payment-term/{net15['id']}", {"is_default": True})
    defaults = api_a.get("/api/payment-term", {"is_default": "true"}).json()["data"]["items"]
    assert [t["name"] for t in defaults] == ["Net 15"]


def test_payment_term_dates(tenant_a, in_tenant):
    from tenants.pricing.models import PaymentTerm

    term = PaymentTerm(name="2/10 Net 30", net_days=30, discount_percent=Decimal("2"), discount_days=10)
    day = dt.date(2026, 1, 25)
    assert term.due_date(day) == dt.date(2026, 2, 24) and term.discount_date(day) == dt.date(2026, 2, 4)
    assert PaymentTerm(name="Net 30", net_days=30).discount_date(day) is None


def test_payment_method_crud_and_codes(api_a):
    res = api_a.post("/api/payment-method", {"name": "ACH", "code": "ach"})
    assert res.status_code == 201 and res.json()["message"] == "Payment method created successfully"
    ach = res.json()["data"]
    assert ach["code"] == "ACH" and ach["is_active"] is True
    dup = api_a.post("/api/payment-method", {"name": "Bank transfer", "code": "Ach"})
    assert (
        dup.status_code == 409 and dup.json()["detail"] == "A payment method with this code already exists."
    )
    assert api_a.post("/api/payment-method", {"name": "Check"}).status_code == 422  # code required
    check = api_a.post("/api/payment-method", {"name": "Check", "code": "CHK"}).json()["data"]
    res = api_a.put(f"/api/payment-method/{check['id']}", {"is_active": False})
    assert res.status_code == 200 and res.json()["message"] == "Payment method updated successfully"
    got = api_a.get(f"/api/payment-method/{check['id']}").json()["data"]
    assert (got["name"], got["code"], got["is_active"]) == ("Check", "CHK", False)
    assert [
        m["name"] for m in api_a.get("/api/payment-method", {"is_active": "true"}).json()["data"]["items"]
    ] == ["ACH"]
    assert [
        m["name"] for m in api_a.get("/api/payment-method", {"search": "chk"}).json()["data"]["items"]
    ] == ["Check"]
    assert [m["code"] for m in api_a.get("/api/payment-method/all").json()["data"]] == ["ACH", "CHK"]
    page = api_a.get("/api/payment-method", {"sort_by": "code", "order": "desc"}).json()["data"]
    assert page["size"] == 25 and [m["code"] for m in page["items"]] == ["CHK", "ACH"]
    res = api_a.delete(f"/api/payment-method/{ach['id']}")
    assert res.status_code == 200 and res.json()["message"] == "Payment method deleted successfully"


def test_payment_lists_query_count_is_bounded(api_a, tenant_a, in_tenant, django_assert_max_num_queries):
    from tenants.pricing.models import PaymentMethod, PaymentTerm

    with in_tenant(tenant_a):
        PaymentTerm.objects.bulk_create([PaymentTerm(name=f"Net {i}", net_days=i) for i in range(35)])
        PaymentMethod.objects.bulk_create(
            [PaymentMethod(name=f"Method {i}", code=f"M{i}") for i in range(35)]
        )
    for path in ("/api/payment-term", "/api/payment-method"):
        with django_assert_max_num_queries(6):
            res = api_a.get(path, {"size": 100})
        assert len(res.json()["data"]["items"]) == 35


def test_payment_permissions(tenant_a):
    sales = Api(token_for(tenant_a, role="Sales"))
    assert sales.get("/api/payment-term").status_code == 200  # sales see terms to pick them for customers
    res = sales.post("/api/payment-term", {"name": "Net 90", "net_days": 90})
    assert (
        res.status_code == 403
        and res.json()["detail"] == "You do not have permission to create payment terms."
    )
    assert sales.post("/api/payment-method", {"name": "Cash", "code": "CASH"}).status_code == 403
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get("/api/payment-method").status_code == 403
    accounting = Api(token_for(tenant_a, role="Accounting", email="acct@alpha.test"))
    assert accounting.post("/api/payment-method", {"name": "Wire", "code": "WIRE"}).status_code == 201
