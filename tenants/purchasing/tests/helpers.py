"""Builders shared by the purchasing tests."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

POS = "/api/purchase-order"
BILLS = "/api/bill"
DAY = dt.date(2026, 11, 2)


def master_data() -> dict[str, Any]:
    """A supplier at a terminal (in Texas), diesel and unleaded, buying prices in force on DAY, and a
    net-15 payment term for the supplier. Runs in the active tenant schema."""
    from tenants.catalog.models import Product
    from tenants.geo.models import State
    from tenants.parties.models import Supplier, Terminal
    from tenants.pricing.models import BuyingPrice, PaymentTerm
    from tenants.purchasing.models import SupplierTerm

    state, _ = State.objects.get_or_create(name="Texas P", defaults={"code": "TP"})
    terminal, _ = Terminal.objects.get_or_create(
        terminal_code="T-76-TX-P", defaults={"name": "Houston rack", "state": state}
    )
    supplier, _ = Supplier.objects.get_or_create(code="VAL-P", defaults={"name": "Valero Supply"})
    supplier.terminals.add(terminal)
    diesel, _ = Product.objects.get_or_create(
        code="ULSD-P", defaults={"name": "Clear Diesel", "sold_as": "gallon", "is_fuel": True}
    )
    gas, _ = Product.objects.get_or_create(
        code="UNL-P", defaults={"name": "Unleaded 87", "sold_as": "gallon", "is_fuel": True}
    )
    BuyingPrice.objects.get_or_create(
        supplier=supplier,
        terminal=terminal,
        product=diesel,
        effective_from=DAY - dt.timedelta(days=3),
        defaults={"price": Decimal("2.451200")},
    )
    BuyingPrice.objects.get_or_create(
        supplier=supplier,
        terminal=terminal,
        product=gas,
        effective_from=DAY - dt.timedelta(days=3),
        defaults={"price": Decimal("2.101000")},
    )
    net15, _ = PaymentTerm.objects.get_or_create(name="Net 15 P", defaults={"net_days": 15})
    SupplierTerm.objects.update_or_create(supplier=supplier, defaults={"payment_term": net15})
    return {
        "state": state,
        "terminal": terminal,
        "supplier": supplier,
        "diesel": diesel,
        "gas": gas,
        "net15": net15,
    }


def po_body(md: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "supplier_id": md["supplier"].pk,
        "terminal_id": md["terminal"].pk,
        "order_date": str(DAY),
        "reference": "VAL-7781",
        "lines": [
            {"product_id": md["diesel"].pk, "quantity": "8000"},
            {"product_id": md["gas"].pk, "quantity": "4000", "unit_cost": "2.0900"},
        ],
        **extra,
    }


def received_po(
    api: Any, md: dict[str, Any], *, diesel_net: str = "7950", gas_net: str = "4000"
) -> dict[str, Any]:
    """A purchase order placed and received (one BOL), through the API."""
    po = api.post(POS, po_body(md)).json()["data"]
    assert api.post(f"{POS}/{po['id']}/place", {}).status_code == 200
    d, g = po["lines"]
    res = api.post(
        f"{POS}/{po['id']}/receipts",
        {
            "bol_number": "BOL-1001",
            "received_on": str(DAY),
            "lines": [
                {"line_id": d["id"], "gross_quantity": "8010", "net_quantity": diesel_net},
                {"line_id": g["id"], "gross_quantity": "4005", "net_quantity": gas_net},
            ],
        },
    )
    assert res.status_code == 201, res.json()
    return res.json()["data"]
