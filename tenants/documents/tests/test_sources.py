"""Real documents in the designer: a registered data source renders a template with a real
document's data (`source_id`), and lists the documents for the picker."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from tenants.documents import services
from tenants.documents.samples import sample_data


@pytest.fixture
def invoices_source():
    saved = dict(services._SOURCES)

    def load(source_id: int):
        if source_id != 42:
            return None
        data = sample_data("invoice", company=None)
        data.document.number = "INV-REAL-042"
        return data

    services.register_data_source(
        "invoice",
        services.DataSource(
            load=load, recent=lambda search, limit: [(42, "INV-REAL-042 · Lone Star")][:limit]
        ),
    )
    yield
    services._SOURCES.clear()
    services._SOURCES.update(saved)


def test_a_template_renders_with_a_real_document(api_a, invoices_source):
    body = {
        "type": "invoice",
        "components": [
            {
                "id": "n",
                "type": "sales-order-field",
                "variableName": "document.number",
                "label": "Invoice",
                "position": {"x": 40, "y": 40},
                "size": {"width": 300, "height": 30},
            }
        ],
    }
    res = api_a.post("/api/template/render?source_id=42", body)
    assert res.status_code == 200, res.json()
    assert "INV-REAL-042" in res.json()["data"]["html"]
    sample = api_a.post("/api/template/render", body).json()["data"]["html"]
    assert "INV-REAL-042" not in sample
    assert api_a.post("/api/template/render?source_id=7", body).status_code == 404
    shipped = next(
        t for t in api_a.get("/api/template", {"type": "invoice"}).json()["data"]["items"] if t["isDefault"]
    )
    res = api_a.post(f"/api/template/{shipped['id']}/preview?source_id=42", HTTP_ACCEPT="application/pdf")
    assert res.status_code == 200 and res["Content-Type"] == "application/pdf"
    with pdfplumber.open(io.BytesIO(res.content)) as doc:
        assert "INV-REAL-042" in doc.pages[0].extract_text()
    res = api_a.get("/api/template/sources/invoice")
    assert res.status_code == 200
    assert res.json()["data"] == [{"id": 42, "label": "INV-REAL-042 · Lone Star"}]


def test_no_source_yet_says_so(api_a):
    saved = services._SOURCES.pop("sales_order", None)
    try:
        res = api_a.post("/api/template/render?source_id=1", {"type": "sales_order", "components": []})
        assert res.status_code == 422 and "sample data" in res.json()["detail"]
        assert api_a.get("/api/template/sources/sales_order").json()["data"] == []
    finally:
        if saved:
            services._SOURCES["sales_order"] = saved


def test_print_a_real_document_with_the_default_template(api_a, invoices_source):
    res = api_a.get("/api/template/print/invoice/42")
    assert res.status_code == 200, res.json()
    assert "INV-REAL-042" in res.json()["data"]["html"]
    res = api_a.get("/api/template/print/invoice/42", HTTP_ACCEPT="application/pdf")
    assert res.status_code == 200 and res["Content-Type"] == "application/pdf"
    assert res["Content-Disposition"] == 'attachment; filename="INV-REAL-042.pdf"'
    with pdfplumber.open(io.BytesIO(res.content)) as doc:
        assert "INV-REAL-042" in doc.pages[0].extract_text()
    assert api_a.get("/api/template/print/invoice/9").status_code == 404
    ticket_tpl = next(
        t
        for t in api_a.get("/api/template", {"type": "delivery_ticket"}).json()["data"]["items"]
        if t["isDefault"]
    )
    res = api_a.get(f"/api/template/print/invoice/42?template_id={ticket_tpl['id']}")
    assert res.status_code == 422
