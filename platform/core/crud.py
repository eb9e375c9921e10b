"""One helper that makes a standard resource (list, all, get, create, update, delete) a few lines.

Each resource's api.py says only what is particular to it: its schemas, its searchable, sortable
and filterable fields, extra list filters, and services for writes that are more than a save.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models, transaction
from django.db.models import ProtectedError, QuerySet, RestrictedError
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.text import slugify
from ninja import File, Query, Router, Schema
from ninja.files import UploadedFile
from pydantic import Field, create_model

from core import csv_io, listsql, renderers, rows, scoping
from core.envelope import Answer, Envelope, Message, Page, ok
from core.errors import ApiError, describe_dependents
from core.listing import AnyOf, ListSpec, apply_list, is_narrowed, paginate
from core.permissions import perm, register_resource
from core.uploads import upload_route

ALL_OPS = ("list", "all", "get", "create", "update", "delete")
REGISTRY: list["Crud"] = []  # every declared resource (for the kit's own tests)
ALL_LIMIT = 5000
OP_ACTIONS = {
    "list": "view",
    "all": "view",
    "get": "view",
    "export": "view",
    "create": "add",
    "import": "add",
    "update": "change",
    "delete": "delete",
}


def partial_schema(schema: type[Schema], name: str | None = None) -> type[Schema]:
    """The same fields, every one optional: PUT changes only what it is sent. A field may be left
    out, but what is sent obeys the create schema: a field that cannot be null there (`rate: Decimal`)
    cannot be set to null here either (a 422, not a null reaching the model); text is the exception,
    where null clears the field. The default None marks
    "not sent" and is never validated; the route writes only the fields sent (`exclude_unset`)."""
    fields: dict[str, Any] = {}
    for fname, finfo in schema.model_fields.items():
        annotation: Any = finfo.annotation
        if annotation is str:
            # Text keeps taking null on update: it clears the field to "" (a ship-to's access hours).
            annotation = str | None
        # Keep the field's constraints and validators (lengths, bounds): an update obeys the same rules.
        if finfo.metadata:
            annotation = Annotated[annotation, *finfo.metadata]
        fields[fname] = (annotation, Field(None, description=finfo.description))
    model = create_model(name or f"{schema.__name__.removesuffix('In')}Update", __base__=Schema, **fields)
    return model


def check_foreign_keys(model: type[models.Model], data: dict[str, Any]) -> None:
    """A clear 422 for an id that names nothing, instead of a deferred constraint failure at commit."""
    for f in model._meta.concrete_fields:
        if isinstance(f, models.ForeignKey) and data.get(f.attname) is not None:
            related = f.related_model
            if not related._default_manager.filter(pk=data[f.attname]).exists():
                label = related._meta.verbose_name
                raise ApiError(422, f"{f.attname}: no {label} with id {data[f.attname]}.")


def raise_for_model_errors(exc: DjangoValidationError) -> None:
    codes = {e.code for errors in getattr(exc, "error_dict", {}).values() for e in errors}
    messages = []
    for fname, errors in getattr(exc, "message_dict", {}).items():
        for msg in errors:
            messages.append(msg if fname == "__all__" else f"{fname}: {msg}")
    detail = " ".join(messages) or "; ".join(exc.messages)
    raise ApiError(409 if codes & {"unique", "unique_together"} else 422, detail)


def check_many_to_many(model: type[models.Model], m2m: dict[str, Any]) -> None:
    """A clear 422 for ids of a many-to-many list that name nothing (instead of a 409 at commit)."""
    for name, ids in m2m.items():
        if not ids:
            continue
        related = model._meta.get_field(name).related_model
        wanted = set(ids)
        found = set(related._default_manager.filter(pk__in=wanted).values_list("pk", flat=True))  # type: ignore[union-attr]
        missing = sorted(wanted - found)
        if missing:
            label = related._meta.verbose_name  # type: ignore[union-attr]
            raise ApiError(422, f"{name}: no {label} with id {', '.join(str(m) for m in missing[:5])}.")


def writable_fields(model: type[models.Model]) -> frozenset[str]:
    """What a write may set on a model: its editable fields (by name and, for a foreign key, by its
    `_id` column) and many-to-many lists (from either side). Never the primary key or fields that
    Django manages itself (`auto_now`, `auto_now_add`, `editable=False`)."""
    names: set[str] = set()
    for f in model._meta.get_fields():
        if f.many_to_many:  # either side: `.set(ids)` works on both
            names.add(f.name)
            continue
        if f.auto_created or not getattr(f, "editable", False) or getattr(f, "primary_key", False):
            continue  # other reverse relations, the primary key, auto timestamps
        if not getattr(f, "concrete", False):
            continue
        names.add(f.name)
        names.add(getattr(f, "attname", f.name))
    return frozenset(names)


def save_object(
    obj: models.Model, data: dict[str, Any], *, allowed: Iterable[str] | None = None
) -> models.Model:
    """Set `data` on `obj`, validate it (full_clean) and save it, with its many-to-many lists.

    Only the keys of `allowed` (by default: the model's writable fields) are taken; any other key is a
    programming error (a service passing through something the input schema did not declare), never
    silently set on the model."""
    permitted = writable_fields(type(obj))
    if allowed is not None:
        permitted &= frozenset(allowed)
    unknown = sorted(set(data) - permitted)
    if unknown:
        raise TypeError(f"save_object: {type(obj).__name__} does not take {', '.join(unknown)}")
    m2m = {k: data.pop(k) for k in list(data) if _is_m2m(type(obj), k)}
    check_foreign_keys(type(obj), data)
    check_many_to_many(type(obj), m2m)
    for key, value in data.items():
        setattr(obj, key, value)
    try:
        obj.full_clean()
    except DjangoValidationError as exc:
        raise_for_model_errors(exc)
    obj.save()
    for key, ids in m2m.items():
        if ids is not None:  # null leaves the list as it is
            getattr(obj, key).set(ids)
    return obj


def _is_m2m(model: type[models.Model], name: str) -> bool:
    try:
        return bool(model._meta.get_field(name).many_to_many)
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
    # CSV: every list can be exported (`GET <path>/export`, same filters, no paging) unless
    # csv_export is False; lists with an importer also take CSV imports (`<path>/import…`).
    csv_export: bool = True
    importer: csv_io.CsvImport | None = None
    # List pages from .values() rows, unvalidated, when the output schema allows it (core/rows.py).
    fast_list: bool = True
    # `queryset` and `apply_filters` build the same query for the same list parameters (no clock, no
    # reads, the search term only for whether it is blank): the fast list's compiled statements are
    # kept per shape and run again (core/listsql.py). Leave it off when that is not so.
    pure_queries: bool = False
    # With pure_queries: what the queries read of the clock, as a function of the list parameters
    # (e.g. today's date when a filter is relative to it; None when they read none): part of a kept
    # statement's shape (core/listsql.py), so yesterday's statement is not sent today.
    shape_clock: Callable[[Any], Any] | None = None
    # Output fields a fast list computes itself (a resolver's or a property's value, a related list):
    # `fill_rows(items)` sets them on the page's rows, which carry the plan's columns and the
    # `extra_columns` paths (an annotation of the queryset is read as one; what the output schema
    # does not name is dropped from the answer). Each rule is written once, beside the model.
    computed: tuple[str, ...] = ()
    extra_columns: tuple[str, ...] = ()
    fill_rows: Callable[[list[dict[str, Any]]], None] | None = None

    def __post_init__(self) -> None:
        ops = list(self.ops)
        if "list" in ops and self.csv_export and "export" not in ops:
            ops.append("export")
        if self.importer is not None and "import" not in ops:
            ops.append("import")
        self.ops = tuple(ops)
        actions = tuple(dict.fromkeys(OP_ACTIONS[op] for op in self.ops))
        register_resource(self.resource, self.plural or f"{self.label}s", actions)
        if self.update_in is None:
            self.update_in = partial_schema(self.create_in, f"{self.label.replace(' ', '')}Update")
        # Lists whose output is plain columns skip model instances and output validation.
        fast = self.fast_list and getattr(settings, "KIT_FAST_LISTS", True)
        if set(self.computed) - set(self.extra_columns) and self.fill_rows is None:
            raise ValueError(f"{self.resource}: computed fields need fill_rows (or an extra column each)")
        self.row_plan = (
            rows.plan_for(self.model, self.out, computed=self.computed, extra=self.extra_columns)
            if fast
            else None
        )
        self.out_keys = tuple(self.out.model_fields)
        # A page can be read ids-first only when its rows carry the primary key to put them in order.
        pk = self.model._meta.pk.attname
        self.shows_pk = any(isinstance(p, rows.Column) and p.path == pk for p in self.row_plan or ())
        self.statements = (
            listsql.ListStatements(
                plan=self.row_plan,
                build=self.fast_page,
                count=lambda params: self.list_queryset(params).count(),
                prefix_below=self.spec.prefix_below,
                default_size=self.default_size,
                keys=(lambda params, prefix: self.list_queryset(params, prefix=prefix).values("pk"))
                if self.shows_pk
                else None,
                rows_for=self.rows_for_ids if self.shows_pk else None,
                pk_key=pk,
                clock=self.shape_clock,
            )
            if self.row_plan is not None and self.pure_queries
            else None
        )
        # The list's query parameters: sort_by / filter_field are enums of the spec's names.
        self.query_schema: type[Schema] = self.spec.query_schema(
            f"{self.label.replace(' ', '')}ListQuery", self.filters
        )
        if "import" in self.ops:
            csv_io.register_target(self)
        self._register()
        REGISTRY.append(self)

    # --- reads -------------------------------------------------------------------------------
    def base_queryset(self) -> QuerySet[Any]:
        """Every row the request may see: the resource's rows through the row scope (core.scoping)."""
        return scoping.scoped(self.queryset() if self.queryset else self.model._default_manager.all())

    def list_queryset(self, params: Any, *, prefix: bool | None = None) -> QuerySet[Any]:
        qs = self.base_queryset()
        if self.apply_filters is not None:
            qs = self.apply_filters(qs, params)
        return apply_list(qs, params, self.spec, prefix=prefix)

    def fast_page(
        self,
        params: Any,
        *,
        prefix: bool | None = None,
        fetch: Callable[[QuerySet[Any]], tuple[list[Any], int | None]] | None = None,
    ) -> dict[str, Any]:
        """A page of the list as plain rows (core/rows.py): read from the cursor, datetimes already
        formatted by Postgres. `prefix` and `fetch`: for core/listsql.py."""
        plan = self.row_plan
        assert plan is not None
        if is_narrowed(params) and fetch is None and self.shows_pk:
            # A searched or filtered page in two steps: its ids with the total, then those rows with
            # their joins. The total counts every match, so one statement would join (and carry)
            # every match's related rows (8,970 ship-tos: 45 ms against 8 ms + 1 ms).
            keys = paginate(self.list_queryset(params, prefix=prefix).values("pk"), params, self.default_size)
            ids = [key["pk"] for key in keys["items"]]
            found, _ = rows.fetch(plan, self.rows_for_ids(ids))
            keys["items"] = rows.in_id_order(found, ids, self.model._meta.pk.attname)
            return keys
        listed = self.list_queryset(params, prefix=prefix)
        return paginate(
            rows.values(listed, plan),
            params,
            self.default_size,
            fetch=fetch or (lambda sliced: rows.fetch(plan, sliced)),
            count_of=listed,
        )

    def filled(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows with their computed fields, keyed in the output schema's order (as validated)."""
        if self.fill_rows is not None:
            self.fill_rows(items)
        keys = self.out_keys
        return [{key: item[key] for key in keys} for item in items]

    def rows_for_ids(self, ids: list[int]) -> QuerySet[Any]:
        """The rows of these primary keys with their joins, as the fast list reads them (any order)."""
        assert self.row_plan is not None
        return rows.values(self.base_queryset().filter(AnyOf("pk", ids)).order_by(), self.row_plan)

    def get_object(self, obj_id: int) -> Any:
        obj = self.base_queryset().filter(pk=obj_id).first()
        if obj is None:
            raise ApiError(404, f"{self.label} not found")
        return obj

    # --- writes ------------------------------------------------------------------------------
    def _only_declared(self, data: dict[str, Any], schema: type[Schema]) -> dict[str, Any]:
        """Writes take the fields of the resource's input schema and nothing else (the allow-list)."""
        unknown = sorted(set(data) - set(schema.model_fields))
        if unknown:
            raise TypeError(f"{self.resource}: {', '.join(unknown)} not in {schema.__name__}")
        return data

    def create_row(self, data: dict[str, Any]) -> Any:
        """The create service alone (the caller owns the transaction): used by POST and CSV imports."""
        data = self._only_declared(data, self.create_in)
        return self.create(data) if self.create else save_object(self.model(), data)

    def do_create(self, data: dict[str, Any]) -> Any:
        with transaction.atomic():
            obj = self.create_row(data)
        return self.get_object(obj.pk)

    def do_update(self, obj: Any, data: dict[str, Any]) -> Any:
        assert self.update_in is not None
        data = self._only_declared(data, self.update_in)
        with transaction.atomic():
            obj = self.update(obj, data) if self.update else save_object(obj, data)
        return self.get_object(obj.pk)

    def do_delete(self, obj: Any) -> None:
        try:
            with transaction.atomic():
                if self.delete:
                    self.delete(obj)
                else:
                    obj.delete()
        except (ProtectedError, RestrictedError) as exc:
            dependents = getattr(exc, "protected_objects", None) or getattr(exc, "restricted_objects", [])
            fields = {f.name for f in self.model._meta.get_fields()}
            can_deactivate = bool(fields & {"is_active", "status"})
            raise ApiError(409, describe_dependents(dependents, can_deactivate=can_deactivate)) from exc

    # --- routes ------------------------------------------------------------------------------
    def _register(self) -> None:
        r, res, out, path = self.router, self.resource, self.out, self.path
        crud = self
        plural = self.plural or f"{self.label}s"
        query_schema = self.query_schema
        create_in = self.create_in
        update_in = self.update_in
        assert update_in is not None

        if "list" in self.ops:

            def list_items(request: HttpRequest, params: Query[query_schema]) -> Answer | HttpResponse:  # type: ignore[valid-type]
                message = f"{plural} retrieved successfully"
                if crud.row_plan is None:
                    return ok(paginate(crud.list_queryset(params), params, crud.default_size), message)
                # The fast path: rows rendered as they are, the statements kept per shape where the
                # list's queries are pure (core/listsql.py).
                # Kept statements are compiled once per shape: never for a page narrowed to a user's rows.
                kept = crud.statements and not scoping.is_narrowed_to_owner(crud.model)
                page = crud.statements.page(params) if kept and crud.statements else crud.fast_page(params)
                if crud.computed:
                    page["items"] = crud.filled(page["items"])
                body = renderers.dumps({"status_code": 200, "message": message, "data": page})
                return HttpResponse(body, content_type="application/json; charset=utf-8")

            r.get(
                path or "",
                response=Envelope[Page[out]],  # type: ignore[valid-type]
                auth=perm(f"{res}.view"),  # type: ignore[valid-type]
                operation_id=f"{res}_list",
                summary=f"List {plural.lower()}",
            )(list_items)

        if "export" in self.ops:
            basename = slugify(plural)

            def export_items(request: HttpRequest, params: Query[query_schema]) -> StreamingHttpResponse:  # type: ignore[valid-type]
                return csv_io.export_response(crud.list_queryset(params), out, basename)

            r.get(
                f"{path}/export",
                auth=perm(f"{res}.view"),
                operation_id=f"{res}_export",
                summary=f"Export {plural.lower()} as CSV",
                description=f"The list with the same search, sort and filters, without paging (at most "
                f"{csv_io.EXPORT_LIMIT:,} rows).",
                openapi_extra={"responses": csv_io.CSV_RESPONSE},
            )(export_items)

        if "import" in self.ops:
            self._register_import(basename=slugify(plural))

        if "all" in self.ops:

            def all_items(request: HttpRequest) -> Answer:
                qs = crud.base_queryset().order_by(crud.spec.default_sort, "id")[:ALL_LIMIT]
                return ok(list(qs), f"{plural} retrieved successfully")

            r.get(
                f"{path}/all",
                response=Envelope[list[out]],  # type: ignore[valid-type]
                auth=perm(f"{res}.view"),  # type: ignore[valid-type]
                operation_id=f"{res}_all",
                summary=f"All {plural.lower()}",
            )(all_items)

        if "get" in self.ops:

            def get_item(request: HttpRequest, id: int) -> Answer:
                return ok(crud.get_object(id), f"{crud.label} retrieved successfully")

            r.get(
                f"{path}/{{int:id}}",
                response=Envelope[out],  # type: ignore[valid-type]
                auth=perm(f"{res}.view"),  # type: ignore[valid-type]
                operation_id=f"{res}_get",
                summary=f"Get a {self.label.lower()}",
            )(get_item)

        if "create" in self.ops:

            def create_item(request: HttpRequest, payload: create_in) -> Answer:  # type: ignore[valid-type]
                obj = crud.do_create(payload.dict())  # type: ignore[attr-defined]
                return ok(obj, f"{crud.label} created successfully", status=201)

            r.post(
                path or "",
                response={201: Envelope[out]},  # type: ignore[valid-type]
                auth=perm(f"{res}.add"),  # type: ignore[valid-type]
                operation_id=f"{res}_create",
                summary=f"Create a {self.label.lower()}",
            )(create_item)

        if "update" in self.ops:

            def update_item(request: HttpRequest, id: int, payload: update_in) -> Answer:  # type: ignore[valid-type]
                obj = crud.get_object(id)
                obj = crud.do_update(obj, payload.dict(exclude_unset=True))  # type: ignore[attr-defined]
                return ok(obj, f"{crud.label} updated successfully")

            r.put(
                f"{path}/{{int:id}}",
                response=Envelope[out],  # type: ignore[valid-type]
                auth=perm(f"{res}.change"),  # type: ignore[valid-type]
                operation_id=f"{res}_update",
                summary=f"Update a {self.label.lower()}",
            )(update_item)

        if "delete" in self.ops:

            def delete_item(request: HttpRequest, id: int) -> Answer:
                crud.do_delete(crud.get_object(id))
                return ok(None, f"{crud.label} deleted successfully")

            r.delete(
                f"{path}/{{int:id}}",
                response=Message,
                auth=perm(f"{res}.delete"),
                operation_id=f"{res}_delete",
                summary=f"Delete a {self.label.lower()}",
            )(delete_item)

    def _register_import(self, basename: str) -> None:
        r, res, path, crud = self.router, self.resource, self.path, self
        importer = self.importer
        assert importer is not None
        plural = (self.plural or f"{self.label}s").lower()
        columns_doc = csv_io.describe_columns(importer)
        result = Envelope[csv_io.DataImportOut]

        def import_template(request: HttpRequest) -> HttpResponse:
            return csv_io.csv_text_response([list(importer.columns)], f"{basename}-import-template.csv")

        r.get(
            f"{path}/import/template",
            auth=perm(f"{res}.add"),
            operation_id=f"{res}_import_template",
            summary=f"A CSV template for importing {plural}",
            description=columns_doc,
            openapi_extra={"responses": csv_io.CSV_RESPONSE},
        )(import_template)

        @upload_route()
        def import_preview(request: HttpRequest, file: File[UploadedFile]) -> Answer:
            imp = csv_io.start_import(crud, file, request.auth)
            if imp.status == "validating":
                return ok(imp, imp.message, status=202)
            return ok(imp, imp.message)

        r.post(
            f"{path}/import",
            response={200: result, 202: result},
            auth=perm(f"{res}.add"),
            operation_id=f"{res}_import_preview",
            summary=f"Check a CSV file of {plural} (writes nothing)",
            description="Answers the preview: per-row errors and sample rows. Files over "
            f"{csv_io.SYNC_ROW_LIMIT} rows are checked by the worker (202): poll the "
            "import.\n\n" + columns_doc,
        )(import_preview)

        def import_status(request: HttpRequest, import_id: int) -> Answer:
            imp = csv_io.get_import(crud, import_id)
            return ok(imp, imp.message or "Import retrieved successfully")

        r.get(
            f"{path}/import/{{int:import_id}}",
            response=result,
            auth=perm(f"{res}.add"),
            operation_id=f"{res}_import_status",
            summary=f"Progress and result of a {self.label.lower()} import",
        )(import_status)

        def import_confirm(request: HttpRequest, import_id: int) -> Answer:
            imp = csv_io.confirm_import(crud, import_id)
            if imp.status == "importing":
                return ok(imp, imp.message, status=202)
            return ok(imp, imp.message)

        r.post(
            f"{path}/import/{{int:import_id}}/confirm",
            response={200: result, 202: result},
            auth=perm(f"{res}.add"),
            operation_id=f"{res}_import_confirm",
            summary=f"Write a checked CSV file of {plural}: all rows or none",
        )(import_confirm)
