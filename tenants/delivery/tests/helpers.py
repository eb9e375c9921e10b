"""Builders of the delivery tests: an order of diesel (35 API) and gasoline (60 API) with PO numbers."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

from django.test.client import MULTIPART_CONTENT

TICKETS = "/api/delivery-ticket"
UPLOAD = "/api/storage/upload-file"


def fuel_order(status: str = "assigned", *, po_lines: tuple[str, str, str] = ("PO-1", "PO-1", "PO-2")) -> Any:
    """An order with three lines (diesel 1000 gal, gasoline 500 gal, engine oil 2 drums), each with a PO
    number, assigned to a truck unless `status` says otherwise. Runs in the active tenant."""
    from tenants.sales.models import LineItem
    from tenants.sales.tests.helpers import master_data, order_in_db

    md = master_data()
    md["diesel"].api_gravity, md["diesel"].vcf_group = Decimal("35.0"), "distillate"
    md["diesel"].save()
    md["gas"].api_gravity, md["gas"].vcf_group = Decimal("60.0"), "gasoline"
    md["gas"].save()
    extra = {"truck": md["truck"], "driver": md["driver"]} if status in ("assigned", "in_delivery") else {}
    order = order_in_db(
        md,
        status=status,
        lines=(("diesel", "1000", "3.2000"), ("gas", "500", "3.0000"), ("oil", "2", "800.0000")),
        po_number="PO-1",
        **extra,
    )
    for line, po in zip(order.line_items.order_by("position"), po_lines, strict=True):
        LineItem.objects.filter(pk=line.pk).update(po_number=po)
    md["order"] = order
    md["lines"] = list(order.line_items.order_by("position"))
    return md


def png_bytes(color: str = "black") -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (40, 20), color).save(buf, "PNG")
    return buf.getvalue()


def upload(api: Any, purpose: str, name: str = "sig.png", data: bytes | None = None) -> str:
    from django.core.files.uploadedfile import SimpleUploadedFile

    f = SimpleUploadedFile(name, data or png_bytes(), content_type="image/png")
    res = api.post(UPLOAD, {"file": f, "purpose": purpose}, content_type=MULTIPART_CONTENT)
    assert res.status_code == 201, res.json()
    return str(res.json()["data"]["file_key"])


def entry_body(md: Any, sig: str, photo: str) -> dict[str, Any]:
    """The office entry of `fuel_order`: meters for diesel, gross for gasoline, a count for the oil."""
    diesel, gas, oil = md["lines"]
    return {
        "lines": [
            {
                "line_item_id": diesel.pk,
                "meter_start": "184220.0",
                "meter_end": "185220.0",
                "temperature_f": "80.0",
                "tank_id": md["tank"].pk,
            },
            {"line_item_id": gas.pk, "gross_volume": "500", "temperature_f": "75", "tank": "Gas tank B"},
            {"line_item_id": oil.pk, "delivered_quantity": "2"},
        ],
        "signer_name": "Pat Receiver",
        "signature_key": sig,
        "photo_keys": [photo],
        "latitude": "29.760427",
        "longitude": "-95.369804",
        "reference": "PAPER-5512",
    }
