import datetime as dt

import pytest
from django.utils import timezone

from conftest import PASSWORD, Api, token_for

DRIVER_PASSWORD = "Haul-Diesel-2026"


def in_days(n):
    return (timezone.localdate() + dt.timedelta(days=n)).isoformat()


def test_driver_crud(api_a):
    region = api_a.post("/api/region", {"name": "Gulf Coast"}).json()["data"]
    yard = api_a.post("/api/yard", {"name": "Houston Yard", "region_id": region["id"]}).json()["data"]
    res = api_a.post(
        "/api/driver",
        {
            "name": " Rosa Diaz ",
            "phone": "+1 713 555 0142",
            "email": "Rosa@Example.com",
            "licence_class": "A",
            "licence_expiry": in_days(400),
            "hazmat_expiry": in_days(200),
            "home_yard_id": yard["id"],
            "region_id": region["id"],
        },
    )
    assert res.status_code == 201, res.json()
    assert res.json()["message"] == "Driver created successfully"
    driver = res.json()["data"]
    assert driver["name"] == "Rosa Diaz" and driver["email"] == "rosa@example.com"
    assert driver["home_yard"]["name"] == "Houston Yard" and driver["region"]["name"] == "Gulf Coast"
    assert driver["user"] is None and driver["expiry_warnings"] == []
    assert driver["licence_expires_in_days"] == 400 and driver["hazmat_expires_in_days"] == 200

    res = api_a.put(f"/api/driver/{driver['id']}", {"phone": "+1 713 555 0199", "licence_class": "B"})
    assert res.status_code == 200 and res.json()["message"] == "Driver updated successfully"
    assert res.json()["data"]["phone"] == "+1 713 555 0199" and res.json()["data"]["name"] == "Rosa Diaz"

    assert api_a.get(f"/api/driver/{driver['id']}").json()["data"]["licence_class"] == "B"
    page = api_a.get("/api/driver").json()["data"]
    assert page["size"] == 100 and [d["name"] for d in page["items"]] == ["Rosa Diaz"]

    res = api_a.delete(f"/api/driver/{driver['id']}")
    assert res.status_code == 200 and res.json()["message"] == "Driver deleted successfully"
    assert api_a.get(f"/api/driver/{driver['id']}").status_code == 404
    assert api_a.delete(f"/api/driver/{driver['id']}").json() == {"detail": "Driver not found"}


def test_driver_validation(api_a):
    res = api_a.post("/api/driver", {"name": "No Class", "licence_class": "D"})
    assert res.status_code == 422 and res.json()["detail"].startswith("Invalid input: licence_class")
    res = api_a.post("/api/driver", {"name": "Bad Mail", "email": "not-an-email"})
    assert res.status_code == 422 and "email" in res.json()["detail"]
    res = api_a.post("/api/driver", {"name": "Bad Date", "licence_expiry": "31/12/2030"})
    assert res.status_code == 422 and "licence_expiry" in res.json()["detail"]
    res = api_a.post("/api/driver", {"name": "Ghost Yard", "home_yard_id": 424242})
    assert res.status_code == 422 and res.json()["detail"] == "home_yard_id: no yard with id 424242."
    res = api_a.post("/api/driver", {"name": ""})
    assert res.status_code == 422


def test_expiry_warnings(api_a):
    res = api_a.post(
        "/api/driver", {"name": "Expiring", "licence_expiry": in_days(-3), "hazmat_expiry": in_days(12)}
    )
    driver = res.json()["data"]
    assert driver["licence_expires_in_days"] == -3 and driver["hazmat_expires_in_days"] == 12
    assert driver["expiry_warnings"] == [
        "Licence expired 3 days ago.",
        "Hazmat endorsement expires in 12 days.",
    ]
    res = api_a.put(f"/api/driver/{driver['id']}", {"licence_expiry": in_days(0), "hazmat_expiry": None})
    assert res.json()["data"]["expiry_warnings"] == ["Licence expires today."]
    assert res.json()["data"]["hazmat_expires_in_days"] is None


