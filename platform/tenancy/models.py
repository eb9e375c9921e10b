"""The public schema: the tenant registry, domains and the platform-wide login directory.

No tenant business data lives here; only what must be found before a tenant is known.
"""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower
from django_tenants.models import DomainMixin, TenantMixin


class Tenant(TenantMixin):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        SUSPENDED = "suspended", "Suspended"
        # A migrated, row-less schema cloned ahead of time, waiting to be renamed at signup.
        SPARE = "spare", "Spare"
        # The template every spare and every on-the-spot clone is copied from.
        TEMPLATE = "template", "Template"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, blank=True, default="")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    suspended_at = models.DateTimeField(null=True, blank=True)

    auto_create_schema = True
    auto_drop_schema = True
    # Structure only: the template must never hand rows to a new tenant.
    clone_mode = "NODATA"

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                condition=models.Q(status__in=["active", "suspended"]),
                name="tenant_unique_company_name",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.schema_name})"

    @property
    def is_business(self) -> bool:
        return self.status in (self.Status.ACTIVE, self.Status.SUSPENDED)

    # The kit's request and job plumbing (core/middleware.py, core/jobs.py) reads these, not Status.
    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_suspended(self) -> bool:
        return self.status == self.Status.SUSPENDED


class Domain(DomainMixin):
    pass


class LoginDirectory(models.Model):
    """Login email (and username) → tenant. Both are unique across the whole platform."""

    email = models.EmailField(unique=True)
    username = models.CharField(max_length=150, unique=True, null=True, blank=True)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="logins")
    user_id = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "user_id"], name="login_unique_tenant_user")]

    def __str__(self) -> str:
        return self.email


class PasswordResetToken(models.Model):
    """A one-time reset link. Only the SHA-256 of the token is stored."""

    token_hash = models.CharField(max_length=64, unique=True)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    user_id = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"reset for user {self.user_id} of {self.tenant_id}"


class TemplateDDL(models.Model):
    """The tenant template's DDL for one migration state (see tenancy/provisioning.py), replayed to
    create a tenant schema without reading the whole catalog."""

    key = models.CharField(max_length=64, unique=True)
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key[:12]


class IntegrationAccount(models.Model):
    """An outside account a tenant connected (e.g. a QuickBooks company, ``provider="quickbooks"``,
    ``account_id`` = its realmId). Webhooks name the account, never the tenant: this finds it. One
    account belongs to one tenant at a time."""

    provider = models.CharField(max_length=40)
    account_id = models.CharField(max_length=100)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["provider", "account_id"], name="integration_account_unique")
        ]

    def __str__(self) -> str:
        return f"{self.provider}:{self.account_id}"
