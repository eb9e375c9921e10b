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
    from tests.model_factory import fill_tenant, required_list_params

    fast = [c for c in REGISTRY if c.row_plan is not None and "list" in c.ops]
    with in_tenant(tenant_a):
        # The rows before the factory's (the signed-in admin, their role) keep their links.
        kept = {c.model: set(c.model._default_manager.values_list("pk", flat=True)) for c in fast}
        fill_tenant(4)
        _edge_datetimes({c.model for c in fast})
        _edge_floats(fast)
        _edge_relations(fast, kept)
        _edge_rows()
        required = {c.resource: required_list_params(c.resource) for c in fast}
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
        cases = [{**required[crud.resource], **params} for params in cases]
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


def _edge_relations(fast: list[Any], kept: dict[Any, set[Any]]) -> None:
    """Rows the factory's one-of-each leaves out: many-to-many links of 0 to 3 rows per item (in an
    order other than the one shown), and nullable foreign keys emptied on every third row (of the
    rows the factory made: not those in `kept`)."""
    from django.db import IntegrityError, transaction
    from django.db.models import ForeignKey

    for model in {c.model for c in fast}:
        pks = [
            pk
            for pk in model._default_manager.order_by("pk").values_list("pk", flat=True)
            if pk not in kept[model]
        ]
        for m2m in model._meta.many_to_many:
            related = m2m.related_model
            others = list(related._default_manager.order_by("-pk").values_list("pk", flat=True)[:3])
            if any(f.name == "name" for f in related._meta.concrete_fields):
                # Names that sort against their ids: the shown order (by name) is not the join's.
                for letter, other in zip("ABC", others, strict=False):
                    related._default_manager.filter(pk=other).update(name=f"Ref {letter} {other}")
            for n, pk in enumerate(pks):
                getattr(model._default_manager.get(pk=pk), m2m.name).set(others[: n % 4])
        nullable = [f for f in model._meta.concrete_fields if isinstance(f, ForeignKey) and f.null]
        for n, pk in enumerate(pks):
            for k, fk in enumerate(nullable):
                if (n + k) % 3 == 0:
                    try:
                        with transaction.atomic():
                            model._default_manager.filter(pk=pk).update(**{fk.attname: None})
                    except IntegrityError:
                        pass  # a rule of the model's (a check constraint) wants it set


def _edge_rows() -> None:
    """What the lists compute from other rows or the day: a tax's rates (ended, in force, to come:
    today's rate is one of them), a truck's compartments (a JSON list the schema re-shapes), a
    driver's days to an expiry (past, today, soon, far) and its warnings."""
    from tenants.fleet.models import CompanyAsset, Driver
    from tenants.pricing.models import Tax, TaxRate

    today = dt.date.today()
    for n, tax in enumerate(Tax.objects.order_by("pk")):
        TaxRate.objects.filter(tax=tax).delete()
        spans = [(-400, -31, "1.250000"), (-30, None if n % 2 else 30, "2.500000"), (31, None, "3.000000")]
        for start, end, rate in spans[: n % 4]:
            TaxRate.objects.create(
                tax=tax,
                rate=rate,
                effective_from=today + dt.timedelta(days=start),
                effective_to=None if end is None else today + dt.timedelta(days=end),
            )
    # A key the schema does not show (the validated path drops it) and one out of the schema's order.
    compartments = [{"capacity": 2000, "number": 1, "note": "front"}, {"number": 2, "capacity": 1500}]
    CompanyAsset.objects.filter(pk__in=CompanyAsset.objects.order_by("pk")[:2].values("pk")).update(
        compartments=compartments
    )
    days = (-5, 0, 1, 12, 45, None)
    for n, pk in enumerate(Driver.objects.order_by("pk").values_list("pk", flat=True)):
        licence, hazmat = days[n % len(days)], days[(n + 2) % len(days)]
        Driver.objects.filter(pk=pk).update(
            licence_expiry=None if licence is None else today + dt.timedelta(days=licence),
            hazmat_expiry=None if hazmat is None else today + dt.timedelta(days=hazmat),
        )
