"""Templates API: shipped defaults, CRUD, duplicate, default per type, graph validation."""

from __future__ import annotations

import copy

import pytest

from conftest import Api, token_for


def comp(id: str, type: str = "text", x: float = 40, y: float = 40, **kw):
    return {"id": id, "type": type, "position": {"x": x, "y": y}, "size": {"width": 200, "height": 20}, **kw}


def test_the_shipped_defaults_exist_once_per_type(api_a):
    res = api_a.get("/api/template")
    assert res.status_code == 200, res.json()
    items = res.json()["data"]["items"]
    defaults = {t["type"]: t for t in items if t["isDefault"]}
    assert set(defaults) == {"invoice", "delivery_ticket", "sales_order"}
    invoice = defaults["invoice"]
    assert invoice["canvasSettings"]["width"] == 794 and invoice["canvasSettings"]["height"] == 1123
    assert invoice["canvasSettings"]["padding"] == {"top": 20, "right": 20, "bottom": 20, "left": 20}
    # The logo is part of the shipped invoice and ticket.
    for kind in ("invoice", "delivery_ticket"):
        assert any(c["variableName"] == "company.logo" for c in defaults[kind]["components"])
    again = api_a.get("/api/template").json()["data"]
    assert again["total"] == len(items)
    only = api_a.get("/api/template", {"type": "delivery_ticket"}).json()["data"]["items"]
    assert [t["type"] for t in only] == ["delivery_ticket"]


def test_create_read_update_delete(api_a):
    body = {
        "name": "Plain invoice",
        "type": "invoice",
        "components": [
            comp("title", content="INVOICE"),
            comp("num", "sales-order-field", y=80, variableName="document.number"),
        ],
    }
    res = api_a.post("/api/template", body)
    assert res.status_code == 201, res.json()
    created = res.json()["data"]
    assert created["isDefault"] is False
    assert created["canvasSettings"]["pageSize"] == "A4"
    tid = created["id"]
    got = api_a.get(f"/api/template/{tid}").json()["data"]
    assert [c["id"] for c in got["components"]] == ["title", "num"]
    res = api_a.put(f"/api/template/{tid}", {"name": "Plain invoice v2"})
    assert res.status_code == 200 and res.json()["data"]["name"] == "Plain invoice v2"
    assert len(res.json()["data"]["components"]) == 2  # untouched
    assert api_a.delete(f"/api/template/{tid}").status_code == 200
    assert api_a.get(f"/api/template/{tid}").status_code == 404


@pytest.mark.parametrize(
    ("components", "message"),
    [
        ([comp("a"), comp("a")], "the id a is used twice"),
        ([comp("box", "container", children=["ghost"])], "holds ghost, which does not exist"),
        (
            [comp("b1", "container", children=["x"]), comp("b2", "container", children=["x"]), comp("x")],
            "x is in two containers",
        ),
        ([comp("t", children=["u"]), comp("u")], "t is not a container"),
        ([comp("x", parentId="nowhere")], "says it is in nowhere"),
    ],
)
def test_an_incoherent_component_graph_is_refused(api_a, components, message):
    res = api_a.post("/api/template", {"name": "Bad", "type": "invoice", "components": components})
    assert res.status_code == 422
    assert message in res.json()["detail"]


def test_duplicate_and_default_per_type(api_a):
    items = api_a.get("/api/template", {"type": "invoice"}).json()["data"]["items"]
    shipped = next(t for t in items if t["isDefault"])
    res = api_a.post(f"/api/template/{shipped['id']}/duplicate")
    assert res.status_code == 201
    copy_ = res.json()["data"]
    assert copy_["name"] == f"{shipped['name']} (copy)" and copy_["isDefault"] is False
    assert copy_["components"] == shipped["components"]
    res = api_a.post(f"/api/template/{copy_['id']}/default")
    assert res.status_code == 200
    assert res.json()["message"] == f"'{copy_['name']}' is now the default invoice template"
    items = api_a.get("/api/template", {"type": "invoice"}).json()["data"]["items"]
    assert [t["id"] for t in items if t["isDefault"]] == [copy_["id"]]
    # Other types keep their own default.
    tickets = api_a.get("/api/template", {"type": "delivery_ticket"}).json()["data"]["items"]
    assert sum(t["isDefault"] for t in tickets) == 1
    # The default cannot be deleted; the former default now can.
    res = api_a.delete(f"/api/template/{copy_['id']}")
    assert res.status_code == 409
    assert "make another one the default first" in res.json()["detail"]
    assert api_a.delete(f"/api/template/{shipped['id']}").status_code == 200


