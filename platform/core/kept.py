"""Statements compiled once and run again, on a cursor that lets Postgres keep their plans.

Building and compiling a queryset costs more CPU than a short statement takes to run (~0.3-1 ms
against ~0.1 ms to read the many-to-many ids of a page). Where a statement depends on one list of ids
alone, it is compiled once, with stand-in ids, and run again with the page's ids bound in
(`KeptByIds`): the list pages' rows by id (core.listsql) and what a list reads beside its rows (its
many-to-many references, a tax's rates: core.rows). A statement names tenant tables without their
schema, so one learned in one tenant reads another's rows under that tenant's search_path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections
from django.db.models import QuerySet
from django.db.models.sql.constants import MULTI

from core.listing import ids_text

# Stand-in ids for learning a statement: no row has them, and their array text is found again.
STAND_IN_IDS = [-424242, -737373]

Converters = tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]


def prepared_cursor(connection: Any) -> Any:
    """A cursor on `connection` that lets Postgres keep a statement's plan: a server-binding psycopg
    cursor, wrapped as Django wraps its own (execute wrappers, query logging).

    Django's cursors bind client-side and never prepare, so every list page was parsed and planned
    again (0.6-1.5 ms for a trigram search of the customers, more than the rows cost to read). A
    kept statement is sent here as its final text (`mogrify`, the term and values inlined as Django
    would send them): psycopg prepares a text its connection has run `prepare_threshold` times
    (settings: DATABASES OPTIONS) and then sends only its name. No parameters, so the plan Postgres
    keeps is the one it would make anyway (a generic plan cannot mis-guess a term it does not know).
    A prepared statement is parsed again when the search_path differs from its last run (PostgreSQL
    PREPARE: "if the value of search_path changes ... re-parsed"), so one tenant's plan never reads
    another's tables. The connection must be open (Django's `connection.cursor()` opens it)."""
    raw = psycopg.Cursor(connection.connection)
    return connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)


def names_of(query: Any) -> tuple[str, ...]:
    """The column names of a values() query, in the order its rows hold them (as ValuesIterable)."""
    return tuple(query.selected or (*query.extra_select, *query.values_select, *query.annotation_select))


def select_expressions(compiler: Any) -> list[Any]:
    """The expressions of a compiled query's selected columns, in order (after `as_sql()` or
    `execute_sql()`)."""
    return [s[0] for s in compiler.select[0 : compiler.col_count]]


def orm_rows(qs: QuerySet[Any]) -> tuple[tuple[str, ...], list[Any], Any]:
    """(column names, rows with their converters applied, the compiler) of a values() query, run
    through Django's compiler (the tenant's search_path, an empty `IN ()` answered without a query)."""
    compiler = qs.query.get_compiler(qs.db)
    results = compiler.execute_sql(MULTI, chunked_fetch=False)
    return names_of(qs.query), list(compiler.results_iter(results)), compiler


def converters_of(expressions: Sequence[Any], db: str = "default") -> Converters | None:
    """The field converters of a statement's columns (JSON, …); None when one is bound to this
    thread's connection (such a statement is not kept)."""
    converters = []
    connection = connections[db]
    for i, expression in enumerate(expressions):
        if connection.ops.get_db_converters(expression):
            return None
        field_converters = expression.get_db_converters(connection)
        if field_converters:
            converters.append((i, tuple(field_converters), expression))
    return tuple(converters)


def converted(found: list[Any], converters: Converters, db: str = "default") -> list[Any]:
    """Rows with their columns' converters applied (as Django's compiler applies them)."""
    if not converters or not found:
        return found
    connection = connections[db]
    out = [list(row) for row in found]
    for row in out:
        for i, field_converters, expression in converters:
            for convert in field_converters:
                row[i] = convert(row[i], expression, connection)
    return out


class KeptByIds:
    """A values() or values_list() query of a list of ids: `build(ids)` filters with
    `core.listing.AnyOf` (the ids as one array parameter). Learned on first use: compiled with
    `STAND_IN_IDS`, whose array text must be exactly one of its parameters; then each `rows(ids)`
    sends that statement with the ids bound in, on a prepared cursor. A query that cannot be kept
    (the ids not one parameter, a converter bound to the connection) runs through the ORM."""

    def __init__(self, build: Callable[[list[int]], QuerySet[Any]], db: str = "default") -> None:
        self.build = build
        self.db = db
        self.learned = False
        self.kept: tuple[str, tuple[Any, ...], int, tuple[str, ...], Converters] | None = None

    def rows(self, ids: list[int]) -> tuple[tuple[str, ...], list[Any]]:
        """(the column names, the rows: tuples or lists in that order) of the query for `ids`."""
        if not ids:
            return (self.kept[3] if self.kept else names_of(self.build(STAND_IN_IDS).query)), []
        kept = self._learn() if getattr(settings, "KIT_LIST_SQL_CACHE", True) else None
        if kept is None:
            return self._through_orm(ids)
        sql, params, ids_at, names, converters = kept
        bound = list(params)
        bound[ids_at] = ids_text(ids)
        connection = connections[self.db]
        # django-tenants sets the search_path on the cursor Django opens; the statement then runs on
        # a server-binding cursor of the same connection (see `prepared_cursor`).
        with connection.cursor() as cursor, prepared_cursor(connection) as server:
            server.execute(cursor.cursor.mogrify(sql, bound))
            found = server.fetchall()
        return names, converted(found, converters, self.db)

    def _learn(self) -> tuple[str, tuple[Any, ...], int, tuple[str, ...], Converters] | None:
        if not self.learned:
            qs = self.build(STAND_IN_IDS)
            compiler = qs.query.get_compiler(self.db)
            sql, sql_params = compiler.as_sql()
            at = [i for i, value in enumerate(sql_params) if value == ids_text(STAND_IN_IDS)]
            converters = converters_of(select_expressions(compiler), self.db)
            if len(at) == 1 and converters is not None:
                self.kept = (sql, tuple(sql_params), at[0], names_of(qs.query), converters)
            self.learned = True
        return self.kept

    def _through_orm(self, ids: list[int]) -> tuple[tuple[str, ...], list[Any]]:
        names, found, _ = orm_rows(self.build(ids).using(self.db))
        return names, found
