import pytest

from conftest import Api, token_for
from tenants.parties.tests.helpers import ASSETS, SHIP_TOS, asset, customer, place, product, ship_to


def test_ship_to_crud(api_a, in_tenant, tenant_a):
    _, houston = place(in_tenant, tenant_a)
    c = customer(api_a)
    res = api_a.post(
        SHIP_TOS,
        {
            "customer_id": c["id"],
            "name": "Katy job site",
            "address_one": "25000 I-10",
            "city_id": houston,
            "zip_code": "77494",
            "latitude": "29.785785",
            "longitude": -95.824396,
            "delivery_instructions": "Fill both tanks",
            "access_hours": "Mon-Fri 6am-4pm",
        },
    )
    assert res.status_code == 201, res.json()
    s = res.json()["data"]
    assert s["customer"] == {"id": c["id"], "name": c["name"], "account_number": c["account_number"]}
    assert s["latitude"] == pytest.approx(29.785785) and s["state"]["code"] == "TX" and s["is_active"] is True
    res = api_a.put(f"{SHIP_TOS}/{s['id']}", {"is_active": False, "access_hours": None})
    assert res.status_code == 200 and res.json()["data"]["is_active"] is False
    assert res.json()["data"]["access_hours"] == ""
    assert api_a.get(f"{SHIP_TOS}/{s['id']}").json()["data"]["name"] == "Katy job site"
    assert api_a.delete(f"{SHIP_TOS}/{s['id']}").status_code == 200


@pytest.mark.parametrize(
    "coords", [{"latitude": 91}, {"latitude": "-90.5"}, {"longitude": 181}, {"longitude": "abc"}]
)
def test_ship_to_coordinates_are_range_checked(api_a, coords):
    c = customer(api_a)
    res = api_a.post(SHIP_TOS, {"customer_id": c["id"], "name": "Somewhere", **coords})
    assert res.status_code == 422
    assert next(iter(coords)) in res.json()["detail"]


def test_ship_to_needs_an_existing_customer(api_a):
    res = api_a.post(SHIP_TOS, {"customer_id": 999999, "name": "Nowhere"})
    assert res.status_code == 422 and res.json()["detail"] == "customer_id: no customer with id 999999."
    assert api_a.post(SHIP_TOS, {"name": "Nowhere"}).status_code == 422


def test_ship_to_list_by_customer(api_a, django_assert_max_num_queries, in_tenant, tenant_a):
    _, houston = place(in_tenant, tenant_a)
    a, b = customer(api_a, "Alpha Farms"), customer(api_a, "Beta Oil")
    for i in range(31):
        ship_to(api_a, (a if i % 3 else b)["id"], f"Site {i:02d}", city_id=houston)
    with django_assert_max_num_queries(8):
        page = api_a.get(SHIP_TOS).json()["data"]
    assert page["total"] == 31 and page["size"] == 100
    page = api_a.get(SHIP_TOS, {"customer_id": b["id"]}).json()["data"]
    assert page["total"] == 11 and {r["customer_id"] for r in page["items"]} == {b["id"]}
    page = api_a.get(SHIP_TOS, {"search": "beta", "sort_by": "name", "order": "desc"}).json()["data"]
    assert page["total"] == 11 and page["items"][0]["name"] == "Site 30"


def test_asset_crud_and_ownership(api_a):
    c = customer(api_a)
    other = customer(api_a, "Other Co")
    site = ship_to(api_a, c["id"])
    diesel = product(api_a, "ULSD")
    res = api_a.post(
        ASSETS,
        {
            "asset_name": "Tank 1",
            "ship_to_id": site["id"],
            "product_id": diesel["id"],
            "capacity": "1000",
            "tank_type": "above_ground",
            "serial_number": "SN-1",
        },
    )
    assert res.status_code == 201, res.json()
    tank = res.json()["data"]
    assert tank["customer_id"] == c["id"]  # from its ship-to
    assert tank["product"]["products_id"] == diesel["id"] and tank["ship_to"]["name"] == "Main yard"

    res = api_a.post(ASSETS, {"asset_name": "Tank 2", "customer_id": other["id"], "ship_to_id": site["id"]})
    assert (
        res.status_code == 422
        and res.json()["detail"] == "ship_to_id: this ship-to belongs to another customer."
    )
    assert api_a.post(ASSETS, {"asset_name": "Loose"}).status_code == 422
    loose = api_a.post(ASSETS, {"asset_name": "Generator", "customer_id": c["id"], "tank_type": "equipment"})
    assert loose.status_code == 201 and loose.json()["data"]["ship_to_id"] is None
    assert api_a.post(ASSETS, {"asset_name": "T", "customer_id": c["id"], "capacity": -1}).status_code == 422
    assert (
        api_a.post(ASSETS, {"asset_name": "T", "customer_id": c["id"], "tank_type": "pond"}).status_code
        == 422
    )

    res = api_a.put(f"{ASSETS}/{tank['id']}", {"capacity": "2000.50", "asset_name": "Tank A"})
    assert res.status_code == 200 and res.json()["data"]["asset_name"] == "Tank A"
    res = api_a.put(f"{ASSETS}/{tank['id']}", {"customer_id": other["id"]})
    assert res.status_code == 422
    assert api_a.delete(f"{ASSETS}/{tank['id']}").status_code == 200


