"""Tenant schemas from the template: the template itself, its DDL replayed under a new name, the spare pool.

django-tenants' clone function introspects the catalog through views that read every schema of the
database, so its cost grows with the number of tenants (0.4 s with a few schemas, 20 s at 130).
Here the template's DDL is generated once per migration state (the set of migrations applied to the
template), kept in the public schema (`TemplateDDL`), and replayed with the new schema's name in one
statement batch: its cost does not depend on how many schemas exist.

The generator reads the catalog of the template's namespace only (tables, columns, identity and
other sequences, constraints, indexes, comments) and refuses what it cannot replay (views,
functions, types, triggers, policies, inheritance...); provisioning then falls back to
django-tenants' clone, with a warning in the log. Rows the template holds (its migration history,
and whatever a data migration seeds there) are copied from the live template at replay time, and
each key sequence continues after them.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils.text import slugify

from tenancy.models import TemplateDDL, Tenant

log = logging.getLogger(__name__)
TEMPLATE_SCHEMA: str = settings.TENANT_BASE_SCHEMA
SCHEMA_RE = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
RESERVED_SCHEMAS = {"public", TEMPLATE_SCHEMA, "information_schema"}


def schema_name_for(company_name: str) -> str:
    """`t_<slug>_<random>`: lower-case ASCII, ≤ 63 chars, never user text interpolated into SQL."""
    slug = slugify(company_name).replace("-", "_")[:40].strip("_") or "company"
    name = f"t_{slug}_{secrets.token_hex(3)}"
    assert SCHEMA_RE.match(name), name
    return name


# Bump when the generator's output changes: older cached DDL is then ignored.
GENERATOR_VERSION = 3
PLACEHOLDER = "@@schema@@"
CACHE_ROWS_KEPT = 5
# In-process memo of the latest DDL (key → body): one query per provisioning decides if it is current.
_memo: dict[str, dict[str, Any]] = {}


class TemplateNotReplayable(Exception):
    """The template holds an object the DDL generator does not know how to recreate."""


def qi(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@contextmanager
def public_schema() -> Iterator[None]:
    previous = getattr(connection, "tenant", None)
    connection.set_schema_to_public()
    try:
        yield
    finally:
        if previous is not None and getattr(previous, "schema_name", "public") != "public":
            connection.set_tenant(previous)
        else:
            connection.set_schema_to_public()


def ensure_template() -> Tenant:
    """The template is a Tenant row too, so `migrate_schemas` keeps it (and every spare) current."""
    with public_schema():
        template = Tenant.objects.filter(schema_name=TEMPLATE_SCHEMA).first()
        if template is None:
            template = Tenant(schema_name=TEMPLATE_SCHEMA, name="Template", status=Tenant.Status.TEMPLATE)
            template.save(verbosity=0)  # no base schema exists yet for it: it runs its migrations
        return template


def template_row_counts() -> dict[str, int]:
    """Rows per table in the template, other than the migration history."""
    counts: dict[str, int] = {}
    with connection.cursor() as cur:
        cur.execute(
            "SELECT c.relname FROM pg_class c WHERE c.relnamespace = %s::regnamespace AND c.relkind = 'r'",
            [TEMPLATE_SCHEMA],
        )
        for (table,) in cur.fetchall():
            if table == "django_migrations":
                continue
            cur.execute(f"SELECT count(*) FROM {qi(TEMPLATE_SCHEMA)}.{qi(table)}")  # noqa: S608 - catalog names
            counts[table] = cur.fetchone()[0]
    return counts


# --------------------------------------------------------------------------- DDL generation


def migration_state_key(schema: str = TEMPLATE_SCHEMA) -> str:
    """A digest of the migrations applied to `schema` (and of the generator and server versions)."""
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT coalesce(string_agg(app || '.' || name, ',' ORDER BY app, name), ''),"  # noqa: S608
            f" current_setting('server_version_num') FROM {qi(schema)}.django_migrations"
        )
        applied, server = cur.fetchone()
    return hashlib.sha256(f"v{GENERATOR_VERSION}|{server}|{applied}".encode()).hexdigest()


def _unsupported(cur: Any, ns: int) -> list[str]:
    checks = {
        "views, materialized views, foreign or partitioned tables": """
            SELECT relname FROM pg_class WHERE relnamespace = %(ns)s AND relkind IN ('v', 'm', 'f', 'p')""",
        "functions or procedures": "SELECT proname FROM pg_proc WHERE pronamespace = %(ns)s",
        "types other than table row types": """
            SELECT t.typname FROM pg_type t LEFT JOIN pg_class c ON c.oid = t.typrelid
            WHERE t.typnamespace = %(ns)s AND (t.typtype IN ('d', 'e', 'r', 'm')
                  OR (t.typtype = 'c' AND c.relkind = 'c'))""",
        "collations": "SELECT collname FROM pg_collation WHERE collnamespace = %(ns)s",
        "operators": "SELECT oprname FROM pg_operator WHERE oprnamespace = %(ns)s",
        "triggers": """
            SELECT tgname FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
            WHERE c.relnamespace = %(ns)s AND NOT tg.tgisinternal""",
        "row-level security": """
            SELECT relname FROM pg_class
            WHERE relnamespace = %(ns)s AND (relrowsecurity OR relforcerowsecurity)""",
        "policies": """
            SELECT polname FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
            WHERE c.relnamespace = %(ns)s""",
        "table inheritance": """
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE c.relnamespace = %(ns)s""",
        "rules": """
            SELECT rulename FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
            WHERE c.relnamespace = %(ns)s AND c.relkind = 'r'""",
        "extended statistics": "SELECT stxname FROM pg_statistic_ext WHERE stxnamespace = %(ns)s",
    }
    found = []
    for what, sql in checks.items():
        cur.execute(sql, {"ns": ns})
        names = [r[0] for r in cur.fetchall()]
        if names:
            found.append(f"{what}: {', '.join(sorted(names)[:5])}")
    return found


def _seq_options(row: dict[str, Any]) -> str:
    return (
        f"START WITH {row['seqstart']} INCREMENT BY {row['seqincrement']}"
        f" MINVALUE {row['seqmin']} MAXVALUE {row['seqmax']} CACHE {row['seqcache']}"
        f"{' CYCLE' if row['seqcycle'] else ' NO CYCLE'}"
    )


def _rows(cur: Any, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cur.execute(sql, params)
    names = [c.name for c in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def generate_template_ddl(schema: str = TEMPLATE_SCHEMA) -> dict[str, Any]:
    """The DDL of `schema` with its name replaced by a placeholder, in replay order.

    Generated with `search_path = pg_catalog`, so every name the catalog functions print outside
    pg_catalog is schema-qualified: the template's own names (then replaced by the placeholder) and
    the public schema's (pg_trgm's operator classes, the tenant registry) alike.
    """
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("SELECT current_setting('search_path'), %s::regnamespace::oid", [schema])
        search_path, ns = cur.fetchone()
        cur.execute("SET LOCAL search_path TO pg_catalog")
        problems = _unsupported(cur, ns)
        if problems:
            raise TemplateNotReplayable("; ".join(problems))
        p = {"ns": ns}
        tables = _rows(
            cur,
            """SELECT c.oid, c.relname, c.relpersistence, c.reloptions FROM pg_class c
               WHERE c.relnamespace = %(ns)s AND c.relkind = 'r' ORDER BY c.relname""",
            p,
        )
        columns = _rows(
            cur,
            """SELECT a.attrelid, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull,
                      pg_get_expr(d.adbin, d.adrelid) AS default, a.attidentity, a.attgenerated,
                      CASE WHEN a.attcollation <> t.typcollation
                           THEN quote_ident(cn.nspname) || '.' || quote_ident(co.collname) END AS collation
               FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
               JOIN pg_type t ON t.oid = a.atttypid
               LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
               LEFT JOIN pg_collation co ON co.oid = a.attcollation
               LEFT JOIN pg_namespace cn ON cn.oid = co.collnamespace
               WHERE c.relnamespace = %(ns)s AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
               ORDER BY a.attrelid, a.attnum""",
            p,
        )
        sequences = _rows(
            cur,
            """SELECT s.oid, s.relname, format_type(q.seqtypid, NULL) AS type, q.seqstart, q.seqincrement,
                      q.seqmin, q.seqmax, q.seqcache, q.seqcycle, dep.deptype,
                      owner.relname AS owner_table, att.attname AS owner_column
               FROM pg_class s JOIN pg_sequence q ON q.seqrelid = s.oid
               LEFT JOIN pg_depend dep ON dep.classid = 'pg_class'::regclass AND dep.objid = s.oid
                    AND dep.refclassid = 'pg_class'::regclass AND dep.deptype IN ('a', 'i')
               LEFT JOIN pg_class owner ON owner.oid = dep.refobjid
               LEFT JOIN pg_attribute att ON att.attrelid = dep.refobjid AND att.attnum = dep.refobjsubid
               WHERE s.relnamespace = %(ns)s AND s.relkind = 'S' ORDER BY s.relname""",
            p,
        )
        constraints = _rows(
            cur,
            """SELECT cl.relname, con.conname, con.contype, pg_get_constraintdef(con.oid) AS def, con.oid
               FROM pg_constraint con JOIN pg_class cl ON cl.oid = con.conrelid
               WHERE cl.relnamespace = %(ns)s
               ORDER BY con.contype = 'f', cl.relname, con.conname""",
            p,
        )
        indexes = _rows(
            cur,
            """SELECT ic.relname, pg_get_indexdef(i.indexrelid) AS def
               FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class c ON c.oid = i.indrelid
               WHERE c.relnamespace = %(ns)s AND NOT EXISTS (
                   SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid
                   AND con.conrelid = i.indrelid AND con.contype IN ('p', 'u', 'x'))
               ORDER BY ic.relname""",
            p,
        )
        comments = _rows(
            cur,
            """SELECT c.relname, c.relkind, a.attname, d.description FROM pg_description d
               JOIN pg_class c ON c.oid = d.objoid AND d.classoid = 'pg_class'::regclass
               LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.objsubid AND d.objsubid > 0
               WHERE c.relnamespace = %(ns)s ORDER BY 1, 3""",
            p,
        )
        constraint_comments = _rows(
            cur,
            """SELECT cl.relname, con.conname, d.description FROM pg_description d
               JOIN pg_constraint con ON con.oid = d.objoid AND d.classoid = 'pg_constraint'::regclass
               JOIN pg_class cl ON cl.oid = con.conrelid WHERE cl.relnamespace = %(ns)s""",
            p,
        )
        cur.execute("SELECT set_config('search_path', %s, true)", [search_path])

    s = PLACEHOLDER
    identity = {(q["owner_table"], q["owner_column"]): q for q in sequences if q["deptype"] == "i"}
    pre: list[str] = [f"CREATE SCHEMA {s}"]
    for q in sequences:
        if q["deptype"] != "i":
            pre.append(f"CREATE SEQUENCE {s}.{qi(q['relname'])} AS {q['type']} {_seq_options(q)}")
    cols_by_table: dict[int, list[dict[str, Any]]] = {}
    for c in columns:
        cols_by_table.setdefault(c["attrelid"], []).append(c)
    copy: dict[str, list[str]] = {}
    for t in tables:
        parts = []
        for c in cols_by_table.get(t["oid"], []):
            col = f"{qi(c['attname'])} {c['type']}"
            if c["collation"]:
                col += f" COLLATE {c['collation']}"
            if c["attgenerated"] == "s":
                col += f" GENERATED ALWAYS AS ({c['default']}) STORED"
            elif c["default"] is not None:
                col += f" DEFAULT {c['default']}"
            if c["attidentity"] in ("a", "d"):
                q = identity[(t["relname"], c["attname"])]
                how = "ALWAYS" if c["attidentity"] == "a" else "BY DEFAULT"
                col += (
                    f" GENERATED {how} AS IDENTITY (SEQUENCE NAME {s}.{qi(q['relname'])} {_seq_options(q)})"
                )
            if c["attnotnull"]:
                col += " NOT NULL"
            parts.append(col)
        # Keys, unique and check constraints inline (one statement per table); foreign keys later.
        parts += [
            f"CONSTRAINT {qi(con['conname'])} {con['def']}"
            for con in constraints
            if con["relname"] == t["relname"] and con["contype"] != "f"
        ]
        unlogged = "UNLOGGED " if t["relpersistence"] == "u" else ""
        options = f" WITH ({', '.join(t['reloptions'])})" if t["reloptions"] else ""
        pre.append(f"CREATE {unlogged}TABLE {s}.{qi(t['relname'])} ({', '.join(parts)}){options}")
        copy[t["relname"]] = [c["attname"] for c in cols_by_table.get(t["oid"], []) if not c["attgenerated"]]
    for q in sequences:
        if q["deptype"] == "a":
            pre.append(
                f"ALTER SEQUENCE {s}.{qi(q['relname'])}"
                f" OWNED BY {s}.{qi(q['owner_table'])}.{qi(q['owner_column'])}"
            )
    # Indexes after the rows are copied (as pg_dump orders them); foreign keys last, one ALTER per table.
    post: list[str] = [ix["def"] for ix in indexes]
    foreign: dict[str, list[str]] = {}
    for con in constraints:
        if con["contype"] == "f":
            foreign.setdefault(con["relname"], []).append(f"ADD CONSTRAINT {qi(con['conname'])} {con['def']}")
    post += [f"ALTER TABLE {s}.{qi(table)} {', '.join(adds)}" for table, adds in foreign.items()]
    for d in comments:
        kind = {"r": "TABLE", "i": "INDEX", "S": "SEQUENCE"}.get(d["relkind"])
        if kind is None:
            continue
        target = f"{s}.{qi(d['relname'])}"
        if d["attname"]:
            kind, target = "COLUMN", f"{target}.{qi(d['attname'])}"
        post.append(f"COMMENT ON {kind} {target} IS {_literal(d['description'])}")
    for d in constraint_comments:
        on = f"{qi(d['conname'])} ON {s}.{qi(d['relname'])}"
        post.append(f"COMMENT ON CONSTRAINT {on} IS {_literal(d['description'])}")
    pattern = re.compile(rf'(?<![\w"$])(?:{re.escape(schema)}|"{re.escape(schema)}")\.')
    return {
        "pre": [pattern.sub(f"{s}.", x) for x in pre],
        "post": [pattern.sub(f"{s}.", x) for x in post],
        "copy": copy,
        # An owned sequence continues after the rows copied (or starts afresh when there are none,
        # even if a rolled-back insert advanced the template's); a free-standing one keeps its state.
        "sequences": [
            {"name": q["relname"], "table": q["owner_table"], "column": q["owner_column"]} for q in sequences
        ],
    }


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def template_ddl() -> tuple[str, dict[str, Any]]:
    """The template's DDL for its current migration state: memo, then the public cache, then generated."""
    key = migration_state_key()
    if key in _memo:
        return key, _memo[key]
    with public_schema():
        cached = TemplateDDL.objects.filter(key=key).values_list("body", flat=True).first()
        if cached is None:
            cached = generate_template_ddl()
            with transaction.atomic():
                TemplateDDL.objects.bulk_create([TemplateDDL(key=key, body=cached)], ignore_conflicts=True)
                keep = TemplateDDL.objects.order_by("-created_at", "-id").values_list("id", flat=True)
                TemplateDDL.objects.exclude(id__in=list(keep[:CACHE_ROWS_KEPT])).delete()
    _memo.clear()
    _memo[key] = cached
    return key, cached


