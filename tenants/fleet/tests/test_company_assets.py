import pytest

from conftest import Api, token_for

VIN = "1HGCM82633A004352"  # valid check digit
VIN_2 = "1M8GDM9AXKP042788"  # check digit X


@pytest.fixture
def truck_type(api_a):
    res = api_a.post(
        "/api/asset-type", {"name": "Tank truck", "category": "truck", "description": "Straight truck"}
    )
    assert res.status_code == 201, res.json()
    return res.json()["data"]


def asset_body(type_id, **over):
    body = {
        "asset_number": "T-101",
        "name": "Kenworth T370",
        "asset_type_id": type_id,
        "capacity": 3000,
        "compartments": [{"number": 2, "capacity": 1000}, {"number": 1, "capacity": 2000}],
        "plate": "abc-1234",
        "vin": VIN.lower(),
    }
    return {**body, **over}


# --- asset types ---------------------------------------------------------------------------------
def test_asset_type_crud(api_a):
    res = api_a.post("/api/asset-type", {"name": " Bobtail ", "category": "bobtail"})
    assert res.status_code == 201 and res.json()["message"] == "Asset type created successfully"
    kind = res.json()["data"]
    assert kind["name"] == "Bobtail" and kind["category"] == "bobtail" and kind["description"] == ""
    api_a.post("/api/asset-type", {"name": "Transport trailer", "category": "trailer"})
    all_types = api_a.get("/api/asset-type/all")
    assert all_types.status_code == 200
    assert [t["name"] for t in all_types.json()["data"]] == ["Bobtail", "Transport trailer"]
    res = api_a.put(f"/api/asset-type/{kind['id']}", {"category": "tank_wagon", "description": "Small"})
    assert res.status_code == 200 and res.json()["message"] == "Asset type updated successfully"
    assert res.json()["data"]["category"] == "tank_wagon"
    got = api_a.get(f"/api/asset-type/{kind['id']}")
    assert got.status_code == 200 and got.json()["data"]["description"] == "Small"
    assert api_a.get("/api/asset-type", {"category": "trailer"}).json()["data"]["total"] == 1
    res = api_a.delete(f"/api/asset-type/{kind['id']}")
    assert res.status_code == 200 and res.json()["message"] == "Asset type deleted successfully"


def test_asset_type_validation(api_a):
    res = api_a.post("/api/asset-type", {"name": "Spaceship", "category": "rocket"})
    assert res.status_code == 422 and res.json()["detail"].startswith("Invalid input: category")
    api_a.post("/api/asset-type", {"name": "Tank wagon", "category": "tank_wagon"})
    res = api_a.post("/api/asset-type", {"name": "TANK WAGON", "category": "tank_wagon"})
    assert res.status_code == 409 and res.json()["detail"] == "An asset type with this name already exists."


def test_deleting_an_asset_type_in_use_is_refused(api_a, truck_type):
    assert api_a.post("/api/company-asset", asset_body(truck_type["id"])).status_code == 201
    res = api_a.delete(f"/api/asset-type/{truck_type['id']}")
    assert res.status_code == 409 and "1 company asset." in res.json()["detail"]


# --- company assets ------------------------------------------------------------------------------
def test_company_asset_crud(api_a, truck_type):
    yard = api_a.post("/api/yard", {"name": "Houston Yard", "code": "HOU"}).json()["data"]
    res = api_a.post("/api/company-asset", asset_body(truck_type["id"], home_yard_id=yard["id"]))
    assert res.status_code == 201, res.json()
    assert res.json()["message"] == "Company asset created successfully"
    asset = res.json()["data"]
    assert asset["vin"] == VIN and asset["plate"] == "ABC-1234"
    assert asset["compartments"] == [{"number": 1, "capacity": 2000}, {"number": 2, "capacity": 1000}]
    assert asset["asset_type"] == {"id": truck_type["id"], "name": "Tank truck", "category": "truck"}
    assert asset["home_yard"] == {"id": yard["id"], "name": "Houston Yard", "code": "HOU"}

    res = api_a.get(f"/api/company-asset/{asset['id']}")
    assert res.status_code == 200 and res.json()["data"]["asset_number"] == "T-101"

    res = api_a.put(f"/api/company-asset/{asset['id']}", {"name": "Kenworth T370 (2019)", "is_active": False})
    assert res.status_code == 200
    assert res.json()["message"] == "Company asset updated successfully"
    assert res.json()["data"]["name"] == "Kenworth T370 (2019)" and res.json()["data"]["is_active"] is False
    assert res.json()["data"]["compartments"] == asset["compartments"]  # untouched by a partial update

    page = api_a.get("/api/company-asset").json()["data"]
    assert page["size"] == 10 and page["total"] == 1

    res = api_a.delete(f"/api/company-asset/{asset['id']}")
    assert res.status_code == 200 and res.json()["message"] == "Company asset deleted successfully"
    assert api_a.get(f"/api/company-asset/{asset['id']}").json() == {"detail": "Company asset not found"}


