"""A document's tax summary needs the document's own view permission (issue 23): the Sales role,
without invoice.view or purchase_order.view, reads neither an invoice's nor a purchase order's
quantities, amounts and taxes through /api/tax/<documents>/taxes/{id}."""

from __future__ import annotations

from typing import Any

from conftest import Api, token_for


def test_a_summary_needs_the_documents_view_permission(tenant_a: Any) -> None:
    sales = Api(token_for(tenant_a, "Sales"))
    accounting = Api(token_for(tenant_a, "Accounting"))
    for kind, code in (("invoices", "invoice"), ("purchase-orders", "purchase order")):
        r = sales.get(f"/api/tax/{kind}/taxes/1")
        assert r.status_code == 403, (kind, r.content)
        assert r.json()["detail"] == f"You do not have permission to view {code}s."
        assert accounting.get(f"/api/tax/{kind}/taxes/999999").status_code == 404  # allowed: no such row
    # A sales order's summary stays the Sales role's (sales_order.view).
    assert sales.get("/api/tax/sales-orders/taxes/999999").status_code == 404