def replay_sql(body: dict[str, Any], new_schema: str) -> str:
    """One batch: schema, sequences, tables, keys; the template's rows and sequence states; indexes, FKs."""
    target, source = qi(new_schema), qi(TEMPLATE_SCHEMA)
    stmts = [x.replace(PLACEHOLDER, target) for x in body["pre"]]
    for table, cols in body["copy"].items():
        names = ", ".join(qi(c) for c in cols)
        stmts.append(
            f"INSERT INTO {target}.{qi(table)} ({names}) OVERRIDING SYSTEM VALUE"  # noqa: S608 - catalog names
            f" SELECT {names} FROM {source}.{qi(table)}"
        )
    for seq in body["sequences"]:
        name = f"'{target}.{qi(seq['name'])}'"
        if seq["table"]:
            stmts.append(
                f"SELECT pg_catalog.setval({name}, max({qi(seq['column'])}))"  # noqa: S608 - catalog names
                f" FROM {target}.{qi(seq['table'])} HAVING max({qi(seq['column'])}) IS NOT NULL"
            )
        else:
            stmts.append(
                f"SELECT pg_catalog.setval({name}, last_value, is_called)"  # noqa: S608
                f" FROM {source}.{qi(seq['name'])}"
            )
    stmts += [x.replace(PLACEHOLDER, target) for x in body["post"]]
    return ";\n".join(stmts) + ";"


