"""What the core auth cache needs to know about users, registered when the accounts app is ready."""

from __future__ import annotations

from typing import Any

from core.authcache import UserSource

from tenants.accounts.models import Role, User

USER_FIELDS = ("id", "username", "email", "name", "is_active", "token_version", "phone", "role_id")
ROLE_FIELDS = ("id", "name", "description", "grants_all", "is_system", "permissions")


def load(user_id: int) -> User | None:
    return User.objects.select_related("role").filter(pk=user_id).first()


def snapshot(user: User) -> dict[str, Any]:
    role = user.role
    return {
        "user": {k: getattr(user, k) for k in USER_FIELDS},
        "role": None if role is None else {k: getattr(role, k) for k in ROLE_FIELDS},
    }


def restore(data: dict[str, Any]) -> User:
    user = User(**data["user"])
    user.role = Role(**data["role"]) if data["role"] else None
    user._state.adding = False
    user._state.db = "default"
    if user.role is not None:
        user.role._state.adding = False
        user.role._state.db = "default"
    return user


USER_SOURCE = UserSource(load=load, snapshot=snapshot, restore=restore, watched=(User, Role))
