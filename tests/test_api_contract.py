"""The OpenAPI document declares the error responses each operation really answers, with the
`{detail}` schema, so generated clients and the fuzz suite (tests/fuzz, status-code conformance on)
check them."""

from __future__ import annotations

from conftest import Api


def document() -> dict:
    from fueldesk.api import api

    return api.get_openapi_schema(path_prefix="/api")


def test_every_operation_declares_its_errors_with_the_detail_schema():
    doc = document()
    error = doc["components"]["schemas"]["ErrorDetail"]
    assert error["required"] == ["detail"] and error["properties"]["detail"]["type"] == "string"
    operations = [(p, m, op) for p, ms in doc["paths"].items() for m, op in ms.items()]
    assert len(operations) > 150
    for path, method, op in operations:
        codes = set(op["responses"])
        if op.get("security"):
            assert {"401", "403"} <= codes, (method, path)
        if op.get("requestBody"):
            assert {"400", "413", "422"} <= codes, (method, path)
        if "{" in path:
            assert {"404", "422"} <= codes, (method, path)
        for code in codes - {"200", "201", "202", "204"}:
            if code.startswith("4"):
                schema = op["responses"][code]["content"]["application/json"]["schema"]
                # ErrorDetail, or an operation's own error schema or the plain ErrorDetail.
                options = schema.get("anyOf", [schema])
                assert {"$ref": "#/components/schemas/ErrorDetail"} in options, (method, path, code)


def test_specific_operations_declare_what_they_answer():
    paths = document()["paths"]
    assert {"401", "403", "429", "422", "413"} <= set(paths["/api/login"]["post"]["responses"])
    assert {"409", "429"} <= set(paths["/api/tenant"]["post"]["responses"])
    assert {"401", "403", "404", "409", "413", "422"} <= set(paths["/api/role/{id}"]["put"]["responses"])
    assert {"415", "413", "400"} <= set(paths["/api/storage/upload-file"]["post"]["responses"])
    assert {"401", "403"} <= set(paths["/api/profile"]["get"]["responses"])


def test_the_served_document_has_them_too(db):
    served = Api(None).client.get("/api/openapi.json").json()
    assert "ErrorDetail" in served["components"]["schemas"]
    assert "409" in served["paths"]["/api/role/{id}"]["put"]["responses"]


def test_every_list_declares_its_sort_and_filter_fields_as_enums():
    """A list's `sort_by` and `filter_field` name the fields it takes (core.listing.ListSpec
    .query_schema): the generated client types them and the fuzz suite tries exactly those. A free
    string here means a list that only says at run time what it takes."""
    lists, free = 0, []
    for path, methods in document()["paths"].items():
        op = methods.get("get")
        if not op:
            continue
        for param in op.get("parameters", []):
            if param["in"] != "query" or param["name"] not in ("sort_by", "filter_field"):
                continue
            lists += 1
            options = param["schema"].get("anyOf", [param["schema"]])
            if any(o.get("type") == "string" and "enum" not in o for o in options):
                free.append((path, param["name"]))
    assert lists > 60
    assert not free, f"lists with a free-string sort_by/filter_field (use ListSpec.query_schema): {free}"


def test_the_five_workflow_lists_name_their_fields():
    paths = document()["paths"]

    def enum(path: str, name: str) -> set[str]:
        param = next(p for p in paths[path]["get"]["parameters"] if p["name"] == name)
        return {v for o in param["schema"].get("anyOf", [param["schema"]]) for v in o.get("enum", [])}

    assert {"planned_date", "number"} <= enum("/api/sales-order/sales-orders", "sort_by")
    assert "customer_name" in enum("/api/sales-order/sales-orders", "filter_field")
    assert {"order_date", "total"} <= enum("/api/purchase-order", "sort_by")
    assert {"bill_date", "due_date"} <= enum("/api/bill", "sort_by")
    assert {"delivered_at", "number"} <= enum("/api/delivery-ticket", "sort_by")
    assert enum("/api/template", "filter_field") == {"name", "type"}
