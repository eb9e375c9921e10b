"""Paging, search, sorting and the spec's filter operators, implemented once for every list.

A list's `ListSpec` names what it may be sorted and filtered by. `ListSpec.query_schema` turns that
into the list's own query parameters, where `sort_by` and `filter_field` are enums (so the OpenAPI
document and the generated client know them), and `filter_operator` is checked against the field's
type (`OPERATORS`). Anything else is a 422 that names what is allowed.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from django.contrib.postgres.expressions import ArraySubquery
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models import Count, Expression, Func, Q, QuerySet, Window
from ninja import Field, Schema
from pydantic import Field as PydanticField
from pydantic import create_model

from core.envelope import page_of
from core.errors import ApiError

MAX_PAGE_SIZE = 500
FilterOperator = Literal["contains", "equals", "startsWith", "endsWith", "greaterThan", "lessThan", "between"]


class ListParams(Schema):
    page: int = Field(1, ge=1, le=1_000_000, description="Page number, from 1")
    size: int | None = Field(None, ge=1, le=MAX_PAGE_SIZE, description="Page size; each list has its default")
    search: str | None = Field(
        None, max_length=200, description="Free-text search over the list's text fields"
    )
    sort_by: str | None = Field(None, max_length=64, description="A field from the list's sortable fields")
    order: Literal["asc", "desc"] | None = Field(None, description="Sort direction")
    filter_field: str | None = Field(
        None, max_length=64, description="A field from the list's filterable fields"
    )
    filter_operator: FilterOperator | None = Field(None, description="How filter_value is compared")
    filter_value: str | None = Field(
        None, max_length=200, description="The value; for `between`, two comma-separated values"
    )


Caster = Callable[[str], Any]


def _parse_bool(raw: str) -> bool:
    lowered = raw.strip().lower()
    if lowered in {"true", "1", "yes"}:
        return True
    if lowered in {"false", "0", "no"}:
        return False
    raise ValueError(raw)


def _parse_datetime(raw: str) -> dt.datetime:
    value = dt.datetime.fromisoformat(raw)
    # As the database will compare it: in UTC. The first and last hours of the calendar may have no
    # UTC instant (OverflowError, a 422 like any other bad value).
    return value.astimezone(dt.UTC) if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


CASTERS: dict[str, Caster] = {
    "str": str,
    "int": int,
    "decimal": decimal.Decimal,
    "date": dt.date.fromisoformat,
    "datetime": _parse_datetime,
    "bool": _parse_bool,
}
# The operators each filter type takes (documented in every list's `filter_field` parameter).
OPERATORS: dict[str, tuple[str, ...]] = {
    "str": ("contains", "equals", "startsWith", "endsWith", "between"),
    "int": ("equals", "greaterThan", "lessThan", "between"),
    "decimal": ("equals", "greaterThan", "lessThan", "between"),
    "date": ("equals", "greaterThan", "lessThan", "between"),
    "datetime": ("equals", "greaterThan", "lessThan", "between"),
    "bool": ("equals",),
}
TYPE_LABELS = {
    "str": "text",
    "int": "whole number",
    "decimal": "number",
    "date": "date, YYYY-MM-DD",
    "datetime": "date-time, ISO 8601",
    "bool": "true or false",
}
TEXT_OPERATORS = {
    "contains": "icontains",
    "equals": "iexact",
    "startsWith": "istartswith",
    "endsWith": "iendswith",
}


@dataclass(frozen=True)
class ListSpec:
    """What a list may be searched, sorted and filtered by: public name → ORM path."""

    search: Sequence[str] = ()
    sort: dict[str, str] = field(default_factory=dict)
    filters: dict[str, tuple[str, str]] = field(default_factory=dict)  # name → (ORM path, type name)
    default_sort: str = "-id"
    # A search term shorter than this matches the start of the search fields (istartswith, served by
    # a btree UPPER(field) text_pattern_ops index) instead of anywhere in them (icontains, served by
    # a trigram index, which needs three letters). 0: every term is matched anywhere.
    prefix_below: int = 0

    def describe_filters(self) -> str:
        """Each filterable field with its type and operators, for the OpenAPI parameter."""
        if not self.filters:
            return "This list has no filterable fields."
        lines = [
            f"- `{name}` ({TYPE_LABELS[type_name]}): {', '.join(OPERATORS[type_name])}"
            for name, (_path, type_name) in sorted(self.filters.items())
        ]
        return "A field from the list's filterable fields, with the operators it takes:\n" + "\n".join(lines)

    def query_schema(self, name: str, extra: type[Schema] | None = None) -> type[Schema]:
        """The list's query parameters: `ListParams` (+ the list's own filters) with `sort_by` and
        `filter_field` typed as enums of this spec's names."""
        bases: tuple[type[Schema], ...] = (ListParams,)
        if extra is not None:
            # A list's own query class may already be a ListParams (it keeps its other fields).
            bases = (extra,) if issubclass(extra, ListParams) else (ListParams, extra)
        fields: dict[str, Any] = {}
        if self.prefix_below:
            fields["search"] = (
                str | None,
                PydanticField(
                    None,
                    max_length=200,
                    description=f"Free-text search over the list's text fields. A term of fewer than "
                    f"{self.prefix_below} characters matches the start of {', '.join(self.search)} "
                    "(served from an index); longer terms match anywhere in them.",
                ),
            )
        # A list with no sortable (filterable) field takes no value at all (the parameter is null).
        sort_text = (
            f"Sort by one of: {', '.join(sorted(self.sort))}" if self.sort else "This list has one order."
        )
        fields["sort_by"] = (
            _enum_of(self.sort),
            PydanticField(None, description=sort_text, json_schema_extra=_const_as_enum),
        )
        fields["filter_field"] = (
            _enum_of(self.filters),
            PydanticField(None, description=self.describe_filters(), json_schema_extra=_const_as_enum),
        )
        return create_model(name, __base__=bases, **fields)  # type: ignore[call-overload,no-any-return]


