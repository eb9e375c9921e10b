"""Paging, search, sorting and the spec's filter operators, implemented once for every list.

Sort and filter fields are checked against each resource's allow-list; unknown ones are a 422.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from django.db.models import Count, Q, QuerySet, Window
from ninja import Field, Schema

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


CASTERS: dict[str, Caster] = {
    "str": str,
    "int": int,
    "decimal": decimal.Decimal,
    "date": dt.date.fromisoformat,
    "datetime": dt.datetime.fromisoformat,
    "bool": _parse_bool,
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


def apply_list(qs: QuerySet[Any], params: ListParams, spec: ListSpec) -> QuerySet[Any]:
    if params.search and params.search.strip() and spec.search:
        term = params.search.strip()
        query = Q()
        for path in spec.search:
            query |= Q(**{f"{path}__icontains": term})
        qs = qs.filter(query)
    if params.filter_field or params.filter_operator or params.filter_value:
        qs = qs.filter(_filter_q(params, spec))
    return qs.order_by(*_ordering(params, spec))


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
    cast = CASTERS[type_name]

    def value(raw: str) -> Any:
        try:
            return cast(raw.strip())
        except (ValueError, ArithmeticError) as exc:
            raise ApiError(422, f"'{raw}' is not a valid value for {params.filter_field}.") from exc

    raw = params.filter_value
    if op == "between":
        bounds = [p for p in raw.split(",")]
        if len(bounds) != 2:
            raise ApiError(422, "The between operator needs two comma-separated values.")
        return Q(**{f"{path}__gte": value(bounds[0]), f"{path}__lte": value(bounds[1])})
    if op in ("greaterThan", "lessThan"):
        if type_name in ("str", "bool"):
            raise ApiError(422, f"{params.filter_field} cannot be compared with {op}.")
        return Q(**{f"{path}__{'gt' if op == 'greaterThan' else 'lt'}": value(raw)})
    if type_name == "str":
        return Q(**{f"{path}__{TEXT_OPERATORS[op]}": raw})
    if op != "equals":
        raise ApiError(422, f"{params.filter_field} only supports equals, greaterThan, lessThan and between.")
    return Q(**{path: value(raw)})


def paginate(
    qs: QuerySet[Any], params: ListParams, default_size: int, serialize: Callable[[Any], Any] | None = None
) -> dict[str, Any]:
    size = params.size or default_size
    start = (params.page - 1) * size
    narrowed = bool((params.search and params.search.strip()) or params.filter_field)
    if narrowed and not qs.query.distinct and not qs.query.combinator:
        # A searched or filtered list: the page and its total in one query (COUNT(*) OVER ()), so
        # the matches are found once instead of twice. An unfiltered list keeps count() + LIMIT,
        # which lets Postgres stop at the page when an index gives the order.
        rows = list(qs.annotate(list_total_=Window(Count("*")))[start : start + size])
        # Past the last page there is no row to carry the total: count then.
        total = int(rows[0].list_total_) if rows else (qs.count() if params.page > 1 else 0)
    else:
        total = qs.count()
        rows = list(qs[start : start + size])
    items = [serialize(r) for r in rows] if serialize else rows
    return page_of(items, total=total, page=params.page, size=size)
