"""The planner's data through the API: routing settings, per-truck routing data, drivers' shifts and
site constraints (happy paths, rules with their exact sentences, nothing changed on bad input, roles)."""

from __future__ import annotations

from conftest import Api, token_for
from tenants.routing.tests.helpers import DRIVER_SHIFT, SETTINGS, SITE, TRUCK_ROUTING


def test_settings_answer_the_defaults_until_saved_then_what_was_saved(api_a, tenant_a, in_tenant, settings):
    settings.CSP_CONNECT_SRC = ["https://tiles.example"]  # the operator allows the map's site
    got = api_a.get(SETTINGS).json()["data"]
    assert got["saved"] is False
    assert (
        got["circuity"] == "1.30" and got["speed_mph"] == "35.0" and got["hours_of_service"] == "us_property"
    )

    body = {
        "circuity": "1.25",
        "speed_mph": "42",
        "osrm_url": "http://osrm.local:5000",
        "map_tile_url": "https://tiles.example/{z}/{x}/{y}.png",
        "service_fixed_minutes": 20,
        "pump_gpm": "80",
        "hours_of_service": "custom",
        "max_duty_hours": "12",
        "default_seconds": 45,
    }
    res = api_a.put(SETTINGS, body)
    assert res.status_code == 200, res.json()
    assert res.json()["message"] == "Routing settings saved successfully"
    got = api_a.get(SETTINGS).json()["data"]
    assert got["saved"] is True
    assert (got["circuity"], got["speed_mph"], got["pump_gpm"], got["max_duty_hours"]) == (
        "1.25",
        "42.0",
        "80.0",
        "12.00",
    )
    assert got["osrm_url"] == "http://osrm.local:5000" and got["default_seconds"] == 45

    # A second save updates the one row.
    assert api_a.put(SETTINGS, {**body, "circuity": "1.4"}).status_code == 200
    with in_tenant(tenant_a):
        from tenants.routing.models import RoutingSettings

        assert RoutingSettings.objects.count() == 1
        assert str(RoutingSettings.objects.get().circuity) == "1.40"


def test_bad_settings_are_refused_and_change_nothing(api_a, tenant_a, in_tenant):
    assert api_a.put(SETTINGS, {"circuity": "1.2"}).status_code == 200
    for bad in ({"circuity": "0.5"}, {"speed_mph": "0"}, {"osrm_url": "ftp://x"}, {"hours_of_service": "eu"}):
        res = api_a.put(SETTINGS, bad)
        assert res.status_code == 422, (bad, res.json())
        assert "detail" in res.json()
    assert api_a.get(SETTINGS).json()["data"]["circuity"] == "1.20"


def test_a_map_url_the_pages_security_policy_would_block_is_refused_when_saved(api_a, settings):
    settings.CSP_CONNECT_SRC = ["https://*.maptiles.example", "https://sentry.example"]
    assert api_a.put(SETTINGS, {"circuity": "1.2"}).status_code == 200
    # The screen says which sites are allowed before anyone types a URL.
    allowed = api_a.get(SETTINGS).json()["data"]["map_allowed_sites"]
    assert allowed == ["https://*.maptiles.example", "https://sentry.example"]
    res = api_a.put(SETTINGS, {"map_style_url": "https://api.other-tiles.example:8443/styles/basic.json"})
    assert res.status_code == 422
    assert res.json()["detail"] == (
        "Browsers would refuse the map style URL: its site https://api.other-tiles.example:8443 is not "
        "allowed by this server's security policy (CSP connect-src). Ask your FuelDesk operator to add "
        "https://api.other-tiles.example:8443 to CSP_CONNECT_SRC, or use a map from a site already allowed."
    )
    assert res.json()["errors"] == [
        {
            "loc": ["body", "payload", "map_style_url"],
            "msg": "https://api.other-tiles.example:8443 is not allowed by this server's security "
            "policy (CSP_CONNECT_SRC)",
            "type": "csp_blocked",
        }
    ]
    plain_http = "http://a.maptiles.example/{z}/{x}/{y}.png"  # the wildcard names https only
    assert api_a.put(SETTINGS, {"map_tile_url": plain_http}).status_code == 422
    got = api_a.get(SETTINGS).json()["data"]
    assert (got["map_style_url"], got["map_tile_url"], got["circuity"]) == ("", "", "1.20")

    # A site the policy names (here by its wildcard), and this site itself, are saved.
    tiles = "https://a.maptiles.example/{z}/{x}/{y}.png"
    assert api_a.put(SETTINGS, {"map_tile_url": tiles}).status_code == 200
    own = "http://testserver/maps/style.json"
    assert api_a.put(SETTINGS, {"map_style_url": own}).status_code == 200
    assert api_a.get(SETTINGS).json()["data"]["map_style_url"] == own


