from conftest import Api


def counts():
    from tenants.fleet.models import AssetType, CompanyAsset, Driver
    from tenants.geo.models import Region, Yard
    from tenants.pricing.models import PaymentMethod, PaymentTerm

    return {
        m.__name__: m.objects.count()
        for m in (Region, Yard, AssetType, CompanyAsset, Driver, PaymentTerm, PaymentMethod)
    }


def test_demo_seed_is_idempotent_and_reuses_the_demo_driver(tenant_a, in_tenant, anon):
    from tenants.accounts.models import Role
    from tenants.accounts.services import create_user
    from tenants.demo import geo_fleet
    from tenants.fleet.models import Driver

    with in_tenant(tenant_a):
        # what seed_demo makes before the master data
        user = create_user(
            email=geo_fleet.DEMO_DRIVER_EMAIL,
            name="Dave Driver",
            password=geo_fleet.DRIVER_PASSWORD,
            role=Role.objects.get(name="Driver"),
        )
        Driver.objects.create(user=user, name="Dave Driver", phone="+1 555 0100", licence_class="A")
        geo_fleet.seed()
        first = counts()
        geo_fleet.seed()
        assert (
            counts()
            == first
            == {
                "Region": 3,
                "Yard": 3,
                "AssetType": 5,
                "CompanyAsset": 8,
                "Driver": 5,
                "PaymentTerm": 4,
                "PaymentMethod": 5,
            }
        )
        dave = Driver.objects.get(user=user)
        assert dave.home_yard is not None and dave.hazmat_expiry is not None
        assert Driver.objects.filter(user__isnull=False).count() == 3

    session = anon.post(
        "/api/login", {"email": "maria.lopez@demo.fueldesk.test", "password": geo_fleet.DRIVER_PASSWORD}
    ).json()["data"]
    me = Api(session["access_token"])
    assert me.get("/api/profile").json()["data"]["driver"]["name"] == "Maria Lopez"
    trucks = me.get("/api/company-asset", {"size": 50}).json()["data"]
    assert trucks["total"] == 8
    assert all(sum(c["capacity"] for c in t["compartments"]) <= t["capacity"] for t in trucks["items"])
    admin = Api(
        anon.post("/api/login", {"email": tenant_a.admin_email, "password": "Correct-Horse-42"}).json()[
            "data"
        ]["access_token"]
    )
    maria = next(d for d in admin.get("/api/driver").json()["data"]["items"] if d["name"] == "Maria Lopez")
    assert maria["expiry_warnings"] == ["Hazmat endorsement expires in 21 days."]
    assert [
        t["name"] for t in admin.get("/api/payment-term", {"is_default": "true"}).json()["data"]["items"]
    ] == ["Net 30"]
