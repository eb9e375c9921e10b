"""Sample data of each document type: what the designer previews before real documents exist.
The numbers add up to the cent, as a real invoice's would."""

from __future__ import annotations

import base64
import datetime as dt
from decimal import Decimal

from tenants.documents.contract import (
    DOCUMENT_LABELS,
    Company,
    DocumentData,
    DocumentInfo,
    Fee,
    Line,
    Party,
    Signature,
    Tax,
    Totals,
)
from tenants.pricing.money import money

# A drawn stroke stands in for the signature image in samples.
_SIGNATURE_SVG = (
    "<svg xmlns='http://www.w3.org/2000/svg' width='220' height='60'>"
    "<path d='M5 45 C 30 5, 45 5, 55 40 S 80 60, 95 25 S 130 5, 140 40 S 180 55, 215 20' "
    "stroke='#123' stroke-width='2.5' fill='none'/></svg>"
)
_SAMPLE_SIGNATURE = "data:image/svg+xml;base64," + base64.b64encode(_SIGNATURE_SVG.encode()).decode()


NOTES = {
    "invoice": "Thank you for your business. Please reference the invoice number with your payment.",
    "delivery_ticket": "Product delivered into the tanks listed. Net gallons corrected to 60 °F.",
    "sales_order": "Delivery window 7:00–15:00. Call the site office on arrival.",
}


def sample_data(doc_type: str, company: Company | None = None) -> DocumentData:
    today = dt.date(2026, 3, 2)
    lines = [
        Line(
            line_no=1,
            product_code="ULSD",
            product_name="Diesel #2 ULSD",
            description="Ultra-low sulfur diesel, clear",
            unit="gal",
            quantity_ordered=Decimal("3000"),
            quantity_delivered=Decimal("2987.4"),
            gross_volume=Decimal("2987.4"),
            net_volume=Decimal("2969.1"),
            temperature=Decimal("71.5"),
            meter_start=Decimal("184220.0"),
            meter_end=Decimal("187207.4"),
            tank="Tank 1 (10k)",
            unit_price=Decimal("3.4125"),
        ),
        Line(
            line_no=2,
            product_code="RUG87",
            product_name="Unleaded 87 E10",
            description="Regular gasoline, 10% ethanol",
            unit="gal",
            quantity_ordered=Decimal("1500"),
            quantity_delivered=Decimal("1512.0"),
            gross_volume=Decimal("1512.0"),
            net_volume=Decimal("1503.2"),
            temperature=Decimal("68.0"),
            meter_start=Decimal("91020.5"),
            meter_end=Decimal("92532.5"),
            tank="Tank 2 (6k)",
            unit_price=Decimal("2.9870"),
        ),
        Line(
            line_no=3,
            product_code="DEF",
            product_name="Diesel Exhaust Fluid",
            description="2.5 gal jugs, case of 2",
            unit="case",
            quantity_ordered=Decimal("12"),
            quantity_delivered=Decimal("12"),
            unit_price=Decimal("24.5000"),
        ),
    ]
    for line in lines:
        billed = line.net_volume if line.net_volume is not None else line.quantity_delivered
        line.quantity_billed = billed
        line.amount = money((billed or Decimal("0")) * (line.unit_price or Decimal("0")))
    subtotal = sum((line.amount or Decimal("0") for line in lines), Decimal("0"))
    fees = [
        Fee(name="Delivery fee", quantity=Decimal("1"), rate=Decimal("45.00"), amount=Decimal("45.00")),
        Fee(name="Environmental fee", quantity=Decimal("1"), rate=Decimal("7.50"), amount=Decimal("7.50")),
    ]
    fuel_gallons = sum((line.net_volume or Decimal("0") for line in lines), Decimal("0"))
    excise = money(fuel_gallons * Decimal("0.2000"))
    taxable = subtotal
    sales_tax = money(taxable * Decimal("0.0625"))
    taxes = [
        Tax(
            name="State excise tax",
            rate=Decimal("0.2000"),
            rate_label="$0.2000/gal",
            taxable_amount=fuel_gallons,
            amount=excise,
        ),
        Tax(
            name="Sales tax",
            rate=Decimal("6.25"),
            rate_label="6.25%",
            taxable_amount=taxable,
            amount=sales_tax,
        ),
    ]
    fees_total = sum((f.amount for f in fees), Decimal("0"))
    tax_total = sum((t.amount for t in taxes), Decimal("0"))
    total = subtotal + fees_total + tax_total
    paid = Decimal("0") if doc_type != "invoice" else Decimal("5000.00")
    totals = Totals(
        subtotal=subtotal,
        fees=fees_total,
        tax=tax_total,
        total=total,
        amount_paid=paid,
        balance_due=total - paid,
        gross_volume=sum((line.gross_volume or Decimal("0") for line in lines), Decimal("0")),
        net_volume=fuel_gallons,
        gallons_ordered=sum(
            (ln.quantity_ordered or Decimal("0") for ln in lines if ln.unit == "gal"), Decimal("0")
        ),
        gallons_delivered=sum(
            (ln.quantity_delivered or Decimal("0") for ln in lines if ln.unit == "gal"), Decimal("0")
        ),
    )
    numbers = {"invoice": "INV-001042", "delivery_ticket": "DT-000318", "sales_order": "SO-000877"}
    return DocumentData(
        type=doc_type,  # type: ignore[arg-type]
        company=company
        or Company(
            name="Your Company",
            address=["100 Depot Road", "Houston, TX 77002"],
            phone="(713) 555-0100",
            email="office@yourcompany.example",
        ),
        customer=Party(
            name="Lone Star Construction LLC",
            account_number="C-10027",
            address=["4400 Commerce St, Suite 200", "Dallas, TX 75226"],
            phone="(214) 555-0142",
            email="ap@lonestar.example",
        ),
        ship_to=Party(name="North Yard — Site 4", address=["1800 Industrial Blvd", "Irving, TX 75061"]),
        document=DocumentInfo(
            number=numbers[doc_type],
            title=DOCUMENT_LABELS[doc_type],
            date=today,
            due_date=today + dt.timedelta(days=30) if doc_type == "invoice" else None,
            order_number="SO-000877",
            po_number="PO-55821",
            payment_terms="Net 30",
            status="issued" if doc_type == "invoice" else "delivered",
            notes=NOTES[doc_type],
            delivered_at=dt.datetime(2026, 3, 2, 9, 41, tzinfo=dt.UTC),
            driver="Maria Lopez",
            truck="T-12 (Freightliner 4,200 gal)",
        ),
        lines=lines,
        fees=fees if doc_type != "delivery_ticket" else [],
        taxes=taxes if doc_type != "delivery_ticket" else [],
        totals=totals,
        signature=Signature(
            signer_name="J. Carter",
            signed_at=dt.datetime(2026, 3, 2, 9, 44, tzinfo=dt.UTC),
            image=_SAMPLE_SIGNATURE,
            location="32.8140, -96.9489",
        )
        if doc_type == "delivery_ticket"
        else Signature(),
    )