def test_update_keeps_the_graph_rules(api_a):
    body = {"name": "Boxes", "type": "sales_order", "components": [comp("a")]}
    tid = api_a.post("/api/template", body).json()["data"]["id"]
    bad = [comp("a"), comp("a")]
    res = api_a.put(f"/api/template/{tid}", {"components": bad})
    assert res.status_code == 422
    assert len(api_a.get(f"/api/template/{tid}").json()["data"]["components"]) == 1


def test_a_role_without_the_permission_is_refused(tenant_a):
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get("/api/template").status_code == 403
    assert driver.post("/api/template", {"name": "x", "type": "invoice"}).status_code == 403


def test_the_contract_lists_fields_per_type(api_a):
    ticket = api_a.get("/api/template/contract/delivery_ticket").json()["data"]
    names = {v["variableName"] for v in ticket["variables"]}
    assert {"signature.image", "signature.signer_name", "totals.net_volume", "company.logo"} <= names
    assert "totals.balance_due" not in names
    assert set(ticket["tables"]) == {"line_items"}
    invoice = api_a.get("/api/template/contract/invoice").json()["data"]
    assert {"line_items", "fees", "taxes"} == set(invoice["tables"])
    assert api_a.get("/api/template/contract/receipt").status_code == 422


def test_templates_of_one_tenant_are_not_seen_by_another(api_a, api_b):
    body = {"name": "Alpha only", "type": "invoice", "components": [comp("x", content="alpha")]}
    tid = api_a.post("/api/template", body).json()["data"]["id"]
    assert api_b.get(f"/api/template/{tid}").status_code == 404
    names = [t["name"] for t in api_b.get("/api/template").json()["data"]["items"]]
    assert "Alpha only" not in names
    shipped = copy.deepcopy(names)
    assert shipped  # B got its own shipped defaults


def test_existing_companies_get_the_ticket_quantities():
    """Issue 23: companies created before the shipped ticket printed ordered and delivered quantities
    keep their template row; migration 0002 gives the untouched shipped table the new columns and
    totals (the same as a new company gets), and leaves a table the company changed alone."""
    import importlib

    from tenants.documents.services import shipped_default

    mig = importlib.import_module("tenants.documents.migrations.0002_delivery_ticket_quantities")
    new = shipped_default("delivery_ticket")["components"]
    # The shipped template as it was before: seven columns, a two-line totals box.
    old = [copy.deepcopy(c) for c in new if c["id"] not in ("tot-ordered", "tot-delivered")]
    by_id = {c["id"]: c for c in old}
    keep = [c for c in by_id["lines"]["columns"] if c["key"] in mig.OLD_KEYS]
    by_id["lines"]["columns"] = keep
    assert [c["key"] for c in keep] == mig.OLD_KEYS
    by_id["volumes"]["children"], by_id["volumes"]["size"]["height"] = ["tot-gross", "tot-net"], 58
    for cid, y in (("tot-gross", 522), ("tot-net", 542)):
        by_id[cid]["position"] = by_id[cid]["originalPosition"] = {"x": 480, "y": y}

    upgraded = mig.upgrade_components(old)
    assert upgraded is not None
    assert [c["id"] for c in upgraded] == [c["id"] for c in new]
    up = {c["id"]: c for c in upgraded}
    want = {c["id"]: c for c in new}
    assert [c["key"] for c in up["lines"]["columns"]] == [c["key"] for c in want["lines"]["columns"]]
    assert "quantity_ordered" in [c["key"] for c in up["lines"]["columns"]]
    for cid in ("volumes", "tot-ordered", "tot-delivered", "tot-gross", "tot-net"):
        assert up[cid]["position"] == want[cid]["position"], cid
        assert up[cid].get("variableName") == want[cid].get("variableName"), cid
    # A table the company edited is theirs: not touched.
    edited = copy.deepcopy(old)
    next(c for c in edited if c["id"] == "lines")["columns"].pop()
    assert mig.upgrade_components(edited) is None
    # The shipped template today is already upgraded: running it twice changes nothing.
    assert mig.upgrade_components(new) is None
