"""A list's compiled statements, kept per "shape", for lists whose queries are pure.

Building a fast list page's queryset and compiling it costs more CPU than reading its rows (the
customer list: ~0.7 ms to build ~30 `.values()` paths, the search Q over five fields, the sort keys
and the window count, ~0.6 ms to compile, per request). Yet the statement depends only on the list's
parameters. A `Crud(pure_queries=True)` therefore keeps, per shape, the SQL Django sent and its
parameters, and runs them again on Django's connection (`connection.cursor()`: the tenant's
search_path is set as for any query) with the new search term bound in.

The shape is every list parameter by value (page, size, sort, order, filter field, operator and
value, the list's own filters) and the kind of search (none, prefix or contains), not the search
term: the term is bound in. Nor the tenant: Django's SQL names tenant tables without their schema
(the connection's search_path picks the tenant's), so a statement learned in one tenant reads
another's rows in that other tenant's schema, and shapes are learned once per process, not once per
tenant. Where it sits among the parameters, and that it is sent
LIKE-escaped, is proven when a shape is first seen: the statement is built again with two stand-in
terms (one that LIKE escaping leaves alone, one it changes); the three statements must be the same
text and their parameters must differ exactly where the term goes. Anything else (a statement that
is not one page read, or a count and a page read; an empty `IN ()`; a parameter that moves in
another way) is not kept and the list is read through the ORM as before.

A searched or filtered page of a list whose rows carry their primary key is kept as two statements:
the page's ids with the total (compiled and proven as above, never joined), then those rows with
their joins (`core.kept.KeptByIds`, one per list: the ids bound in as one array). The statements are sent
as their final text on a server-binding cursor (`core.kept.prepared_cursor`), so Postgres keeps the plan of a
page that is asked for again.

What `pure_queries=True` promises, which the kit cannot check: the resource's `queryset()` and
`apply_filters` build the same query for the same parameters: no clock (`timezone.now()`,
`localdate()`), no values read from the database or from anything but `params`, and the search term
used only for whether it is blank. A list that breaks it must leave the flag off, except for a clock
it names: `Crud(shape_clock=...)` returns, for the parameters, what the query reads of the clock
(e.g. today's date when a filter is relative to it), and that value is part of the shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models import QuerySet

from core import rows
from core.kept import KeptByIds, converted, converters_of, names_of, prepared_cursor, select_expressions
from core.listing import is_narrowed, paginate

# A stand-in search term that LIKE escaping leaves as it is, so it is found again in the parameters.
STAND_IN = "kitlistsqlstandinq7z"
# One that LIKE escaping changes (\, % and _): proves every place of the term is escaped.
ESCAPED_STAND_IN = "kit%_\\listsqlcheck"
MAX_SHAPES = 512  # per list; then the kept statements start over


@dataclass(frozen=True)
class Statement:
    sql: str
    params: tuple[Any, ...]
    term_at: tuple[int, ...]  # the parameters holding STAND_IN, where the escaped term goes

    def bind(self, escaped: str) -> tuple[Any, ...]:
        if not self.term_at:
            return self.params
        bound = list(self.params)
        for i in self.term_at:
            bound[i] = bound[i].replace(STAND_IN, escaped)
        return tuple(bound)


@dataclass(frozen=True)
class Shape:
    count: Statement | None  # the unnarrowed list's count(), run before the page
    page: Statement
    names: tuple[str, ...]  # the page row's columns
    converters: tuple[
        tuple[int, tuple[Callable[..., Any], ...], Any], ...
    ]  # (index, field converters, expression)
    narrowed: bool  # the page carries its total (COUNT(*) OVER ())
    ids_first: bool = False  # `page` reads the page's ids and total; `ListStatements.by_id` its rows


Build = Callable[..., dict[str, Any]]


class ListStatements:
    """The kept statements of one list. `build(params, prefix=None, fetch=None)` answers a page
    through the ORM (core.crud), `count(params)` counts the list through the ORM."""

    def __init__(
        self,
        *,
        plan: rows.Plan,
        build: Build,
        count: Callable[[Any], int],
        prefix_below: int,
        default_size: int,
        keys: Callable[[Any, bool | None], QuerySet[Any]] | None = None,
        rows_for: Callable[[list[int]], QuerySet[Any]] | None = None,
        pk_key: str = "id",
        db: str = "default",
        clock: Callable[[Any], Any] | None = None,
    ) -> None:
        self.plan = plan
        # What the list's query reads besides its parameters (today's date for a filter relative to
        # it), as a function of the parameters: part of the shape, so a statement learned on one day
        # is not sent on the next.
        self.clock = clock
        self.default_size = default_size
        self.build = build
        self.count = count
        self.prefix_below = prefix_below
        # A searched or filtered page read ids-first: `keys(params, prefix)` is the list's queryset
        # of primary keys, `rows_for(ids)` the rows of those keys (values() of the plan).
        self.keys = keys
        self.by_id = KeptByIds(rows_for, db) if rows_for is not None else None
        self.pk_key = pk_key  # the item key of the primary key, to put the rows back in order
        self.db = db
        self.shapes: dict[str, Shape | None] = {}

    def page(self, params: Any) -> dict[str, Any]:
        if not getattr(settings, "KIT_LIST_SQL_CACHE", True):
            return self.build(params)
        connection = connections[self.db]
        term = (params.search or "").strip()
        kind = "" if not term else ("prefix" if len(term) < self.prefix_below else "contains")
        values = params.model_dump()
        values.pop("search", None)
        key = repr((kind, sorted(values.items()), self.clock(params) if self.clock else None))
        if key not in self.shapes:
            page, shape, final = self._learn(params, term, kind)
            if shape is not None or final:
                if len(self.shapes) >= MAX_SHAPES:
                    self.shapes.clear()
                self.shapes[key] = shape
            return page
        shape = self.shapes[key]
        if shape is None:  # a shape that cannot be kept: always through the ORM
            return self.build(params)
        return self._run(shape, params, connection.ops.prep_for_like_query(term))

    # --- a known shape ------------------------------------------------------------------------------
    def _run(self, shape: Shape, params: Any, escaped: str) -> dict[str, Any]:
        from core.envelope import page_of

        connection = connections[self.db]
        total: int | None = None
        ids: list[int] = []
        names, converters = shape.names, shape.converters
        # django-tenants sets the search_path on the cursor Django opens; the statements then run on
        # one server-binding cursor of the same connection (see `prepared_cursor`).
        with connection.cursor() as cursor, prepared_cursor(connection) as server:
            if shape.count is not None:
                server.execute(cursor.cursor.mogrify(shape.count.sql, shape.count.bind(escaped)))
                total = int(server.fetchone()[0])
            server.execute(cursor.cursor.mogrify(shape.page.sql, shape.page.bind(escaped)))
            found = converted(server.fetchall(), converters, self.db)
        if shape.ids_first:
            assert self.by_id is not None  # learned with the shape
            # The page's ids with the total, then those rows with their joins (put back in order).
            ids = [key[shape.names.index("pk")] for key in found]
            window = found[0][shape.names.index(rows.TOTAL)] if found else None
            names, found = self.by_id.rows(ids)
        items, window_total = rows.items_of(self.plan, names, found)
        if shape.ids_first:
            items = rows.in_id_order(items, ids, self.pk_key)
            window_total = None if window is None else int(window)
        if shape.narrowed:
            # Past the last page there is no row to carry the total: count then (as paginate does).
            total = (
                window_total if window_total is not None else (self.count(params) if params.page > 1 else 0)
            )
        assert total is not None
        return page_of(items, total=total, page=params.page, size=params.size or self.default_size)

    # --- a new shape ---------------------------------------------------------------------------------
    def _learn(self, params: Any, term: str, kind: str) -> tuple[dict[str, Any], Shape | None, bool]:
        """Answer the page through the ORM, noting the statements it sends; keep them when the
        shape proves it can be run again (see the module's docstring). The flag: whether a shape
        that cannot be kept is final (the statement itself) or may be learned on another request
        (this one sent other statements than usual: an empty page past the last one, `IN ()`)."""
        connection = connections[self.db]
        if self._reads_ids_first(params):
            # Read ids-first: both statements are compiled, not sent, then proven as below.
            compiled = self._compiled(params, term, kind == "prefix" if term else None)
            shape = None
            if compiled is not None:
                sql, sql_params, names, expressions = compiled
                compiled_seen = {"names": names, "expressions": expressions}
                shape = self._shape(params, term, kind, [(sql, sql_params)], compiled_seen)
            if shape is None:
                return self.build(params), None, True
            shape = replace(shape, ids_first=True)
            return self._run(shape, params, connection.ops.prep_for_like_query(term)), shape, True
        sent: list[tuple[str, tuple[Any, ...]]] = []

        def note(execute: Any, sql: str, sql_params: Any, many: bool, context: Any) -> Any:
            if not sql.startswith("SET search_path"):  # django-tenants, per cursor
                sent.append((sql, tuple(sql_params or ())))
            return execute(sql, sql_params, many, context)

        seen: dict[str, Any] = {}
        with connection.execute_wrapper(note):
            page = self.build(params, fetch=lambda sliced: rows.fetch(self.plan, sliced, seen))
        if "names" not in seen or len(sent) != (1 if bool(term or params.filter_field) else 2):
            return page, None, False
        return page, self._shape(params, term, kind, sent, seen), True

    def _shape(
        self,
        params: Any,
        term: str,
        kind: str,
        sent: list[tuple[str, tuple[Any, ...]]],
        seen: dict[str, Any],
    ) -> Shape | None:
        narrowed = bool(term or params.filter_field)
        count = Statement(sent[0][0], sent[0][1], ()) if not narrowed else None
        sql, sql_params = sent[-1]
        term_at: tuple[int, ...] = ()
        template = sql_params  # without a term: the parameters as sent
        if term:
            prefix = kind == "prefix"
            connection = connections[self.db]
            escape = connection.ops.prep_for_like_query
            stand_in = self._compiled(params, STAND_IN, prefix)
            escaped_stand_in = self._compiled(params, ESCAPED_STAND_IN, prefix)
            if stand_in is None or escaped_stand_in is None:
                return None
            if not (stand_in[0] == escaped_stand_in[0] == sql):
                return None
            if not (len(stand_in[1]) == len(escaped_stand_in[1]) == len(sql_params)):
                return None
            at = []
            for i, (real, first, second) in enumerate(
                zip(sql_params, stand_in[1], escaped_stand_in[1], strict=True)
            ):
                if real == first == second and not (isinstance(first, str) and STAND_IN in first):
                    continue
                if (
                    isinstance(first, str)
                    and STAND_IN in first
                    and first.replace(STAND_IN, escape(ESCAPED_STAND_IN)) == second
                    and first.replace(STAND_IN, escape(term)) == real
                ):
                    at.append(i)
                    continue
                return None
            term_at = tuple(at)
            template = stand_in[1]  # STAND_IN where the term goes
        converters = converters_of(seen["expressions"], self.db)
        if converters is None:
            return None
        return Shape(
            count=count,
            page=Statement(sql, tuple(template), term_at),
            names=seen["names"],
            converters=converters,
            narrowed=narrowed,
        )

    def _reads_ids_first(self, params: Any) -> bool:
        """A searched or filtered page of a list that can read its rows by id."""
        return self.keys is not None and self.by_id is not None and is_narrowed(params)

    def _compiled(
        self, params: Any, term: str, prefix: bool | None
    ) -> tuple[str, tuple[Any, ...], tuple[str, ...], list[Any]] | None:
        """The page statement of `params` with `term` as the search term, compiled, not run: its
        SQL, parameters, column names and select expressions. Read ids-first: the keys statement."""
        from django.core.exceptions import EmptyResultSet, FullResultSet

        compiled: list[tuple[str, tuple[Any, ...], tuple[str, ...], list[Any]]] = []

        def fetch(sliced: Any) -> tuple[list[Any], int | None]:
            compiler = sliced.query.get_compiler(self.db)
            try:
                sql, sql_params = compiler.as_sql()
            except (EmptyResultSet, FullResultSet):
                return [], 0
            expressions = select_expressions(compiler)
            compiled.append((sql, tuple(sql_params), names_of(sliced.query), expressions))
            return [], 0  # a total: paginate does not count

        with_term = params.model_copy(update={"search": term})
        if self._reads_ids_first(with_term):
            assert self.keys is not None
            paginate(self.keys(with_term, prefix), with_term, self.default_size, fetch=fetch)
        else:
            self.build(with_term, prefix=prefix, fetch=fetch)
        return compiled[0] if len(compiled) == 1 else None
