"""One helper that makes a standard resource (list, all, get, create, update, delete) a few lines.

Each resource's api.py says only what is particular to it: its schemas, its searchable, sortable
and filterable fields, extra list filters, and services for writes that are more than a save.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models, transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import create_model

from core.envelope import Envelope, Message, Page, ok
from core.errors import ApiError
from core.listing import ListParams, ListSpec, apply_list, paginate
from core.permissions import perm, register_resource

ALL_OPS = ("list", "all", "get", "create", "update", "delete")
ALL_LIMIT = 5000


def partial_schema(schema: type[Schema], name: str | None = None) -> type[Schema]:
    """The same fields, every one optional: PUT changes only what it is sent."""
    fields: dict[str, Any] = {}
    for fname, finfo in schema.model_fields.items():
        annotation = finfo.annotation
        fields[fname] = (annotation | None, None)  # type: ignore[operator]
    model = create_model(name or f"{schema.__name__.removesuffix('In')}Update", __base__=Schema, **fields)
    return model


def check_foreign_keys(model: type[models.Model], data: dict[str, Any]) -> None:
    """A clear 422 for an id that names nothing, instead of a deferred constraint failure at commit."""
    for f in model._meta.concrete_fields:
        if isinstance(f, models.ForeignKey) and data.get(f.attname) is not None:
            related = f.related_model
            if not related._default_manager.filter(pk=data[f.attname]).exists():  # type: ignore[union-attr]
                label = related._meta.verbose_name  # type: ignore[union-attr]
                raise ApiError(422, f"{f.attname}: no {label} with id {data[f.attname]}.")


def raise_for_model_errors(exc: DjangoValidationError) -> None:
    codes = {e.code for errors in getattr(exc, "error_dict", {}).values() for e in errors}
    messages = []
    for fname, errors in getattr(exc, "message_dict", {}).items():
        for msg in errors:
            messages.append(msg if fname == "__all__" else f"{fname}: {msg}")
    detail = " ".join(messages) or "; ".join(exc.messages)
    raise ApiError(409 if codes & {"unique", "unique_together"} else 422, detail)


def save_object(obj: models.Model, data: dict[str, Any]) -> models.Model:
    m2m = {k: data.pop(k) for k in list(data) if _is_m2m(type(obj), k)}
    check_foreign_keys(type(obj), data)
    for key, value in data.items():
        setattr(obj, key, value)
    try:
        obj.full_clean()
    except DjangoValidationError as exc:
        raise_for_model_errors(exc)
    obj.save()
    for key, ids in m2m.items():
        getattr(obj, key).set(ids)
    return obj


def _is_m2m(model: type[models.Model], name: str) -> bool:
    try:
        return model._meta.get_field(name).many_to_many
    except Exception:
        return False


@dataclass
class Crud:
    router: Router
    resource: str  # permission resource and operation-id prefix, e.g. "customer"
    label: str  # singular, for messages: "Customer"
    model: type[models.Model]
    out: type[Schema]
    create_in: type[Schema]
    update_in: type[Schema] | None = None
    path: str = ""  # sub-path under the router, e.g. "/customers"
    spec: ListSpec = field(default_factory=ListSpec)
    default_size: int = 25
    ops: tuple[str, ...] = ("list", "get", "create", "update", "delete")
    queryset: Callable[[], QuerySet[Any]] | None = None
    filters: type[Schema] | None = None  # extra list query parameters
    apply_filters: Callable[[QuerySet[Any], Any], QuerySet[Any]] | None = None
    create: Callable[[dict[str, Any]], models.Model] | None = None
    update: Callable[[Any, dict[str, Any]], models.Model] | None = None
    delete: Callable[[Any], None] | None = None
    plural: str | None = None

    def __post_init__(self) -> None:
        op_actions = {"list": "view", "all": "view", "get": "view", "create": "add", "update": "change",
                      "delete": "delete"}
        actions = tuple(dict.fromkeys(op_actions[op] for op in self.ops))
        register_resource(self.resource, self.plural or f"{self.label}s", actions)
        if self.update_in is None:
            self.update_in = partial_schema(self.create_in, f"{self.label.replace(' ', '')}Update")
        self._register()

    # --- reads -------------------------------------------------------------------------------
    def base_queryset(self) -> QuerySet[Any]:
        return self.queryset() if self.queryset else self.model._default_manager.all()

    def get_object(self, obj_id: int) -> Any:
        obj = self.base_queryset().filter(pk=obj_id).first()
        if obj is None:
            raise ApiError(404, f"{self.label} not found")
        return obj

    # --- writes ------------------------------------------------------------------------------
    def do_create(self, data: dict[str, Any]) -> Any:
        with transaction.atomic():
            obj = self.create(data) if self.create else save_object(self.model(), data)
        return self.get_object(obj.pk)

    def do_update(self, obj: Any, data: dict[str, Any]) -> Any:
        with transaction.atomic():
            obj = self.update(obj, data) if self.update else save_object(obj, data)
        return self.get_object(obj.pk)

    def do_delete(self, obj: Any) -> None:
        with transaction.atomic():
            if self.delete:
                self.delete(obj)
            else:
                obj.delete()

    # --- routes ------------------------------------------------------------------------------
    def _register(self) -> None:
        r, res, out, path = self.router, self.resource, self.out, self.path
        crud = self
        plural = self.plural or f"{self.label}s"
        extra = self.filters
        query_schema: type[Schema] = (
            type(f"{self.label.replace(' ', '')}ListQuery", (ListParams, extra), {}) if extra else ListParams
        )
        create_in = self.create_in
        update_in = self.update_in
        assert update_in is not None

        if "list" in self.ops:

            def list_items(request: HttpRequest, params: Query[query_schema]) -> Any:  # type: ignore[valid-type]
                qs = crud.base_queryset()
                if crud.apply_filters is not None:
                    qs = crud.apply_filters(qs, params)
                qs = apply_list(qs, params, crud.spec)
                return ok(paginate(qs, params, crud.default_size), f"{plural} retrieved successfully")

            r.get(path or "", response=Envelope[Page[out]], auth=perm(f"{res}.view"),  # type: ignore[valid-type]
                  operation_id=f"{res}_list", summary=f"List {plural.lower()}")(list_items)

        if "all" in self.ops:

            def all_items(request: HttpRequest) -> Any:
                qs = crud.base_queryset().order_by(crud.spec.default_sort, "id")[:ALL_LIMIT]
                return ok(list(qs), f"{plural} retrieved successfully")

            r.get(f"{path}/all", response=Envelope[list[out]], auth=perm(f"{res}.view"),  # type: ignore[valid-type]
                  operation_id=f"{res}_all", summary=f"All {plural.lower()}")(all_items)

        if "get" in self.ops:

            def get_item(request: HttpRequest, id: int) -> Any:
                return ok(crud.get_object(id), f"{crud.label} retrieved successfully")

            r.get(f"{path}/{{int:id}}", response=Envelope[out], auth=perm(f"{res}.view"),  # type: ignore[valid-type]
                  operation_id=f"{res}_get", summary=f"Get a {self.label.lower()}")(get_item)

        if "create" in self.ops:

            def create_item(request: HttpRequest, payload: create_in) -> Any:  # type: ignore[valid-type]
                obj = crud.do_create(payload.dict())
                return ok(obj, f"{crud.label} created successfully", status=201)

            r.post(path or "", response={201: Envelope[out]}, auth=perm(f"{res}.add"),  # type: ignore[valid-type]
                   operation_id=f"{res}_create", summary=f"Create a {self.label.lower()}")(create_item)

        if "update" in self.ops:

            def update_item(request: HttpRequest, id: int, payload: update_in) -> Any:  # type: ignore[valid-type]
                obj = crud.get_object(id)
                obj = crud.do_update(obj, payload.dict(exclude_unset=True))
                return ok(obj, f"{crud.label} updated successfully")

            r.put(f"{path}/{{int:id}}", response=Envelope[out], auth=perm(f"{res}.change"),  # type: ignore[valid-type]
                  operation_id=f"{res}_update", summary=f"Update a {self.label.lower()}")(update_item)

        if "delete" in self.ops:

            def delete_item(request: HttpRequest, id: int) -> Any:
                crud.do_delete(crud.get_object(id))
                return ok(None, f"{crud.label} deleted successfully")

            r.delete(f"{path}/{{int:id}}", response=Message, auth=perm(f"{res}.delete"),
                     operation_id=f"{res}_delete", summary=f"Delete a {self.label.lower()}")(delete_item)
