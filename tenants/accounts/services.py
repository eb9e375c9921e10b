"""Writes of users and roles. Every change to a login keeps the platform's login directory in step."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core import scoping
from core.errors import ApiError
from core.permissions import registered_permissions
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from tenancy.models import LoginDirectory, PasswordResetToken, Tenant

from tenants.accounts import roles as seeded
from tenants.accounts.models import AuthEvent, Permission, Role, User
from tenants.accounts.selectors import active_admin_count

USERNAME_RE = re.compile(r"^[A-Za-z0-9_.@+-]{3,150}$")


# --- external sign-in providers ("Sign in with Google"): apps register one in AppConfig.ready() ---
@dataclass(frozen=True)
class SignInProvider:
    """How an identity provider signs a staff user in (tenants/google registers "google")."""

    start: Callable[[], str]  # the provider's sign-in URL
    verify: Callable[[str, str], tuple[str, str]]  # (code, state) -> (subject, verified email)
    # In the company's schema: (subject, email, the directory's user id for that email) -> user id.
    user_id: Callable[[str, str, int | None], int]


_SIGN_IN_PROVIDERS: dict[str, SignInProvider] = {}


def register_sign_in_provider(name: str, provider: SignInProvider) -> None:
    _SIGN_IN_PROVIDERS[name] = provider


def sign_in_provider(name: str) -> SignInProvider:
    provider = _SIGN_IN_PROVIDERS.get(name)
    if provider is None:
        raise ApiError(404, f"Sign-in with {name} is not available.")
    return provider


def validate_password(password: str) -> None:
    from django.conf import settings

    problems = []
    if len(password) < settings.PASSWORD_MIN_LENGTH:
        problems.append(f"at least {settings.PASSWORD_MIN_LENGTH} characters")
    if not re.search(r"[A-Za-z]", password) or not re.search(r"[0-9]", password):
        problems.append("both letters and digits")
    if password.lower() in {"password123", "1234567890", "qwerty12345"}:
        problems.append("not a common password")
    if problems:
        raise ApiError(422, "The password is too weak: it needs " + " and ".join(problems) + ".")


def change_password(user: User, raw: str) -> None:
    """Every password change goes through here: the new hash, every session issued before it ends
    (token version), and every reset link not used yet stops working. The caller saves the user."""
    validate_password(raw)
    user.set_password(raw)
    user.token_version += 1
    PasswordResetToken.objects.filter(tenant=_current_tenant(), user_id=user.pk, used_at__isnull=True).update(
        used_at=timezone.now()
    )


def _current_tenant() -> Tenant:
    tenant = getattr(connection, "tenant", None)
    if not isinstance(tenant, Tenant):
        raise RuntimeError("No tenant is active on this connection")
    return tenant


def ensure_login_available(email: str, username: str | None, user_id: int | None = None) -> None:
    """Emails (and usernames) are unique across the platform: log-in finds the company by them."""
    tenant = _current_tenant()
    clash = LoginDirectory.objects.filter(Q(email__iexact=email) | Q(username__iexact=username or email))
    if user_id is not None:
        clash = clash.exclude(tenant=tenant, user_id=user_id)
    if clash.filter(email__iexact=email).exists():
        raise ApiError(409, "An account with this email already exists.")
    if username and clash.exists():
        raise ApiError(409, "This username is taken.")


def _sync_directory(user: User) -> None:
    tenant = _current_tenant()
    LoginDirectory.objects.update_or_create(
        tenant=tenant,
        user_id=user.pk,
        defaults={"email": user.email.lower(), "username": user.username.lower()},
    )


def create_user(
    *,
    email: str,
    name: str,
    password: str,
    username: str | None = None,
    role: Role | None = None,
    is_active: bool = True,
    phone: str = "",
) -> User:
    email = email.strip().lower()
    username = (username or email).strip()
    if not USERNAME_RE.match(username):
        raise ApiError(422, "username: use 3 to 150 letters, digits or . _ @ + - characters.")
    validate_password(password)
    ensure_login_available(email, username)
    with transaction.atomic():
        user = User(
            email=email, username=username, name=name.strip(), role=role, is_active=is_active, phone=phone
        )
        user.set_password(password)
        user.save()
        _sync_directory(user)
    return user


def held_permissions(user: User | None) -> set[str] | None:
    """The codes a user holds; None means every code (a role that grants all)."""
    if user is None or not user.is_active or user.role is None:
        return set()
    if user.role.grants_all:
        return None
    return set(user.role.permissions)


def _role_codes(role: Role | None) -> set[str] | None:
    if role is None:
        return set()
    return None if role.grants_all else set(role.permissions)


def _beyond(held: set[str] | None, codes: set[str] | None) -> set[str] | None:
    """The codes of `codes` that `held` lacks (None: `codes` is "everything" and `held` is not). A
    full grant covers its own-scoped one (`sales_order.view` covers `sales_order.view:own`)."""
    if held is None:
        return set()
    if codes is None:
        return None
    return {code for code in codes if not scoping.covers(held, code)}


def _refuse_codes_not_held(missing: set[str] | None, doing: str) -> None:
    if missing is None:
        raise ApiError(403, f"You cannot {doing}: it holds every permission and you do not.")
    if missing:
        listed = ", ".join(sorted(missing)[:10])
        raise ApiError(403, f"You cannot {doing}: it holds permissions you do not hold ({listed}).")


def check_role_assignment(acting_user: User | None, role: Role | None) -> None:
    """Nobody hands out a role that holds a permission they do not hold themselves."""
    if acting_user is None:
        return
    _refuse_codes_not_held(_beyond(held_permissions(acting_user), _role_codes(role)), "give this role")


def _lock_admin_set() -> None:
    """Row-lock every active admin: changes that may remove an admin run one at a time per company,
    and each one counts the admins that remain after the one before it committed."""
    list(
        User.objects.select_for_update(of=("self",))
        .filter(is_active=True, role__grants_all=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _check_user_change(target: User, data: dict[str, Any], new_role: Role | None, actor: User) -> None:
    is_self = actor.pk == target.pk
    administers = actor.has_perm(seeded.ADMINISTER_USERS)
    held = held_permissions(actor)
    role_changes = new_role != target.role
    if role_changes and is_self:
        raise ApiError(409, "You cannot change your own role: another administrator must do it.")
    if is_self and data.get("is_active") is False:
        raise ApiError(409, "You cannot deactivate your own account.")
    if is_self:
        return
    # Switching off someone who holds more than the actor needs the administer permission.
    if (
        "is_active" in data
        and data["is_active"] != target.is_active
        and not administers
        and _beyond(held, _role_codes(target.role)) != set()
    ):
        raise ApiError(
            403, "You cannot deactivate or reactivate a user who holds permissions you do not hold."
        )
    credentials = [
        k
        for k in ("email", "password")
        if data.get(k) and (k == "password" or str(data[k]).lower() != target.email.lower())
    ]
    if (credentials or role_changes) and not administers:
        what = " and ".join([*credentials, *(["role"] if role_changes else [])])
        raise ApiError(403, f"Only an administrator can change another user's {what}.")
    if role_changes:
        _refuse_codes_not_held(_beyond(held, _role_codes(target.role)), "change the role of this user")
        check_role_assignment(actor, new_role)


def update_user(user: User, data: dict[str, Any], *, acting_user: User | None = None) -> User:
    password = data.pop("password", None)
    if data.get("email"):
        data["email"] = data["email"].strip().lower()
    if "username" in data and data["username"] and not USERNAME_RE.match(data["username"]):
        raise ApiError(422, "username: use 3 to 150 letters, digits or . _ @ + - characters.")
    for required in ("email", "username", "name"):
        if required in data and not data[required]:
            raise ApiError(422, f"{required}: this field cannot be empty.")
    with transaction.atomic():
        _lock_admin_set()
        user = User.objects.select_related("role").select_for_update(of=("self",)).get(pk=user.pk)
        new_email = data.get("email", user.email)
        new_username = data.get("username", user.username)
        ensure_login_available(new_email, new_username, user_id=user.pk)
        role_id = data.pop("role_id", user.role_id) if "role_id" in data else user.role_id
        new_role = Role.objects.filter(pk=role_id).first() if role_id else None
        if role_id and new_role is None:
            raise ApiError(422, f"role_id: no role with id {role_id}.")
        if acting_user is not None:
            _check_user_change(user, {**data, "password": password}, new_role, acting_user)
        deactivating = data.get("is_active") is False and user.is_active
        losing_admin = (
            user.role is not None and user.role.grants_all and not (new_role and new_role.grants_all)
        )
        is_active_admin = user.is_active and user.role is not None and user.role.grants_all
        if (
            (deactivating or losing_admin)
            and is_active_admin
            and active_admin_count(exclude_user_id=user.pk) == 0
        ):
            raise ApiError(409, "This is the last active admin: another admin is needed before this change.")
        for key, value in data.items():
            setattr(user, key, value)
        user.role = new_role
        if password:
            change_password(user, password)
        elif deactivating:
            user.token_version += 1  # a deactivated user's sessions end at once
        user.save()
        _sync_directory(user)
    return user


def delete_user(user: User, *, acting_user: User | None = None) -> None:
    if acting_user is not None and acting_user.pk == user.pk:
        raise ApiError(409, "You cannot delete your own account.")
    with transaction.atomic():
        _lock_admin_set()
        user = User.objects.select_related("role").select_for_update(of=("self",)).get(pk=user.pk)
        if (
            acting_user is not None
            and not acting_user.has_perm(seeded.ADMINISTER_USERS)
            and _beyond(held_permissions(acting_user), _role_codes(user.role)) != set()
        ):
            raise ApiError(403, "You cannot delete a user who holds permissions you do not hold.")
        if (
            user.is_active
            and user.role
            and user.role.grants_all
            and active_admin_count(exclude_user_id=user.pk) == 0
        ):
            raise ApiError(409, "This is the last active admin and cannot be deleted.")
        LoginDirectory.objects.filter(tenant=_current_tenant(), user_id=user.pk).delete()
        user.delete()


def sync_permissions() -> None:
    """Make the tenant's Permission rows match the registry (new resources appear, gone ones go)."""
    defs = registered_permissions()
    codes = {p.code for p in defs}
    existing = set(Permission.objects.values_list("code", flat=True))
    Permission.objects.bulk_create(
        [
            Permission(code=p.code, resource=p.resource, action=p.action, name=p.name)
            for p in defs
            if p.code not in existing
        ]
    )
    Permission.objects.exclude(code__in=codes).delete()


