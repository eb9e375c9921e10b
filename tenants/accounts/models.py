"""Users, roles and permissions of one tenant."""

from __future__ import annotations

from core.scoping import scope_in
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models.functions import Lower


class Permission(models.Model):
    """A row per registered permission code, so roles can be edited against a stored list."""

    code = models.CharField(max_length=100, unique=True)
    resource = models.CharField(max_length=60)
    action = models.CharField(max_length=40)
    name = models.CharField(max_length=200)

    class Meta:
        ordering = ["resource", "action"]

    def __str__(self) -> str:
        return self.code


class Role(models.Model):
    name = models.CharField(max_length=80)
    description = models.CharField(max_length=300, blank=True, default="")
    # The Admin role holds every permission, including those of resources added later.
    grants_all = models.BooleanField(default=False)
    is_system = models.BooleanField(default=False)
    permissions = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    # What seeding last granted a system role: later resources' codes are added on top, while a
    # code an admin removed on purpose stays removed (see services.top_up_system_roles).
    seeded_permissions = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(Lower("name"), name="role_unique_name")]

    def __str__(self) -> str:
        return self.name

    def perm_scope(self, code: str) -> str | None:
        """ "all" for `code` itself, "own" for `code:own` (the user's own rows), else None."""
        return scope_in(self.permissions, code, grants_all=self.grants_all)

    def has_perm(self, code: str) -> bool:
        return self.perm_scope(code) is not None


class User(models.Model):
    username = models.CharField(max_length=150)
    email = models.EmailField()
    name = models.CharField(max_length=200)
    password = models.CharField(max_length=256)
    role = models.ForeignKey(Role, on_delete=models.PROTECT, related_name="users", null=True, blank=True)
    is_active = models.BooleanField(default=True)
    phone = models.CharField(max_length=40, blank=True, default="")
    # Bumped on password change or deactivation: every token issued before stops working.
    token_version = models.PositiveIntegerField(default=0)
    last_login = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(Lower("email"), name="user_unique_email"),
            models.UniqueConstraint(Lower("username"), name="user_unique_username"),
        ]
        indexes = [models.Index(Lower("name"), name="user_name_lower")]

    def __str__(self) -> str:
        return self.email

    def set_password(self, raw: str) -> None:
        self.password = make_password(raw)

    def check_password(self, raw: str) -> bool:
        # A hash of older parameters (or another hasher) is replaced by the current one on success.
        return check_password(raw, self.password, setter=self._rehash)

    def _rehash(self, raw: str) -> None:
        self.set_password(raw)
        if self.pk:
            type(self).objects.filter(pk=self.pk).update(password=self.password)

    def perm_scope(self, code: str) -> str | None:
        """How far the user's role grants `code`: "all" rows, "own" rows (core.scoping), or None."""
        if not (self.is_active and self.role):
            return None
        return self.role.perm_scope(code)

    def has_perm(self, code: str) -> bool:
        return self.perm_scope(code) is not None

    @property
    def is_driver(self) -> bool:
        return bool(self.role and self.role.name.lower() == "driver")


class AuthEvent(models.Model):
    """Sign-ins, sign-outs and failed attempts, for the audit trail."""

    class Kind(models.TextChoices):
        LOGIN = "login"
        LOGOUT = "logout"
        FAILED = "failed"
        PASSWORD_RESET = "password_reset"

    user = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="auth_events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.kind} {self.user_id} {self.created_at:%Y-%m-%d %H:%M}"