@pytest.mark.parametrize(
    ("vin", "why"),
    [
        ("1HGCM82633A00435", "exactly 17 characters (this one has 16)"),
        ("1HGCM82633A0O4352", "except I, O and Q (found 'O')"),
        ("1HGCM82633A004353", "the check digit (9th character) does not match"),
    ],
)
def test_bad_vin_is_a_422_that_says_why(api_a, truck_type, vin, why):
    res = api_a.post("/api/company-asset", asset_body(truck_type["id"], vin=vin))
    assert res.status_code == 422
    assert res.json()["detail"].startswith("vin: ") and why in res.json()["detail"]


def test_vin_and_asset_number_are_unique_but_vin_may_be_empty(api_a, truck_type):
    tid = truck_type["id"]
    assert api_a.post("/api/company-asset", asset_body(tid)).status_code == 201
    res = api_a.post("/api/company-asset", asset_body(tid, asset_number="t-101", vin=""))
    assert res.status_code == 409
    assert res.json()["detail"] == "A company asset with this asset number already exists."
    res = api_a.post("/api/company-asset", asset_body(tid, asset_number="T-102"))
    assert res.status_code == 409 and res.json()["detail"] == "A company asset with this VIN already exists."
    for number in ("T-103", "T-104"):
        assert (
            api_a.post("/api/company-asset", asset_body(tid, asset_number=number, vin="")).status_code == 201
        )


def test_compartments_over_capacity_are_refused(api_a, truck_type):
    tid = truck_type["id"]
    over = [{"number": 1, "capacity": 2000}, {"number": 2, "capacity": 1500}]
    res = api_a.post("/api/company-asset", asset_body(tid, compartments=over))
    assert res.status_code == 422
    assert res.json()["detail"] == (
        "compartments: the compartments hold 3,500 gal in total, more than the asset's capacity of 3,000 gal."
    )
    asset = api_a.post("/api/company-asset", asset_body(tid)).json()["data"]
    # shrinking the tank below its compartments is caught on update too
    res = api_a.put(f"/api/company-asset/{asset['id']}", {"capacity": 2500})
    assert res.status_code == 422 and "more than the asset's capacity of 2,500 gal" in res.json()["detail"]
    dup = [{"number": 1, "capacity": 100}, {"number": 1, "capacity": 100}]
    res = api_a.put(f"/api/company-asset/{asset['id']}", {"compartments": dup})
    assert res.status_code == 422 and "only once" in res.json()["detail"]
    res = api_a.put(f"/api/company-asset/{asset['id']}", {"compartments": [{"number": 0, "capacity": 10}]})
    assert res.status_code == 422 and "compartments" in res.json()["detail"]
    res = api_a.put(f"/api/company-asset/{asset['id']}", {"compartments": [], "capacity": 0})
    assert res.status_code == 200 and res.json()["data"]["compartments"] == []