def seed_roles() -> dict[str, Role]:
    sync_permissions()
    created: dict[str, Role] = {}
    admin, _ = Role.objects.get_or_create(
        name=seeded.ADMIN,
        defaults={
            "grants_all": True,
            "is_system": True,
            "description": "Everything, including users and roles.",
        },
    )
    created[seeded.ADMIN] = admin
    for name, (description, _full, _view) in seeded.ROLE_RESOURCES.items():
        codes = seeded.seeded_role_permissions(name)
        role, _ = Role.objects.get_or_create(
            name=name,
            defaults={
                "is_system": True,
                "description": description,
                "permissions": codes,
                "seeded_permissions": codes,
            },
        )
        created[name] = role
    return created


def top_up_system_roles() -> int:
    """Give the seeded roles the codes of resources added since they were seeded. Returns how many
    codes were added."""
    added = 0
    for name in seeded.ROLE_RESOURCES:
        role = Role.objects.filter(name=name, is_system=True).first()
        if role is None:
            continue
        current = set(seeded.seeded_role_permissions(name))
        new = current - set(role.seeded_permissions)
        if new or set(role.seeded_permissions) != current:
            role.permissions = sorted(set(role.permissions) | new)
            role.seeded_permissions = sorted(current)
            role.save(update_fields=["permissions", "seeded_permissions", "updated_at"])
            added += len(new)
    return added


