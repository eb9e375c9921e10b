"""An admin creates a user with a role, reads them, exports the lists, and removes the user."""

import csv
import io

from conftest import PASSWORD, Api


def csv_rows(res):
    assert res.status_code == 200 and res["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(b"".join(res.streaming_content).decode("utf-8-sig"))))


def test_admin_creates_reads_exports_and_deletes_a_user(api_a, anon):
    roles = {r["name"]: r for r in api_a.get("/api/role", {"size": 100}).json()["data"]["items"]}
    dispatcher = roles["Dispatcher"]
    got = api_a.get(f"/api/role/{dispatcher['id']}").json()["data"]
    assert got["name"] == "Dispatcher" and "driver.view" in got["permissions"]
    rows = csv_rows(api_a.get("/api/role/export", {"search": "dispatch"}))
    assert rows[1][rows[0].index("name")] == "Dispatcher"

    res = api_a.post(
        "/api/user-account",
        {
            "email": "dana@alpha.test",
            "name": "Dana Dispatch",
            "password": PASSWORD,
            "role_id": dispatcher["id"],
        },
    )
    assert res.status_code == 201, res.json()
    dana = res.json()["data"]
    assert dana["role"]["name"] == "Dispatcher" and "password" not in dana
    assert api_a.get(f"/api/user-account/{dana['id']}").json()["data"]["email"] == "dana@alpha.test"
    rows = csv_rows(api_a.get("/api/user-account/export", {"search": "dana"}))
    assert rows[1][rows[0].index("email")] == "dana@alpha.test"

    # The new user can sign in and work with what the role allows.
    login = anon.post("/api/login", {"email": "dana@alpha.test", "password": PASSWORD})
    assert login.status_code == 200, login.json()
    dana_api = Api(login.json()["data"]["access_token"])
    assert dana_api.get("/api/driver").status_code == 200

    assert api_a.delete(f"/api/user-account/{dana['id']}").status_code == 200
    assert api_a.get(f"/api/user-account/{dana['id']}").status_code == 404
    assert anon.post("/api/login", {"email": "dana@alpha.test", "password": PASSWORD}).status_code == 401
