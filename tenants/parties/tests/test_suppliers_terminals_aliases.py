from conftest import Api, token_for
from tenants.parties.tests.helpers import (
    ALIASES,
    SUPPLIERS,
    TERMINALS,
    created,
    place,
    product,
    supplier,
    terminal,
)


def test_terminal_crud_with_suppliers(api_a, in_tenant, tenant_a):
    _, houston = place(in_tenant, tenant_a)
    s1, s2 = supplier(api_a, "Gulf Coast Fuels", code="GCF"), supplier(api_a, "Bayou Energy", code="BAY")
    res = api_a.post(
        TERMINALS,
        {
            "name": "Galena Park",
            "terminal_code": "T-76-TX-2001",
            "city_id": houston,
            "address_one": "1500 Clinton Dr",
            "latitude": 29.73,
            "longitude": -95.23,
            "suppliers": [s1["id"], s2["id"]],
        },
    )
    assert res.status_code == 201, res.json()
    t = res.json()["data"]
    assert [s["name"] for s in t["suppliers"]] == ["Bayou Energy", "Gulf Coast Fuels"]
    assert t["state"]["code"] == "TX"
    assert api_a.post(TERMINALS, {"name": "Copy", "terminal_code": "t-76-tx-2001"}).status_code == 409
    assert api_a.post(TERMINALS, {"name": "No code"}).status_code == 422
    res = api_a.post(TERMINALS, {"name": "Bad", "terminal_code": "T-1", "suppliers": [999999]})
    assert res.status_code == 422 and res.json()["detail"] == "suppliers: no supplier with id 999999."

    res = api_a.put(f"{TERMINALS}/{t['id']}", {"suppliers": [s1["id"]], "name": "Galena Park Terminal"})
    assert res.status_code == 200 and [s["id"] for s in res.json()["data"]["suppliers"]] == [s1["id"]]
    res = api_a.put(f"{TERMINALS}/{t['id']}", {"notes": "Rack 4"})  # the supplier list stays as it was
    assert [s["id"] for s in res.json()["data"]["suppliers"]] == [s1["id"]]
    terminals_of_s1 = api_a.get(f"{SUPPLIERS}/{s1['id']}/terminals/").json()["data"]
    assert [x["terminal_code"] for x in terminals_of_s1] == ["T-76-TX-2001"]
    assert api_a.get(f"{SUPPLIERS}/{s2['id']}/terminals").json()["data"] == []
    assert api_a.get(f"{SUPPLIERS}/999999/terminals").status_code == 404
    assert api_a.delete(f"{TERMINALS}/{t['id']}").status_code == 200
    assert api_a.get(f"{SUPPLIERS}/{s1['id']}").json()["data"]["terminals"] == []


def test_terminal_list_pages_of_ten(api_a, django_assert_max_num_queries):
    s = supplier(api_a)
    for i in range(31):
        terminal(api_a, f"T-76-TX-{3000 + i}", f"Terminal {i:02d}", suppliers=[s["id"]] if i % 2 else [])
    with django_assert_max_num_queries(8):
        page = api_a.get(TERMINALS).json()["data"]
    assert page["size"] == 10 and page["total"] == 31 and page["pages"] == 4
    assert len(api_a.get(f"{TERMINALS}/all").json()["data"]) == 31
    assert api_a.get(TERMINALS, {"supplier_id": s["id"]}).json()["data"]["total"] == 15
    page = api_a.get(TERMINALS, {"search": "3030"}).json()["data"]
    assert [t["name"] for t in page["items"]] == ["Terminal 30"]
    one = page["items"][0]
    assert api_a.get(f"{TERMINALS}/{one['id']}").json()["data"]["terminal_code"] == "T-76-TX-3030"


def test_supplier_crud_status_and_list(api_a, django_assert_max_num_queries):
    t1, t2 = terminal(api_a, "T-1", "Pasadena"), terminal(api_a, "T-2", "Port Arthur")
    res = api_a.post(
        SUPPLIERS,
        {
            "name": "Lone Star Petroleum",
            "code": "LSP",
            "contact_name": "Sam",
            "email": "orders@lsp.test",
            "terminals": [t1["id"], t2["id"]],
        },
    )
    assert res.status_code == 201, res.json()
    s = res.json()["data"]
    assert s["status"] == "active" and [t["name"] for t in s["terminals"]] == ["Pasadena", "Port Arthur"]
    assert api_a.post(SUPPLIERS, {"name": "Copy", "code": "lsp"}).status_code == 409
    assert api_a.post(SUPPLIERS, {"name": "No code 1"}).status_code == 201  # codes are unique only when set
    assert api_a.post(SUPPLIERS, {"name": "No code 2"}).status_code == 201

    res = api_a.put(f"{SUPPLIERS}/{s['id']}/status?status=inactive")
    assert res.status_code == 200 and res.json()["data"]["status"] == "inactive"
    res = api_a.put(f"{SUPPLIERS}/{s['id']}/status?status=on_hold")
    assert (
        res.status_code == 422
        and res.json()["detail"] == "Unknown status 'on_hold'. Allowed values: active, inactive."
    )

    for i in range(30):
        supplier(api_a, f"Supplier {i:02d}", terminals=[t1["id"]])
    with django_assert_max_num_queries(8):
        page = api_a.get(SUPPLIERS).json()["data"]
    assert page["size"] == 100 and page["total"] == 33
    assert api_a.get(SUPPLIERS, {"status": "inactive"}).json()["data"]["total"] == 1
    assert api_a.get(SUPPLIERS, {"terminal_id": t2["id"]}).json()["data"]["total"] == 1
    res = api_a.put(f"{SUPPLIERS}/{s['id']}", {"terminals": [t2["id"]], "phone": "409-555-0101"})
    assert [t["id"] for t in res.json()["data"]["terminals"]] == [t2["id"]]
    assert api_a.delete(f"{SUPPLIERS}/{s['id']}").status_code == 200