def test_listing_assets_needs_a_customer_or_a_valid_ship_to(api_a, django_assert_max_num_queries):
    c = customer(api_a)
    sites = [ship_to(api_a, c["id"], f"Site {i}") for i in range(3)]
    diesel = product(api_a)
    for i in range(33):
        asset(api_a, sites[i % 3]["id"], f"Tank {i:02d}", product_id=diesel["id"])
    for bad in ("abc", "0", "-3", "1.5", "", "\u00b9", "99999999999999999999999"):
        res = api_a.get(ASSETS, {"ship_to_id": bad})
        assert res.status_code == 422, bad
        assert res.json()["detail"] == "Invalid delivery location"
    res = api_a.get(ASSETS)
    assert res.status_code == 422 and "customer_id or a ship_to_id" in res.json()["detail"]
    with django_assert_max_num_queries(8):
        page = api_a.get(ASSETS, {"customer_id": c["id"]}).json()["data"]
    assert page["total"] == 33
    page = api_a.get(ASSETS, {"ship_to_id": sites[1]["id"], "sort_by": "asset_name"}).json()["data"]
    assert page["total"] == 11 and page["items"][0]["asset_name"] == "Tank 01"


def test_deleting_a_ship_to_with_tanks_is_refused(api_a):
    c = customer(api_a)
    site = ship_to(api_a, c["id"])
    asset(api_a, site["id"])
    res = api_a.delete(f"{SHIP_TOS}/{site['id']}")
    assert res.status_code == 409 and "1 customer asset." in res.json()["detail"]
    other = customer(api_a, "Other")
    res = api_a.put(f"{SHIP_TOS}/{site['id']}", {"customer_id": other["id"]})
    assert res.status_code == 409 and "cannot move to another customer" in res.json()["detail"]


def test_asset_and_ship_to_permissions(tenant_a, api_a):
    c = customer(api_a)
    site = ship_to(api_a, c["id"])
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get(ASSETS, {"ship_to_id": site["id"]}).status_code == 200
    assert driver.get(SHIP_TOS).status_code == 200
    res = driver.post(ASSETS, {"asset_name": "T", "ship_to_id": site["id"]})
    assert res.status_code == 403 and res.json()["detail"] == "You do not have permission to create assets."
    assert driver.post(SHIP_TOS, {"customer_id": c["id"], "name": "X"}).status_code == 403
    assert driver.delete(f"{SHIP_TOS}/{site['id']}").status_code == 403


def test_ship_to_search_through_related_rows_finds_what_a_join_finds(api_a, in_tenant, tenant_a, monkeypatch):
    """A search over the customer's name/account number and the city's name (core.listing.search_q):
    the list matches the related rows in a subquery of its statement (kept and run again on the
    second request); it finds the same ship-tos as the related ids inlined or the join, and a term
    no related row has still searches the ship-to's own fields."""
    from core import listing
    from core.crud import REGISTRY

    from tenants.parties.models import ShipTo

    (crud,) = [c for c in REGISTRY if c.resource == "customer_ship_to"]
    _, houston = place(in_tenant, tenant_a)
    _, tulsa = place(in_tenant, tenant_a, "OK", "Tulsa")
    rivers = customer(api_a, "Red River Excavating", account_number="RR-100")
    dunes = customer(api_a, "Dune Trucking", account_number="DT-200")
    ship_to(api_a, rivers["id"], "North yard", city_id=houston)
    ship_to(api_a, rivers["id"], "Quarry gate", city_id=tulsa)
    ship_to(api_a, dunes["id"], "River bend site", city_id=houston)
    ship_to(api_a, dunes["id"], "Depot", address_one="12 Tulsa Road")
    terms = {"river": 3, "rr-1": 2, "tulsa": 2, "HOUSTON": 2, "depot": 1, "nowhere": 0}
    for term, count in terms.items():
        listed = []
        for _ in range(2):  # learned, then kept
            res = api_a.get(SHIP_TOS, {"search": term, "sort_by": "name"})
            assert res.status_code == 200, res.json()
            listed.append([r["name"] for r in res.json()["data"]["items"]])
        assert listed[0] == listed[1] and len(listed[0]) == count, (term, listed)
        with in_tenant(tenant_a):
            for inline in (1000, 0):  # 0: every related match is over the limit, so the join is used
                monkeypatch.setattr(listing, "RELATED_IDS_INLINE", inline)
                query = listing.search_q(ShipTo, crud.spec.search, term, "icontains")
                assert sorted(ShipTo.objects.filter(query).values_list("name", flat=True)) == listed[0]
    by_id = crud.statements.by_id if crud.statements else None
    assert listed and by_id is not None and by_id.kept is not None  # read ids-first, both statements kept
    res = api_a.get(SHIP_TOS, {"search": "river", "sort_by": "name"})
    names = [r["name"] for r in res.json()["data"]["items"]]
    assert names == ["North yard", "Quarry gate", "River bend site"]