def test_company_asset_list_search_sort_filter(api_a, truck_type):
    trailer = api_a.post("/api/asset-type", {"name": "Transport", "category": "trailer"}).json()["data"]
    rows = [
        ("T-1", "Peterbilt 348", truck_type["id"], 3000, True, VIN),
        ("T-2", "Kenworth T370", truck_type["id"], 4200, False, ""),
        ("TR-1", "Heil 9200", trailer["id"], 9200, True, VIN_2),
    ]
    for number, name, tid, cap, active, vin in rows:
        body = asset_body(
            tid, asset_number=number, name=name, capacity=cap, compartments=[], is_active=active, vin=vin
        )
        assert api_a.post("/api/company-asset", body).status_code == 201

    def numbers(params):
        res = api_a.get("/api/company-asset", params)
        assert res.status_code == 200, res.json()
        return [a["asset_number"] for a in res.json()["data"]["items"]]

    assert numbers({}) == ["T-1", "T-2", "TR-1"]
    assert numbers({"search": "kenworth"}) == ["T-2"]
    assert numbers({"search": "transport"}) == ["TR-1"]  # by type name
    assert numbers({"search": VIN_2[-6:]}) == ["TR-1"]
    assert numbers({"sort_by": "capacity", "order": "desc"}) == ["TR-1", "T-2", "T-1"]
    assert numbers({"category": "trailer"}) == ["TR-1"]
    assert numbers({"is_active": "true", "category": "truck"}) == ["T-1"]
    assert numbers(
        {"filter_field": "capacity", "filter_operator": "between", "filter_value": "4000,10000"}
    ) == ["T-2", "TR-1"]
    assert numbers({"size": 1, "page": 3}) == ["TR-1"]


def test_company_asset_list_query_count_is_bounded(api_a, tenant_a, in_tenant, django_assert_max_num_queries):
    from tenants.fleet.models import AssetType, CompanyAsset
    from tenants.geo.models import Yard

    with in_tenant(tenant_a):
        kinds = [AssetType.objects.create(name=f"Type {i}") for i in range(3)]
        yards = [Yard.objects.create(name=f"Yard {i}") for i in range(3)]
        CompanyAsset.objects.bulk_create(
            [
                CompanyAsset(
                    asset_number=f"U-{i:03}",
                    name=f"Unit {i}",
                    asset_type=kinds[i % 3],
                    home_yard=yards[i % 3],
                    capacity=3000,
                    compartments=[{"number": 1, "capacity": 3000}],
                )
                for i in range(40)
            ]
        )
    with django_assert_max_num_queries(8):
        res = api_a.get("/api/company-asset", {"size": 100})
    assert res.status_code == 200 and len(res.json()["data"]["items"]) == 40
    with django_assert_max_num_queries(8):
        assert len(api_a.get("/api/company-asset/all").json()["data"]) == 40


def test_company_asset_permissions(tenant_a, api_a, truck_type):
    sales = Api(token_for(tenant_a, role="Sales"))
    res = sales.post("/api/company-asset", asset_body(truck_type["id"]))
    assert res.status_code == 403
    assert res.json()["detail"] == "You do not have permission to create company assets."
    assert sales.get("/api/company-asset").status_code == 403
    asset = api_a.post("/api/company-asset", asset_body(truck_type["id"])).json()["data"]
    # the driver portal's 'Change Trucks' modal lists trucks; drivers may look but not touch
    driver = Api(token_for(tenant_a, role="Driver"))
    listed = driver.get("/api/company-asset", {"size": 100})
    assert listed.status_code == 200 and listed.json()["data"]["items"][0]["id"] == asset["id"]
    res = driver.put(f"/api/company-asset/{asset['id']}", {"name": "Mine now"})
    assert res.status_code == 403
    assert driver.delete(f"/api/company-asset/{asset['id']}").status_code == 403
    assert driver.post("/api/asset-type", {"name": "x"}).status_code == 403


def test_company_assets_are_per_tenant(api_a, api_b, truck_type):
    asset = api_a.post("/api/company-asset", asset_body(truck_type["id"])).json()["data"]
    assert api_b.get(f"/api/company-asset/{asset['id']}").status_code == 404
    assert api_b.put(f"/api/company-asset/{asset['id']}", {"name": "x"}).status_code == 404
    other_type = api_b.post("/api/asset-type", {"name": "B type"}).json()["data"]
    # the same asset number and VIN may exist in another company
    assert api_b.post("/api/company-asset", asset_body(other_type["id"])).status_code == 201
