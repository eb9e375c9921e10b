"""Shared helpers of the operator commands."""

from django.core.management.base import CommandError

from tenancy.models import Tenant


def find_tenant(ref: str) -> Tenant:
    """A tenant by schema name, id, or company name (case-insensitive)."""
    qs = Tenant.objects.filter(status__in=[Tenant.Status.ACTIVE, Tenant.Status.SUSPENDED])
    tenant = qs.filter(schema_name=ref).first()
    if tenant is None and ref.isdigit():
        tenant = qs.filter(pk=int(ref)).first()
    if tenant is None:
        tenant = qs.filter(name__iexact=ref).first()
    if tenant is None:
        raise CommandError(f"No tenant matches {ref!r} (give a schema name, id or company name).")
    return tenant
