"""States and cities: the reference lists every address points at."""

import csv
import io


def csv_rows(res):
    assert res.status_code == 200 and res["Content-Type"].startswith("text/csv")
    text = b"".join(res.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_state_crud_all_and_export(api_a):
    res = api_a.post("/api/state/states", {"name": "Oklahoma", "code": "OK"})
    assert res.status_code == 201, res.json()
    ok = res.json()["data"]
    assert res.json()["message"] == "State created successfully"
    assert (ok["name"], ok["code"], ok["country"]) == ("Oklahoma", "OK", "US")
    api_a.post("/api/state/states", {"name": "Kansas", "code": "KS"})

    assert api_a.get(f"/api/state/states/{ok['id']}").json()["data"]["name"] == "Oklahoma"
    names = [s["name"] for s in api_a.get("/api/state/states/all").json()["data"]]
    assert names.index("Kansas") < names.index("Oklahoma")  # by name

    res = api_a.put(f"/api/state/states/{ok['id']}", {"name": "Oklahoma State"})
    assert res.status_code == 200 and res.json()["data"]["name"] == "Oklahoma State"
    assert res.json()["data"]["code"] == "OK"  # untouched

    rows = csv_rows(api_a.get("/api/state/states/export", {"search": "oklahoma"}))
    assert rows[0][:3] == ["id", "name", "code"] and rows[1][1:3] == ["Oklahoma State", "OK"]

    assert api_a.delete(f"/api/state/states/{ok['id']}").status_code == 200
    assert api_a.get(f"/api/state/states/{ok['id']}").status_code == 404


def test_city_crud_list_all_and_export(api_a):
    tx = api_a.post("/api/state/states", {"name": "Texas", "code": "TX"}).json()["data"]
    la = api_a.post("/api/state/states", {"name": "Louisiana", "code": "LA"}).json()["data"]
    res = api_a.post("/api/city/cities", {"name": "Midland", "state_id": tx["id"]})
    assert res.status_code == 201, res.json()
    midland = res.json()["data"]
    assert midland["state"]["code"] == "TX"
    api_a.post("/api/city/cities", {"name": "Abilene", "state_id": tx["id"]})
    api_a.post("/api/city/cities", {"name": "Monroe", "state_id": la["id"]})
    assert api_a.post("/api/city/cities", {"name": "Nowhere", "state_id": 999999}).status_code == 422

    page = api_a.get("/api/city/cities", {"state_id": tx["id"], "sort_by": "name"}).json()["data"]
    assert [c["name"] for c in page["items"]] == ["Abilene", "Midland"] and page["total"] == 2
    all_names = {c["name"] for c in api_a.get("/api/city/cities/all").json()["data"]}
    assert {"Abilene", "Midland", "Monroe"} <= all_names

    res = api_a.put(f"/api/city/cities/{midland['id']}", {"state_id": la["id"]})
    assert res.status_code == 200 and res.json()["data"]["state"]["name"] == "Louisiana"
    assert api_a.get(f"/api/city/cities/{midland['id']}").json()["data"]["state_id"] == la["id"]

    rows = csv_rows(api_a.get("/api/city/cities/export", {"search": "midland"}))
    assert len(rows) == 2 and rows[1][1] == "Midland"

    assert api_a.delete(f"/api/city/cities/{midland['id']}").status_code == 200
    assert api_a.get(f"/api/city/cities/{midland['id']}").status_code == 404
