"""Uploaded files are never served back as active content, and a file reference is the key of a
file this company uploaded, checked on the server (which also builds every URL)."""

from __future__ import annotations

import pytest

from conftest import Api
from tenants.company.tests.test_settings_and_files import png_bytes, upload
from tests.pdfs import tiny_pdf

ACTIVE = {
    "page.html": b"<!doctype html><html><body><script>alert(document.domain)</script></body></html>",
    "pic.svg": b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>',
    "page.xhtml": b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>x()</script></html>',
    "data.xml": b'<?xml version="1.0"?><?xml-stylesheet href="x.xsl"?><a/>',
    "app.js": b"<script>fetch('/api/user-account')</script>",
    "notes.txt": b"hello <SCRIPT src=//evil.example/x.js></SCRIPT>",
}


@pytest.mark.parametrize("purpose", ["document", "attachment", "import", "logo"])
@pytest.mark.parametrize("name", sorted(ACTIVE))
def test_active_content_is_refused_for_every_purpose(api_a, name, purpose):
    res = upload(api_a, ACTIVE[name], name=name, purpose=purpose)
    assert res.status_code == 415, res.json()
    assert res["Content-Type"].startswith("application/json") and res.json()["detail"]


def test_a_png_named_html_is_stored_and_served_as_a_png(api_a):
    res = upload(api_a, png_bytes(), name="x.html", purpose="logo")
    assert res.status_code == 201, res.json()
    data = res.json()["data"]
    assert data["file_key"].endswith("/x.png") and data["file_name"] == "x.png"
    assert data["content_type"] == "image/png"
    got = api_a.get(data["file_url"])
    assert got.status_code == 200 and got["Content-Type"] == "image/png"
    assert got["Content-Disposition"] == 'inline; filename="x.png"'
    assert got["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in got["Content-Security-Policy"]


@pytest.mark.parametrize(
    ("name", "body", "purpose", "stored_as", "content_type"),
    [
        ("invoice.pdf", tiny_pdf(), "document", "invoice.pdf", "application/pdf"),
        ("report.html", tiny_pdf(2), "attachment", "report.pdf", "application/pdf"),
        ("prices.csv", b"code,price\nULSD,3.1234\n", "import", "prices.csv", "text/csv"),
        ("readme", b"just words", "document", "readme.txt", "text/plain"),
    ],
)
def test_other_files_are_downloads_never_rendered(api_a, name, body, purpose, stored_as, content_type):
    res = upload(api_a, body, name=name, purpose=purpose)
    assert res.status_code == 201, res.json()
    data = res.json()["data"]
    assert data["file_name"] == stored_as and data["content_type"] == content_type
    got = api_a.get(data["file_url"])
    assert got.status_code == 200 and got.content == body
    assert got["Content-Type"].split(";")[0] == content_type
    assert got["Content-Disposition"] == f'attachment; filename="{stored_as}"'
    assert got["X-Content-Type-Options"] == "nosniff"
    assert got["Content-Security-Policy"] == "default-src 'none'; sandbox"


def test_each_purpose_has_its_own_allow_list(api_a):
    assert upload(api_a, b"%PDF-1.4\n%%EOF", name="x.pdf", purpose="logo").status_code == 415
    assert upload(api_a, b"%PDF-1.4\n%%EOF", name="x.pdf", purpose="import").status_code == 415
    assert upload(api_a, png_bytes(), name="x.png", purpose="import").status_code == 415
    assert upload(api_a, png_bytes(), name="x.png", purpose="attachment").status_code == 201


def settings_with_logo(api: Api, logo: dict):
    return api.post("/api/company-settings/", {"company_name": "Alpha Fuels", "logo": [logo]})


@pytest.mark.parametrize(
    "forged",
    [
        "tenants/{schema}/logo/../../other/logo/x.png",
        "tenants/{schema}/logo/0123456789abcdef0123456789abcdef/../../../etc/passwd",
        "tenants/{schema}/logo/0123456789abcdef0123456789abcdef/missing.png",
        "/etc/passwd",
        "tenants/{schema}/logo/..",
        "",
    ],
)
def test_a_logo_must_be_an_uploaded_file_of_this_company(api_a, tenant_a, forged):
    res = settings_with_logo(
        api_a, {"file_key": forged.format(schema=tenant_a.schema), "file_url": "https://evil.example/x.png"}
    )
    assert res.status_code == 422, res.json()
    assert "uploaded by this company" in res.json()["detail"] or "file_key" in res.json()["detail"]


def test_a_logo_of_another_purpose_or_company_is_refused(api_a, api_b):
    document = upload(api_a, png_bytes(), name="d.png", purpose="document").json()["data"]
    res = settings_with_logo(api_a, {"file_key": document["file_key"]})
    assert res.status_code == 422 and "uploaded as logo" in res.json()["detail"]
    theirs = upload(api_b, png_bytes(), name="b.png").json()["data"]
    assert settings_with_logo(api_a, {"file_key": theirs["file_key"]}).status_code == 422


def test_the_server_builds_the_logo_url_whatever_the_client_sends(api_a):
    logo = upload(api_a, png_bytes()).json()["data"]
    sent = {
        **logo,
        "file_url": "javascript:alert(document.cookie)",
        "file_name": "../../x",
        "full_path": "//evil",
    }
    res = settings_with_logo(api_a, sent)
    assert res.status_code == 201, res.json()
    stored = res.json()["data"]["logo"][0]
    assert stored["file_url"] == f"/api/storage/files/{logo['file_key']}"
    assert stored["file_name"] == logo["file_name"] and stored["full_path"] == logo["file_key"]
    assert api_a.get("/api/company-settings").json()["data"]["logo"] == [stored]


def test_logos_stored_before_the_checks_are_not_echoed_back(api_a, tenant_a, in_tenant):
    from tenants.company.models import CompanySettings

    logo = upload(api_a, png_bytes()).json()["data"]
    with in_tenant(tenant_a):
        CompanySettings.objects.create(
            company_name="Old",
            logo=[
                {"file_key": "../x", "file_url": "javascript:alert(1)"},
                {**logo, "file_url": "https://evil.example/steal"},
            ],
        )
    shown = api_a.get("/api/company-settings").json()["data"]["logo"]
    assert shown == [
        {
            "file_key": logo["file_key"],
            "file_name": logo["file_name"],
            "file_path": logo["file_path"],
            "full_path": logo["file_key"],
            "file_url": f"/api/storage/files/{logo['file_key']}",
        }
    ]