def test_driver_with_a_new_login_signs_in_to_the_driver_portal(api_a, anon):
    res = api_a.post(
        "/api/driver",
        {
            "name": "Mike Kowalski",
            "phone": "+1 214 555 0101",
            "licence_class": "A",
            "create_login": {"email": "Mike.K@Alpha.test", "password": DRIVER_PASSWORD},
        },
    )
    assert res.status_code == 201, res.json()
    driver = res.json()["data"]
    assert driver["user"]["email"] == "mike.k@alpha.test"
    assert driver["email"] == "mike.k@alpha.test"  # contact email defaults to the login's

    login = anon.post("/api/login", {"email": "mike.k@alpha.test", "password": DRIVER_PASSWORD})
    assert login.status_code == 200, login.json()
    session = login.json()["data"]
    assert session["user"]["role"]["name"] == "Driver"
    profile = Api(session["access_token"]).get("/api/profile").json()["data"]
    assert profile["driver"] == {"id": driver["id"], "name": "Mike Kowalski", "phone": "+1 214 555 0101"}
    assert profile["name"] == "Mike Kowalski"
    # the driver can list trucks for 'Change Trucks' but not manage drivers
    me = Api(session["access_token"])
    assert me.get("/api/company-asset", {"size": 50}).status_code == 200
    assert me.get("/api/driver").status_code == 403


def test_a_failed_login_creation_leaves_nothing_behind(api_a, tenant_a, in_tenant):
    weak = api_a.post(
        "/api/driver",
        {"name": "Weak Pass", "create_login": {"email": "weak@alpha.test", "password": "short"}},
    )
    assert weak.status_code == 422 and weak.json()["detail"].startswith("The password is too weak")
    taken = api_a.post(
        "/api/driver",
        {"name": "Taken", "create_login": {"email": tenant_a.admin_email, "password": DRIVER_PASSWORD}},
    )
    assert taken.status_code == 409 and taken.json()["detail"] == "An account with this email already exists."
    with in_tenant(tenant_a):
        from tenants.fleet.models import Driver

        assert not Driver.objects.exists()
    both = api_a.post(
        "/api/driver",
        {
            "name": "Both",
            "user_id": 1,
            "create_login": {"email": "b@alpha.test", "password": DRIVER_PASSWORD},
        },
    )
    assert both.status_code == 422 and "not both" in both.json()["detail"]


def test_adding_a_login_to_an_existing_driver_and_unlinking_it(api_a):
    driver = api_a.post("/api/driver", {"name": "Late Login", "email": "contact@alpha.test"}).json()["data"]
    res = api_a.put(
        f"/api/driver/{driver['id']}",
        {"create_login": {"email": "late@alpha.test", "password": DRIVER_PASSWORD}},
    )
    assert res.status_code == 200, res.json()
    assert res.json()["data"]["user"]["email"] == "late@alpha.test"
    assert res.json()["data"]["email"] == "contact@alpha.test"  # an explicit contact email is kept
    again = api_a.put(
        f"/api/driver/{driver['id']}",
        {"create_login": {"email": "late2@alpha.test", "password": DRIVER_PASSWORD}},
    )
    assert again.status_code == 409 and again.json()["detail"] == "This driver already has a sign-in."
    res = api_a.put(f"/api/driver/{driver['id']}", {"user_id": None})
    assert res.status_code == 200 and res.json()["data"]["user"] is None


