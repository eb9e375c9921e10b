"""List pages without model instances or output validation: `.values()` rows straight to JSON.

For an output schema whose every field is a column of the model (or a nested reference schema whose
fields are columns of a foreign key's row), a page is read with `.values()` and rendered as it is:
no model instances, no pydantic validation on the way out. The answer is the same JSON as the
validated path (a test compares them for every kit list); any schema it cannot prove that for
(resolvers, validators, aliases, computed or many-to-many fields, a type the column does not give)
keeps the validated path.
"""

from __future__ import annotations

import datetime as dt
import operator
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import FieldDoesNotExist
from django.db import connections, models
from django.db.models import F, Func, QuerySet
from ninja import Schema

from core.kept import KeptByIds, orm_rows, select_expressions
from core.listing import AnyOf

# The Python type each column kind reads as, for the annotation it may meet.
COLUMN_TYPES: tuple[tuple[type[models.Field[Any, Any]], type], ...] = (
    (models.BooleanField, bool),
    (models.DecimalField, Decimal),
    (models.FloatField, float),
    (models.DateTimeField, dt.datetime),
    (models.DateField, dt.date),
    (models.TimeField, dt.time),
    (models.IntegerField, int),
    (models.BigAutoField, int),
    (models.AutoField, int),
    (models.CharField, str),
    (models.TextField, str),
)


@dataclass(frozen=True)
class Column:
    key: str  # output key
    path: str  # .values() path
    is_datetime: bool = False  # a DateTimeField: `fetch` reads it as the JSON text (UtcIso)
    as_float: bool = False  # a DecimalField the schema shows as a float (coordinates): float(value)
    # A JSON list of objects the schema shows as `list[Item]`: each object cut to Item's keys, in order.
    item_keys: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Nested:
    key: str
    fk_path: str  # the foreign key's column (None: no row)
    columns: tuple[Column, ...]


Plan = tuple[Column | Nested, ...]


def _unannotated(annotation: Any) -> Any:
    """`X` of `Annotated[X, ...]`: an output field's bounds (`ge`, `le`) hold for what the column
    holds, since every write was checked against the same bounds."""
    return typing.get_args(annotation)[0] if typing.get_origin(annotation) is typing.Annotated else annotation


def _plain(annotation: Any) -> tuple[Any, bool]:
    """(the type, whether None is allowed) of `X` or `X | None` (either maybe `Annotated`)."""
    annotation = _unannotated(annotation)
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return (_unannotated(rest[0]) if len(rest) == 1 else None), True
    return annotation, False


def column_copies(schema: type[Schema]) -> dict[str, str]:
    """A schema's fields that show one of the model's fields under another name, beside the resolver
    that says the same of a model instance: `column_copies = {"products_id": "id"}` (a column), or
    `{"user": "user_account"}` (a foreign key's row as a nested reference schema)."""
    return dict(getattr(schema, "column_copies", None) or {})


def _simple_schema(schema: type[Schema], computed: frozenset[str] = frozenset()) -> bool:
    """No validator, computed field or alias; resolvers only for the `computed` fields (which the
    caller fills itself) and the schema's `column_copies`."""
    decorators = schema.__pydantic_decorators__
    # ninja's Schema has one model validator of its own (it runs the resolvers, checked below).
    model_validators = set(decorators.model_validators) - {"_run_root_validator"}
    if decorators.field_validators or model_validators or decorators.computed_fields:
        return False
    read = computed | set(column_copies(schema))
    if any(name.startswith("resolve_") and name[8:] not in read for name in dir(schema)):
        return False
    return all(f.alias in (None, name) for name, f in schema.model_fields.items())


def _json_item(item: Any) -> bool:
    """A schema whose fields are JSON's own str, int or bool (maybe None), with nothing computed: an
    object of the list reads as that schema gives it once cut to its keys."""
    if not (isinstance(item, type) and issubclass(item, Schema) and _simple_schema(item)):
        return False
    if column_copies(item):
        return False
    return all(_plain(info.annotation)[0] in (str, int, bool) for info in item.model_fields.values())


def _column_type(field: models.Field[Any, Any]) -> type | None:
    if isinstance(field, models.ForeignKey):
        return int  # read by its attname: the related row's id
    for kind, py in COLUMN_TYPES:
        if isinstance(field, kind):
            return py
    return None