def _enum_of(names: Iterable[str]) -> Any:
    """`Literal[names] | None`; plain `None` when there is no name."""
    values = sorted(names)
    if not values:
        return None
    return Literal[tuple(values)] | None  # type: ignore[valid-type]


def _const_as_enum(schema: dict[str, Any]) -> None:
    """One allowed value is written as an enum too (pydantic writes a `const`), so every list's
    parameter has the same shape for the client generator and the fuzz suite."""
    for option in schema.get("anyOf", []):
        if "const" in option:
            option["enum"] = [option.pop("const")]


class Unindexed(Func):
    """The same value as an expression no index provides (`(text || '')`, `(number + 0)`, …), which
    sorts exactly as the column does.

    Sorting a narrowed list by it makes Postgres fetch the rows the filter selects (from that filter's
    index) and sort just those (a top-N sort), instead of walking the sort column's index in order and
    testing every row against the filter. The planner prefers the walk whenever it expects matches
    spread evenly along the index, which a text search or a customer's orders are not; and under a
    `COUNT(*) OVER ()` the walk cannot stop early anyway, since the count needs every match."""

    TEMPLATES: tuple[tuple[type[models.Field[Any, Any]], str], ...] = (
        (models.DateTimeField, "(%(expressions)s + interval '0 seconds')"),  # before DateField: a subclass
        (models.DateField, "(%(expressions)s + 0)"),
        (models.DecimalField, "(%(expressions)s + 0)"),
        (models.IntegerField, "(%(expressions)s + 0)"),
        (models.CharField, "(%(expressions)s || '')"),
        (models.TextField, "(%(expressions)s || '')"),
    )

    def __init__(self, expression: Any, output_field: models.Field[Any, Any]) -> None:
        template = next((t for kind, t in self.TEMPLATES if isinstance(output_field, kind)), None)
        if template is None:
            raise TypeError(f"Unindexed: no index-free form for {type(output_field).__name__}")
        super().__init__(expression, template=template, output_field=output_field)


def sort_aliases(qs: QuerySet[Any], aliases: dict[str, str], *, unindexed: bool) -> QuerySet[Any]:
    """`qs` with an alias per sort key (alias → field of qs's model): the field itself, or, when
    `unindexed`, the field as an `Unindexed` expression (a narrowed list; see `Unindexed`). A list whose
    `ListSpec.sort` names these aliases then sorts the same either way."""
    model = qs.model
    if not unindexed:
        return qs.alias(**{alias: models.F(name) for alias, name in aliases.items()})
    return qs.alias(
        **{
            alias: Unindexed(models.F(name), output_field=model._meta.get_field(name).clone())  # type: ignore[union-attr]
            for alias, name in aliases.items()
        }
    )


