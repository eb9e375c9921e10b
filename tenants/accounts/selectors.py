"""Reads of users and roles."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from tenants.accounts.models import Permission, Role, User


def users() -> QuerySet[User]:
    return User.objects.select_related("role")


def roles() -> QuerySet[Role]:
    return Role.objects.annotate(user_count=Count("users"))


def permissions() -> QuerySet[Permission]:
    return Permission.objects.all()


def active_admin_count(exclude_user_id: int | None = None) -> int:
    qs = User.objects.filter(is_active=True, role__grants_all=True)
    if exclude_user_id is not None:
        qs = qs.exclude(pk=exclude_user_id)
    return qs.count()
