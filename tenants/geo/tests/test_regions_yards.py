import pytest

from conftest import Api, token_for


@pytest.fixture
def texas(tenant_a, in_tenant):
    from tenants.geo.models import City, State

    with in_tenant(tenant_a):
        tx = State.objects.create(name="Texas", code="TX")
        la = State.objects.create(name="Louisiana", code="LA")
        houston = City.objects.create(name="Houston", state=tx)
        baton_rouge = City.objects.create(name="Baton Rouge", state=la)
    return {"tx": tx.pk, "la": la.pk, "houston": houston.pk, "baton_rouge": baton_rouge.pk}


def test_region_crud(api_a):
    res = api_a.post("/api/region", {"name": " Gulf Coast ", "code": "gc", "description": "TX and LA coast"})
    assert res.status_code == 201, res.json()
    body = res.json()
    assert body["message"] == "Region created successfully"
    region = body["data"]
    assert (region["name"], region["code"]) == ("Gulf Coast", "GC")

    res = api_a.get(f"/api/region/{region['id']}")
    assert res.status_code == 200 and res.json()["data"]["description"] == "TX and LA coast"

    res = api_a.put(f"/api/region/{region['id']}", {"description": "Coastal"})
    assert res.status_code == 200 and res.json()["message"] == "Region updated successfully"
    assert res.json()["data"]["name"] == "Gulf Coast" and res.json()["data"]["description"] == "Coastal"

    page = api_a.get("/api/region").json()["data"]
    assert page["size"] == 25 and page["total"] == 1 and page["items"][0]["id"] == region["id"]
    assert [r["name"] for r in api_a.get("/api/region/all").json()["data"]] == ["Gulf Coast"]

    res = api_a.delete(f"/api/region/{region['id']}")
    assert res.status_code == 200 and res.json()["message"] == "Region deleted successfully"
    assert api_a.get(f"/api/region/{region['id']}").status_code == 404


def test_region_names_and_codes_are_unique_ignoring_case(api_a):
    assert api_a.post("/api/region", {"name": "Central", "code": "CEN"}).status_code == 201
    dup = api_a.post("/api/region", {"name": "central"})
    assert dup.status_code == 409 and dup.json()["detail"] == "A region with this name already exists."
    dup = api_a.post("/api/region", {"name": "Middle", "code": "cen"})
    assert dup.status_code == 409 and dup.json()["detail"] == "A region with this code already exists."
    # an empty code is not a clash
    assert api_a.post("/api/region", {"name": "North"}).status_code == 201
    assert api_a.post("/api/region", {"name": "South"}).status_code == 201


def test_region_name_is_required(api_a):
    res = api_a.post("/api/region", {"name": "   "})
    assert res.status_code == 422 and "name" in res.json()["detail"]
    region = api_a.post("/api/region", {"name": "East"}).json()["data"]
    res = api_a.put(f"/api/region/{region['id']}", {"name": ""})
    assert res.status_code == 422 and "name" in res.json()["detail"]


def test_yard_crud_with_location(api_a, texas):
    region = api_a.post("/api/region", {"name": "Gulf Coast"}).json()["data"]
    res = api_a.post(
        "/api/yard",
        {
            "name": "Houston Yard",
            "code": "hou",
            "address": "1200 Clinton Dr",
            "zip_code": "77020",
            "city_id": texas["houston"],
            "region_id": region["id"],
            "latitude": 29.7604271234,
            "longitude": -95.3698,
        },
    )
    assert res.status_code == 201, res.json()
    yard = res.json()["data"]
    assert yard["code"] == "HOU"
    assert yard["state_id"] == texas["tx"] and yard["state"]["code"] == "TX"  # taken from the city
    assert yard["city"] == {"id": texas["houston"], "name": "Houston"}
    assert yard["region"]["name"] == "Gulf Coast"
    assert yard["latitude"] == pytest.approx(29.760427) and yard["longitude"] == pytest.approx(-95.3698)
    assert yard["is_active"] is True

    res = api_a.put(f"/api/yard/{yard['id']}", {"is_active": False, "region_id": None})
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["is_active"] is False and res.json()["data"]["region"] is None

    assert api_a.delete(f"/api/yard/{yard['id']}").json()["message"] == "Yard deleted successfully"


def test_yard_validation(api_a, texas):
    res = api_a.post("/api/yard", {"name": "Wrong", "state_id": texas["tx"], "city_id": texas["baton_rouge"]})
    assert res.status_code == 422 and res.json()["detail"] == "city_id: The city is not in the chosen state."
    res = api_a.post("/api/yard", {"name": "Half", "latitude": 29.7})
    assert res.status_code == 422 and "latitude and longitude" in res.json()["detail"]
    res = api_a.post("/api/yard", {"name": "Far", "latitude": 91, "longitude": 0})
    assert res.status_code == 422 and "latitude" in res.json()["detail"]
    res = api_a.post("/api/yard", {"name": "Ghost", "region_id": 999999})
    assert res.status_code == 422 and res.json()["detail"] == "region_id: no region with id 999999."
    assert api_a.post("/api/yard", {"name": "Dallas Yard", "code": "DAL"}).status_code == 201
    dup = api_a.post("/api/yard", {"name": "Dallas 2", "code": "dal"})
    assert dup.status_code == 409 and dup.json()["detail"] == "A yard with this code already exists."