def clone_template(new_schema: str) -> None:
    """Create `new_schema` as a copy of the template: structure, migration history, template rows."""
    if not SCHEMA_RE.match(new_schema) or new_schema in RESERVED_SCHEMAS:
        raise ValueError(f"invalid schema name {new_schema!r}")
    for _attempt in range(3):
        try:
            key, body = template_ddl()
        except TemplateNotReplayable as exc:
            log.warning("the template cannot be replayed (%s): cloning with django-tenants", exc)
            _clone_with_django_tenants(new_schema)
            return
        try:
            with transaction.atomic():
                with connection.cursor() as cur:
                    cur.execute(replay_sql(body, new_schema))
                # The template's migration state may have moved between reading the key and copying
                # its history (a deploy migrating it): the copy is only kept if it matches the DDL.
                if migration_state_key(new_schema) == key:
                    return
                transaction.set_rollback(True)
        except DatabaseError:
            # A generator bug must not stop signups: the slow path still works (the tests forbid it).
            log.exception("replaying the template's DDL into %s failed: cloning instead", new_schema)
            _clone_with_django_tenants(new_schema)
            return
        _memo.clear()
    raise RuntimeError("the template's migrations kept changing while a schema was being created")


def _clone_with_django_tenants(new_schema: str) -> None:
    from django_tenants.clone import CloneSchema

    # DATA mode copies the migration history with the tables.
    CloneSchema().clone_schema(TEMPLATE_SCHEMA, new_schema, "DATA", set_connection=False)
    repair_constraint_names(TEMPLATE_SCHEMA, new_schema)