def test_aliases(api_a, django_assert_max_num_queries):
    gulf, bayou = supplier(api_a, "Gulf"), supplier(api_a, "Bayou")
    ulsd, dyed = product(api_a, "ULSD"), product(api_a, "DYED")
    res = api_a.post(
        ALIASES,
        {
            "supplier_id": gulf["id"],
            "product_id": ulsd["id"],
            "alias_name": "ULS #2 CLEAR",
            "alias_code": "0001",
        },
    )
    assert res.status_code == 201, res.json()
    alias = res.json()["data"]
    assert alias["supplier"]["name"] == "Gulf" and alias["product"]["code"] == "ULSD"
    res = api_a.post(
        ALIASES, {"supplier_id": gulf["id"], "product_id": dyed["id"], "alias_name": "uls #2 clear"}
    )
    assert res.status_code == 409 and res.json()["detail"] == "This supplier already has this alias name."
    # Another supplier may use the same words.
    created(
        api_a.post(
            ALIASES, {"supplier_id": bayou["id"], "product_id": ulsd["id"], "alias_name": "ULS #2 CLEAR"}
        )
    )
    assert (
        api_a.post(ALIASES, {"supplier_id": gulf["id"], "product_id": 999999, "alias_name": "X"}).status_code
        == 422
    )

    for i in range(30):
        created(
            api_a.post(
                ALIASES, {"supplier_id": bayou["id"], "product_id": dyed["id"], "alias_name": f"Dyed {i}"}
            )
        )
    with django_assert_max_num_queries(8):
        page = api_a.get(ALIASES).json()["data"]
    assert (
        page["size"] == 50 and page["total"] == 32 and page["items"][0]["id"] == alias["id"]
    )  # id ascending
    page = api_a.get(
        ALIASES, {"sort_by": "id", "order": "asc", "supplier_id": gulf["id"], "page": 1, "size": 50}
    )
    assert [a["alias_name"] for a in page.json()["data"]["items"]] == ["ULS #2 CLEAR"]
    assert api_a.get(ALIASES, {"product_id": ulsd["id"]}).json()["data"]["total"] == 2
    res = api_a.put(f"{ALIASES}/{alias['id']}", {"alias_name": "ULSD CLR"})
    assert res.status_code == 200 and res.json()["data"]["alias_name"] == "ULSD CLR"
    assert api_a.delete(f"/api/product/products/{ulsd['id']}").status_code == 409
    assert api_a.delete(f"{ALIASES}/{alias['id']}").status_code == 200
    # A supplier's aliases go with it.
    assert api_a.delete(f"{SUPPLIERS}/{gulf['id']}").status_code == 200


def test_supplier_side_permissions(tenant_a, api_a):
    s = supplier(api_a)
    t = terminal(api_a)
    dispatcher = Api(token_for(tenant_a, role="Dispatcher"))
    assert dispatcher.get(SUPPLIERS).status_code == 200 and dispatcher.get(TERMINALS).status_code == 200
    assert dispatcher.post(SUPPLIERS, {"name": "X"}).status_code == 403
    assert dispatcher.put(f"{SUPPLIERS}/{s['id']}/status?status=inactive").status_code == 403
    assert dispatcher.delete(f"{TERMINALS}/{t['id']}").status_code == 403
    assert dispatcher.get(ALIASES).status_code == 403
    driver = Api(token_for(tenant_a, role="Driver"))
    assert driver.get(SUPPLIERS).status_code == 403


def test_terminal_and_supplier_lists_show_their_links_as_the_validated_path_does(api_a, in_tenant, tenant_a):
    """The terminal and supplier lists read their rows plain and add each one's suppliers / terminals
    with one query for the page (core.rows.fill_related_refs): the same bytes as the validated path,
    in name then id order (two suppliers share a name)."""
    from core.crud import REGISTRY

    bayou, gulf_1, gulf_2 = (supplier(api_a, name) for name in ("Bayou Energy", "Gulf Fuels", "Gulf Fuels"))
    for name, linked in (("Pasadena", [gulf_2, bayou, gulf_1]), ("Baytown", [gulf_1]), ("Empty", [])):
        body = {
            "name": name,
            "terminal_code": f"T-{name[:4].upper()}",
            "suppliers": [s["id"] for s in linked],
        }
        res = api_a.post(TERMINALS, body)
        assert res.status_code == 201, res.json()
    for url, resource, key in ((TERMINALS, "terminal", "suppliers"), (SUPPLIERS, "supplier", "terminals")):
        (crud,) = [c for c in REGISTRY if c.resource == resource]
        assert crud.row_plan is not None  # the fast path
        fast = api_a.get(url, {"size": 50, "sort_by": "name"})
        plan, crud.row_plan = crud.row_plan, None
        try:
            validated = api_a.get(url, {"size": 50, "sort_by": "name"})
        finally:
            crud.row_plan = plan
        assert fast.status_code == 200 and fast.content == validated.content, (url, fast.content[:400])
        links = {
            row["name"]: [(r["name"], r["id"]) for r in row[key]] for row in fast.json()["data"]["items"]
        }
        if resource == "terminal":
            assert links["Pasadena"] == [
                ("Bayou Energy", bayou["id"]),
                ("Gulf Fuels", gulf_1["id"]),
                ("Gulf Fuels", gulf_2["id"]),
            ]
            assert links["Empty"] == []
        else:
            assert [name for name, _ in links["Bayou Energy"]] == ["Pasadena"]
