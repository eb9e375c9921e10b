"""Backup and restore of a company (tenancy/backup.py): a round trip compares every table, sequence and
file of the original with the restored copy; a backup older than the code is migrated forward; the
backup tenant_delete writes first restores; a damaged backup is refused and leaves nothing behind;
S3 (moto's server) with server-side encryption and retention."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tarfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test import override_settings
from django_tenants.utils import schema_exists

from tenancy import backup
from tenancy.models import LoginDirectory, Tenant
from tenancy.services import provision_tenant

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde"
    b"\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND"
    b"\xaeB`\x82"
)


@pytest.fixture
def committed(django_db_setup: Any, django_db_blocker: Any) -> Iterator[list[Tenant]]:
    """Companies committed for real (pg_dump reads through its own connection); deleted afterwards."""
    made: list[Tenant] = []
    with django_db_blocker.unblock():
        yield made
        connection.set_schema_to_public()
        for t in Tenant.objects.filter(pk__in=[t.pk for t in made if t.pk]):
            LoginDirectory.objects.filter(tenant=t).delete()
            t.delete(force_drop=True)


def _company(made: list[Tenant], name: str) -> Tenant:
    tenant, _ = provision_tenant(
        company_name=name,
        admin_email=f"admin-{uuid.uuid4().hex[:8]}@backup.test",
        admin_name="Backup Admin",
        admin_password="Correct-Horse-42",
        use_pool=False,
    )
    made.append(tenant)
    return tenant


def _fill(tenant: Tenant) -> list[str]:
    """The demo company's data (every domain's rows) and files referenced from rows (a logo in a JSON
    column, an import's file_key in a text column, an attachment nobody refers to)."""
    from core.storage import save_upload
    from fueldesk.management.commands.seed_demo import Command as SeedDemo

    from tenants.company.models import CompanySettings
    from tenants.imports.models import DataImport

    connection.set_tenant(tenant)
    try:
        with transaction.atomic():
            SeedDemo()._seed()
            logo = save_upload(SimpleUploadedFile("logo.png", PNG), "logo")
            sheet = save_upload(SimpleUploadedFile("customers.csv", b"name\nAcme\n"), "import")
            note = save_upload(SimpleUploadedFile("note.txt", b"keep me"), "attachment")
            settings_row = CompanySettings.objects.first() or CompanySettings.objects.create()
            settings_row.logo = [{"file_key": logo.file_key, "file_url": logo.file_url}]
            settings_row.save()
            DataImport.objects.create(resource="customer", file_key=sheet.file_key, file_name="customers.csv")
        return [logo.file_key, sheet.file_key, note.file_key]
    finally:
        connection.set_schema_to_public()


def _state(schema: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, bytes]]:
    with psycopg.connect(backup.conninfo()) as conn, conn.cursor() as cur:
        tables = backup.table_fingerprints(cur, schema)
        sequences = backup.sequence_values(cur, schema)
    prefix = f"tenants/{schema}/"
    files = {}
    for key in backup.tenant_file_keys(schema):
        with default_storage.open(key, "rb") as fh:
            files[key.removeprefix(prefix)] = fh.read()
    return tables, sequences, files


def test_round_trip_restores_every_row_sequence_and_file_as_another_company(committed, tmp_path):
    original = _company(committed, f"Round Trip {uuid.uuid4().hex[:4]}")
    keys = _fill(original)
    before = _state(original.schema_name)
    assert sum(t["rows"] for t in before[0].values()) > 100 and len(before[2]) == 3

    call_command("tenant_backup", original.schema_name, "--to", str(tmp_path))
    [archive] = list((tmp_path / original.schema_name).glob("*.tar.gz"))
    assert archive.stat().st_mode & 0o077 == 0  # readable by the service's user only

    call_command("tenant_restore", str(archive), "--as", "Round Trip Copy")
    copy = Tenant.objects.get(name="Round Trip Copy", status="active")
    committed.append(copy)
    assert copy.schema_name != original.schema_name
    after = _state(copy.schema_name)
    assert after[0] == before[0]  # every table: row count and checksum (file prefix normalised)
    assert after[1] == before[1]  # every sequence continues where it was
    assert after[2] == before[2]  # every file, byte for byte, under the copy's own prefix

    # Rows refer to the copy's files, which open in the copy.
    from core.storage import open_tenant_file

    from tenants.company.models import CompanySettings

    connection.set_tenant(copy)
    logo = CompanySettings.objects.first().logo[0]  # type: ignore[union-attr]
    assert logo["file_key"] == keys[0].replace(original.schema_name, copy.schema_name)
    assert open_tenant_file(logo["file_key"])[0] == PNG
    connection.set_schema_to_public()
    # The original keeps its logins; the copy's users (same emails) are not given them.
    assert LoginDirectory.objects.filter(tenant=copy).count() == 0
    assert LoginDirectory.objects.filter(tenant=original).count() >= 1