_CONSTRAINTS_SQL = """
    SELECT cl.relname, con.conname, pg_get_constraintdef(con.oid)
    FROM pg_constraint con JOIN pg_class cl ON cl.oid = con.conrelid
    JOIN pg_namespace ns ON ns.oid = cl.relnamespace WHERE ns.nspname = %s"""


def repair_constraint_names(template: str, clone: str) -> int:
    """django-tenants' clone recreates some UNIQUE constraints under Postgres's default names
    (`…_key`) rather than Django's (`…_uniq`); a later migration that drops one by name would then
    fail on cloned tenants only. Give every constraint of the clone its template name back.
    (The DDL replay keeps every name by construction; this serves the fallback only.)"""
    renamed = 0
    with connection.cursor() as cur:
        cur.execute(_CONSTRAINTS_SQL, [template])
        wanted = {(t, d.replace(f"{template}.", "")): n for t, n, d in cur.fetchall()}
        cur.execute(_CONSTRAINTS_SQL, [clone])
        have = cur.fetchall()
        have_names = {(t, n) for t, n, _ in have}
        for table, name, definition in have:
            target = wanted.get((table, definition.replace(f"{clone}.", "")))
            if target and target != name and (table, target) not in have_names:
                cur.execute(f'ALTER TABLE "{clone}"."{table}" RENAME CONSTRAINT "{name}" TO "{target}"')
                renamed += 1
    return renamed


# --------------------------------------------------------------------------- spare pool


def create_spare() -> Tenant:
    ensure_template()
    name = f"spare_{secrets.token_hex(6)}"
    with public_schema(), transaction.atomic():
        clone_template(name)
        spare = Tenant(schema_name=name, name=name, status=Tenant.Status.SPARE)
        spare.auto_create_schema = False
        spare.save(verbosity=0)
    return spare


def refill_spares(target: int | None = None) -> int:
    target = settings.SPARE_SCHEMA_POOL_SIZE if target is None else target
    made = 0
    while Tenant.objects.filter(status=Tenant.Status.SPARE).count() < target:
        create_spare()
        made += 1
    return made
