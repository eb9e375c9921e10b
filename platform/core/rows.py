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
import types
import typing
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from ninja import Schema

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


@dataclass(frozen=True)
class Nested:
    key: str
    fk_path: str  # the foreign key's column (None: no row)
    columns: tuple[Column, ...]


Plan = tuple[Column | Nested, ...]


def _plain(annotation: Any) -> tuple[Any, bool]:
    """(the type, whether None is allowed) of `X` or `X | None`."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return (rest[0] if len(rest) == 1 else None), True
    return annotation, False


def _simple_schema(schema: type[Schema], computed: frozenset[str] = frozenset()) -> bool:
    """No validator, computed field or alias; resolvers only for the `computed` fields (which the
    caller fills itself)."""
    decorators = schema.__pydantic_decorators__
    # ninja's Schema has one model validator of its own (it runs the resolvers, checked below).
    model_validators = set(decorators.model_validators) - {"_run_root_validator"}
    if decorators.field_validators or model_validators or decorators.computed_fields:
        return False
    if any(name.startswith("resolve_") and name[8:] not in computed for name in dir(schema)):
        return False
    return all(f.alias in (None, name) for name, f in schema.model_fields.items())


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
        if not is_dict or field.null or field.default is not dict:
            return None
        return Column(key=name, path=f"{prefix}{name}")
    if wanted is None or _column_type(field) is not wanted or (field.null and not nullable):  # type: ignore[arg-type]
        return None
    return Column(key=name, path=f"{prefix}{name}")


def plan_for(model: type[models.Model], out: type[Schema], *, computed: tuple[str, ...] = ()) -> Plan | None:
    """How to build `out` from `.values()` of `model`, or None when it cannot be done faithfully.
    `computed`: fields of `out` left out of the plan, that the caller adds to each built row itself
    (e.g. a resolver's value, or a reverse relation read by a query of its own)."""
    if not _simple_schema(out, frozenset(computed)):
        return None
    plan: list[Column | Nested] = []
    for name, info in out.model_fields.items():
        if name in computed:
            continue
        inner, nullable = _plain(info.annotation)
        if isinstance(inner, type) and issubclass(inner, Schema):
            try:
                fk = model._meta.get_field(name)
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
            for sub, sub_info in inner.model_fields.items():
                column = _column(related, sub, sub_info.annotation, prefix=f"{name}__")
                if column is None:
                    return None
                columns.append(column)
            plan.append(Nested(key=name, fk_path=fk.attname, columns=tuple(columns)))
            continue
        column = _column(model, name, info.annotation)
        if column is None:
            return None
        plan.append(column)
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


def build(plan: Plan, row: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = {}
    for part in plan:
        if isinstance(part, Nested):
            item[part.key] = None if row[part.fk_path] is None else {c.key: row[c.path] for c in part.columns}
        else:
            item[part.key] = row[part.path]
    return item
