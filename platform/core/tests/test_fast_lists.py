"""The fast list path (.values() rows, no output validation) answers exactly what the validated path
answers, for every kit list that takes it."""

from typing import Any

from conftest import Api


def test_fast_lists_answer_the_same_json_as_the_validated_path(
    api_a: Api, tenant_a: Any, in_tenant: Any
) -> None:
    import fueldesk.api  # noqa: F401  declares every resource

    from core.crud import REGISTRY
    from tests.model_factory import fill_tenant

    with in_tenant(tenant_a):
        fill_tenant(3)
    fast = [c for c in REGISTRY if c.row_plan is not None and "list" in c.ops]
    assert len(fast) >= 10, [c.resource for c in fast]
    compared = 0
    for crud in fast:
        url = _list_url(crud)
        if url is None:
            continue
        plan = crud.row_plan
        quick = api_a.get(url, {"size": 50})
        crud.row_plan = None
        try:
            slow = api_a.get(url, {"size": 50})
        finally:
            crud.row_plan = plan
        assert quick.status_code == slow.status_code, (url, quick.content[:300])
        assert quick.json() == slow.json(), url
        if quick.status_code == 200 and quick.json()["data"]["items"]:
            compared += 1
    assert compared >= 10


def _list_url(crud: Any) -> str | None:
    from fueldesk.api import api

    schema = api.get_openapi_schema(path_prefix="/api")
    for path, methods in schema["paths"].items():
        if methods.get("get", {}).get("operationId") == f"{crud.resource}_list":
            return str(path)
    return None
