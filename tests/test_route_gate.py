"""The route gate itself: it knows every operation and its app, and tells a developer what to do."""

from tests.route_gate import Operation, api_operations, failure_message


def test_the_gate_sees_every_operation_with_its_api_module() -> None:
    ops = {o.op_id: o for o in api_operations()}
    assert ops["city_list"] == Operation("city_list", "GET", "/api/city/cities", "tenants.geo.api")
    assert ops["customer_contact_services"].module == "tenants.parties.api"
    assert ops["customer_contact_services"].path == "/api/customer-contact/services"
    assert all(o.module != "?" for o in ops.values()), [o for o in ops.values() if o.module == "?"]


def test_the_failure_names_the_operations_and_what_to_do() -> None:
    text = failure_message([Operation("city_list", "GET", "/api/city/cities", "tenants.geo.api")], 198)
    assert "1 of 198 API operations" in text
    assert "GET /api/city/cities  city_list  [tenants.geo.api]" in text
    assert "tenants/geo/tests/" in text and "make pytest PYTEST_ARGS=--route-gate=enforce" in text