def validate_permission_codes(codes: list[str]) -> list[str]:
    """Known codes, each granted on every row or, where its resource has owners, on own rows
    (`<code>:own`, core.scoping); a code and its own-scoped form together keep the full one."""
    known = dict(Permission.objects.values_list("code", "resource"))
    unknown = []
    for code in set(codes):
        base, scope = scoping.split_code(code)
        if base not in known or (scope == scoping.OWN and not scoping.is_scopable(known[base])):
            unknown.append(code)
    if unknown:
        raise ApiError(422, f"Unknown permission codes: {', '.join(sorted(unknown)[:10])}.")
    full = set(codes)
    return sorted(c for c in full if not (scoping.split_code(c)[1] == scoping.OWN and c[:-4] in full))


def _check_grant(acting_user: User | None, old: set[str], new: set[str]) -> None:
    """Nobody grants (or takes away) a permission they do not hold."""
    held = held_permissions(acting_user) if acting_user is not None else None
    if held is None:
        return
    changed = {code for code in old ^ new if not scoping.covers(held, code)}
    if changed:
        listed = ", ".join(sorted(changed)[:10])
        raise ApiError(403, f"You cannot grant or remove permissions you do not hold: {listed}.")


def create_role(data: dict[str, Any], *, acting_user: User | None = None) -> Role:
    data["permissions"] = validate_permission_codes(data.get("permissions") or [])
    _check_grant(acting_user, set(), set(data["permissions"]))
    if Role.objects.filter(name__iexact=data["name"].strip()).exists():
        raise ApiError(409, "A role with this name already exists.")
    return Role.objects.create(
        name=data["name"].strip(), description=data.get("description") or "", permissions=data["permissions"]
    )


