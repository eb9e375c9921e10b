"""The document kit (core/documents.py) and the action table of core/workflow.py, directly: the lines'
replace step, the one 404 sentence per model, the moves' permissions and the routes derived from them."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction

from conftest import Api
from core.documents import action_route, codes, replace_lines, require_move
from core.errors import ApiError
from core.permissions import denial_message
from core.scoping import get_or_404, not_found_message
from core.workflow import Machine, move
from tenants.purchasing.tests.helpers import POS, master_data, po_body


def _toy(**kwargs: Any) -> Machine:
    return Machine(
        name="memo",
        resource="memo",
        statuses=["draft", "issued", "applied", "void"],
        moves=[
            move("issue", ["draft"], "issued", permission="issue"),
            move("apply", ["issued"], "applied"),  # the system's move: no permission
            move("void", ["draft", "issued"], "void", permission="void", path="cancel"),
            move("reopen", ["void"], "draft", permission="issue"),
        ],
        **kwargs,
    )


# --- the action table --------------------------------------------------------------------------------
def test_each_move_names_its_permission_and_the_system_moves_are_not_offered():
    machine = _toy()
    assert machine.code("issue") == "memo.issue"
    assert machine.code("reopen") == "memo.issue"
    with pytest.raises(ValueError, match="a move of the system"):
        machine.code("apply")
    # CRUD first, then each move's permission once, in the table's order.
    assert codes(machine) == ("view", "add", "change", "delete", "issue", "void")
    # A user is offered the moves with a permission; a refusal still names every open move.
    assert [a["action"] for a in machine.user_actions("issued")] == ["void"]
    assert [a["action"] for a in machine.allowed_actions("issued")] == ["apply", "void"]


def test_the_route_of_a_move_comes_from_the_table():
    # Real machines: `perm()` registers an unknown resource, so a toy one would leak into the registry.
    from tenants.purchasing.workflow import po
    from tenants.sales import workflow as sales_workflow

    route = action_route(sales_workflow.MACHINE, "start_delivery", prefix="/sales-orders")
    assert route["path"] == "/sales-orders/{int:id}/start-delivery"
    assert route["auth"].permission == "sales_order.start_delivery"
    route = action_route(po.MACHINE, "receive")  # a move with its own path
    assert (route["path"], route["auth"].permission) == ("/{int:id}/receipts", "purchase_order.receive")
    assert _toy().get("void").path == "cancel" and _toy().get("issue").path == "issue"


def test_a_status_call_picks_the_move_open_from_the_current_status():
    machine = _toy(status_calls={"draft": ("reopen",), "void": ("void",)})
    assert machine.status_action("draft", "void") == "reopen"
    assert machine.status_action("void", "applied") == "void"  # none open: the first, which refuses
    assert machine.status_action("issued", "draft") is None  # no call for this status


def test_a_table_that_does_not_add_up_is_refused_when_declared():
    with pytest.raises(ValueError, match="needs the machine's resource"):
        Machine(name="x", statuses=["a", "b"], moves=[move("go", ["a"], "b", permission="go")])
    with pytest.raises(ValueError, match="status call"):
        _toy(status_calls={"issued": ("publish",)})


def test_require_move_answers_the_denial_sentence():
    machine = _toy()
    clerk = SimpleNamespace(has_perm=lambda code: code == "memo.issue")
    require_move(clerk, machine, "issue")
    with pytest.raises(ApiError) as refused:
        require_move(clerk, machine, "void")
    assert refused.value.status_code == 403
    assert str(refused.value) == denial_message("memo.void")


def test_the_documents_register_the_permissions_their_moves_name():
    from core.permissions import registered_permissions
    from tenants.invoicing import workflow as invoice_workflow
    from tenants.purchasing.workflow import bill, po
    from tenants.sales import workflow as sales_workflow

    registered = {p.code for p in registered_permissions()}
    for machine in (sales_workflow.MACHINE, po.MACHINE, bill.MACHINE, invoice_workflow.MACHINE):
        for mv in machine.moves:
            if mv.permission:
                assert machine.code(mv.action) in registered, (machine.name, mv.action)


# --- one 404 sentence per model ----------------------------------------------------------------------
def test_the_not_found_sentence_is_the_models_own():
    from tenants.invoicing.models import InvoiceLine
    from tenants.purchasing.models import PurchaseOrder
    from tenants.sales.models import OrderFee, SalesOrder

    assert not_found_message(SalesOrder) == "Sales order not found"
    assert not_found_message(PurchaseOrder) == "Purchase order not found"
    assert not_found_message(InvoiceLine) == "Invoice line item not found"
    assert not_found_message(OrderFee) == "Fee not found"  # declared beside the model


def test_unknown_documents_answer_their_sentence(api_a):
    answers = {
        "/api/sales-order/sales-orders/987654321": "Sales order not found",
        "/api/purchase-order/987654321": "Purchase order not found",
        "/api/bill/987654321": "Bill not found",
        "/api/invoice/987654321": "Invoice not found",
        "/api/invoice-line-item/987654321": "Invoice line item not found",
        "/api/invoice/payments/987654321": "Payment not found",
    }
    for path, sentence in answers.items():
        res = api_a.get(path)
        assert res.status_code == 404, (path, res.status_code)
        assert res.json()["detail"] == sentence, path
    res = api_a.delete("/api/sales-order/sales-orders/fee/987654321")
    assert (res.status_code, res.json()["detail"]) == (404, "Fee not found")


def test_get_or_404_takes_the_model_and_keeps_the_owner_scope(tenant_a, in_tenant):
    from tenants.purchasing.models import Receipt

    with in_tenant(tenant_a), pytest.raises(ApiError) as missing:
        get_or_404(Receipt, 987654321)
    assert (missing.value.status_code, str(missing.value)) == (404, "Receipt not found")


# --- the lines' replace step -------------------------------------------------------------------------
def _po_with_two_lines(api_a: Api, tenant_a: Any, in_tenant: Any) -> tuple[Any, dict[str, Any]]:
    with in_tenant(tenant_a):
        md = master_data()
    res = api_a.post(POS, po_body(md))
    assert res.status_code == 201, res.json()
    return res.json()["data"], md


def test_replace_lines_updates_adds_and_deletes_in_the_order_sent(api_a, tenant_a, in_tenant):
    from tenants.purchasing.models import PurchaseOrder, PurchaseOrderLine

    po, md = _po_with_two_lines(api_a, tenant_a, in_tenant)
    first, second = po["lines"]
    repriced: list[bool] = []

    def fill(line: PurchaseOrderLine, raw: dict[str, Any]) -> None:
        line.product = md[raw["product"]]
        line.quantity = raw["quantity"]

    with in_tenant(tenant_a):
        doc = PurchaseOrder.objects.get(pk=po["id"])
        saved = replace_lines(
            doc.lines,
            [
                {"product": "gas", "quantity": Decimal("10")},
                {"id": second["id"], "product": "diesel", "quantity": 7},
            ],
            new=lambda raw: PurchaseOrderLine(purchase_order=doc),
            fill=fill,
            unknown=lambda line_id: f"lines: line {line_id} is not on this purchase order.",
            then=lambda: repriced.append(True),
        )
        lines = list(doc.lines.order_by("position").values_list("id", "position", "product_id", "quantity"))
    assert repriced == [True]
    new_id = saved[0].pk
    assert new_id not in (first["id"], second["id"])
    assert lines == [
        (new_id, 1, md["gas"].pk, Decimal("10.000")),
        (second["id"], 2, md["diesel"].pk, Decimal("7.000")),
    ]  # the first line, not sent, is gone


def test_replace_lines_refuses_a_line_of_another_document_and_changes_nothing(api_a, tenant_a, in_tenant):
    from tenants.purchasing.models import PurchaseOrder, PurchaseOrderLine

    po, _ = _po_with_two_lines(api_a, tenant_a, in_tenant)
    other, _ = _po_with_two_lines(api_a, tenant_a, in_tenant)
    foreign_id = other["lines"][0]["id"]
    with in_tenant(tenant_a):
        doc = PurchaseOrder.objects.get(pk=po["id"])
        before = list(doc.lines.values_list("id", "position"))
        with pytest.raises(ApiError) as refused, transaction.atomic():
            replace_lines(
                doc.lines,
                [{"id": po["lines"][1]["id"]}, {"id": foreign_id}],
                new=lambda raw: PurchaseOrderLine(purchase_order=doc),
                fill=lambda line, raw: None,
                unknown=lambda line_id: f"lines: line {line_id} is not on this purchase order.",
            )
        after = list(doc.lines.values_list("id", "position"))
    assert refused.value.status_code == 422
    assert str(refused.value) == f"lines: line {foreign_id} is not on this purchase order."
    assert after == before


def test_replace_lines_keyed_by_another_field_adds_what_it_does_not_know(api_a, tenant_a, in_tenant):
    """Without `unknown`, a key that names no line makes one (a ticket's lines follow the order's)."""
    from tenants.purchasing.models import PurchaseOrder, PurchaseOrderLine

    po, md = _po_with_two_lines(api_a, tenant_a, in_tenant)
    with in_tenant(tenant_a):
        doc = PurchaseOrder.objects.get(pk=po["id"])
        diesel_line = doc.lines.get(product=md["diesel"])

        def fill(line: PurchaseOrderLine, raw: Any) -> None:
            line.product = raw
            line.quantity = Decimal("5")

        replace_lines(
            doc.lines,
            [md["diesel"], md["gas"]],
            new=lambda product: PurchaseOrderLine(purchase_order=doc),
            fill=fill,
            key=lambda product: product.pk,
            key_field="product_id",
        )
        rows = list(doc.lines.order_by("position").values_list("id", "product_id", "quantity"))
    assert rows[0] == (diesel_line.pk, md["diesel"].pk, Decimal("5.000"))  # kept, updated
    assert rows[1][1:] == (md["gas"].pk, Decimal("5.000"))
    assert len(rows) == 2