def test_a_backup_older_than_the_code_is_migrated_forward(committed, tmp_path):
    old = _company(committed, f"Old Code {uuid.uuid4().hex[:4]}")
    # As if the backup had been made before mail.0003 existed.
    call_command(
        "migrate_schemas", "mail", "0002", schema_name=old.schema_name, interactive=False, verbosity=0
    )
    where = backup.backup_schema(old, str(tmp_path))
    assert "mail.0003_sentemail_held" not in backup.read_manifest_of(where)["migrations"]

    done = backup.restore_backup(where, as_name="Old Code Restored")
    committed.append(done.tenant)
    assert done.migrated == ["mail.0003_sentemail_held"]
    with psycopg.connect(backup.conninfo()) as conn, conn.cursor() as cur:
        applied = backup.applied_migrations(cur, done.tenant.schema_name)
    assert set(applied) >= backup.code_migrations()


def test_the_backup_tenant_delete_writes_first_restores_the_company(committed, tmp_path):
    doomed = _company(committed, f"Leaving {uuid.uuid4().hex[:4]}")
    _fill(doomed)
    before = _state(doomed.schema_name)
    emails = set(LoginDirectory.objects.filter(tenant=doomed).values_list("email", flat=True))
    assert emails
    call_command("tenant_delete", doomed.schema_name, "--yes", "--dump-dir", str(tmp_path))
    assert not schema_exists(doomed.schema_name)
    [dump] = list(tmp_path.glob("*/*.tar.gz"))

    call_command("tenant_restore", str(dump), "--as", doomed.name)
    back = Tenant.objects.get(name=doomed.name, status="active")
    committed.append(back)
    after = _state(back.schema_name)
    assert (after[0], after[1], after[2]) == (before[0], before[1], before[2])
    # Its people can sign in again: their logins point at the restored company.
    assert set(LoginDirectory.objects.filter(tenant=back).values_list("email", flat=True)) == emails


def test_restore_refuses_a_live_name_without_replace_and_replaces_with_it(committed, tmp_path, monkeypatch):
    live = _company(committed, f"Live {uuid.uuid4().hex[:4]}")
    where = backup.backup_schema(live, str(tmp_path))
    with pytest.raises(CommandError, match="--replace"):
        call_command("tenant_restore", where, "--as", live.name)
    monkeypatch.setattr("builtins.input", lambda _prompt: "no")
    with pytest.raises(CommandError, match="Not confirmed"):
        call_command("tenant_restore", where, "--as", live.name, "--replace")
    assert Tenant.objects.filter(name=live.name).count() == 1

    with override_settings(BACKUP_LOCATION=str(tmp_path / "safety")):
        call_command("tenant_restore", where, "--as", live.name, "--replace", "--yes")
    new = Tenant.objects.get(name=live.name, status="active")
    committed.append(new)
    assert new.pk != live.pk and not schema_exists(live.schema_name)
    # The replaced company was backed up first; its logins now lead to the restored one.
    assert len(list((tmp_path / "safety" / live.schema_name).glob("*.tar.gz"))) == 1
    assert LoginDirectory.objects.filter(tenant=new).count() == 1


def test_a_damaged_backup_is_refused_and_leaves_nothing(committed, tmp_path):
    company = _company(committed, f"Damaged {uuid.uuid4().hex[:4]}")
    _fill(company)
    where = Path(backup.backup_schema(company, str(tmp_path)))
    # The manifest promises a row the dump does not hold (as a truncated dump would).
    work = tmp_path / "edit"
    with tarfile.open(where) as tar:
        tar.extractall(work, filter="data")
    manifest = json.loads((work / "manifest.json").read_text())
    manifest["tables"]["parties_customer"]["rows"] += 1
    (work / "manifest.json").write_text(json.dumps(manifest))
    bad = tmp_path / f"{company.schema_name}-20260101T000000Z.tar.gz"
    with tarfile.open(bad, "w:gz") as tar:
        for name in ("manifest.json", "schema.sql", "files"):
            tar.add(work / name, arcname=name)
    schemas_before = _schemas()
    with pytest.raises(CommandError, match="parties_customer"):
        call_command("tenant_restore", str(bad), "--as", "Damaged Copy")
    assert not Tenant.objects.filter(name__startswith="Damaged Copy").exists()
    assert _schemas() == schemas_before


