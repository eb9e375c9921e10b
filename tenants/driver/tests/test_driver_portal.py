"""The driver portal: today's stops, the day's summary, queued actions applied once (replays,
ordering, conflicts shown to the office), proofs under the tenant's prefix, tenant isolation."""

from __future__ import annotations

import io
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone
from PIL import Image

from conftest import Api, token_for
from tenants.sales.tests.helpers import master_data, order_in_db

BASE = "/api/driver-portal"


def image_bytes(fmt: str = "PNG", color: str = "navy") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (24, 24), color).save(buf, fmt)
    return buf.getvalue()


def upload(api: Api, data: bytes, name: str = "signature.png", kind: str = "signature") -> Any:
    f = io.BytesIO(data)
    f.name = name
    return api.client.post(
        f"{BASE}/proof-files", {"file": f, "kind": kind}, HTTP_AUTHORIZATION=f"Bearer {api.token}"
    )


def driver_setup(handle: Any, in_tenant: Any, email: str) -> dict[str, Any]:
    """A Driver login linked to the master data's driver, and two of its stops today on T-101
    (sent in reverse stop order), one on another truck, one of another driver."""
    token = token_for(handle, "Driver", email=email)
    with in_tenant(handle):
        from tenants.accounts.models import User
        from tenants.fleet.models import AssetType, CompanyAsset, Driver

        md = master_data()
        user = User.objects.get(email=email)
        driver = md["driver"]
        driver.user = user
        driver.save()
        md["site"] = md["ship_to"]
        md["ship_to"].latitude, md["ship_to"].longitude = Decimal("29.7604"), Decimal("-95.3698")
        md["ship_to"].address_one = "100 Main St"
        md["ship_to"].save()
        other_truck = CompanyAsset.objects.create(
            asset_number="T-999", name="Spare", asset_type=AssetType.objects.get(name="Tank truck T")
        )
        other_driver = Driver.objects.create(name="Someone Else")
        today = timezone.localdate()
        common = {"status": "assigned", "planned_date": today, "driver": driver, "truck": md["truck"]}
        second = order_in_db(md, stop_sequence=2, **common)
        two_lines = (("diesel", "1000", "3.0000"), ("gas", "500", "2.5"))
        first = order_in_db(md, stop_sequence=1, lines=two_lines, **common)
        elsewhere = order_in_db(md, **{**common, "truck": other_truck, "stop_sequence": 1})
        theirs = order_in_db(md, **{**common, "driver": other_driver, "stop_sequence": 3})
    return {
        "api": Api(token),
        "md": md,
        "first": first,
        "second": second,
        "elsewhere": elsewhere,
        "theirs": theirs,
        "other_truck": other_truck,
        "other_driver": other_driver,
    }


@pytest.fixture
def world(tenant_a, in_tenant):
    return driver_setup(tenant_a, in_tenant, "dave@alpha.test")


def today(api: Api, trucks: str = "") -> dict[str, Any]:
    res = api.get(f"{BASE}/todays-orders", {"truck_ids": trucks} if trucks else None)
    assert res.status_code == 200, res.content
    return res.json()["data"]


def record_payload(stop: dict[str, Any], signature_key: str, photos: list[str] | None = None) -> Any:
    return {
        "lines": [
            {
                "line_item_id": ln["id"],
                "delivered_quantity": str(Decimal(ln["quantity"]) - 2),
                "gross_volume": str(Decimal(ln["quantity"]) - 2),
                "meter_start": "1000.0",
                "meter_end": str(1000 + Decimal(ln["quantity"]) - 2),
                "temperature_f": "75.5",
                "tank": None,
            }
            for ln in stop["lines"]
        ],
        "signer_name": "Pat Receiver",
        "signature_key": signature_key,
        "photo_keys": photos or [],
        "latitude": "29.7604",
        "longitude": "-95.3698",
    }


def action(kind: str, stop: dict[str, Any], payload: dict[str, Any] | None = None, **kw: Any) -> Any:
    return {
        "client_action_id": str(kw.get("cid") or uuid.uuid4()),
        "kind": kind,
        "order_id": stop["id"],
        "order_version": kw.get("version", stop["version"]),
        "payload": payload or {},
        "taken_at": timezone.now().isoformat(),
    }


