"""The bill parser's API: upload one or many PDFs (answered at once), the worker's job and its log,
the messages of files that cannot be read, the review and the page images."""

from __future__ import annotations

from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from conftest import Api, token_for
from tenants.billparse.tests.invoicegen import make_invoice
from tenants.billparse.tests.test_extract import blank_pdf, scanned_pdf

URL = "/api/parse_document"


def pdf_file(name: str, data: bytes, content_type: str = "application/pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def upload(api: Api, *files: SimpleUploadedFile) -> Any:
    return api.client.post(URL, {"files": list(files)}, **api._headers())


def job_logs(api: Api) -> list[dict[str, Any]]:
    return api.get(
        "/api/job-log", {"filter_field": "kind", "filter_operator": "equals", "filter_value": "bill_parse"}
    ).json()["data"]["items"]


def test_two_invoices_are_answered_at_once_then_parsed_by_one_job_with_its_log(
    api_a: Api, directory_a: Any, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    (d1, t1), (d2, t2) = make_invoice("A", 2001), make_invoice("C", 2002)
    with django_capture_on_commit_callbacks(execute=True):
        r = upload(api_a, pdf_file("gulf.pdf", d1), pdf_file("lone-star.pdf", d2))
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["message"] == "2 files received: parsing started"
    docs = body["data"]["documents"]
    assert [d["file_name"] for d in docs] == ["gulf.pdf", "lone-star.pdf"]
    assert [d["status"] for d in docs] == ["queued", "queued"] and body["data"]["job_queued"] is True
    batch = body["data"]["batch"]

    entry = job_logs(api_a)[0]
    assert (
        entry["kind"] == "bill_parse" and entry["status"] == "queued" and entry["message"] == "Bill parsing"
    )
    assert entry["document_type"] == "bill_parse" and entry["document_label"] == "2 invoice PDFs"
    assert entry["document_path"] == "/invoice-parse" and entry["started_by_name"] == "Alpha Fuels Admin"

    assert jobs() == 1
    listed = api_a.get(URL, {"batch": batch}).json()["data"]
    assert listed["total"] == 2
    by_name = {d["file_name"]: d for d in listed["items"]}
    assert by_name["gulf.pdf"]["status"] == "parsed"
    assert by_name["gulf.pdf"]["supplier_id"] == directory_a["suppliers"][t1.supplier]
    assert by_name["gulf.pdf"]["supplier_name"] == t1.supplier
    assert by_name["lone-star.pdf"]["supplier_name"] == t2.supplier
    assert by_name["gulf.pdf"]["low_confidence"] == 0
    entry = job_logs(api_a)[0]
    assert entry["status"] == "succeeded" and [h["status"] for h in entry["logs"]] == [
        "queued",
        "running",
        "succeeded",
    ]

    detail = api_a.get(f"{URL}/{docs[0]['id']}").json()["data"]
    fields = detail["result"]["fields"]
    assert fields["bill_number"]["value"] == t1.bill_number and fields["bill_number"]["page"] == 1
    assert fields["bill_date"]["value"] == t1.bill_date.isoformat()
    assert fields["terminal"]["value"] == directory_a["terminals"][t1.terminal]
    assert fields["total"]["value"] == str(t1.total)
    lines = detail["result"]["lines"]
    assert [ln["product"]["value"] for ln in lines] == [
        directory_a["products"][ln["product"]] for ln in t1.lines
    ]
    assert detail["names"]["suppliers"] == {str(directory_a["suppliers"][t1.supplier]): t1.supplier}
    assert len(detail["result"]["taxes"]) == len(t1.taxes)


def test_files_that_are_not_readable_invoices_get_a_clear_message(
    api_a: Api, directory_a: Any, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        r = upload(
            api_a,
            pdf_file("notes.txt", b"Invoice 42 total 10.00", "text/plain"),
            pdf_file("fake.pdf", b"GIF89a not a pdf at all"),
            pdf_file("empty.pdf", b""),
            pdf_file("scan.pdf", scanned_pdf()),
            pdf_file("blank.pdf", blank_pdf()),
        )
    assert r.status_code == 201
    docs = r.json()["data"]["documents"]
    assert [d["status"] for d in docs] == ["failed", "failed", "failed", "queued", "queued"]
    assert docs[0]["message"] == "This file is not a PDF: upload the supplier's invoice as a PDF file."
    assert docs[1]["message"] == docs[0]["message"]
    assert docs[2]["message"] == "The file is empty."
    assert jobs() == 1
    rows = {
        d["file_name"]: d
        for d in api_a.get(URL, {"batch": r.json()["data"]["batch"]}).json()["data"]["items"]
    }
    assert rows["scan.pdf"]["status"] == "failed"
    assert "scanned document" in rows["scan.pdf"]["message"] and "OCR" in rows["scan.pdf"]["message"]
    assert rows["blank.pdf"]["status"] == "failed" and "blank" in rows["blank.pdf"]["message"]
    entry = job_logs(api_a)[0]
    assert entry["status"] == "failed" and "scan.pdf" in entry["error"] and "blank.pdf" in entry["error"]


def test_an_upload_with_no_pdf_queues_nothing_and_no_files_is_refused(api_a: Api, jobs: Any) -> None:
    r = upload(api_a, pdf_file("a.csv", b"a,b\n1,2\n", "text/csv"))
    assert r.status_code == 201 and r.json()["message"] == "No PDF to parse"
    assert r.json()["data"]["job_queued"] is False
    assert jobs() == 0
    r = api_a.client.post(URL, {}, **api_a._headers())
    assert r.status_code == 422


def test_the_review_is_kept_and_the_page_is_an_image(
    api_a: Api, directory_a: Any, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    data, truth = make_invoice("B", 2003)
    with django_capture_on_commit_callbacks(execute=True):
        doc = upload(api_a, pdf_file("b.pdf", data)).json()["data"]["documents"][0]
    jobs()
    png = api_a.get(f"{URL}/{doc['id']}/pages/1")
    assert png.status_code == 200 and png["Content-Type"] == "image/png"
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert png["X-Content-Type-Options"] == "nosniff"
    assert api_a.get(f"{URL}/{doc['id']}/pages/2").status_code == 404

    review = {
        "supplier_id": directory_a["suppliers"][truth.supplier],
        "bill_number": "CORRECTED-1",
        "bill_date": truth.bill_date.isoformat(),
        "lines": [
            {
                "product_id": directory_a["products"]["ULSD"],
                "net": "100",
                "unit_price": "2.5",
                "amount": "250.00",
            }
        ],
        "taxes": [{"name": "Federal Excise Tax", "amount": "24.40"}],
    }
    r = api_a.put(f"{URL}/{doc['id']}", review)
    assert r.status_code == 200, r.content
    saved = r.json()["data"]["review"]
    assert saved["bill_number"] == "CORRECTED-1" and saved["lines"][0]["amount"] == "250.00"
    assert api_a.get(f"{URL}/{doc['id']}").json()["data"]["review"]["bill_number"] == "CORRECTED-1"
    assert api_a.put(f"{URL}/{doc['id']}", {"bill_number": "x", "unknown": 1}).status_code == 422


def test_choices_and_permissions(api_a: Api, tenant_a: Any, directory_a: Any) -> None:
    data = api_a.get(f"{URL}/choices").json()["data"]
    assert {"Gulf Coast Petroleum LLC", "Red River Oil Company"} <= {s["name"] for s in data["suppliers"]}
    assert len(data["terminals"]) == 6 and len(data["products"]) == 5
    sales = Api(token_for(tenant_a, role="Sales"))
    assert sales.get(URL).status_code == 403
    r = upload(sales, pdf_file("a.pdf", make_invoice("A", 1)[0]))
    assert r.status_code == 403 and r.json()["detail"] == "You do not have permission to create bill parsing."
    accounting = Api(token_for(tenant_a, role="Accounting"))
    assert accounting.get(URL).status_code == 200


def test_another_company_cannot_see_or_review_a_parsed_document(
    api_a: Api, api_b: Api, directory_a: Any, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        doc = upload(api_a, pdf_file("a.pdf", make_invoice("E", 2004)[0])).json()["data"]["documents"][0]
    jobs()
    assert api_b.get(f"{URL}/{doc['id']}").status_code == 404
    assert api_b.get(f"{URL}/{doc['id']}/pages/1").status_code == 404
    assert api_b.put(f"{URL}/{doc['id']}", {"bill_number": "X"}).status_code == 404
    assert api_b.get(URL).json()["data"]["total"] == 0
