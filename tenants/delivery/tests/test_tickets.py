"""Delivery tickets as the office uses them: generate (split by PO), refresh without renumbering,
record a delivery with its proof, the PDF; isolation of the proof files."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from core.errors import ApiError

from conftest import Api, token_for
from tenants.delivery.tests.helpers import TICKETS, entry_body, fuel_order, png_bytes, upload


def numbers(res):
    return [(t["number"], t["po_number"], len(t["lines"])) for t in res.json()["data"]]


def test_generate_one_ticket_then_split_by_po_without_renumbering(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = fuel_order()
    order_id = md["order"].pk
    res = api_a.get(f"{TICKETS}/generate", {"sales_order_id": order_id, "split_by_po": "false"})
    assert res.status_code == 200, res.json()
    assert res.json()["message"] == "1 delivery ticket generated successfully"
    [(first, po, n)] = numbers(res)
    assert first.startswith("DT-") and po == "PO-1" and n == 3

    # generating again refreshes: same number
    again = api_a.get(f"{TICKETS}/generate", {"sales_order_id": order_id})
    assert numbers(again) == [(first, "PO-1", 3)]

    split = api_a.get(f"{TICKETS}/generate", {"sales_order_id": order_id, "split_by_po": "true"})
    assert split.status_code == 200
    got = numbers(split)
    assert got[0] == (first, "PO-1", 2)  # the PO-1 ticket keeps its number
    assert got[1][1:] == ("PO-2", 1) and got[1][0] != first
    products = [ln["product_code"] for ln in split.json()["data"][1]["lines"]]
    assert products == ["EO-T"]

    # back to one ticket: the first one carries all lines, the PO-2 ticket is voided (never deleted)
    one = api_a.get(f"{TICKETS}/generate", {"sales_order_id": order_id, "split_by_po": "false"})
    assert numbers(one) == [(first, "PO-1", 3)]
    listed = api_a.get(TICKETS, {"sales_order_id": order_id}).json()["data"]
    assert sorted((t["number"], t["status"]) for t in listed["items"]) == sorted(
        [(first, "open"), (got[1][0], "void")]
    )
    # split again: the voided ticket comes back with its number
    assert numbers(api_a.get(f"{TICKETS}/generate", {"sales_order_id": order_id, "split_by_po": True})) == got


def test_generate_one_po_only(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = fuel_order()
    res = api_a.get(
        f"{TICKETS}/generate", {"sales_order_id": md["order"].pk, "split_by_po": "true", "po_number": "PO-2"}
    )
    assert res.status_code == 200
    assert [(t["po_number"], len(t["lines"])) for t in res.json()["data"]] == [("PO-2", 1)]
    bad = api_a.get(
        f"{TICKETS}/generate", {"sales_order_id": md["order"].pk, "split_by_po": "true", "po_number": "PO-9"}
    )
    assert bad.status_code == 422
    assert "PO-9" in bad.json()["detail"]


def test_generate_refusals(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = fuel_order(status="cancelled")
    assert api_a.get(f"{TICKETS}/generate", {"sales_order_id": 999999}).status_code == 404
    res = api_a.get(f"{TICKETS}/generate", {"sales_order_id": md["order"].pk})
    assert res.status_code == 409
    with in_tenant(tenant_a):
        from tenants.delivery.models import DeliveryTicket

        assert not DeliveryTicket.objects.filter(sales_order=md["order"]).exists()


def test_ticket_numbers_are_per_tenant(api_a, api_b, tenant_a, tenant_b, in_tenant):
    with in_tenant(tenant_a):
        a = fuel_order()
    with in_tenant(tenant_b):
        b = fuel_order()
    na = numbers(api_a.get(f"{TICKETS}/generate", {"sales_order_id": a["order"].pk}))[0][0]
    nb = numbers(api_b.get(f"{TICKETS}/generate", {"sales_order_id": b["order"].pk}))[0][0]
    assert na == nb  # each company counts its own


def test_record_delivery_end_to_end(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = fuel_order(status="assigned")
    sig = upload(api_a, "signature")
    photo = upload(api_a, "photo", "tank.png", png_bytes("blue"))
    entry = api_a.get(f"{TICKETS}/entry/{md['order'].pk}")
    assert entry.status_code == 200
    view = entry.json()["data"]
    assert [(ln["product_code"], ln["api_gravity"], ln["vcf_group"]) for ln in view["lines"]] == [
        ("ULSD-T", "35.0", "distillate"),
        ("UNL-T", "60.0", "gasoline"),
        ("EO-T", None, "none"),
    ]
    assert view["tanks"][0]["asset_name"] == "Tank 1"

    res = api_a.post(f"{TICKETS}/entry/{md['order'].pk}", entry_body(md, sig, photo))
    assert res.status_code == 200, res.json()
    [ticket] = res.json()["data"]
    assert ticket["status"] == "delivered"
    assert ticket["signer_name"] == "Pat Receiver" and ticket["reference"] == "PAPER-5512"
    assert ticket["signature_key"] == sig and ticket["photo_keys"] == [photo]
    assert ticket["latitude"] == "29.760427"
    lines = {ln["product_code"]: ln for ln in ticket["lines"]}
    # diesel: 1000.0 gross at 80 °F, 35 API → VCF 0.9907 → 990.7 net, billed on net
    assert lines["ULSD-T"]["gross_volume"] == "1000.000"
    assert lines["ULSD-T"]["vcf"] == "0.9907"
    assert lines["ULSD-T"]["net_volume"] == "990.700"
    assert lines["ULSD-T"]["delivered_quantity"] == "990.700"
    assert lines["ULSD-T"]["tank_name"] == "Tank 1"
    # gasoline: 500 gross at 75 °F, 60 API → VCF 0.9897 → 494.85 → 494.9 (half up)
    assert lines["UNL-T"]["vcf"] == "0.9897"
    assert lines["UNL-T"]["net_volume"] == "494.900"
    assert lines["UNL-T"]["tank_name"] == "Gas tank B"
    assert lines["EO-T"]["delivered_quantity"] == "2.000" and lines["EO-T"]["net_volume"] is None
    assert ticket["total_gross_volume"] == "1500.000"

    # the order went assigned → in_delivery → delivered, with the delivered quantities on its lines
    order = api_a.get(f"/api/sales-order/sales-orders/{md['order'].pk}").json()["data"]
    assert order["status"] == "delivered"
    delivered = {ln["product_id"]: ln["delivered_quantity"] for ln in order["line_items"]}
    assert delivered[md["diesel"].pk] == "990.700"
    with in_tenant(tenant_a):
        from tenants.sales.models import StatusEvent

        actions = list(StatusEvent.objects.filter(sales_order=md["order"]).values_list("action", flat=True))
    assert actions[-3:] == ["start_delivery", "deliver_products", "deliver"]

    # recording again: the order is delivered, the workflow refuses and nothing changes
    again = api_a.post(f"{TICKETS}/entry/{md['order'].pk}", entry_body(md, sig, photo))
    assert again.status_code == 409
    # and generating again answers the signed ticket unchanged
    gen = api_a.get(f"{TICKETS}/generate", {"sales_order_id": md["order"].pk})
    assert [t["number"] for t in gen.json()["data"]] == [ticket["number"]]
    assert gen.json()["data"][0]["lines"][0]["net_volume"] == "990.700"


def test_record_delivery_refusals_change_nothing(api_a, tenant_a, in_tenant):
    with in_tenant(tenant_a):
        md = fuel_order(status="assigned")
        md["gas"].api_gravity = None
        md["gas"].save()
    sig = upload(api_a, "signature")
    photo = upload(api_a, "photo")
    url = f"{TICKETS}/entry/{md['order'].pk}"
    body = entry_body(md, sig, photo)
    res = api_a.post(url, body)
    assert res.status_code == 422
    assert "has no API gravity" in res.json()["detail"]

    cases = [
        ({"meter_start": "10", "meter_end": "5"}, "end meter reading is below"),
        ({"line_item_id": 99999999}, "is not on this sales order"),
    ]
    for change, words in cases:
        b = entry_body(md, sig, photo)
        b["lines"][0].update(change)
        r = api_a.post(url, b)
        assert r.status_code == 422 and words in r.json()["detail"], r.json()
    # a photo uploaded as a signature is refused; so is a made-up key
    b = entry_body(md, photo, photo)
    assert api_a.post(url, b).status_code == 422
    b = entry_body(md, "tenants/other/signature/" + "0" * 32 + "/x.png", photo)
    assert api_a.post(url, b).status_code == 422
    with in_tenant(tenant_a):
        from tenants.sales.models import SalesOrder

        order = SalesOrder.objects.get(pk=md["order"].pk)
        assert order.status == "assigned"
        assert not order.line_items.filter(delivered_quantity__isnull=False).exists()


def test_proof_files_stay_under_the_tenant_prefix(api_a, api_b, tenant_a, tenant_b, in_tenant):
    sig_a = upload(api_a, "signature")
    assert sig_a.startswith(f"tenants/{tenant_a.schema}/signature/")
    with in_tenant(tenant_b):
        md_b = fuel_order(status="assigned")
    # B refers to A's signature: refused, nothing delivered
    photo_b = upload(api_b, "photo")
    res = api_b.post(f"{TICKETS}/entry/{md_b['order'].pk}", entry_body(md_b, sig_a, photo_b))
    assert res.status_code == 422
    assert res.json()["detail"] == "signature_key: the file must be one uploaded by this company."
    # and cannot download it
    assert api_b.get(f"/api/storage/files/{sig_a}").status_code == 404
    assert api_a.get(f"/api/storage/files/{sig_a}").status_code == 200


def test_service_keyword_only_and_partial_recording(tenant_a, in_tenant):
    from tenants.delivery import services

    with in_tenant(tenant_a):
        md = fuel_order(status="in_delivery")
        diesel = md["lines"][0]
        with pytest.raises(TypeError):
            services.generate_tickets(md["order"], False, None, None)  # type: ignore[misc]
        tickets = services.record_delivery(
            order=md["order"],
            lines=[
                {"line_item_id": diesel.pk, "gross_volume": Decimal("800"), "temperature_f": Decimal("40")}
            ],
            signer_name="",
            signature_key=None,
            photo_keys=[],
            latitude=None,
            longitude=None,
            delivered_at=None,
            by=None,
            complete=False,
        )
        [t] = tickets
        assert t.status == "open"
        line = t.lines.get(line_item=diesel)
        assert line.vcf == Decimal("1.0092") and line.net_volume == Decimal("807.4")
        md["order"].refresh_from_db()
        assert md["order"].status == "in_delivery"
        with pytest.raises(ApiError):
            services.record_delivery(
                order=md["order"],
                lines=[{"line_item_id": diesel.pk, "gross_volume": "5"}],
                signer_name="",
                signature_key=None,
                photo_keys=None,
                latitude="10",
                longitude=None,
                delivered_at=None,
                by=None,
            )


def test_pdf_and_document(api_a, tenant_a, in_tenant, tmp_path):
    import pdfplumber

    with in_tenant(tenant_a):
        md = fuel_order(status="assigned")
    sig = upload(api_a, "signature")
    photo = upload(api_a, "photo")
    [ticket] = api_a.post(f"{TICKETS}/entry/{md['order'].pk}", entry_body(md, sig, photo)).json()["data"]
    res = api_a.get(f"{TICKETS}/{ticket['id']}", HTTP_ACCEPT="application/pdf")
    assert res.status_code == 200
    assert res["Content-Type"] == "application/pdf"
    assert res["Content-Disposition"] == f'attachment; filename="{ticket["number"]}.pdf"'
    pdf = res.content
    assert pdf.startswith(b"%PDF-")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = "\n".join(page.extract_text() or "" for page in doc.pages)
    assert ticket["number"] in text
    assert "Acme Construction" in text
    assert "Clear Diesel" in text
    assert "990.7" in text  # net gallons
    assert "Pat Receiver" in text
    assert "185,220.0" in text  # the meter end, to a tenth
    assert "E+" not in text  # 80 °F prints as 80, not 8E+1
    (tmp_path / "ticket.pdf").write_bytes(pdf)

    same = api_a.get(f"{TICKETS}/{ticket['id']}/pdf")
    assert same.status_code == 200 and same.content.startswith(b"%PDF-")
    as_json = api_a.get(f"{TICKETS}/{ticket['id']}")
    assert as_json.json()["data"]["number"] == ticket["number"]
    doc = api_a.get(f"{TICKETS}/{ticket['id']}/document").json()["data"]
    assert doc["type"] == "delivery_ticket" and doc["document"]["number"] == ticket["number"]
    assert doc["signature"]["image"].startswith("data:image/png;base64,")
    assert doc["signature"]["location"] == "29.760427, -95.369804"
    assert doc["totals"]["net_volume"] is not None
    assert api_a.get(f"{TICKETS}/999999").status_code == 404


def test_list_and_permissions(api_a, tenant_a, in_tenant, django_assert_max_num_queries):
    with in_tenant(tenant_a):
        for _ in range(3):
            fuel_order()
        from tenants.sales.models import SalesOrder

        ids = list(SalesOrder.objects.values_list("pk", flat=True))
    for i in ids:
        assert (
            api_a.get(f"{TICKETS}/generate", {"sales_order_id": i, "split_by_po": "true"}).status_code == 200
        )
    with django_assert_max_num_queries(8):
        res = api_a.get(TICKETS, {"size": 50})
    page = res.json()["data"]
    assert page["total"] == 2 * len(ids)
    found = api_a.get(TICKETS, {"search": page["items"][0]["number"]}).json()["data"]
    assert [t["number"] for t in found["items"]] == [page["items"][0]["number"]]

    nobody = Api(token_for(tenant_a, role=None))
    assert nobody.get(TICKETS).status_code == 403
    assert nobody.get(f"{TICKETS}/generate", {"sales_order_id": ids[0]}).status_code == 403
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get(TICKETS).status_code == 200
    assert driver.get(f"{TICKETS}/generate", {"sales_order_id": ids[0]}).status_code == 403


def test_ticket_pdf_prints_ordered_and_delivered_quantities(api_a, tenant_a, in_tenant):
    """Issue 23: a delivery typed in as delivered quantities (no meters, no gross) printed a ticket whose
    quantity columns and totals were all blank, while the screen showed Ordered 500.0 / Delivered 495.0.
    The customer's copy says what was ordered and delivered, and gross/net at 60 °F where recorded."""
    import pdfplumber

    with in_tenant(tenant_a):
        md = fuel_order(status="assigned")
    diesel, gas, oil = md["lines"]
    body = {
        "lines": [
            {"line_item_id": gas.pk, "delivered_quantity": "495"},
            {
                "line_item_id": diesel.pk,
                "meter_start": "184220.0",
                "meter_end": "185220.0",
                "temperature_f": "80.0",
            },
            {"line_item_id": oil.pk, "delivered_quantity": "2"},
        ],
        "signer_name": "Pat Receiver",
        "complete": True,
    }
    res = api_a.post(f"{TICKETS}/entry/{md['order'].pk}", body)
    assert res.status_code == 200, res.json()
    [ticket] = res.json()["data"]
    pdf = api_a.get(f"{TICKETS}/{ticket['id']}/pdf").content
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = "\n".join(page.extract_text() or "" for page in doc.pages)
    assert "ORDERED" in text and "DELIVERED" in text, text  # the table's headers
    gas_row = next(line for line in text.splitlines() if line.startswith("Unleaded 87"))
    assert "500.0" in gas_row and "495.0" in gas_row, gas_row  # ordered, delivered: nothing else recorded
    diesel_row = next(line for line in text.splitlines() if line.startswith("Clear Diesel"))
    # ordered 1,000, gross from the meters 1,000.0, net at 60 °F 990.7 (delivered = net)
    assert "1,000.0" in diesel_row and "990.7" in diesel_row and "80" in diesel_row, diesel_row
    oil_row = next(line for line in text.splitlines() if line.startswith("Engine oil drum"))
    assert oil_row.endswith("2.0 2.0 drum"), oil_row  # ordered, delivered, its own unit
    assert "Total gallons ordered 1,500.0" in text  # diesel 1,000 + gasoline 500, not the oil drums
    assert "Total gallons delivered 1,485.7" in text  # 990.7 net + 495
    assert "Total net gallons @ 60°F 990.7" in text
