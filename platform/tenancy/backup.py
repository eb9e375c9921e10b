"""A company's backup and restore: its schema, its files and a manifest that proves the copy.

A backup is one archive, ``<schema>-<UTC stamp>.tar.gz``, under ``<location>/<schema>/`` (a folder,
or ``s3://bucket/prefix``; objects written with server-side encryption)::

    manifest.json     format, tenant, server and pg_dump versions, applied migrations, per table
                      its row count and an md5 of its rows, per sequence its value, per file
                      its size and sha256, and the sha256 of the dump
    schema.sql        pg_dump --schema of the tenant (plain SQL)
    files/<path>      every object under the tenant's storage prefix ``tenants/<schema>/``

The dump and the manifest's figures come from one snapshot (a REPEATABLE READ transaction whose
snapshot pg_dump joins with ``--snapshot``), so a live company's backup verifies exactly.

Restore makes a new schema and tenant (``restore_backup``): the dump is replayed under the new
schema name (names are rewritten in the DDL only, never in the data rows), the file references
``tenants/<old>/`` in text and JSON columns become ``tenants/<new>/``, every table and sequence is
checked against the manifest (rows, checksums with the file prefix normalised), every file against
its sha256 after it is written to storage, then the schema is migrated forward when the backup is
older than the code. Anything that does not match drops what was made. Only with ``replace`` does a
restore take the place of a live company with the same name, and that company is backed up first.

Tool versions: pg_dump refuses a server newer than itself, so an older pg_dump is refused with the
fix (FUELDESK_PG_BINDIR or a newer postgresql-client); a newer pg_dump may write ``SET`` lines the
server does not know (``transaction_timeout`` from 17 on), which the restore leaves out.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone
from django_tenants.utils import schema_exists

from tenancy.migration_executor import graph_migrations
from tenancy.models import LoginDirectory, Tenant
from tenancy.provisioning import RESERVED_SCHEMAS, SCHEMA_RE, public_schema, schema_name_for

log = logging.getLogger(__name__)

FORMAT = 1
ARCHIVE_RE = re.compile(r"^(?P<schema>[a-z][a-z0-9_]{0,62})-(?P<stamp>\d{8}T\d{6}Z)\.tar\.gz$")
STAMP = "%Y%m%dT%H%M%SZ"
FILE_PLACEHOLDER = "tenants/~/"


class BackupError(Exception):
    """What went wrong, in words for the operator (the commands print it)."""


# --------------------------------------------------------------------------- Postgres tools


def _db() -> dict[str, Any]:
    return dict(settings.DATABASES["default"])


def conninfo() -> str:
    db = _db()
    parts = {"dbname": db["NAME"], "user": db.get("USER"), "host": db.get("HOST"), "port": db.get("PORT")}
    if db.get("PASSWORD"):
        parts["password"] = db["PASSWORD"]
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in parts.items() if v})


def _tool(name: str) -> str:
    # The embedded Postgres (18) puts its own client tools in FUELDESK_PG_BINDIR (infra/services.py);
    # Debian's are older and pg_dump refuses a newer server.
    bindir = os.environ.get("FUELDESK_PG_BINDIR")
    if bindir and (Path(bindir) / name).exists():
        return str(Path(bindir) / name)
    found = shutil.which(name)
    if not found:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client).")
    return found


def _tool_args() -> tuple[list[str], dict[str, str]]:
    db = _db()
    args = ["--dbname", str(db["NAME"])]
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PGPASSWORD": str(db.get("PASSWORD") or "")}
    return args, env


def tool_major(name: str) -> int:
    out = subprocess.run([_tool(name), "--version"], check=True, capture_output=True, text=True)  # noqa: S603
    match = re.search(r"(\d+)(?:\.\d+)?", out.stdout)
    if not match:
        raise BackupError(f"cannot read the version of {name}: {out.stdout!r}")
    return int(match.group(1))


def server_version_num(cur: Any) -> int:
    cur.execute("SHOW server_version_num")
    return int(cur.fetchone()[0])


def check_pg_dump(server_num: int) -> int:
    """pg_dump's major version; refused when older than the server's (pg_dump would refuse anyway)."""
    major = tool_major("pg_dump")
    if major < server_num // 10000:
        raise BackupError(
            f"pg_dump {major} is older than the server (PostgreSQL {server_num // 10000}): put a "
            f"pg_dump {server_num // 10000} first on PATH or in FUELDESK_PG_BINDIR."
        )
    return major


# --------------------------------------------------------------------------- what the manifest proves


def _tables(cur: Any, schema: str) -> list[str]:
    cur.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY c.relname",
        [schema],
    )
    return [r[0] for r in cur.fetchall()]


def table_fingerprints(cur: Any, schema: str) -> dict[str, dict[str, Any]]:
    """Per table: its row count and the md5 of its rows' text in a stable order, with the schema's
    file prefix written as ``tenants/~/`` (a restored copy refers to its own files)."""
    prefix = f"tenants/{schema}/"
    out: dict[str, dict[str, Any]] = {}
    for table in _tables(cur, schema):
        cur.execute(
            f"SELECT count(*), coalesce(md5(string_agg(r, E'\\n' ORDER BY r)), '') FROM "  # noqa: S608
            f'(SELECT replace(t::text, %s, %s) AS r FROM "{schema}"."{table}" t) s',
            [prefix, FILE_PLACEHOLDER],
        )
        rows, digest = cur.fetchone()
        out[table] = {"rows": int(rows), "md5": digest}
    return out


def sequence_values(cur: Any, schema: str) -> dict[str, int | None]:
    cur.execute(
        "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = %s ORDER BY 1", [schema]
    )
    return {name: (int(v) if v is not None else None) for name, v in cur.fetchall()}


def applied_migrations(cur: Any, schema: str) -> list[str]:
    cur.execute(f'SELECT app, name FROM "{schema}".django_migrations ORDER BY app, name')  # noqa: S608
    return [f"{app}.{name}" for app, name in cur.fetchall()]


def code_migrations() -> set[str]:
    """Every migration this code knows (a migrated tenant schema records all of them, the shared
    apps' included)."""
    return {f"{app}.{name}" for app, name in graph_migrations()}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- storage


def _walk(prefix: str) -> Iterator[str]:
    """Every key under ``prefix`` (a folder of the default storage)."""
    try:
        dirs, files = default_storage.listdir(prefix)
    except (FileNotFoundError, NotADirectoryError):
        return
    for name in files:
        yield f"{prefix}{name}"
    for sub in dirs:
        yield from _walk(f"{prefix}{sub}/")


def tenant_file_keys(schema: str) -> list[str]:
    return sorted(_walk(f"tenants/{schema}/"))


# --------------------------------------------------------------------------- where backups go


@dataclass(frozen=True)
class Location:
    """A folder, or an S3 bucket and prefix (``s3://bucket/prefix``)."""

    path: str
    bucket: str = ""
    prefix: str = ""

    @classmethod
    def parse(cls, text: str | None) -> Location:
        text = text or settings.BACKUP_LOCATION
        if text.startswith("s3://"):
            bucket, _, prefix = text[5:].partition("/")
            if not bucket:
                raise BackupError(f"{text!r}: name the bucket (s3://bucket/prefix).")
            return cls(path=text, bucket=bucket, prefix=prefix.strip("/"))
        return cls(path=str(Path(text).resolve()))

    @property
    def is_s3(self) -> bool:
        return bool(self.bucket)

    def key(self, schema: str, name: str) -> str:
        return "/".join(p for p in (self.prefix, schema, name) if p)

    def url(self, schema: str, name: str) -> str:
        return (
            f"s3://{self.bucket}/{self.key(schema, name)}"
            if self.is_s3
            else str(Path(self.path) / schema / name)
        )


def s3_client() -> Any:
    import boto3

    return boto3.client(
        "s3",
        endpoint_url=settings.BACKUP_S3_ENDPOINT_URL or None,
        region_name=os.environ.get("AWS_S3_REGION_NAME") or None,
    )


def sse_args() -> dict[str, str]:
    """Backups are encrypted at rest: with the KMS key when one is named, else SSE-S3 (AES256)."""
    if settings.BACKUP_S3_KMS_KEY_ID:
        return {"ServerSideEncryption": "aws:kms", "SSEKMSKeyId": settings.BACKUP_S3_KMS_KEY_ID}
    return {"ServerSideEncryption": "AES256"}


def _store(archive: Path, location: Location, schema: str) -> str:
    if location.is_s3:
        s3_client().upload_file(
            str(archive), location.bucket, location.key(schema, archive.name), ExtraArgs=sse_args()
        )
    else:
        folder = Path(location.path) / schema
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        target = folder / archive.name
        shutil.move(str(archive), target)
        target.chmod(0o600)  # a company's whole data: readable by the service's user only
    return location.url(schema, archive.name)


def list_backups(schema: str, location: Location) -> list[str]:
    """The archive names of one company at a location, oldest first."""
    if location.is_s3:
        client = s3_client()
        names: list[str] = []
        for page in client.get_paginator("list_objects_v2").paginate(
            Bucket=location.bucket, Prefix=location.key(schema, "")
        ):
            names += [obj["Key"].rsplit("/", 1)[-1] for obj in page.get("Contents", [])]
    else:
        folder = Path(location.path) / schema
        names = [p.name for p in folder.iterdir()] if folder.is_dir() else []
    return sorted(n for n in names if (m := ARCHIVE_RE.match(n)) and m["schema"] == schema)


def prune_backups(
    schema: str, location: Location, keep_days: int, now: dt.datetime | None = None
) -> list[str]:
    """Delete the company's backups older than ``keep_days``; the newest is always kept."""
    now = now or timezone.now()
    names = list_backups(schema, location)
    doomed = []
    for name in names[:-1]:
        stamp = dt.datetime.strptime(ARCHIVE_RE.match(name)["stamp"], STAMP).replace(tzinfo=dt.UTC)  # type: ignore[index]
        if now - stamp > dt.timedelta(days=keep_days):
            doomed.append(name)
    for name in doomed:
        if location.is_s3:
            s3_client().delete_object(Bucket=location.bucket, Key=location.key(schema, name))
        else:
            (Path(location.path) / schema / name).unlink(missing_ok=True)
    return doomed


def _fetch(source: str, into: Path) -> Path:
    if source.startswith("s3://"):
        bucket, _, key = source[5:].partition("/")
        target = into / key.rsplit("/", 1)[-1]
        s3_client().download_file(bucket, key, str(target))
        return target
    path = Path(source)
    if not path.is_file():
        raise BackupError(f"{source}: no such backup file.")
    return path


# --------------------------------------------------------------------------- backup


def backup_schema(tenant: Tenant, to: str | None = None) -> str:
    """Write a backup of ``tenant`` to ``to`` (a folder or s3://bucket/prefix; default
    BACKUP_LOCATION); answers where it went."""
    schema = str(tenant.schema_name)
    location = Location.parse(to)
    with tempfile.TemporaryDirectory(prefix="fd-backup-") as tmp:
        work = Path(tmp)
        manifest = _dump(tenant, work)
        manifest["files"] = _copy_files(schema, work / "files")
        (work / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
        stamp = timezone.now().strftime(STAMP)
        archive = work / f"{schema}-{stamp}.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            for name in ("manifest.json", "schema.sql", "files"):
                if (work / name).exists():
                    tar.add(work / name, arcname=name)
        where = _store(archive, location, schema)
    log.info("backup of %s written to %s", schema, where)
    return where


def _dump(tenant: Tenant, work: Path) -> dict[str, Any]:
    schema = str(tenant.schema_name)
    if not schema_exists(schema):
        raise BackupError(f"{schema}: the schema does not exist.")
    sql = work / "schema.sql"
    with psycopg.connect(conninfo(), autocommit=False) as conn, conn.cursor() as cur:
        # One snapshot for the dump and the figures: a live company's backup still verifies.
        cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cur.execute("SELECT pg_export_snapshot()")
        snapshot = cur.fetchone()[0]  # type: ignore[index]
        server_num = server_version_num(cur)
        dump_major = check_pg_dump(server_num)
        args, env = _tool_args()
        cmd = [_tool("pg_dump"), "--no-owner", "--no-privileges", "--snapshot", snapshot]
        cmd += ["--schema", schema, "--file", str(sql), *args]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)  # noqa: S603
        if done.returncode != 0:
            raise BackupError(f"pg_dump failed: {done.stderr.strip()[-2000:]}")
        manifest = {
            "format": FORMAT,
            "created_at": timezone.now().isoformat(),
            "tenant": {
                "schema": schema,
                "name": tenant.name,
                "slug": tenant.slug,
                "status": tenant.status,
                "created_at": tenant.created_at.isoformat() if tenant.created_at else None,
            },
            "server_version_num": server_num,
            "pg_dump_major": dump_major,
            "migrations": applied_migrations(cur, schema),
            "tables": table_fingerprints(cur, schema),
            "sequences": sequence_values(cur, schema),
            "dump_sha256": _sha256(sql.read_bytes()),
        }
        conn.rollback()
    return manifest


def _copy_files(schema: str, into: Path) -> list[dict[str, Any]]:
    prefix = f"tenants/{schema}/"
    listed = []
    for key in tenant_file_keys(schema):
        with default_storage.open(key, "rb") as fh:
            data = fh.read()
        rel = key.removeprefix(prefix)
        target = into / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        listed.append({"path": rel, "size": len(data), "sha256": _sha256(data)})
    return listed


# --------------------------------------------------------------------------- restore


@dataclass
class Restored:
    tenant: Tenant
    tables: int = 0
    rows: int = 0
    files: int = 0
    migrated: list[str] = field(default_factory=list)
    logins_skipped: list[str] = field(default_factory=list)
    replaced: str = ""  # where the replaced company's backup went


_COPY_START = re.compile(r"^COPY .* FROM stdin;$")


def renamed_dump(text: str, old: str, new: str, known_settings: set[str]) -> str:
    """The dump with schema ``old`` renamed ``new`` in its statements; COPY data rows untouched.
    ``SET`` lines of parameters this server does not know (a newer pg_dump's) are left out."""
    word = re.compile(rf"(?<![A-Za-z0-9_$]){re.escape(old)}(?![A-Za-z0-9_$])")
    set_line = re.compile(r"^SET ([a-z_.]+) = .*;$")
    out: list[str] = []
    in_data = False
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\n")
        if in_data:
            out.append(line)
            if stripped == "\\.":
                in_data = False
            continue
        if (m := set_line.match(stripped)) and m.group(1) not in known_settings:
            continue
        if _COPY_START.match(stripped):
            in_data = True
        out.append(word.sub(new, line))
    return "".join(out)


def _rewrite_file_prefix(cur: Any, schema: str, old: str) -> None:
    """Rows refer to files by key (``tenants/<schema>/…``), in text and JSON columns."""
    old_prefix, new_prefix = f"tenants/{old}/", f"tenants/{schema}/"
    cur.execute(
        "SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c "
        "JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
        "WHERE c.table_schema = %s AND t.table_type = 'BASE TABLE' "
        "AND c.data_type IN ('text', 'character varying', 'json', 'jsonb')",
        [schema],
    )
    for table, column, data_type in cur.fetchall():
        cast = {"json": "::json", "jsonb": "::jsonb"}.get(data_type, "")
        cur.execute(
            f'UPDATE "{schema}"."{table}" SET "{column}" = replace("{column}"::text, %s, %s){cast} '  # noqa: S608
            f'WHERE strpos("{column}"::text, %s) > 0',
            [old_prefix, new_prefix, old_prefix],
        )


def _read_archive(path: Path, into: Path) -> dict[str, Any]:
    with tarfile.open(path, "r:gz") as tar:
        tar.extractall(into, filter="data")
    manifest_path = into / "manifest.json"
    if not manifest_path.exists():
        raise BackupError(f"{path.name}: not a FuelDesk backup (no manifest.json).")
    manifest: dict[str, Any] = json.loads(manifest_path.read_text())
    if manifest.get("format") != FORMAT:
        raise BackupError(f"{path.name}: backup format {manifest.get('format')} is not known to this code.")
    if _sha256((into / "schema.sql").read_bytes()) != manifest["dump_sha256"]:
        raise BackupError(f"{path.name}: the dump does not match its manifest (damaged archive).")
    return manifest


def _verify_tables(cur: Any, schema: str, manifest: dict[str, Any]) -> list[str]:
    problems = []
    found = table_fingerprints(cur, schema)
    expected: dict[str, dict[str, Any]] = manifest["tables"]
    for table in sorted(set(expected) | set(found)):
        if table not in found:
            problems.append(f"table {table} is missing")
        elif table not in expected:
            problems.append(f"table {table} is not in the backup")
        elif found[table] != expected[table]:
            problems.append(f"table {table}: {found[table]} restored, {expected[table]} backed up")
    sequences = sequence_values(cur, schema)
    if sequences != manifest["sequences"]:
        problems.append(f"sequences differ: {sequences} restored, {manifest['sequences']} backed up")
    return problems


def restore_backup(source: str, *, as_name: str, replace: bool = False) -> Restored:
    """Restore the backup at ``source`` (a file or s3://bucket/key) as a new company ``as_name``.

    A live company of that name is refused unless ``replace``: then it is backed up, deleted, and
    the restored one takes its name (and its logins)."""
    as_name = as_name.strip()
    if not as_name:
        raise BackupError("Name the restored company (--as).")
    live = Tenant.objects.filter(name__iexact=as_name, status__in=["active", "suspended"]).first()
    if live is not None and not replace:
        raise BackupError(
            f"A live company is named {live.name!r} ({live.schema_name}): restore under another name, "
            "or pass --replace to take its place."
        )
    with tempfile.TemporaryDirectory(prefix="fd-restore-") as tmp:
        work = Path(tmp)
        manifest = _read_archive(_fetch(source, work), work / "x")
        unknown = sorted(set(manifest["migrations"]) - code_migrations())
        if unknown:
            raise BackupError(
                "The backup was made by newer code (unknown migrations: "
                f"{', '.join(unknown[:5])}{'…' if len(unknown) > 5 else ''}): deploy that code first."
            )
        old = str(manifest["tenant"]["schema"])
        schema = schema_name_for(as_name)
        if not SCHEMA_RE.match(old) or old in RESERVED_SCHEMAS:
            raise BackupError(f"the backup names an invalid schema {old!r}")
        made_files: list[str] = []
        tenant: Tenant | None = None
        try:
            tables = _restore_sql(work / "x", manifest, old, schema)
            made_files = _restore_files(work / "x", manifest, schema)
            with public_schema():
                tenant = Tenant(
                    schema_name=schema,
                    name=f"{as_name} (restoring {schema})"[:200],
                    slug=manifest["tenant"].get("slug", "")[:80],
                    status=Tenant.Status.SUSPENDED,
                )
                tenant.auto_create_schema = False
                tenant.save(verbosity=0)
            missing = sorted(code_migrations() - set(manifest["migrations"]))
            if missing:
                call_command("migrate_schemas", schema_name=schema, interactive=False, verbosity=0)
            result = Restored(tenant=tenant, tables=tables, migrated=missing, files=len(made_files))
            result.rows = sum(int(t["rows"]) for t in manifest["tables"].values())
            _finish(result, as_name=as_name, live=live)
        except BaseException:
            _undo(schema, tenant, made_files)
            raise
    return result


def _restore_sql(folder: Path, manifest: dict[str, Any], old: str, schema: str) -> int:
    with psycopg.connect(conninfo(), autocommit=True) as conn, conn.cursor() as cur:
        cur.execute("SELECT name FROM pg_settings")
        known = {r[0] for r in cur.fetchall()}
        if schema_exists(schema):
            raise BackupError(f"schema {schema} already exists")
        renamed = folder / "restore.sql"
        renamed.write_text(renamed_dump((folder / "schema.sql").read_text(), old, schema, known))
        args, env = _tool_args()
        cmd = [_tool("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-f", str(renamed)]
        done = subprocess.run([*cmd, *args], env=env, capture_output=True, text=True, timeout=3600)  # noqa: S603
        if done.returncode != 0:
            raise BackupError(f"the dump did not restore: {done.stderr.strip()[-2000:]}")
        with conn.transaction():
            _rewrite_file_prefix(cur, schema, old)
            problems = _verify_tables(cur, schema, manifest)
            if problems:
                raise BackupError("The restored data does not match the backup: " + "; ".join(problems[:10]))
        return len(manifest["tables"])


def _restore_files(folder: Path, manifest: dict[str, Any], schema: str) -> list[str]:
    made = []
    for item in manifest["files"]:
        rel = str(item["path"])
        if ".." in rel.split("/") or rel.startswith("/"):
            raise BackupError(f"unsafe file path in the backup: {rel!r}")
        source = folder / "files" / rel
        data = source.read_bytes() if source.is_file() else b""
        if not source.is_file() or _sha256(data) != item["sha256"]:
            raise BackupError(f"file {rel} is missing from the archive or damaged")
        key = f"tenants/{schema}/{rel}"
        saved = default_storage.save(key, ContentFile(data))
        made.append(saved)
        with default_storage.open(saved, "rb") as fh:
            back = fh.read()
        if saved != key or _sha256(back) != item["sha256"]:
            raise BackupError(f"file {rel} was not stored back intact (as {saved})")
    return made


def _finish(result: Restored, *, as_name: str, live: Tenant | None) -> None:
    tenant = result.tenant
    if live is not None:
        # The company restored over is backed up before it goes (as tenant_delete does).
        result.replaced = backup_schema(live)
        with public_schema():
            live.delete(force_drop=True)
    with public_schema(), transaction.atomic():
        tenant.name = as_name
        tenant.status = Tenant.Status.ACTIVE
        tenant.save(update_fields=["name", "status"])
        with connection.cursor() as cur:
            cur.execute(f'SELECT id, lower(email), lower(username) FROM "{tenant.schema_name}".accounts_user')  # noqa: S608
            users = cur.fetchall()
        for user_id, email, username in users:
            taken = LoginDirectory.objects.filter(email=email).exists() or (
                username and LoginDirectory.objects.filter(username=username).exists()
            )
            if taken:
                result.logins_skipped.append(email)
                continue
            LoginDirectory.objects.create(
                tenant=tenant, user_id=user_id, email=email, username=username or None
            )


def _undo(schema: str, tenant: Tenant | None, files: list[str]) -> None:
    try:
        with public_schema():
            if tenant is not None and tenant.pk:
                LoginDirectory.objects.filter(tenant=tenant).delete()
                Tenant.objects.filter(pk=tenant.pk).delete()
            with connection.cursor() as cur:
                cur.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        for key in files:
            default_storage.delete(key)
    except Exception:
        log.exception("could not undo the failed restore of %s", schema)


def read_manifest_of(source: str) -> dict[str, Any]:
    """The manifest of a backup, without restoring it."""
    with (
        tempfile.TemporaryDirectory(prefix="fd-manifest-") as tmp,
        tarfile.open(_fetch(source, Path(tmp))) as tar,
    ):
        member = tar.extractfile("manifest.json")
        if member is None:
            raise BackupError(f"{source}: not a FuelDesk backup (no manifest.json).")
        manifest: dict[str, Any] = json.loads(member.read())
    return manifest
