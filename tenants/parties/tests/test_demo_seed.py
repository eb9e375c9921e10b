def counts():
    from tenants.catalog.models import Product, ProductCategory, ProductSubCategory
    from tenants.parties.models import (
        ContactService,
        Customer,
        CustomerAsset,
        CustomerCompanyType,
        CustomerContact,
        ShipTo,
        Supplier,
        SupplierProductAlias,
        Terminal,
    )

    models = (
        ProductCategory,
        ProductSubCategory,
        Product,
        CustomerCompanyType,
        Customer,
        ShipTo,
        CustomerAsset,
        ContactService,
        CustomerContact,
        Supplier,
        Terminal,
        SupplierProductAlias,
    )
    return {m.__name__: m.objects.count() for m in models}


def test_demo_seed_is_idempotent(tenant_a, in_tenant, api_a):
    from tenants.demo import catalog_parties

    with in_tenant(tenant_a):
        catalog_parties.seed()
        first = counts()
        catalog_parties.seed()
        assert counts() == first
    assert first["Product"] == 22 and first["ProductCategory"] == 4 and first["Customer"] == 30
    assert first["ShipTo"] == 60 and 60 <= first["CustomerAsset"] <= 120
    assert first["Supplier"] == 4 and first["Terminal"] == 11 and first["SupplierProductAlias"] == 14
    assert first["CustomerContact"] == 19 and first["ContactService"] >= 6

    # The seeded rows read back through the API.
    products = api_a.get("/api/product/products", {"search": "diesel"}).json()["data"]
    assert {"ULSD-CLR", "ULSD-DYED"} <= {p["code"] for p in products["items"]}
    gulf = api_a.get("/api/supplier", {"search": "GCFS"}).json()["data"]["items"][0]
    assert len(gulf["terminals"]) == 4
    customer = api_a.get("/api/customer/customers", {"search": "Bayou City"}).json()["data"]["items"][0]
    tanks = api_a.get("/api/asset", {"customer_id": customer["id"]}).json()["data"]["items"]
    assert tanks and all(t["product"] for t in tanks)