def test_a_role_without_the_permission_cannot_change_settings_and_a_dispatcher_can(api_a, tenant_a):
    accounting = Api(token_for(tenant_a, role="Accounting", email="acc-routing@alpha.test"))
    res = accounting.put(SETTINGS, {"circuity": "2"})
    assert res.status_code == 403
    assert api_a.get(SETTINGS).json()["data"]["saved"] is False
    dispatcher = Api(token_for(tenant_a, role="Dispatcher", email="disp-routing@alpha.test"))
    assert dispatcher.put(SETTINGS, {"circuity": "2"}).status_code == 200
    assert api_a.get(SETTINGS).json()["data"]["circuity"] == "2.00"


def test_truck_routing_crud_and_its_rules(api_a, tenant_a, in_tenant):
    from tenants.sales.tests.helpers import master_data

    with in_tenant(tenant_a):
        md = master_data()
    truck, trailer, diesel, oil = md["truck"], md["trailer"], md["diesel"], md["oil"]

    res = api_a.post(
        TRUCK_ROUTING,
        {
            "truck_id": truck.pk,
            "product_ids": [diesel.pk],
            "cost_per_mile": "3.10",
            "skills": [" Hose_150ft ", "pump"],
        },
    )
    assert res.status_code == 201, res.json()
    row = res.json()["data"]
    assert row["truck_number"] == "T-101" and row["product_ids"] == [diesel.pk]
    assert row["skills"] == ["hose_150ft", "pump"] and row["cost_per_mile"] == "3.10" and row["plans"] is True

    # One per truck.
    res = api_a.post(TRUCK_ROUTING, {"truck_id": truck.pk})
    assert res.status_code == 409
    assert res.json()["detail"] == "Truck T-101 already has its routing data: edit it instead."
    # A trailer is not a truck; a drum is not carried in a tank.
    res = api_a.post(TRUCK_ROUTING, {"truck_id": trailer.pk})
    assert res.status_code == 422
    assert res.json()["detail"] == "TR-1 is not a truck (it is a trailer)."
    res = api_a.put(f"{TRUCK_ROUTING}/{row['id']}", {"product_ids": [diesel.pk, oil.pk]})
    assert res.status_code == 422
    assert res.json()["detail"] == f"Product {oil.pk} is not a fuel: a truck's tank carries fuels only."
    assert api_a.get(f"{TRUCK_ROUTING}/{row['id']}").json()["data"]["product_ids"] == [diesel.pk]  # unchanged

    res = api_a.put(f"{TRUCK_ROUTING}/{row['id']}", {"plans": False, "product_ids": []})
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["plans"] is False and res.json()["data"]["product_ids"] == []
    listed = api_a.get(TRUCK_ROUTING).json()["data"]
    assert [r["truck_number"] for r in listed["items"]] == ["T-101"]
    assert api_a.delete(f"{TRUCK_ROUTING}/{row['id']}").status_code == 200
    assert api_a.get(TRUCK_ROUTING).json()["data"]["total"] == 0


def test_driver_shift_crud_and_its_rules(api_a, tenant_a, in_tenant):
    from tenants.sales.tests.helpers import master_data

    with in_tenant(tenant_a):
        md = master_data()
    body = {
        "driver_id": md["driver"].pk,
        "truck_id": md["truck"].pk,
        "start": "06:00",
        "end": "17:30",
        "days": [5, 1, 1],
    }
    res = api_a.post(DRIVER_SHIFT, body)
    assert res.status_code == 201, res.json()
    shift = res.json()["data"]
    assert shift["driver_name"] == "Dana Driver" and shift["days"] == [1, 5]
    assert (shift["start"], shift["end"]) == ("06:00:00", "17:30:00")

    res = api_a.post(DRIVER_SHIFT, body)
    assert res.status_code == 409
    assert res.json()["detail"] == "Dana Driver already has a shift: edit it instead."
    res = api_a.put(f"{DRIVER_SHIFT}/{shift['id']}", {"end": "06:00"})
    assert res.status_code == 422
    assert res.json()["detail"] == "A shift must end after it starts."
    res = api_a.put(f"{DRIVER_SHIFT}/{shift['id']}", {"truck_id": md["trailer"].pk})
    assert res.status_code == 422
    assert res.json()["detail"] == "TR-1 is not a truck (it is a trailer)."
    got = api_a.get(f"{DRIVER_SHIFT}/{shift['id']}").json()["data"]
    assert (got["end"], got["truck_id"]) == ("17:30:00", md["truck"].pk)  # unchanged
    res = api_a.put(f"{DRIVER_SHIFT}/{shift['id']}", {"max_duty_hours": "11", "days": [1, 2, 3]})
    assert res.status_code == 200 and res.json()["data"]["max_duty_hours"] == "11.00"
    assert api_a.get(DRIVER_SHIFT).json()["data"]["items"][0]["days"] == [1, 2, 3]