def test_yard_list_search_sort_filter(api_a, texas):
    gulf = api_a.post("/api/region", {"name": "Gulf Coast"}).json()["data"]["id"]
    north = api_a.post("/api/region", {"name": "North Texas"}).json()["data"]["id"]
    for name, city, region, active in [
        ("Houston", texas["houston"], gulf, True),
        ("Baton Rouge", texas["baton_rouge"], gulf, True),
        ("Dallas", None, north, False),
    ]:
        body = {"name": f"{name} Yard", "city_id": city, "region_id": region, "is_active": active}
        assert api_a.post("/api/yard", body).status_code == 201

    def names(params):
        res = api_a.get("/api/yard", params)
        assert res.status_code == 200, res.json()
        return [y["name"] for y in res.json()["data"]["items"]]

    assert names({}) == ["Baton Rouge Yard", "Dallas Yard", "Houston Yard"]
    assert names({"search": "louisiana"}) == ["Baton Rouge Yard"]  # by state name
    assert names({"search": "north"}) == ["Dallas Yard"]  # by region name
    assert names({"sort_by": "name", "order": "desc"}) == ["Houston Yard", "Dallas Yard", "Baton Rouge Yard"]
    assert names({"region_id": gulf}) == ["Baton Rouge Yard", "Houston Yard"]
    assert names({"is_active": "false"}) == ["Dallas Yard"]
    assert names({"filter_field": "region", "filter_operator": "startsWith", "filter_value": "gulf"}) == [
        "Baton Rouge Yard",
        "Houston Yard",
    ]
    bad = api_a.get("/api/yard", {"sort_by": "latitude"})
    assert bad.status_code == 422 and bad.json()["detail"].startswith("Cannot sort by 'latitude'")
    page = api_a.get("/api/yard", {"page": 2, "size": 2}).json()["data"]
    assert (
        page["total"] == 3 and page["pages"] == 2 and [y["name"] for y in page["items"]] == ["Houston Yard"]
    )


def test_yard_list_query_count_is_bounded(api_a, tenant_a, in_tenant, texas, django_assert_max_num_queries):
    from tenants.geo.models import Region, Yard

    with in_tenant(tenant_a):
        regions = Region.objects.bulk_create([Region(name=f"Region {i}") for i in range(5)])
        Yard.objects.bulk_create(
            [
                Yard(
                    name=f"Yard {i:02}",
                    code=f"Y{i}",
                    region=regions[i % 5],
                    state_id=texas["tx"],
                    city_id=texas["houston"],
                )
                for i in range(35)
            ]
        )
    with django_assert_max_num_queries(8):
        res = api_a.get("/api/yard", {"size": 100})
    assert res.status_code == 200 and len(res.json()["data"]["items"]) == 35
    with django_assert_max_num_queries(8):
        res = api_a.get("/api/yard/all")
    assert len(res.json()["data"]) == 35


def test_deleting_a_yard_in_use_is_refused(api_a, tenant_a, in_tenant):
    yard = api_a.post("/api/yard", {"name": "Houston Yard"}).json()["data"]
    kind = api_a.post("/api/asset-type", {"name": "Transport", "category": "trailer"}).json()["data"]
    asset = api_a.post(
        "/api/company-asset",
        {
            "asset_number": "TR-1",
            "name": "Trailer 1",
            "asset_type_id": kind["id"],
            "home_yard_id": yard["id"],
        },
    )
    assert asset.status_code == 201, asset.json()
    res = api_a.delete(f"/api/yard/{yard['id']}")
    assert res.status_code == 409
    assert res.json()["detail"] == (
        "This record cannot be deleted because it is used by 1 company asset. Deactivate it instead."
    )
    assert api_a.get(f"/api/yard/{yard['id']}").status_code == 200


def test_deleting_a_region_in_use_is_refused(api_a):
    region = api_a.post("/api/region", {"name": "Central"}).json()["data"]
    api_a.post("/api/yard", {"name": "Austin Yard", "region_id": region["id"]})
    res = api_a.delete(f"/api/region/{region['id']}")
    assert res.status_code == 409 and "1 yard." in res.json()["detail"]


def test_roles_without_yard_permissions_are_refused(tenant_a, api_a):
    sales = Api(token_for(tenant_a, role="Sales"))
    res = sales.post("/api/yard", {"name": "Nope"})
    assert res.status_code == 403 and res.json()["detail"] == "You do not have permission to create yards."
    assert sales.get("/api/region").status_code == 403
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    assert dispatcher.post("/api/region", {"name": "Dispatch made"}).status_code == 201
    assert Api(None).get("/api/yard").status_code == 401


def test_yards_are_per_tenant(api_a, api_b):
    yard = api_a.post("/api/yard", {"name": "Alpha Only"}).json()["data"]
    assert api_b.get(f"/api/yard/{yard['id']}").status_code == 404
    assert api_b.get("/api/yard").json()["data"]["total"] == 0