def _column(model: type[models.Model], name: str, annotation: Any, prefix: str = "") -> Column | None:
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return None
    if not getattr(field, "concrete", False) or field.many_to_many:
        return None
    if isinstance(field, models.ForeignKey) and name != field.attname:
        return None  # the relation itself (an object), not its id column
    wanted, nullable = _plain(annotation)
    if isinstance(field, models.JSONField):
        # A JSON column declared as an object (`dict[str, Any]`): only when the column cannot be
        # null and its default is an object, so what it holds is what the schema says.
        is_dict = wanted is dict or typing.get_origin(wanted) is dict
        # Or as a list of objects (`list[dict[str, Any]]`), read as they are.
        item = (typing.get_args(wanted) or (dict,))[0]
        is_list = typing.get_origin(wanted) is list and (item is dict or typing.get_origin(item) is dict)
        if field.null:
            return None
        if typing.get_origin(wanted) is list and field.default is list and _json_item(item):
            # Or as a list of a schema of plain JSON values, which the validated path re-shapes:
            # each object cut to the schema's keys, in its order (what it holds was checked by that
            # schema on every write, as a column's bounds are).
            return Column(key=name, path=f"{prefix}{name}", item_keys=tuple(item.model_fields))
        if not ((is_dict and field.default is dict) or (is_list and field.default is list)):
            return None
        return Column(key=name, path=f"{prefix}{name}")
    if field.null and not nullable:
        return None
    if isinstance(field, ArrayField):
        # A Postgres array of a plain type, declared as `list[that type]`: psycopg reads a list.
        base = _column_type(field.base_field)
        if typing.get_origin(wanted) is not list or typing.get_args(wanted) != (base,) or field.null:
            return None
        return Column(key=name, path=f"{prefix}{name}")
    if isinstance(field, models.DecimalField) and wanted is float:
        # What pydantic gives for the validated path: float(Decimal), the nearest double.
        return Column(key=name, path=f"{prefix}{name}", as_float=True)
    if wanted is None or _column_type(field) is not wanted:  # type: ignore[arg-type]
        return None
    return Column(key=name, path=f"{prefix}{name}", is_datetime=wanted is dt.datetime)


def plan_for(
    model: type[models.Model],
    out: type[Schema],
    *,
    computed: tuple[str, ...] = (),
    extra: tuple[str, ...] = (),
) -> Plan | None:
    """How to build `out` from `.values()` of `model`, or None when it cannot be done faithfully.
    `computed`: fields of `out` left out of the plan, that the caller adds to each built row itself
    (e.g. a resolver's value, or a reverse relation read by a query of its own). `extra`: `.values()`
    paths read as they are under their own key, for the caller's computed fields (not in `out`)."""
    if not _simple_schema(out, frozenset(computed)):
        return None
    plan: list[Column | Nested] = []
    copies = column_copies(out)
    for name, info in out.model_fields.items():
        if name in computed:
            continue
        inner, nullable = _plain(info.annotation)
        if isinstance(inner, type) and issubclass(inner, Schema):
            try:
                fk = model._meta.get_field(copies.get(name, name))
            except FieldDoesNotExist:
                return None
            if (
                not isinstance(fk, models.ForeignKey)
                or (fk.null and not nullable)
                or not _simple_schema(inner)
            ):
                return None
            related = fk.related_model
            assert isinstance(related, type)
            columns = []
            sub_copies = column_copies(inner)
            for sub, sub_info in inner.model_fields.items():
                column = _column(
                    related, sub_copies.get(sub, sub), sub_info.annotation, prefix=f"{fk.name}__"
                )
                if column is None:
                    return None
                columns.append(replace(column, key=sub))
            plan.append(Nested(key=name, fk_path=fk.attname, columns=tuple(columns)))
            continue
        column = _column(model, copies.get(name, name), info.annotation)
        if column is None:
            return None
        plan.append(replace(column, key=name))
    plan += [Column(key=path, path=path) for path in extra]
    return tuple(plan)


def value_paths(plan: Plan) -> list[str]:
    paths: list[str] = []
    for part in plan:
        if isinstance(part, Nested):
            paths.append(part.fk_path)
            paths += [c.path for c in part.columns]
        else:
            paths.append(part.path)
    return list(dict.fromkeys(paths))


def _value(column: Column, value: Any) -> Any:
    if value is None:
        return None
    if column.item_keys is not None:
        return [{key: item[key] for key in column.item_keys} for item in value]
    return float(value) if column.as_float else value