def test_site_constraints_crud_and_one_per_ship_to(api_a, tenant_a, in_tenant):
    from tenants.sales.tests.helpers import master_data

    with in_tenant(tenant_a):
        md = master_data()
    res = api_a.post(
        SITE, {"ship_to_id": md["ship_to"].pk, "max_truck_gallons": 3000, "skills": ["hose_150ft"]}
    )
    assert res.status_code == 201, res.json()
    site = res.json()["data"]
    assert site["ship_to_name"] == "Main yard" and site["max_truck_gallons"] == 3000
    res = api_a.post(SITE, {"ship_to_id": md["ship_to"].pk})
    assert res.status_code == 409
    assert res.json()["detail"] == "Ship-to Main yard already has its site constraints: edit them instead."
    res = api_a.post(SITE, {"ship_to_id": 987654})
    assert res.status_code == 422 and res.json()["detail"] == "No ship-to with id 987654."
    assert api_a.put(f"{SITE}/{site['id']}", {"extra_service_minutes": 10}).status_code == 200
    assert api_a.get(f"{SITE}/{site['id']}").json()["data"]["extra_service_minutes"] == 10
    assert api_a.get(SITE).json()["data"]["total"] == 1
    driver = Api(token_for(tenant_a, role="Driver", email="drv-routing@alpha.test"))
    assert driver.post(SITE, {"ship_to_id": md["ship_to"].pk}).status_code == 403


def test_each_list_has_all_export_and_delete(api_a, tenant_a, in_tenant):
    from tenants.sales.tests.helpers import master_data

    with in_tenant(tenant_a):
        md = master_data()
    made = {
        TRUCK_ROUTING: api_a.post(TRUCK_ROUTING, {"truck_id": md["truck"].pk}),
        DRIVER_SHIFT: api_a.post(
            DRIVER_SHIFT, {"driver_id": md["driver"].pk, "start": "07:00", "end": "15:00"}
        ),
        SITE: api_a.post(SITE, {"ship_to_id": md["ship_to"].pk, "max_truck_gallons": 2500}),
    }
    for path, res in made.items():
        assert res.status_code == 201, res.json()
        row_id = res.json()["data"]["id"]
        everything = api_a.get(f"{path}/all")
        assert everything.status_code == 200
        assert [r["id"] for r in everything.json()["data"]] == [row_id]
        csv = api_a.get(f"{path}/export")
        assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
        text = b"".join(csv.streaming_content).decode("utf-8-sig")
        assert len(text.strip().splitlines()) == 2  # header + the row
        assert api_a.delete(f"{path}/{row_id}").status_code == 200
        assert api_a.get(f"{path}/{row_id}").status_code == 404


def test_site_constraints_name_the_customer_and_filter_by_it(api_a, tenant_a, in_tenant):
    """The sites screen lists every customer's ship-tos; the customer page lists its own."""
    from tenants.sales.tests.helpers import master_data

    with in_tenant(tenant_a):
        md = master_data()
    customer_id = md["ship_to"].customer_id
    res = api_a.post(SITE, {"ship_to_id": md["ship_to"].pk, "max_truck_gallons": 2800})
    assert res.status_code == 201, res.json()
    row = res.json()["data"]
    assert row["customer_id"] == customer_id and row["customer_name"] == md["ship_to"].customer.name
    mine = api_a.get(SITE, {"customer_id": customer_id}).json()["data"]
    assert [r["id"] for r in mine["items"]] == [row["id"]]
    assert api_a.get(SITE, {"customer_id": customer_id + 9999}).json()["data"]["total"] == 0
    found = api_a.get(SITE, {"search": md["ship_to"].customer.name[:5], "sort_by": "customer_name"})
    assert found.status_code == 200 and found.json()["data"]["total"] == 1
    # Bad input is a 4xx naming the field, never a 500.
    res = api_a.put(f"{SITE}/{row['id']}", {"max_truck_gallons": -5})
    assert res.status_code == 422 and "detail" in res.json()
    res = api_a.post(SITE, {"ship_to_id": md["ship_to"].pk, "extra_service_minutes": 601})
    assert res.status_code == 422 and "detail" in res.json()
