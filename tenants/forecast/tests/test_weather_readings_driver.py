"""Weather zones and temperatures (API, CSV import, the production provider against its fake),
readings by CSV import, the driver's level before through the portal, and the nightly fan-out."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from django.utils import timezone

from conftest import Api, token_for
from infra.fakes.meteostat import FakeMeteostat
from tenants.forecast.tests.helpers import BASE, days_ago, tank, zone

ZONES = f"{BASE}/weather/zones"
TEMPS = f"{BASE}/weather/temperatures"
PROVIDER = f"{BASE}/weather/provider"


def upload(api: Api, path: str, text: str) -> Any:
    file = SimpleUploadedFile("rows.csv", text.encode("utf-8"), content_type="text/csv")
    return api.post(f"{path}/import", {"file": file}, content_type=MULTIPART_CONTENT)


def test_zones_and_temperatures_with_their_rules(api_a, tenant_a, in_tenant):
    made = api_a.post(ZONES, {"code": "KGSO", "name": "Greensboro", "station": "72317"})
    assert made.status_code == 201, made.json()
    zone_id = made.json()["data"]["id"]
    dup = api_a.post(ZONES, {"code": "kgso", "name": "Again"})
    assert dup.status_code == 409 and dup.json()["detail"] == "A weather zone with this code already exists."
    assert (
        api_a.put(f"{ZONES}/{zone_id}", {"name": "Greensboro NC"}).json()["data"]["name"] == "Greensboro NC"
    )
    assert [z["code"] for z in api_a.get(f"{ZONES}/all").json()["data"]] == ["KGSO"]
    assert api_a.get(ZONES).json()["data"]["total"] == 1
    assert api_a.get(f"{ZONES}/{zone_id}").json()["data"]["station"] == "72317"
    export = api_a.get(f"{ZONES}/export")
    assert export.status_code == 200
    csv_text = b"".join(export.streaming_content).decode() if export.streaming else export.content.decode()
    assert "KGSO" in csv_text and "Greensboro NC" in csv_text

    day = (timezone.localdate() - dt.timedelta(1)).isoformat()
    saved = api_a.post(TEMPS, {"zone_id": zone_id, "day": day, "mean_f": "41.5"})
    assert saved.status_code == 201, saved.json()
    assert saved.json()["data"]["zone"]["code"] == "KGSO" and saved.json()["data"]["mean_f"] == "41.5"
    # The same zone, day and kind again replaces the value.
    again = api_a.post(TEMPS, {"zone_id": zone_id, "day": day, "mean_f": "39"})
    assert again.status_code == 201 and again.json()["data"]["id"] == saved.json()["data"]["id"]
    for bad in ("200", "-75"):
        res = api_a.post(TEMPS, {"zone_id": zone_id, "day": day, "mean_f": bad})
        assert res.status_code == 422 and "mean_f" in res.json()["detail"], res.json()
    unknown = api_a.post(TEMPS, {"zone_id": 999999, "day": day, "mean_f": "40"})
    assert (
        unknown.status_code == 422 and unknown.json()["detail"] == "zone_id: no weather zone with id 999999."
    )
    listed = api_a.get(TEMPS, {"zone_id": zone_id})
    assert listed.status_code == 200 and [t["mean_f"] for t in listed.json()["data"]["items"]] == ["39.0"]
    assert api_a.get(f"{TEMPS}/{saved.json()['data']['id']}").status_code == 200

    # A zone in use by a tank cannot be deleted; its temperatures go with an unused one.
    with in_tenant(tenant_a):
        from tenants.forecast.models import DailyTemperature, TankSettings
        from tenants.parties.models import Customer

        t = tank(Customer.objects.create(name="Heated Home", account_number="HH-1"))
        TankSettings.objects.create(asset=t, zone_id=zone_id)
    refused = api_a.delete(f"{ZONES}/{zone_id}")
    assert refused.status_code == 409, refused.json()
    with in_tenant(tenant_a):
        TankSettings.objects.filter(asset=t).delete()
    assert api_a.delete(f"{TEMPS}/{saved.json()['data']['id']}").status_code == 200
    assert api_a.delete(f"{ZONES}/{zone_id}").status_code == 200
    with in_tenant(tenant_a):
        assert DailyTemperature.objects.count() == 0


def test_temperatures_by_csv_import_refuse_a_200_degree_day(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        zone("RDU", days=0)
    template = api_a.get(f"{TEMPS}/import/template")
    assert template.status_code == 200 and b"zone,day,mean_f,kind" in template.content
    bad = upload(api_a, TEMPS, "zone,day,mean_f\nRDU,2026-01-05,31.2\nRDU,2026-01-06,200\n")
    assert bad.status_code == 200, bad.json()
    preview = bad.json()["data"]
    assert preview["status"] == "invalid" and preview["error_rows"] == 1
    assert preview["errors"][0]["row"] == 3 and preview["errors"][0]["field"] == "mean_f"
    refused = api_a.post(f"{TEMPS}/import/{preview['import_id']}/confirm")
    assert refused.status_code == 422
    assert api_a.get(TEMPS, {"day_from": "2026-01-01", "day_to": "2026-01-31"}).json()["data"]["total"] == 0

    good = upload(
        api_a, TEMPS, "zone,day,mean_f,kind\nRDU,2026-01-05,31.2,observed\nrdu,2026-01-06,28,observed\n"
    )
    preview = good.json()["data"]
    assert preview["status"] == "ready", preview
    done = api_a.post(f"{TEMPS}/import/{preview['import_id']}/confirm")
    assert done.status_code == 200 and done.json()["data"]["created_rows"] == 2
    assert api_a.get(f"{TEMPS}/import/{preview['import_id']}").json()["data"]["status"] == "completed"
    rows = api_a.get(TEMPS, {"day_from": "2026-01-01", "day_to": "2026-01-31"}).json()["data"]["items"]
    assert [(r["day"], r["mean_f"], r["source"]) for r in rows] == [
        ("2026-01-06", "28.0", "csv"),
        ("2026-01-05", "31.2", "csv"),
    ]
    export = api_a.get(f"{TEMPS}/export")
    assert export.status_code == 200


def test_readings_by_csv_import_refit_the_tank_once(
    api_a, tenant_a, in_tenant, django_capture_on_commit_callbacks
):
    with in_tenant(tenant_a):
        from tenants.forecast.models import TankSettings
        from tenants.parties.models import Customer

        t = tank(Customer.objects.create(name="Farm Co", account_number="FARM-1"), serial="FARM-TANK-7")
        TankSettings.objects.create(
            asset=t,
            program="keep_full",
            usage_model="calendar",
            usage_type="farm_diesel",
            max_fill_percent=D(90),
        )
    text = (
        "serial_number,level_percent,taken_at\n"
        f"FARM-TANK-7,85,{days_ago(20)}\n"
        f"FARM-TANK-7,55,{days_ago(10)}\n"
        f"FARM-TANK-7,140,{days_ago(5)}\n"
    )
    bad = upload(api_a, f"{BASE}/reading", text).json()["data"]
    assert bad["status"] == "invalid"
    assert bad["errors"][0]["row"] == 4 and "140 % is above 100 %" in bad["errors"][0]["message"]
    good = upload(api_a, f"{BASE}/reading", text.rsplit("\n", 2)[0] + "\n").json()["data"]
    assert good["status"] == "ready", good
    with django_capture_on_commit_callbacks(execute=True):
        done = api_a.post(f"{BASE}/reading/import/{good['import_id']}/confirm")
    assert done.status_code == 200 and done.json()["data"]["created_rows"] == 2
    status = api_a.get(f"{BASE}/reading/import/{good['import_id']}")
    assert status.status_code == 200 and status.json()["data"]["status"] == "completed", status.json()
    page = api_a.get(f"{BASE}/tank/{t.pk}").json()["data"]
    assert [h["source"] for h in page["history"]] == ["csv", "csv"]
    # 300 gal in 10 days: 30 gal/day, against a typical farm's 15.
    assert page["fit"]["n_intervals"] == 1 and page["fit"]["daily_rate"] > 20
    assert (
        page["cannot_forecast"] == ""
        and page["level_as_of"] == (timezone.localdate() - dt.timedelta(10)).isoformat()
    )
    assert api_a.get(f"{BASE}/reading/import/template").status_code == 200
    assert api_a.get(f"{BASE}/reading/export").status_code == 200


def test_the_production_provider_fetches_observed_and_forecast_days_from_its_fake(api_a, tenant_a, in_tenant):
    today = timezone.localdate()
    with in_tenant(tenant_a):
        z = zone("KGSO", days=0)
    none = api_a.post(f"{PROVIDER}/fetch")
    assert none.status_code == 409
    assert (
        none.json()["detail"] == "No weather provider is configured: set one, or import temperatures as CSV."
    )
    assert api_a.get(PROVIDER).json()["data"] == {
        "kind": "none", "base_url": "", "has_api_key": False, "last_fetch_at": None, "last_error": "",
    }  # fmt: skip
    with FakeMeteostat(api_key="secret-key") as fake:
        fake.daily["72317"] = {today + dt.timedelta(d): 40.0 + d for d in range(-7, 11)}
        fake.daily["72317"][today - dt.timedelta(3)] = 150.0  # a broken sensor: refused
        no_url = api_a.put(PROVIDER, {"kind": "meteostat", "base_url": ""})
        assert no_url.status_code == 422
        assert no_url.json()["detail"] == "base_url: the provider's API address (https://...) is required."
        res = api_a.put(PROVIDER, {"kind": "meteostat", "base_url": fake.base_url, "api_key": "secret-key"})
        assert res.status_code == 200, res.json()
        assert res.json()["data"]["has_api_key"] is True and "api_key" not in res.json()["data"]
        got = api_a.post(f"{PROVIDER}/fetch")
        assert got.status_code == 200, got.json()
        data = got.json()["data"]
        assert (data["zones"], data["observed"], data["forecast"]) == (1, 6, 11)
        assert data["errors"] == [
            f"KGSO: {(today - dt.timedelta(3)).isoformat()} has 150.0 °F, outside -60..130 °F: ignored"
        ]
        req = fake.state.requests[-1]
        assert (
            req["key"] == "secret-key"
            and req["query"]["station"] == "72317"
            and req["query"]["units"] == "imperial"
        )
        # A refused key is kept on the provider for the office to see; nothing is stored.
        api_a.put(PROVIDER, {"kind": "meteostat", "base_url": fake.base_url, "api_key": "wrong"})
        with in_tenant(tenant_a):
            from tenants.forecast.models import DailyTemperature

            before = DailyTemperature.objects.filter(zone=z).count()
        refused = api_a.post(f"{PROVIDER}/fetch").json()["data"]
        assert refused["errors"] == ["KGSO: the weather provider refused the API key"]
        assert (
            api_a.get(PROVIDER).json()["data"]["last_error"]
            == "KGSO: the weather provider refused the API key"
        )
    with in_tenant(tenant_a):
        assert DailyTemperature.objects.filter(zone=z).count() == before == 17
        yesterday = DailyTemperature.objects.get(zone=z, day=today - dt.timedelta(1))
        assert (
            yesterday.kind == "observed" and yesterday.mean_f == D("39.0") and yesterday.source == "meteostat"
        )
        assert DailyTemperature.objects.get(zone=z, day=today + dt.timedelta(10)).kind == "forecast"


def test_the_driver_enters_the_level_before_on_the_phone(tenant_a, in_tenant):
    from tenants.driver.tests.test_driver_portal import (
        action,
        driver_setup,
        proof_key,
        record_payload,
        send,
        today,
    )

    world = driver_setup(tenant_a, in_tenant, "lola@alpha.test")
    api = world["api"]
    with in_tenant(tenant_a):
        from tenants.forecast.models import TankSettings

        t = world["md"]["tank"]
        t.capacity, t.serial_number = D("2000"), "YARD-1"
        t.save()
        TankSettings.objects.create(
            asset=t, program="keep_full", usage_model="calendar", usage_type="fleet_diesel"
        )
    stop = next(s for s in today(api)["orders"] if s["id"] == world["second"].pk)
    payload = record_payload(stop, proof_key(api))
    payload["lines"][0].update({"tank": t.pk, "level_before_percent": "30"})
    result = send(api, action("record_delivery", stop, payload))[0]
    assert result["outcome"] == "applied", result
    with in_tenant(tenant_a):
        from tenants.delivery.models import DeliveryTicketLine
        from tenants.forecast.models import TankForecast, TankReading

        line = DeliveryTicketLine.objects.get(tank=t)
        assert line.level_before_percent == D("30.0")
        reading = TankReading.objects.get(ticket_line=line)
        assert (reading.source, reading.level_gallons, reading.level_percent) == (
            "driver",
            D("600.00"),
            D("30.00"),
        )
        fc = TankForecast.objects.get(asset=t)
        assert fc.cannot_forecast == "" and fc.level_as_of == timezone.localdate()
        # 600 gal + the drop (998 gal) = 1598 gal, below the usable 1800: not "full", as delivered.
        assert D("1400") < fc.level_gallons <= D("1598")
    bad = record_payload(stop, proof_key(api))
    bad["lines"][0].update({"tank": t.pk, "level_before_percent": "140"})
    other = next(s for s in today(api)["orders"] if s["id"] == world["first"].pk)
    bad["lines"] = [{**bad["lines"][0], "line_item_id": other["lines"][0]["id"]}] + [
        {**ln, "level_before_percent": None} for ln in record_payload(other, proof_key(api))["lines"][1:]
    ]
    rejected = send(api, action("record_delivery", other, bad))[0]
    assert rejected["outcome"] == "rejected"
    assert rejected["reason"].startswith("payload.lines.0.level_before_percent: ")


def test_the_nightly_fan_out_sends_one_forecast_per_company(tenant_a, tenant_b, in_tenant, jobs):
    import dramatiq

    from tenants.forecast import tasks

    tasks.forecast_every_company.fn()
    broker = dramatiq.get_broker()
    sent = []
    for name in list(broker.queues):
        q = broker.queues[name]
        while not q.empty():
            msg = dramatiq.Message.decode(q.get_nowait())
            if msg.actor_name == "nightly_forecast":
                sent.append(msg.options.get("tenant_schema") or msg.options.get("schema"))
    assert tenant_a.schema in sent and tenant_b.schema in sent
    assert len(sent) == len(set(sent))


def test_a_nightly_forecast_runs_in_its_company(tenant_a, in_tenant):
    with in_tenant(tenant_a):
        from tenants.forecast import tasks
        from tenants.forecast.models import ForecastRun

        tasks.nightly_forecast.fn()
        run = ForecastRun.objects.get(trigger="nightly")
        assert run.status == "succeeded" and run.total == 0


def test_readings_and_weather_permissions(tenant_a, in_tenant):
    sales = Api(token_for(tenant_a, role="Sales"))
    assert sales.get(ZONES).status_code == 200
    assert sales.post(ZONES, {"code": "X", "name": "X"}).status_code == 403
    assert sales.get(f"{BASE}/reading").status_code == 200
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get(f"{BASE}/reading").status_code == 403
    assert driver.get(PROVIDER).status_code == 403
    accounting = Api(token_for(tenant_a, role="Accounting"))
    assert accounting.put(PROVIDER, {"kind": "none"}).status_code == 403
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    assert dispatcher.post(ZONES, {"code": "D1", "name": "Dispatch zone"}).status_code == 201