def update_role(role: Role, data: dict[str, Any], *, acting_user: User | None = None) -> Role:
    role = Role.objects.select_for_update().get(pk=role.pk)
    if role.grants_all and ("permissions" in data or ("name" in data and data["name"] != role.name)):
        raise ApiError(409, "The Admin role always holds every permission and cannot be renamed.")
    if "name" in data:
        name = (data["name"] or "").strip()
        if not name:
            raise ApiError(422, "name: this field cannot be empty.")
        if Role.objects.filter(name__iexact=name).exclude(pk=role.pk).exists():
            raise ApiError(409, "A role with this name already exists.")
        role.name = name
    if "description" in data:
        role.description = data["description"] or ""
    if "permissions" in data and data["permissions"] is not None:
        codes = validate_permission_codes(data["permissions"])
        _check_grant(acting_user, set(role.permissions), set(codes))
        role.permissions = codes
    role.save()
    return role


def delete_role(role: Role) -> None:
    if role.grants_all:
        raise ApiError(409, "The Admin role cannot be deleted.")
    in_use = role.users.count()
    if in_use:
        raise ApiError(409, f"This role is held by {in_use} user(s). Give them another role first.")
    role.delete()


def record_event(user: User | None, kind: str, request: Any = None) -> None:
    ip = None
    agent = ""
    if request is not None:
        from core.ratelimit import client_ip

        address = client_ip(request)
        ip = address if address != "unknown" else None
        agent = request.headers.get("User-Agent", "")[:300]
    AuthEvent.objects.create(user=user, kind=kind, ip_address=ip, user_agent=agent)


def mark_login(user: User) -> None:
    User.objects.filter(pk=user.pk).update(last_login=timezone.now())