class AnyOf(Expression):
    """`column = ANY(%s::bigint[])`: the ids as one array parameter. `column__in=ids` writes one
    placeholder per id, and preparing, splitting and quoting 900 of them cost ~15 ms of CPU a request
    (Django's lookup per value, psycopg's client-side query merge); an array is one value.

    Given a queryset of one column instead of ids: `column = ANY(ARRAY(<its SQL>))`. Postgres runs
    the subquery once (an InitPlan) and probes `column`'s index with its array, as with ids written
    out, while the statement stays the same for the same term (core.listsql can keep it)."""

    conditional = True
    output_field = models.BooleanField()

    def __init__(self, column: str, ids: Sequence[int] | QuerySet[Any]) -> None:
        super().__init__()
        self.column: Any = models.F(column)
        self.array: Any = ArraySubquery(ids.order_by()) if isinstance(ids, QuerySet) else None
        self.ids = [] if isinstance(ids, QuerySet) else [int(i) for i in ids]

    def get_source_expressions(self) -> list[Any]:  # type: ignore[override]
        return [self.column] if self.array is None else [self.column, self.array]

    def set_source_expressions(self, exprs: Sequence[Any]) -> None:
        if self.array is None:
            (self.column,) = exprs
        else:
            self.column, self.array = exprs

    def as_sql(self, compiler: Any, connection: Any) -> Any:
        sql, params = compiler.compile(self.column)
        if self.array is not None:
            array_sql, array_params = compiler.compile(self.array)
            return f"{sql} = ANY({array_sql})", (*params, *array_params)
        # The array's text ('{1,2,3}'), cast by Postgres: psycopg's list dumper is Python per item.
        return f"{sql} = ANY(%s::bigint[])", (*params, ids_text(self.ids))


def ids_text(ids: Sequence[int]) -> str:
    """The text of a bigint array, as AnyOf sends it: `{1,2,3}`."""
    return "{" + ",".join(map(str, ids)) + "}"


# A search over a related row's fields (`customer__name`) inlines at most this many of the matching
# related rows' ids; beyond, it keeps the join.
RELATED_IDS_INLINE = 1000


def through_foreign_keys(model: type[models.Model], paths: Sequence[str]) -> dict[str, list[str]]:
    """The search paths that go through a foreign key of `model`, by key: `{"customer": ["name"]}`
    for `customer__name`. `search_q` matches these on the related table (see there)."""
    through: dict[str, list[str]] = {}
    for path in paths:
        head, _, rest = path.partition("__")
        if not rest:
            continue
        try:
            field = model._meta.get_field(head)
        except FieldDoesNotExist:  # an annotation's name: matched as it is
            continue
        if field.many_to_one and field.concrete:
            through.setdefault(head, []).append(rest)
    return through


def search_q(
    model: type[models.Model], paths: Sequence[str], term: str, lookup: str, *, related_in_sql: bool = False
) -> Q:
    """Rows where any of `paths` matches `term` by `lookup` (icontains, istartswith, …).

    A path through a foreign key (`customer__name`, `city__name`) is matched on the related table
    alone, over that table's own indexes, and this table is then probed by its foreign-key index:
    Postgres ORs index scans of this table instead of joining every row to test the related one (a
    full scan of a large table). Same rows either way (a row whose key is null matches neither).

    With `related_in_sql` (the kit's lists) that related match is a subquery of the one statement
    (`customer_id = ANY(ARRAY(SELECT …))`), so the statement depends on the term alone. Without it
    (the sales list, whose plans were measured that way) the related ids are read first, in one query
    per foreign key, and inlined; more than RELATED_IDS_INLINE of them keep the join."""
    query = Q()
    through = through_foreign_keys(model, paths)
    for path in paths:
        head, _, rest = path.partition("__")
        if rest not in through.get(head, ()):
            query |= Q(**{f"{path}__{lookup}": term})
    for head, rests in through.items():
        fk = model._meta.get_field(head)
        related = fk.related_model
        assert isinstance(related, type)
        matching = Q()
        for rest in rests:
            matching |= Q(**{f"{rest}__{lookup}": term})
        if related_in_sql:
            query |= Q(AnyOf(fk.attname, related._base_manager.filter(matching).values("pk")))  # type: ignore[union-attr]
            continue
        ids = list(
            related._base_manager.filter(matching).values_list("pk", flat=True)[: RELATED_IDS_INLINE + 1]
        )
        if len(ids) > RELATED_IDS_INLINE:
            for rest in rests:
                query |= Q(**{f"{head}__{rest}__{lookup}": term})
        elif ids:
            query |= Q(AnyOf(fk.attname, ids))  # type: ignore[union-attr]
    return query


def apply_list(
    qs: QuerySet[Any], params: ListParams, spec: ListSpec, *, prefix: bool | None = None
) -> QuerySet[Any]:
    """`prefix` forces the search lookup (istartswith or icontains) whatever the term's length: for
    core.listsql, which builds a list's statement with stand-in terms of the real term's kind."""
    if params.search and params.search.strip() and spec.search:
        term = params.search.strip()
        if prefix is None:
            prefix = search_is_prefix(term, spec)
        lookup = "istartswith" if prefix else "icontains"
        query = search_q(qs.model, spec.search, term, lookup, related_in_sql=True)
        # No path can match (no related row matched and nothing else to test): an empty page.
        qs = qs.filter(query) if query else qs.none()
    if params.filter_field or params.filter_operator or params.filter_value:
        qs = qs.filter(_filter_q(params, spec))
    return qs.order_by(*_ordering(params, spec))