def build(plan: Plan, row: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = {}
    for part in plan:
        if isinstance(part, Nested):
            item[part.key] = (
                None if row[part.fk_path] is None else {c.key: _value(c, row[c.path]) for c in part.columns}
            )
        else:
            item[part.key] = _value(part, row[part.path])
    return item


# --- pages read straight from the cursor ------------------------------------------------------------
# `fetch` runs the page's compiled statement through Django's compiler (the tenant's search_path,
# converters, an empty `IN ()` answered without a query) and builds each item from the row tuple by
# column index: no ValuesIterable dict per row, no key lookups.


class UtcIso(Func):
    """A timestamptz as the JSON text the renderer gives its datetime (DjangoJSONEncoder's format):
    UTC, `YYYY-MM-DDTHH:MM:SS`, then `.mmm` (truncated, as Python's isoformat()[:23] does) only when
    the microseconds are not 0, then `Z`. Formatting in SQL skips, per value, psycopg's datetime
    parse, Django's tz wrapper (a Python call) and the renderer's Python callback (~10 µs together)."""

    arity = 1
    template = (
        "TO_CHAR(%(expressions)s AT TIME ZONE 'UTC', CASE WHEN DATE_TRUNC('second', %(expressions)s "
        "AT TIME ZONE 'UTC') = %(expressions)s AT TIME ZONE 'UTC' THEN 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"' "
        'ELSE \'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\' END)'
    )
    output_field = models.TextField()


def _datetimes_in_sql(using: str) -> bool:
    """UtcIso gives the renderer's text only where datetimes are read as aware UTC values, and is
    Postgres SQL: anything else keeps loading them."""
    connection = connections[using]
    return bool(settings.USE_TZ) and connection.vendor == "postgresql" and connection.timezone_name == "UTC"


def values(qs: QuerySet[Any], plan: Plan) -> QuerySet[Any]:
    """`qs.values()` of the plan's columns, datetimes as their JSON text (`UtcIso`) where that holds.
    Read it with `fetch`."""
    if not _datetimes_in_sql(qs.db):
        return qs.values(*value_paths(plan))
    texts = {c.path for part in plan for c in _columns(part) if c.is_datetime}
    paths = [p for p in value_paths(plan) if p not in texts]
    return qs.values(*paths, **{_text_name(p): UtcIso(F(p)) for p in sorted(texts)})


def _text_name(path: str) -> str:
    return f"iso_{path.replace('__', '_')}_"


def _columns(part: Column | Nested) -> tuple[Column, ...]:
    return part.columns if isinstance(part, Nested) else (part,)


def _shapes(column: Column) -> bool:
    return column.as_float or column.item_keys is not None


Builder = Callable[[tuple[Any, ...]], dict[str, Any]]


def _getter(indexes: list[int]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    if len(indexes) == 1:  # itemgetter of one index answers the value, not a 1-tuple
        index = indexes[0]
        return lambda row: (row[index],)
    return operator.itemgetter(*indexes)


def _builder(plan: Plan, names: tuple[str, ...]) -> Builder:
    """Item builder for rows whose columns are `names` (the order Django selected them in)."""
    at = {name: i for i, name in enumerate(names)}

    def index(column: Column | str) -> int:
        if isinstance(column, str):
            return at[column]
        return at[column.path] if column.path in at else at[_text_name(column.path)]

    keys: list[str] = []
    indexes: list[int] = []
    nested: list[tuple[str, tuple[str, ...], Callable[[tuple[Any, ...]], tuple[Any, ...]]]] = []
    for part in plan:
        keys.append(part.key)
        if isinstance(part, Nested):
            # The key's slot holds the foreign key's id first (it keeps the schema's key order),
            # then the reference object, or stays None when there is no related row.
            indexes.append(index(part.fk_path))
            sub = _getter([index(c) for c in part.columns])
            nested.append((part.key, tuple(c.key for c in part.columns), sub))
        else:
            indexes.append(index(part))
    flat = _getter(indexes)
    names_ = tuple(keys)

    # Columns read by `_value` (Decimals shown as floats, JSON lists cut to a schema's keys):
    # (key, sub-key or None for a top-level column, the column).
    shaped = [(part.key, None, part) for part in plan if isinstance(part, Column) and _shapes(part)] + [
        (part.key, c.key, c) for part in plan if isinstance(part, Nested) for c in part.columns if _shapes(c)
    ]

    def build_row(row: tuple[Any, ...]) -> dict[str, Any]:
        item = dict(zip(names_, flat(row), strict=True))
        for key, sub_keys, sub in nested:
            if item[key] is not None:
                item[key] = dict(zip(sub_keys, sub(row), strict=True))
        for key, sub_key, column in shaped:
            holder = item if sub_key is None else item[key]
            name = key if sub_key is None else sub_key
            if holder is not None:
                holder[name] = _value(column, holder[name])
        return item

    return build_row


def in_id_order(items: list[dict[str, Any]], ids: list[Any], key: str) -> list[dict[str, Any]]:
    """The items (read by id, in any order) in the order of `ids`, by their `key` (the primary key);
    an id without an item is left out."""
    by_id = {item[key]: item for item in items}
    return [by_id[i] for i in ids if i in by_id]


_BUILDERS: dict[tuple[Plan, tuple[str, ...]], Builder] = {}
TOTAL = "list_total_"  # the window count's name (core.listing.paginate)


def builder_for(plan: Plan, names: tuple[str, ...]) -> Builder:
    key = (plan, names)
    build_row = _BUILDERS.get(key)
    if build_row is None:
        build_row = _BUILDERS[key] = _builder(plan, names)
    return build_row


def items_of(plan: Plan, names: tuple[str, ...], found: list[Any]) -> tuple[list[dict[str, Any]], int | None]:
    build_row = builder_for(plan, names)
    total = found[0][names.index(TOTAL)] if found and TOTAL in names else None
    return [build_row(row) for row in found], (None if total is None else int(total))


def fetch(
    plan: Plan, qs: QuerySet[Any], seen: dict[str, Any] | None = None
) -> tuple[list[dict[str, Any]], int | None]:
    """The items of `values(qs, plan)` (sliced, maybe annotated with the window total `TOTAL`) and
    that total (None without a row or without the annotation). `seen`, when given, receives the
    row's column names and select expressions (for core.listsql to run the statement again)."""
    names, found, compiler = orm_rows(qs)  # converters applied (e.g. JSON columns)
    if seen is not None:
        seen["names"] = names
        seen["expressions"] = select_expressions(compiler)
    return items_of(plan, names, found)


def _join_table(model: type[models.Model], field: str) -> tuple[Any, str, str]:
    """A many-to-many relation's join table, its key to `model` and its key to the other model (a
    reverse relation swaps them)."""
    relation = model._meta.get_field(field)
    forward = relation if isinstance(relation, models.ManyToManyField) else relation.field  # type: ignore[union-attr]
    assert isinstance(forward, models.ManyToManyField)
    if relation is forward:
        return forward.remote_field.through, forward.m2m_field_name(), forward.m2m_reverse_field_name()
    return forward.remote_field.through, forward.m2m_reverse_field_name(), forward.m2m_field_name()


# The kept statements of the many-to-many reads below, one per relation and shape.
_KEPT_REFS: dict[tuple[Any, ...], KeptByIds] = {}


def kept_by_ids(key: tuple[Any, ...], build: Callable[[list[int]], QuerySet[Any]]) -> KeptByIds:
    """The one `KeptByIds` of `key` (a relation and what is read of it) in this process."""
    kept = _KEPT_REFS.get(key)
    if kept is None:
        kept = _KEPT_REFS[key] = KeptByIds(build)
    return kept


def fill_grouped(
    items: list[dict[str, Any]], key: str, statement: KeptByIds, value: Callable[[Sequence[Any]], Any]
) -> None:
    """Set `items[i][key]` to `value(row)` of each row `statement` reads for the page's ids whose
    first column is that item's id, in the statement's order (an empty list for an item without)."""
    by_item: dict[int, list[Any]] = {item["id"]: [] for item in items}
    for row in statement.rows(list(by_item))[1]:
        by_item[row[0]].append(value(row))
    for item in items:
        item[key] = by_item[item["id"]]


def fill_related_refs(
    items: list[dict[str, Any]],
    model: type[models.Model],
    field: str,
    ref: type[Schema],
    order_by: tuple[str, ...],
) -> None:
    """Set `items[i][field]` to the reference objects (`ref`'s fields, in its order) of the rows each
    item's many-to-many `field` names, sorted by `order_by` of the related model (the order the
    validated path's prefetch gives): one kept statement for the page, through the join table."""
    through, own, other = _join_table(model, field)
    keys = tuple(ref.model_fields)
    ordering = tuple(f"-{other}__{o[1:]}" if o.startswith("-") else f"{other}__{o}" for o in order_by)
    statement = kept_by_ids(
        ("refs", model, field, keys, ordering),
        lambda ids: (
            through._default_manager.filter(AnyOf(f"{own}_id", ids))
            .order_by(*ordering)
            .values_list(f"{own}_id", *(f"{other}__{key}" for key in keys))
        ),
    )
    fill_grouped(items, field, statement, lambda row: dict(zip(keys, row[1:], strict=True)))


def fill_related_ids(items: list[dict[str, Any]], model: type[models.Model], field: str, key: str) -> None:
    """Set `items[i][key]` to the sorted ids of the rows each item's many-to-many `field` names: one
    kept statement for the page, on the join table alone."""
    through, own, other = _join_table(model, field)
    statement = kept_by_ids(
        ("ids", model, field),
        lambda ids: (
            through._default_manager.filter(AnyOf(f"{own}_id", ids))
            .order_by(f"{other}_id")
            .values_list(f"{own}_id", f"{other}_id")
        ),
    )
    fill_grouped(items, key, statement, operator.itemgetter(1))
