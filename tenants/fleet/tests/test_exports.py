import csv
import io


def rows(res):
    assert res.status_code == 200, res.content[:300]
    body = b"".join(res.streaming_content) if res.streaming else res.content
    return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))


def test_fleet_lists_export_as_csv_with_their_filters(api_a):
    yard = api_a.post("/api/yard", {"name": "Houston Yard"}).json()["data"]
    kind = api_a.post("/api/asset-type", {"name": "Tank truck"}).json()["data"]
    for number, active in (("T-1", True), ("T-2", False)):
        api_a.post(
            "/api/company-asset",
            {
                "asset_number": number,
                "name": f"Truck {number}",
                "asset_type_id": kind["id"],
                "capacity": 3000,
                "compartments": [{"number": 1, "capacity": 3000}],
                "home_yard_id": yard["id"],
                "is_active": active,
            },
        )
    api_a.post("/api/driver", {"name": "Rosa Diaz", "home_yard_id": yard["id"], "licence_class": "A"})
    assets = rows(api_a.get("/api/company-asset/export", {"is_active": "true"}))
    assert [a["asset_number"] for a in assets] == ["T-1"]
    assert assets[0]["home_yard"] == "Houston Yard" and assets[0]["asset_type"] == "Tank truck"
    drivers = rows(api_a.get("/api/driver/export"))
    assert drivers[0]["name"] == "Rosa Diaz" and drivers[0]["home_yard"] == "Houston Yard"
    for path in (
        "/api/yard/export",
        "/api/region/export",
        "/api/asset-type/export",
        "/api/payment-term/export",
        "/api/payment-method/export",
    ):
        rows(api_a.get(path))
