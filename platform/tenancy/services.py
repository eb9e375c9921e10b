"""Tenant provisioning: a migrated, row-less template schema, a pool of spare clones, signup.

Signup renames a spare schema (ALTER SCHEMA … RENAME is ~10 ms) instead of creating one; an empty
pool still works by replaying the template's DDL on the spot (tenancy/provisioning.py). The pool
refill job (tenancy/tasks.py) depends on provisioning only, so services → tasks → provisioning has
no cycle.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from core.errors import ApiError
from core.signals import tenant_provisioned
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify
from django_tenants.utils import schema_exists

from tenancy import hooks, tasks
from tenancy.models import Tenant
from tenancy.provisioning import (
    TEMPLATE_SCHEMA,
    clone_template,
    create_spare,
    ensure_template,
    public_schema,
    refill_spares,
    schema_name_for,
    template_row_counts,
)

log = logging.getLogger(__name__)
__all__ = [
    "TEMPLATE_SCHEMA",
    "clone_template",
    "create_spare",
    "ensure_template",
    "public_schema",
    "refill_spares",
    "schema_name_for",
    "template_row_counts",
]


def _take_spare(new_schema: str) -> Tenant | None:
    spare = (
        Tenant.objects.select_for_update(skip_locked=True)
        .filter(status=Tenant.Status.SPARE)
        .order_by("id")
        .first()
    )
    if spare is None:
        return None
    with connection.cursor() as cur:
        cur.execute(f'ALTER SCHEMA "{spare.schema_name}" RENAME TO "{new_schema}"')
    spare.schema_name = new_schema
    return spare


def provision_tenant(
    *, company_name: str, admin_email: str, admin_name: str, admin_password: str, use_pool: bool = True
) -> tuple[Tenant, Any]:
    """Create a company: its schema, seeded roles and its first admin. All or nothing."""
    accounts = hooks.accounts()
    company_name = company_name.strip()
    if not company_name:
        raise ApiError(422, "company_name: the company name is required.")
    accounts.validate_password(admin_password)
    with public_schema():
        if Tenant.objects.filter(name__iexact=company_name, status__in=["active", "suspended"]).exists():
            raise ApiError(409, "A company with this name is already signed up.")
        from tenancy.models import LoginDirectory

        if LoginDirectory.objects.filter(email__iexact=admin_email.strip()).exists():
            raise ApiError(409, "An account with this email already exists.")
        schema = schema_name_for(company_name)
        with transaction.atomic():
            tenant = _take_spare(schema) if use_pool else None
            if tenant is None:
                ensure_template()
                clone_template(schema)
                tenant = Tenant(schema_name=schema)
                tenant.auto_create_schema = False
            tenant.name = company_name
            tenant.slug = slugify(company_name)[:80]
            tenant.status = Tenant.Status.ACTIVE
            tenant.save(verbosity=0)
            connection.set_tenant(tenant)
            admin = accounts.create_first_admin(email=admin_email, name=admin_name, password=admin_password)
            tenant_provisioned.send(sender=Tenant, tenant=tenant)  # apps seed their starting rows
            connection.set_schema_to_public()
    if use_pool:
        transaction.on_commit(_request_refill)
    return tenant, admin


def _request_refill() -> None:
    try:
        tasks.refill_spare_schemas.send()
    except Exception:  # a broker outage must not fail a signup that already succeeded
        log.warning("could not enqueue the spare-schema refill", exc_info=True)


def suspend(tenant: Tenant) -> None:
    tenant.status = Tenant.Status.SUSPENDED
    tenant.suspended_at = timezone.now()
    tenant.save(update_fields=["status", "suspended_at"])


def resume(tenant: Tenant) -> None:
    tenant.status = Tenant.Status.ACTIVE
    tenant.suspended_at = None
    tenant.save(update_fields=["status", "suspended_at"])


def delete_tenant(tenant: Tenant, dump_dir: Path | str | None) -> str | None:
    """Back the company up first (schema, files and manifest: tenancy/backup.py; restorable with
    `tenant_restore`), then drop it. ``dump_dir``: a folder or s3://bucket/prefix (None: BACKUP_LOCATION).
    Its files stay in storage (the backup holds a copy)."""
    from tenancy.backup import backup_schema

    dump = (
        backup_schema(tenant, str(dump_dir) if dump_dir else None)
        if schema_exists(tenant.schema_name)
        else None
    )
    with public_schema():
        tenant.delete(force_drop=True)
    return dump


def migrate_all(executor: str = "multiprocessing") -> None:
    call_command("migrate_schemas", executor=executor, interactive=False, verbosity=0)
