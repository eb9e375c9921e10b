"""Sign-in, sign-out, sessions and password resets. Log-in finds the company by the login
directory of the public schema, then checks the password inside that company's schema."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from core import ratelimit
from core.errors import ApiError
from core.tokens import issue_access_token
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone
from tenancy.models import LoginDirectory, PasswordResetToken, Tenant

from tenants.accounts import services
from tenants.accounts.models import User

INVALID_CREDENTIALS = "Invalid email or password."
_DUMMY_HASH = make_password("timing-equaliser-password-1")


def profile_of(user: User, tenant: Tenant) -> dict[str, Any]:
    driver = None
    # The fleet app's Driver links to its login (`related_name="driver"`): read through the relation,
    # so accounts does not import fleet (fleet depends on accounts, not the other way round).
    d = getattr(user, "driver", None)  # a missing reverse one-to-one is an AttributeError
    if d is not None:
        driver = {"id": d.pk, "name": d.name, "phone": d.phone}
    role = {"id": user.role.pk, "name": user.role.name} if user.role else None
    if user.role is None:
        codes: list[str] = []
    elif user.role.grants_all:
        from core.permissions import registered_permissions

        codes = [p.code for p in registered_permissions()]
    else:
        codes = list(user.role.permissions)
    return {
        "id": user.pk,
        "username": user.username,
        "name": user.name,
        "email": user.email,
        "role": role,
        "driver": driver,
        "tenant": {"name": tenant.name, "schema_name": tenant.schema_name},
        "permissions": codes,
    }


def session_for(user: User, tenant: Tenant) -> dict[str, Any]:
    token = issue_access_token(
        user_id=user.pk,
        tenant_schema=tenant.schema_name,
        token_version=user.token_version,
        role=user.role.name if user.role else None,
    )
    return {
        "access_token": token,
        "token_type": "bearer",
        "expires_in": settings.ACCESS_TOKEN_TTL_SECONDS,
        "user": profile_of(user, tenant),
    }


def _slowdown_seconds(failures: int) -> int:
    """The wait between attempts on an account once it has this many failures counted."""
    over = failures - settings.LOGIN_SLOWDOWN_AFTER_FAILURES
    if over < 0:
        return 0
    return int(min(2 ** min(over, 20), settings.LOGIN_SLOWDOWN_MAX_SECONDS))


def _account_key(identifier: str) -> str:
    # A fixed-length key, whatever was typed as the email (cache keys stay short and plain).
    return hashlib.sha256(identifier.encode()).hexdigest()[:40]


def _throttle(account: str, ip: str) -> None:
    """Refuse an attempt before the password is checked (the same for known and unknown emails)."""
    window = settings.LOGIN_RATE_LIMIT_WINDOW_SECONDS
    ratelimit.hit(
        "login-ip",
        ip,
        settings.LOGIN_RATE_LIMIT_PER_IP,
        window,
        "Too many sign-in attempts from this address.",
    )
    pair = f"{account}|{ip}"
    if ratelimit.failures("login-pair", pair) >= settings.LOGIN_FAILURES_PER_ACCOUNT_AND_IP:
        minutes = max(1, round(window / 60))
        raise ApiError(
            429,
            "Too many failed sign-in attempts for this account from this address. "
            f"Try again in {minutes} minute{'s' if minutes != 1 else ''}, or reset your password.",
        )
    wait = _slowdown_seconds(ratelimit.failures("login-account", account))
    if wait and not ratelimit.take_slot("login-account", account, wait):
        raise ApiError(
            429,
            "Too many failed sign-in attempts for this account. "
            f"Wait {wait} second{'s' if wait != 1 else ''} and try again.",
        )


def _count_failure(account: str, ip: str) -> None:
    # Counters live under the public schema's cache prefix, wherever the check ran.
    connection.set_schema_to_public()
    window = settings.LOGIN_RATE_LIMIT_WINDOW_SECONDS
    ratelimit.add_failure("login-pair", f"{account}|{ip}", window)
    wait = _slowdown_seconds(ratelimit.add_failure("login-account", account, window))
    if wait:
        ratelimit.hold_slot("login-account", account, wait)


def login(request: HttpRequest, identifier: str, password: str) -> dict[str, Any]:
    identifier = identifier.strip().lower()
    ip = ratelimit.client_ip(request)
    account = _account_key(identifier)
    _throttle(account, ip)
    connection.set_schema_to_public()
    entry = (
        LoginDirectory.objects.select_related("tenant")
        .filter(Q(email=identifier) | Q(username=identifier))
        .first()
    )
    if entry is None or not entry.tenant.is_business:
        User(password=_DUMMY_HASH).check_password(password)  # same work as a real check: no timing oracle
        _count_failure(account, ip)
        raise ApiError(401, INVALID_CREDENTIALS)
    tenant = entry.tenant
    connection.set_tenant(tenant)
    user = User.objects.select_related("role").filter(pk=entry.user_id).first()
    if user is None or not user.check_password(password):
        services.record_event(user, "failed", request)
        _count_failure(account, ip)
        raise ApiError(401, INVALID_CREDENTIALS)
    if not user.is_active:
        raise ApiError(401, "This account is deactivated. Ask your administrator to reactivate it.")
    if tenant.status == Tenant.Status.SUSPENDED:
        raise ApiError(403, "This company account is suspended. Contact FuelDesk support to restore access.")
    connection.set_schema_to_public()
    ratelimit.clear_failures("login-account", account)
    ratelimit.clear_failures("login-pair", f"{account}|{ip}")
    ratelimit.release_slot("login-account", account)
    connection.set_tenant(tenant)
    services.mark_login(user)
    services.record_event(user, "login", request)
    return session_for(user, tenant)


NO_USER_FOR_PROVIDER = (
    "No FuelDesk user has this account's email address: sign in with your password, or ask your "
    "administrator to add you."
)


def login_with_provider(request: HttpRequest, name: str, code: str, state: str) -> dict[str, Any]:
    """An external sign-in ("Sign in with Google", docs/google.md): the provider's verified email
    finds the company in the login directory, as a password sign-in does; inside it the provider
    picks the user (by its subject once linked, else by that email). No user: refused."""
    provider = services.sign_in_provider(name)
    ip = ratelimit.client_ip(request)
    ratelimit.hit(
        "login-ip",
        ip,
        settings.LOGIN_RATE_LIMIT_PER_IP,
        settings.LOGIN_RATE_LIMIT_WINDOW_SECONDS,
        "Too many sign-in attempts from this address.",
    )
    connection.set_schema_to_public()
    subject, email = provider.verify(code, state)
    email = email.strip().lower()
    connection.set_schema_to_public()
    entry = LoginDirectory.objects.select_related("tenant").filter(email=email).first()
    if entry is None or not entry.tenant.is_business:
        raise ApiError(401, NO_USER_FOR_PROVIDER)
    tenant = entry.tenant
    connection.set_tenant(tenant)
    with transaction.atomic():
        user_id = provider.user_id(subject, email, entry.user_id)
    user = User.objects.select_related("role").filter(pk=user_id).first()
    if user is None:
        raise ApiError(401, NO_USER_FOR_PROVIDER)
    if not user.is_active:
        raise ApiError(401, "This account is deactivated. Ask your administrator to reactivate it.")
    if tenant.status == Tenant.Status.SUSPENDED:
        raise ApiError(403, "This company account is suspended. Contact FuelDesk support to restore access.")
    services.mark_login(user)
    services.record_event(user, "login", request)
    return session_for(user, tenant)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def request_password_reset(email: str) -> None:
    """Sends a one-time link when the email is known; says nothing either way."""
    connection.set_schema_to_public()
    entry = LoginDirectory.objects.select_related("tenant").filter(email=email.strip().lower()).first()
    if entry is None or entry.tenant.status != Tenant.Status.ACTIVE:
        return
    token = secrets.token_urlsafe(32)
    PasswordResetToken.objects.create(
        token_hash=_hash(token),
        tenant=entry.tenant,
        user_id=entry.user_id,
        expires_at=timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TTL_SECONDS),
    )
    from core.jobs import send_in_tenant

    from tenants.accounts.tasks import send_password_reset_email

    schema = entry.tenant.schema_name
    transaction.on_commit(
        lambda: send_in_tenant(send_password_reset_email, schema, user_id=entry.user_id, token=token)
    )


def confirm_password_reset(token: str, password: str) -> None:
    connection.set_schema_to_public()
    services.validate_password(password)
    with transaction.atomic():
        row = (
            PasswordResetToken.objects.select_for_update()
            .select_related("tenant")
            .filter(token_hash=_hash(token))
            .first()
        )
        if row is None or row.used_at is not None or row.expires_at < timezone.now():
            raise ApiError(400, "This password reset link is invalid or has expired. Request a new one.")
        row.used_at = timezone.now()
        row.save(update_fields=["used_at"])
        connection.set_tenant(row.tenant)
        user = User.objects.filter(pk=row.user_id).first()
        if user is None:
            raise ApiError(400, "This password reset link is invalid or has expired. Request a new one.")
        services.change_password(user, password)  # also ends the user's other reset links
        user.save(update_fields=["password", "token_version", "updated_at"])
        services.record_event(user, "password_reset")
        connection.set_schema_to_public()