def test_linking_an_existing_user(api_a, tenant_a, in_tenant):
    from tenants.accounts.models import Role
    from tenants.accounts.services import create_user

    with in_tenant(tenant_a):
        role = Role.objects.get(name="Driver")
        user = create_user(email="existing@alpha.test", name="Existing", password=PASSWORD, role=role)
    first = api_a.post("/api/driver", {"name": "Existing", "user_id": user.pk})
    assert first.status_code == 201 and first.json()["data"]["user"] == {"id": user.pk, "email": user.email}
    second = api_a.post("/api/driver", {"name": "Copy", "user_id": user.pk})
    assert (
        second.status_code == 409
        and second.json()["detail"] == "This user is already the sign-in of driver Existing."
    )
    res = api_a.post("/api/driver", {"name": "Nobody", "user_id": 987654})
    assert res.status_code == 422 and res.json()["detail"] == "user_id: no user with id 987654."


def test_dispatchers_may_link_only_driver_logins(tenant_a, in_tenant):
    from tenants.accounts.models import User

    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    with in_tenant(tenant_a):
        admin_id = User.objects.get(email=tenant_a.admin_email).pk
    res = dispatcher.post("/api/driver", {"name": "Sneaky", "user_id": admin_id})
    assert res.status_code == 403 and "Only a user with the Driver role" in res.json()["detail"]
    res = dispatcher.post(
        "/api/driver",
        {"name": "Fine", "create_login": {"email": "fine@alpha.test", "password": DRIVER_PASSWORD}},
    )
    assert res.status_code == 201


def test_deleting_a_driver_keeps_the_login_but_deactivates_it(api_a, anon, tenant_a, in_tenant):
    driver = api_a.post(
        "/api/driver",
        {"name": "Leaving", "create_login": {"email": "leaving@alpha.test", "password": DRIVER_PASSWORD}},
    ).json()["data"]
    token = anon.post("/api/login", {"email": "leaving@alpha.test", "password": DRIVER_PASSWORD}).json()[
        "data"
    ]["access_token"]
    res = api_a.delete(f"/api/driver/{driver['id']}")
    assert res.status_code == 200
    assert res.json()["message"] == (
        "Driver deleted successfully. Their sign-in (leaving@alpha.test) was kept but deactivated."
    )
    with in_tenant(tenant_a):
        from tenants.accounts.models import User

        user = User.objects.get(pk=driver["user"]["id"])
        assert user.is_active is False
    assert Api(token).get("/api/profile").status_code == 401  # the open session ends too
    assert (
        anon.post("/api/login", {"email": "leaving@alpha.test", "password": DRIVER_PASSWORD}).status_code
        == 401
    )


def test_driver_list_search_sort_filter(api_a):
    yard = api_a.post("/api/yard", {"name": "Dallas Yard"}).json()["data"]
    api_a.post(
        "/api/driver",
        {
            "name": "Carl Young",
            "phone": "214-555-0001",
            "licence_expiry": in_days(10),
            "home_yard_id": yard["id"],
        },
    )
    api_a.post("/api/driver", {"name": "Anna Brooks", "licence_expiry": in_days(300), "is_active": False})
    api_a.post(
        "/api/driver",
        {
            "name": "Ben Ortiz",
            "hazmat_expiry": in_days(5),
            "licence_class": "B",
            "create_login": {"email": "ben@alpha.test", "password": DRIVER_PASSWORD},
        },
    )

    def names(params):
        res = api_a.get("/api/driver", params)
        assert res.status_code == 200, res.json()
        return [d["name"] for d in res.json()["data"]["items"]]

    assert names({}) == ["Anna Brooks", "Ben Ortiz", "Carl Young"]
    assert names({"search": "555-0001"}) == ["Carl Young"]
    assert names({"search": "ben@alpha"}) == ["Ben Ortiz"]  # the login's email
    assert names({"sort_by": "licence_expiry"}) == ["Carl Young", "Anna Brooks", "Ben Ortiz"]
    assert names({"is_active": "false"}) == ["Anna Brooks"]
    assert names({"has_login": "true"}) == ["Ben Ortiz"]
    assert names({"home_yard_id": yard["id"]}) == ["Carl Young"]
    assert names({"expiring_within_days": 30}) == ["Ben Ortiz", "Carl Young"]
    assert names({"filter_field": "licence_class", "filter_operator": "equals", "filter_value": "b"}) == [
        "Ben Ortiz"
    ]
    assert [d["name"] for d in api_a.get("/api/driver/all").json()["data"]] == [
        "Anna Brooks",
        "Ben Ortiz",
        "Carl Young",
    ]