def send(api: Api, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    res = api.post(f"{BASE}/actions", {"actions": list(actions)})
    assert res.status_code == 200, res.content
    return res.json()["data"]["results"]


def proof_key(api: Api) -> str:
    res = upload(api, image_bytes())
    assert res.status_code == 201, res.content
    return res.json()["data"]["file_key"]


# --- reads -----------------------------------------------------------------------------------------
def test_todays_orders_in_stop_order_with_map_link_tanks_and_lines(world, api_a):
    api, md = world["api"], world["md"]
    data = today(api, str(md["truck"].pk))
    assert [o["id"] for o in data["orders"]] == [world["first"].pk, world["second"].pk]
    first = data["orders"][0]
    assert first["maps_url"] == "https://maps.google.com/?q=29.7604,-95.3698"
    assert first["geo_url"].startswith("geo:29.7604,-95.3698")
    assert "100 Main St" in first["ship_to"]["address"]
    assert [t["name"] for t in first["tanks"]] == ["Tank 1"]
    assert [(ln["product_name"], Decimal(ln["quantity"])) for ln in first["lines"]] == [
        ("Clear Diesel", Decimal("1000")),
        ("Unleaded 87", Decimal("500")),
    ]
    assert first["truck"]["asset_number"] == "T-101" and len(first["version"]) == 16
    # No truck chosen: every stop of the driver today, never another driver's.
    ids = {o["id"] for o in today(api)["orders"]}
    assert ids == {world["first"].pk, world["second"].pk, world["elsewhere"].pk}
    # An office sign-in is not a driver: a clear 403.
    res = api_a.get(f"{BASE}/todays-orders")
    assert res.status_code == 403 and "not linked to a driver" in res.json()["detail"]
    assert api.get(f"{BASE}/todays-orders", {"truck_ids": "1,x"}).status_code == 422


def test_a_drivers_own_stops_are_numbered_from_one(world, in_tenant, tenant_a):
    """Another driver's stop first on the same truck: this driver's first stop is still "Stop 1"."""
    api, md = world["api"], world["md"]
    with in_tenant(tenant_a):
        from tenants.sales.models import SalesOrder

        # The truck's day: someone else's stop 1, then this driver's two stops as 2 and 3.
        SalesOrder.objects.filter(pk=world["theirs"].pk).update(stop_sequence=1)
        SalesOrder.objects.filter(pk=world["first"].pk).update(stop_sequence=2)
        SalesOrder.objects.filter(pk=world["second"].pk).update(stop_sequence=3)
    stops = today(api, str(md["truck"].pk))["orders"]
    assert [(o["id"], o["stop_number"]) for o in stops] == [(world["first"].pk, 1), (world["second"].pk, 2)]
    assert [o["stop_sequence"] for o in stops] == [2, 3]
    # Every truck: his three stops, 1..3, never a gap for the other driver's.
    assert [o["stop_number"] for o in today(api)["orders"]] == [1, 2, 3]
    summary = api.get(f"{BASE}/daily-summary").json()["data"]
    assert [s["stop_number"] for s in summary["stops"]] == [1, 2, 3]


def test_daily_summary_counts_the_day(world):
    api = world["api"]
    stop = today(api)["orders"][0]
    key = proof_key(api)
    assert send(api, action("record_delivery", stop, record_payload(stop, key)))[0]["outcome"] == "applied"
    res = api.get(f"{BASE}/daily-summary")
    assert res.status_code == 200, res.content
    s = res.json()["data"]
    assert s["deliveries_done"] == 1 and s["open_stops"] == 2
    assert {p["product_name"]: Decimal(p["quantity"]) for p in s["products"]} == {
        "Clear Diesel": Decimal("998"),
        "Unleaded 87": Decimal("498"),
    }
    assert [(t["truck"], t["deliveries"], Decimal(t["gallons"])) for t in s["trucks"]] == [
        ("T-101", 1, Decimal("1496"))
    ]
    assert Decimal(s["total_gallons"]) == Decimal("1496")


# --- actions ---------------------------------------------------------------------------------------
def test_same_client_action_id_twice_is_applied_once(world, in_tenant, tenant_a):
    from tenants.driver.models import DriverAction
    from tenants.sales.models import StatusEvent

    api = world["api"]
    stop = today(api)["orders"][0]
    act = action("record_delivery", stop, record_payload(stop, proof_key(api)))
    first = send(api, act)[0]
    assert (first["outcome"], first["replayed"], first["order_status"]) == ("applied", False, "delivered")
    again = send(api, act, act)  # the phone lost the answer and sent the batch again (twice)
    assert [(r["outcome"], r["replayed"]) for r in again] == [("applied", True), ("applied", True)]
    with in_tenant(tenant_a):
        order = world["first"]
        assert StatusEvent.objects.filter(sales_order=order, action="deliver").count() == 1
        assert StatusEvent.objects.filter(sales_order=order, action="start_delivery").count() == 1
        assert DriverAction.objects.filter(client_action_id=act["client_action_id"]).count() == 1
        order.refresh_from_db()
        delivered = sorted(ln.delivered_quantity for ln in order.line_items.all())
        assert delivered == [Decimal("498"), Decimal("998")]
        # One delivery ticket, with the driver's proof and meters (tenants/delivery's service).
        from tenants.delivery.models import DeliveryTicket

        (ticket,) = DeliveryTicket.objects.filter(sales_order=order)
        assert ticket.signer_name == "Pat Receiver" and ticket.signature_key.startswith(
            f"tenants/{tenant_a.schema}/signature/"
        )
        assert ticket.latitude == Decimal("29.7604")
        meters = sorted((tl.meter_start, tl.temperature_f) for tl in ticket.lines.all())
        assert meters == [(Decimal("1000"), Decimal("75.5"))] * 2


def test_actions_apply_in_the_order_sent(world, in_tenant, tenant_a):
    from tenants.sales.models import StatusEvent

    api = world["api"]
    first, second = today(api, str(world["md"]["truck"].pk))["orders"]
    key = proof_key(api)
    results = send(
        api,
        action("start_delivery", first),
        action("record_delivery", first, record_payload(first, key)),
        action("record_delivery", second, record_payload(second, key)),
        action("start_delivery", second),  # queued after its delivery: the order is delivered by then
    )
    assert [r["outcome"] for r in results] == ["applied", "applied", "applied", "conflict"]
    assert "already delivered" in results[3]["reason"]
    with in_tenant(tenant_a):
        moves = list(
            StatusEvent.objects.filter(sales_order__in=[world["first"], world["second"]])
            .order_by("at", "id")
            .values_list("sales_order_id", "action")
        )
    f, s = world["first"].pk, world["second"].pk
    assert moves == [
        (f, "start_delivery"),
        (f, "deliver_products"),
        (f, "deliver"),
        (s, "start_delivery"),
        (s, "deliver_products"),
        (s, "deliver"),
    ]


def test_office_change_cancel_reassign_or_delivery_is_a_conflict_the_office_sees(
    world, api_a, in_tenant, tenant_a
):
    from tenants.sales import workflow
    from tenants.sales.models import LineItem, Note, SalesOrder

    api = world["api"]
    first, second = today(api, str(world["md"]["truck"].pk))["orders"]
    elsewhere = next(o for o in today(api)["orders"] if o["id"] == world["elsewhere"].pk)
    with in_tenant(tenant_a):
        # The office changes a quantity of the first, cancels the second, gives the third away.
        LineItem.objects.filter(sales_order_id=first["id"]).update(quantity=Decimal("1200"))
        workflow.cancel(SalesOrder.objects.get(pk=second["id"]))
        SalesOrder.objects.filter(pk=elsewhere["id"]).update(driver=world["other_driver"])
    key = proof_key(api)
    results = send(
        api,
        action("record_delivery", first, record_payload(first, key)),
        action("start_delivery", second),
        action("start_delivery", elsewhere),
    )
    assert [r["outcome"] for r in results] == ["conflict", "conflict", "conflict"]
    assert "changed order" in results[0]["reason"]
    assert "cancelled" in results[1]["reason"]
    assert "no longer assigned to you" in results[2]["reason"]
    with in_tenant(tenant_a):
        order = SalesOrder.objects.get(pk=first["id"])
        assert order.status == "assigned"  # nothing applied
        assert all(ln.delivered_quantity is None for ln in order.line_items.all())
        note = Note.objects.get(sales_order=order)
        assert "Driver app conflict" in note.body and "NOT applied" in note.body
    listed = api_a.get(f"{BASE}/conflicts").json()["data"]
    assert {c["order_id"] for c in listed} == {first["id"], second["id"], elsewhere["id"]}
    one = api_a.get(f"{BASE}/conflicts", {"order_id": first["id"]}).json()["data"]
    assert [c["reason"] for c in one] == [results[0]["reason"]]
    # Delivered meanwhile by the office (fresh version): still a conflict, not a second delivery.
    with in_tenant(tenant_a):
        o = SalesOrder.objects.get(pk=first["id"])
        workflow.start_delivery(o)
        workflow.deliver(o, [(ln.pk, ln.quantity) for ln in o.line_items.all()])
    stop = next(x for x in today(api)["orders"] if x["id"] == first["id"])
    r = send(api, action("record_delivery", stop, record_payload(stop, key)))[0]
    assert r["outcome"] == "conflict" and "already delivered" in r["reason"]


def test_bad_input_is_rejected_and_changes_nothing(world, in_tenant, tenant_a):
    from tenants.sales.models import SalesOrder

    api = world["api"]
    first, second = today(api, str(world["md"]["truck"].pk))["orders"]
    key = proof_key(api)
    wrong_line = record_payload(first, key)
    wrong_line["lines"][0]["line_item_id"] = second["lines"][0]["id"]
    no_signer = {**record_payload(first, key), "signer_name": ""}
    results = send(
        api,
        action("record_delivery", first, wrong_line),
        action("record_delivery", first, no_signer),
        action("record_delivery", first, record_payload(first, "tenants/other/proof/" + "0" * 32 + "/x.png")),
    )
    assert [r["outcome"] for r in results] == ["rejected", "rejected", "rejected"]
    assert "not on this sales order" in results[0]["reason"]
    assert "signer_name" in results[1]["reason"]
    assert "uploaded by this company" in results[2]["reason"]
    with in_tenant(tenant_a):
        assert SalesOrder.objects.get(pk=first["id"]).status == "assigned"
    res = api.post(f"{BASE}/actions", {"actions": []})
    assert res.status_code == 422


def test_proof_files_png_or_jpeg_under_the_tenant_prefix(world, tenant_a):
    api = world["api"]
    png = upload(api, image_bytes("PNG"))
    assert png.status_code == 201
    assert png.json()["data"]["file_key"].startswith(f"tenants/{tenant_a.schema}/signature/")
    jpg = upload(api, image_bytes("JPEG"), "photo.jpg", kind="photo")
    assert jpg.status_code == 201 and jpg.json()["data"]["content_type"] == "image/jpeg"
    gif = upload(api, image_bytes("GIF"), "x.gif")
    assert gif.status_code == 415
    text = upload(api, b"hello", "x.txt")
    assert text.status_code == 415
    assert upload(api, image_bytes("PNG"), kind="selfie").status_code == 422


def test_actions_and_proofs_stay_in_their_tenant(world, tenant_a, tenant_b, in_tenant):
    from tenants.sales.models import SalesOrder, StatusEvent

    api = world["api"]
    stop = today(api)["orders"][0]
    key_a = proof_key(api)
    act = action("record_delivery", stop, record_payload(stop, key_a))
    other = driver_setup(tenant_b, in_tenant, "bob@bravo.test")
    api_b = other["api"]
    # B replays A's action id against A's order id, with A's proof key: nothing of A is reached.
    r = send(api_b, act)[0]
    assert r["replayed"] is False and r["outcome"] in ("rejected", "conflict")
    with in_tenant(tenant_a):
        assert SalesOrder.objects.get(pk=stop["id"]).status == "assigned"
        assert not StatusEvent.objects.filter(sales_order_id=stop["id"]).exists()
    # B's own stop with A's proof key: rejected (the file is not B's).
    stop_b = today(api_b)["orders"][0]
    r = send(api_b, action("record_delivery", stop_b, record_payload(stop_b, key_a)))[0]
    assert r["outcome"] == "rejected" and "uploaded by this company" in r["reason"]
    # A's action is then applied in A (B's row with the same id did not make it a replay there).
    r = send(api, act)[0]
    assert (r["outcome"], r["replayed"]) == ("applied", False)
    from tenants.driver.models import DriverAction

    with in_tenant(tenant_a):
        assert SalesOrder.objects.get(pk=stop["id"]).status == "delivered"
        assert DriverAction.objects.count() == 1
    with in_tenant(tenant_b):
        assert DriverAction.objects.count() == 2
    # B's office sees B's refused actions only (A's action id there is B's own, refused, row).
    rows = Api(token_for(tenant_b)).get(f"{BASE}/conflicts", {"outcome": "rejected"}).json()["data"]
    assert all(row["reason"] for row in rows) and len(rows) >= 1
    assert Api(token_for(tenant_a)).get(f"{BASE}/conflicts", {"outcome": "rejected"}).json()["data"] == []