def _schemas() -> set[str]:
    with connection.cursor() as cur:
        cur.execute("SELECT nspname FROM pg_namespace")
        return {r[0] for r in cur.fetchall()}


def test_the_dump_renames_statements_and_leaves_data_rows_alone(db):
    # (`db`: pytest-django sets the test database up only for a module that asks for it once.)
    dump = (
        "SET statement_timeout = 0;\nSET transaction_timeout = 0;\nCREATE SCHEMA t_a;\n"
        "CREATE TABLE t_a.note (id bigint, body text);\n"
        "COPY t_a.note (id, body) FROM stdin;\n1\tt_a. is our schema\n\\.\n"
        "ALTER TABLE ONLY t_a.note ADD CONSTRAINT note_pk PRIMARY KEY (id);\nt_ab stays\n"
    )
    out = backup.renamed_dump(dump, "t_a", "t_b", {"statement_timeout"})
    assert out == (
        "SET statement_timeout = 0;\nCREATE SCHEMA t_b;\n"
        "CREATE TABLE t_b.note (id bigint, body text);\n"
        "COPY t_b.note (id, body) FROM stdin;\n1\tt_a. is our schema\n\\.\n"
        "ALTER TABLE ONLY t_b.note ADD CONSTRAINT note_pk PRIMARY KEY (id);\nt_ab stays\n"
    )


# --------------------------------------------------------------------------- S3


@pytest.fixture
def s3(monkeypatch: Any) -> Iterator[Any]:
    """moto's S3 server on a free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    import boto3

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    monkeypatch.setenv("AWS_S3_REGION_NAME", "us-east-1")
    url = f"http://127.0.0.1:{port}"
    client = boto3.client("s3", endpoint_url=url, region_name="us-east-1")
    client.create_bucket(Bucket="fd-backups")
    with override_settings(BACKUP_S3_ENDPOINT_URL=url):
        yield client
    proc.terminate()
    proc.wait(timeout=10)


def test_backups_go_to_s3_encrypted_and_old_ones_are_pruned(committed, s3):
    company = _company(committed, f"Cloud {uuid.uuid4().hex[:4]}")
    _fill(company)
    before = _state(company.schema_name)
    where = backup.backup_schema(company, "s3://fd-backups/nightly")
    key = where.removeprefix("s3://fd-backups/")
    assert key.startswith(f"nightly/{company.schema_name}/")
    assert s3.head_object(Bucket="fd-backups", Key=key)["ServerSideEncryption"] == "AES256"

    done = backup.restore_backup(where, as_name="Cloud Copy")
    committed.append(done.tenant)
    after = _state(done.tenant.schema_name)
    assert (after[0], after[2]) == (before[0], before[2])

    # Retention: an old backup goes, the newest stays even when it is old itself.
    old = f"nightly/{company.schema_name}/{company.schema_name}-20200101T000000Z.tar.gz"
    s3.put_object(Bucket="fd-backups", Key=old, Body=b"x")
    location = backup.Location.parse("s3://fd-backups/nightly")
    assert backup.prune_backups(company.schema_name, location, keep_days=30) == [old.rsplit("/", 1)[-1]]
    assert backup.list_backups(company.schema_name, location) == [key.rsplit("/", 1)[-1]]
    assert backup.prune_backups(company.schema_name, location, keep_days=0) == []


def test_the_nightly_job_backs_every_company_up_and_keeps_the_retention(committed, tmp_path):
    import dramatiq

    from tenancy import tasks
    from tenancy.models import Tenant as T

    company = _company(committed, f"Nightly {uuid.uuid4().hex[:4]}")
    folder = tmp_path / company.schema_name
    folder.mkdir()
    (folder / f"{company.schema_name}-20200101T000000Z.tar.gz").write_bytes(b"old")
    broker = dramatiq.get_broker()
    broker.flush_all()
    with override_settings(BACKUP_LOCATION=str(tmp_path), BACKUP_RETENTION_DAYS=7):
        tasks.back_up_every_tenant.fn()
        queued = [dramatiq.Message.decode(m).args[0] for m in list(broker.queues["backups"].queue)]
        live = T.objects.filter(status__in=["active", "suspended"])
        active = set(live.values_list("schema_name", flat=True))
        assert set(queued) == active  # one message per company
        tasks.back_up_tenant.fn(company.schema_name)
    broker.flush_all()
    [kept] = [p.name for p in folder.iterdir()]  # the new backup; the 2020 one is past retention
    assert kept != f"{company.schema_name}-20200101T000000Z.tar.gz"
    assert backup.read_manifest_of(str(folder / kept))["tenant"]["schema"] == company.schema_name
