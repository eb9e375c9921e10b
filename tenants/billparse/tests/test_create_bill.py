"""From a parsed invoice to a bill: the reviewed draft becomes a draft bill on the open purchase order
that fits (by BOL receipt, else supplier/terminal/products), a correction teaches the supplier's
layout, and the next bill of that supplier is recognised with more confidence."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from conftest import Api, token_for
from tenants.billparse.tests.invoicegen import Truth, make_invoice
from tenants.billparse.tests.test_api import URL, pdf_file, upload


def parsed(api: Api, jobs: Any, capture: Any, data: bytes, name: str = "bill.pdf") -> dict[str, Any]:
    with capture(execute=True):
        doc = upload(api, pdf_file(name, data)).json()["data"]["documents"][0]
    jobs()
    return api.get(f"{URL}/{doc['id']}").json()["data"]


def review_of(detail: dict[str, Any]) -> dict[str, Any]:
    """What the review screen sends when the user accepts every field as read."""
    f = detail["result"]["fields"]
    return {
        "supplier_id": f["supplier"]["value"],
        "bill_number": f["bill_number"]["value"],
        "bill_date": f["bill_date"]["value"],
        "due_date": f["due_date"]["value"],
        "terminal_id": f["terminal"]["value"],
        "bol_numbers": f["bol_numbers"]["value"] or [],
        "total": f["total"]["value"],
        "lines": [
            {
                "product_id": ln["product"]["value"],
                "description": ln["description"]["value"] or "",
                "gross": ln["gross"]["value"],
                "net": ln["net"]["value"],
                "unit_price": ln["unit_price"]["value"],
                "amount": ln["amount"]["value"],
            }
            for ln in detail["result"]["lines"]
        ],
        "taxes": [
            {"name": t["description"]["value"], "amount": t["amount"]["value"]}
            for t in detail["result"]["taxes"]
        ],
    }


def open_po(in_tenant: Any, tenant: Any, directory: dict[str, Any], truth: Truth, *, terminal: str) -> int:
    from tenants.purchasing import services
    from tenants.purchasing.workflow import po as po_workflow

    with in_tenant(tenant):
        po = services.create_purchase_order(
            {
                "supplier_id": directory["suppliers"][truth.supplier],
                "terminal_id": directory["terminals"][terminal],
                "lines": [
                    {
                        "product_id": directory["products"][ln["product"]],
                        "quantity": ln["net"],
                        "unit_cost": ln["unit_price"],
                    }
                    for ln in truth.lines
                ],
            }
        )
        po_workflow.place(po)
        return int(po.pk)


def test_a_reviewed_invoice_becomes_a_bill_on_the_open_purchase_order(
    api_a: Api,
    tenant_a: Any,
    in_tenant: Any,
    directory_a: Any,
    jobs: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    data, truth = make_invoice("C", 3001)
    po_id = open_po(in_tenant, tenant_a, directory_a, truth, terminal=truth.terminal)
    detail = parsed(api_a, jobs, django_capture_on_commit_callbacks, data)
    assert detail["suggested_purchase_order"]["id"] == po_id
    review = review_of(detail)
    r = api_a.post(f"{URL}/{detail['id']}/create-bill", review)
    assert r.status_code == 201, r.content
    created = r.json()["data"]
    assert r.json()["message"] == f"Bill {truth.bill_number} created on its purchase order"
    assert created["purchase_order_id"] == po_id and created["layout_labels"] >= 4

    bill = api_a.get(f"/api/bill/{created['bill_id']}").json()["data"]
    assert bill["bill_number"] == truth.bill_number and bill["bill_date"] == truth.bill_date.isoformat()
    assert bill["due_date"] == truth.due_date.isoformat()
    assert Decimal(bill["total"]) == truth.total
    assert bill["purchase_order"]["id"] == po_id
    assert bill["source"] == "parser"
    assert [Decimal(ln["amount"]) for ln in bill["lines"]] == [ln["amount"] for ln in truth.lines]
    assert len(bill["charges"]) == len(truth.taxes)

    listed = api_a.get(f"{URL}/{detail['id']}").json()["data"]
    assert listed["status"] == "created" and listed["bill_id"] == created["bill_id"]
    again = api_a.post(f"{URL}/{detail['id']}/create-bill", review)
    assert (
        again.status_code == 409
        and again.json()["detail"] == "A bill was already created from this document."
    )


def test_no_purchase_order_fits_another_terminal_and_bad_drafts_are_refused(
    api_a: Api,
    tenant_a: Any,
    in_tenant: Any,
    directory_a: Any,
    jobs: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    data, truth = make_invoice("A", 3002)
    other = next(t for t in directory_a["terminals"] if t != truth.terminal)
    open_po(in_tenant, tenant_a, directory_a, truth, terminal=other)
    detail = parsed(api_a, jobs, django_capture_on_commit_callbacks, data)
    assert detail["suggested_purchase_order"] is None
    review = review_of(detail)
    assert api_a.post(f"{URL}/{detail['id']}/create-bill", {**review, "supplier_id": None}).json()[
        "detail"
    ] == ("supplier_id: choose the supplier of this bill.")
    no_qty = {**review, "lines": [{**review["lines"][0], "net": None, "gross": None}]}
    r = api_a.post(f"{URL}/{detail['id']}/create-bill", no_qty)
    assert (
        r.status_code == 422 and r.json()["detail"] == "lines: line 1 needs its net gallons and unit price."
    )
    assert api_a.get(f"{URL}/{detail['id']}").json()["data"]["status"] == "parsed"  # nothing changed
    sales = Api(token_for(tenant_a, role="Sales"))
    assert sales.post(f"{URL}/{detail['id']}/create-bill", review).status_code == 403
    r = api_a.post(f"{URL}/{detail['id']}/create-bill", review)
    assert r.status_code == 201 and r.json()["data"]["purchase_order_id"] is None
    assert r.json()["message"] == f"Bill {truth.bill_number} created"


def test_a_corrected_field_is_learned_and_the_next_bill_is_recognised(
    api_a: Api, directory_a: Any, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # the held-out layout: its labels are not in the parser's dictionary
    first_data, first = make_invoice("F", 3003)
    seed = 3004
    while make_invoice("F", seed)[1].supplier != first.supplier:
        seed += 1
    second_data, second = make_invoice("F", seed)

    detail = parsed(api_a, jobs, django_capture_on_commit_callbacks, first_data, "first.pdf")
    assert detail["layout_matched"] is False
    before = detail["result"]["fields"]["bill_number"]["confidence"]
    assert before < detail["low_mark"] and detail["low_confidence"] > 0
    review = review_of(detail)
    review["bill_number"] = first.bill_number  # the user checks (or corrects) each marked field
    assert api_a.post(f"{URL}/{detail['id']}/create-bill", review).status_code == 201

    nxt = parsed(api_a, jobs, django_capture_on_commit_callbacks, second_data, "second.pdf")
    assert nxt["layout_matched"] is True
    fields = nxt["result"]["fields"]
    assert fields["bill_number"]["value"] == second.bill_number
    assert fields["bill_number"]["confidence"] >= 0.95 > before
    assert (
        fields["due_date"]["value"] == second.due_date.isoformat()
        and fields["due_date"]["source"] == "layout"
    )
    assert nxt["low_confidence"] < detail["low_confidence"]


def test_a_bill_that_does_not_add_up_to_the_document_needs_a_stated_reason(
    api_a: Api, directory_a: Any, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Issue 23: the review warned "Lines + taxes ≠ total" and "Create bill" still made a bill of
    $19,280 for a PDF of $22,832. Now such a bill is refused (409 naming both figures) unless the user
    overrides with a reason, which the bill keeps with who and when."""
    data, truth = make_invoice("G", 3010)
    detail = parsed(api_a, jobs, django_capture_on_commit_callbacks, data)
    review = review_of(detail)
    assert Decimal(str(review["total"])) == truth.total
    dropped = review["taxes"].pop()  # a tax line the user (or the parser) left out
    short = truth.total - Decimal(str(dropped["amount"]))

    r = api_a.post(f"{URL}/{detail['id']}/create-bill", review)
    assert r.status_code == 409, r.content
    assert r.json()["detail"] == (
        f"The bill's lines and taxes come to ${short:,.2f} but the document's total is ${truth.total:,.2f} "
        f"(a difference of ${truth.total - short:,.2f}): correct the lines or taxes, or create the bill "
        "anyway with a reason for the difference."
    )
    # clearing the total on the form does not skip the check: the total read from the document holds
    r = api_a.post(f"{URL}/{detail['id']}/create-bill", {**review, "total": None})
    assert r.status_code == 409
    assert api_a.get(f"{URL}/{detail['id']}").json()["data"]["status"] == "parsed"  # nothing created
    assert api_a.get("/api/bill", {"search": truth.bill_number}).json()["data"]["total"] == 0

    reason = "Inspection fee billed on a separate invoice"
    r = api_a.post(f"{URL}/{detail['id']}/create-bill", {**review, "total_override_reason": f"  {reason} "})
    assert r.status_code == 201, r.content
    bill = api_a.get(f"/api/bill/{r.json()['data']['bill_id']}").json()["data"]
    assert Decimal(bill["total"]) == short
    assert Decimal(bill["document_total"]) == truth.total
    assert bill["total_override_reason"] == reason and bill["total_override_at"]


def test_a_bill_that_adds_up_keeps_the_document_total_and_no_override(
    api_a: Api, directory_a: Any, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    data, truth = make_invoice("G", 3011)
    detail = parsed(api_a, jobs, django_capture_on_commit_callbacks, data)
    # the taxes printed under the line table are read, so the bill adds up as read
    r = api_a.post(f"{URL}/{detail['id']}/create-bill", review_of(detail))
    assert r.status_code == 201, r.content
    bill = api_a.get(f"/api/bill/{r.json()['data']['bill_id']}").json()["data"]
    assert Decimal(bill["total"]) == Decimal(bill["document_total"]) == truth.total
    assert bill["total_override_reason"] == "" and bill["total_override_at"] is None
    assert len(bill["charges"]) == len(truth.taxes)
