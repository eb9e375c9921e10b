"""The fast list path (.values() rows, no output validation) answers exactly what the validated path
answers, for every kit list that takes it."""

import datetime as dt
from typing import Any

from conftest import Api


def test_fast_lists_answer_the_same_json_as_the_validated_path(
    api_a: Api, tenant_a: Any, in_tenant: Any
) -> None:
    import fueldesk.api  # noqa: F401  declares every resource

    from core.crud import REGISTRY
    from tests.model_factory import fill_tenant

    fast = [c for c in REGISTRY if c.row_plan is not None and "list" in c.ops]
    with in_tenant(tenant_a):
        fill_tenant(4)
        _edge_datetimes({c.model for c in fast})
        _edge_floats(fast)
    assert len(fast) >= 10, [c.resource for c in fast]
    compared = 0
    for crud in fast:
        url = _list_url(crud)
        if url is None:
            continue
        plan = crud.row_plan
        # The whole list, and searched pages (read in two steps, ids then rows, when the list's
        # statements are not kept: core.crud.Crud.fast_page).
        cases: list[dict[str, Any]] = [{"size": 50}, {"size": 50, "search": "e"}]
        text_filter = next((n for n, (_, kind) in sorted(crud.spec.filters.items()) if kind == "str"), None)
        if text_filter:  # contains "": every row, narrowed, so paged by ids first where not kept
            every = {"filter_field": text_filter, "filter_operator": "contains", "filter_value": ""}
            cases += [{"size": 50, **every}, {"size": 2, "page": 2, **every}]
        for params in cases:
            quick = api_a.get(url, params)
            crud.row_plan = None
            try:
                slow = api_a.get(url, params)
            finally:
                crud.row_plan = plan
            assert quick.status_code == slow.status_code, (url, params, quick.content[:300])
            assert quick.content == slow.content, (url, params)  # byte for byte: datetimes formatted in SQL
            if quick.status_code == 200 and quick.json()["data"]["items"] and "search" not in params:
                compared += 1
    assert compared >= 10


def _list_url(crud: Any) -> str | None:
    from fueldesk.api import api

    schema = api.get_openapi_schema(path_prefix="/api")
    for path, methods in schema["paths"].items():
        if methods.get("get", {}).get("operationId") == f"{crud.resource}_list":
            return str(path)
    return None


# Datetimes the renderer writes differently: whole seconds (no fraction), under a millisecond (".000"),
# milliseconds truncated (not rounded), a year before 1000, and null where the column allows it.
EDGE_DATETIMES = (
    dt.datetime(2026, 3, 1, 12, 0, 0, 0, tzinfo=dt.UTC),
    dt.datetime(2026, 3, 1, 12, 0, 0, 500, tzinfo=dt.UTC),
    dt.datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=dt.UTC),
    dt.datetime(999, 1, 2, 3, 4, 5, 123456, tzinfo=dt.UTC),
    None,
)


def _edge_datetimes(models: set[Any]) -> None:
    """Give each list's rows every edge datetime (update() skips auto_now), row by row."""
    from django.db.models import DateTimeField

    for model in models:
        columns = [f for f in model._meta.concrete_fields if isinstance(f, DateTimeField)]
        if not columns:
            continue
        for n, pk in enumerate(model._default_manager.order_by("pk").values_list("pk", flat=True)):
            values = {}
            for k, f in enumerate(columns):
                value = EDGE_DATETIMES[(n + k) % len(EDGE_DATETIMES)]
                values[f.attname] = value if value is not None or f.null else EDGE_DATETIMES[0]
            model._default_manager.filter(pk=pk).update(**values)


# Decimals a schema shows as floats (coordinates): float(Decimal) must give what pydantic gives.
EDGE_DECIMALS = ("29.760427", "-95.369803", "0.100000", "-0.000001", "89.999999", None)


def _edge_floats(fast: list[Any]) -> None:
    from core.rows import Column, Nested

    for crud in fast:
        parts = [p for p in crud.row_plan if isinstance(p, Column) and p.as_float]
        parts += [c for p in crud.row_plan if isinstance(p, Nested) for c in p.columns if c.as_float]
        top = [p.path for p in parts if "__" not in p.path]
        if not top:
            continue
        model = crud.model
        for n, pk in enumerate(model._default_manager.order_by("pk").values_list("pk", flat=True)):
            values = {}
            for k, name in enumerate(top):
                value = EDGE_DECIMALS[(n + k) % len(EDGE_DECIMALS)]
                values[name] = value if value is not None or model._meta.get_field(name).null else "1"
            model._default_manager.filter(pk=pk).update(**values)