def search_is_prefix(term: str, spec: ListSpec) -> bool:
    return len(term) < spec.prefix_below


def _ordering(params: ListParams, spec: ListSpec) -> list[str]:
    if not params.sort_by:
        return [spec.default_sort, "-id"] if spec.default_sort.lstrip("-") != "id" else [spec.default_sort]
    if params.sort_by not in spec.sort:
        allowed = ", ".join(sorted(spec.sort)) or "none"
        raise ApiError(422, f"Cannot sort by '{params.sort_by}'. Sortable fields: {allowed}.")
    path = spec.sort[params.sort_by]
    prefix = "-" if params.order == "desc" else ""
    return [f"{prefix}{path}", f"{prefix}id"]


def _filter_q(params: ListParams, spec: ListSpec) -> Q:
    if not (params.filter_field and params.filter_operator and params.filter_value is not None):
        raise ApiError(422, "A filter needs filter_field, filter_operator and filter_value together.")
    if params.filter_field not in spec.filters:
        allowed = ", ".join(sorted(spec.filters)) or "none"
        raise ApiError(422, f"Cannot filter by '{params.filter_field}'. Filterable fields: {allowed}.")
    path, type_name = spec.filters[params.filter_field]
    op = params.filter_operator
    if op not in OPERATORS[type_name]:
        raise ApiError(422, f"{params.filter_field} only supports {_joined(OPERATORS[type_name])}, not {op}.")
    cast = CASTERS[type_name]

    def value(raw: str) -> Any:
        try:
            return cast(raw.strip())
        except (ValueError, ArithmeticError) as exc:  # OverflowError is an ArithmeticError
            raise ApiError(422, f"'{raw}' is not a valid value for {params.filter_field}.") from exc

    raw = params.filter_value
    if op == "between":
        bounds = [p for p in raw.split(",")]
        if len(bounds) != 2:
            raise ApiError(422, "The between operator needs two comma-separated values.")
        return Q(**{f"{path}__gte": value(bounds[0]), f"{path}__lte": value(bounds[1])})
    if op in ("greaterThan", "lessThan"):
        return Q(**{f"{path}__{'gt' if op == 'greaterThan' else 'lt'}": value(raw)})
    if type_name == "str":
        return Q(**{f"{path}__{TEXT_OPERATORS[op]}": raw})
    return Q(**{path: value(raw)})


def _joined(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def is_narrowed(params: Any) -> bool:
    """A search term or a filter: the page carries its total (COUNT(*) OVER ()), and lists may read
    it ids-first or sort by index-free keys."""
    return bool((params.search and params.search.strip()) or params.filter_field)


def paginate(
    qs: QuerySet[Any],
    params: ListParams,
    default_size: int,
    serialize: Callable[[Any], Any] | None = None,
    fetch: Callable[[QuerySet[Any]], tuple[list[Any], int | None]] | None = None,
    count_of: QuerySet[Any] | None = None,
) -> dict[str, Any]:
    """A page of `qs` with its total. `fetch(sliced)`, when given, reads the page instead of
    `list()`: it answers the items and, when `sliced` carries the `list_total_` window, its value on
    the first row (None without a row); see `core.rows.fetch`. `count_of`: the same rows without the
    joins `qs` reads its columns through (a `.values()` of related fields joins them for a count too:
    1,000,000 ship-tos counted in 134 ms with their customers joined, 31 ms without)."""
    count_of = qs if count_of is None else count_of
    size = params.size or default_size
    start = (params.page - 1) * size
    narrowed = is_narrowed(params)
    if narrowed and not qs.query.distinct and not qs.query.combinator:
        # A searched or filtered list: the page and its total in one query (COUNT(*) OVER ()), so
        # the matches are found once instead of twice. An unfiltered list keeps count() + LIMIT,
        # which lets Postgres stop at the page when an index gives the order.
        counted = qs.annotate(list_total_=Window(Count("*")))[start : start + size]
        if fetch is not None:
            rows, window_total = fetch(counted)
        else:
            rows = list(counted)
            window_total = None
            if rows and isinstance(rows[0], dict):  # a .values() queryset
                window_total = int(rows[0]["list_total_"])
                for row in rows:
                    del row["list_total_"]
            elif rows:
                window_total = int(rows[0].list_total_)
        # Past the last page there is no row to carry the total: count then.
        total = window_total if window_total is not None else (count_of.count() if params.page > 1 else 0)
    else:
        total = count_of.count()
        rows = fetch(qs[start : start + size])[0] if fetch is not None else list(qs[start : start + size])
    items = [serialize(r) for r in rows] if serialize else rows
    return page_of(items, total=total, page=params.page, size=size)