def test_the_expiring_filter_counts_from_today_when_the_day_changes(api_a, monkeypatch):
    """The list's statements are kept per shape (core/listsql.py); this filter reads today's date,
    so a statement kept yesterday must not answer today."""
    api_a.post("/api/driver", {"name": "Ben Ortiz", "hazmat_expiry": in_days(5)})
    api_a.post("/api/driver", {"name": "Carl Young", "licence_expiry": in_days(10)})

    def names():
        res = api_a.get("/api/driver", {"expiring_within_days": 7})
        assert res.status_code == 200, res.json()
        return [d["name"] for d in res.json()["data"]["items"]]

    assert names() == ["Ben Ortiz"]
    assert names() == ["Ben Ortiz"]  # the kept statement, again
    later = timezone.localdate() + dt.timedelta(days=4)
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: later)
    assert names() == ["Ben Ortiz", "Carl Young"]  # Carl's licence is now 6 days away


def test_driver_list_query_count_is_bounded(api_a, tenant_a, in_tenant, django_assert_max_num_queries):
    from tenants.accounts.models import Role, User
    from tenants.fleet.models import Driver
    from tenants.geo.models import Region, Yard

    with in_tenant(tenant_a):
        role = Role.objects.get(name="Driver")
        users = User.objects.bulk_create(
            [
                User(email=f"d{i}@alpha.test", username=f"d{i}@alpha.test", name=f"D {i}", role=role)
                for i in range(35)
            ]
        )
        yards = [Yard.objects.create(name=f"Yard {i}") for i in range(4)]
        regions = [Region.objects.create(name=f"Region {i}") for i in range(4)]
        Driver.objects.bulk_create(
            [
                Driver(
                    name=f"Driver {i:02}",
                    user=users[i],
                    home_yard=yards[i % 4],
                    region=regions[i % 4],
                    licence_expiry=timezone.localdate(),
                )
                for i in range(35)
            ]
        )
    with django_assert_max_num_queries(8):
        res = api_a.get("/api/driver")
    assert res.status_code == 200 and len(res.json()["data"]["items"]) == 35
    assert all(d["user"] and d["region"] and d["home_yard"] for d in res.json()["data"]["items"])


def test_driver_permissions(tenant_a):
    sales = Api(token_for(tenant_a, role="Sales"))
    res = sales.post("/api/driver", {"name": "Nope"})
    assert res.status_code == 403 and res.json()["detail"] == "You do not have permission to create drivers."
    assert sales.get("/api/driver").status_code == 403
    assert sales.delete("/api/driver/1").status_code == 403
    accounting = Api(token_for(tenant_a, role="Accounting"))
    assert accounting.get("/api/driver").status_code == 403


@pytest.mark.parametrize("path", ["/api/driver", "/api/driver/"])
def test_trailing_slash_is_accepted(api_a, path):
    assert api_a.get(path).status_code == 200


def test_a_user_cannot_delete_the_driver_linked_to_their_own_login(api_a, tenant_a, in_tenant):
    from tenants.accounts.models import User

    with in_tenant(tenant_a):
        admin_id = User.objects.get(email=tenant_a.admin_email).pk
    driver = api_a.post("/api/driver", {"name": "Owner Operator", "user_id": admin_id}).json()["data"]
    res = api_a.delete(f"/api/driver/{driver['id']}")
    assert res.status_code == 409 and "your own sign-in" in res.json()["detail"]
    assert api_a.get("/api/profile").status_code == 200
