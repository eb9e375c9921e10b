"""Previews through the API: the saved or unsaved template with sample data, HTML and PDF."""

from __future__ import annotations

import io

import pdfplumber

from tenants.company.tests.test_settings_and_files import png_bytes, upload


def test_preview_html_and_pdf_of_a_saved_template_show_the_company(api_a):
    logo = upload(api_a, png_bytes("navy")).json()["data"]
    res = api_a.post(
        "/api/company-settings/",
        {"company_name": "Alpha Fuels LLC", "address_one": "9 Tank Farm Rd", "logo": [logo]},
    )
    assert res.status_code == 201, res.json()
    shipped = next(
        t for t in api_a.get("/api/template", {"type": "invoice"}).json()["data"]["items"] if t["isDefault"]
    )
    res = api_a.post(f"/api/template/{shipped['id']}/preview")
    assert res.status_code == 200
    html = res.json()["data"]["html"]
    assert "Alpha Fuels LLC" in html and "9 Tank Farm Rd" in html
    assert 'src="data:image/png;base64,' in html  # the uploaded logo, inlined
    res = api_a.post(f"/api/template/{shipped['id']}/preview", HTTP_ACCEPT="application/pdf")
    assert res.status_code == 200 and res["Content-Type"] == "application/pdf"
    assert res["Content-Disposition"].startswith("attachment;")
    with pdfplumber.open(io.BytesIO(res.content)) as doc:
        assert "Alpha Fuels LLC" in doc.pages[0].extract_text()
        assert len(doc.pages[0].images) == 1


def test_render_unsaved_template(api_a):
    body = {
        "type": "delivery_ticket",
        "components": [
            {"id": "t", "type": "text", "content": "My ticket", "position": {"x": 30, "y": 30}},
            {
                "id": "n",
                "type": "sales-order-field",
                "variableName": "document.number",
                "label": "Ticket",
                "position": {"x": 30, "y": 60},
                "size": {"width": 300, "height": 20},
            },
        ],
    }
    res = api_a.post("/api/template/render", body)
    assert res.status_code == 200, res.json()
    html = res.json()["data"]["html"]
    assert "My ticket" in html and "DT-000318" in html
    pdf = api_a.post("/api/template/render", body, HTTP_ACCEPT="application/pdf")
    assert pdf.content.startswith(b"%PDF")
    bad = {**body, "components": [body["components"][0], body["components"][0]]}
    assert api_a.post("/api/template/render", bad).status_code == 422
