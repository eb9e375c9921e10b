"""Writes of the fleet domain. Drivers carry an optional sign-in (an accounts User with the Driver
role): creating, linking and releasing it happens here, in the caller's transaction."""

from __future__ import annotations

from typing import Any

from core.crud import save_object
from core.errors import ApiError
from core.permissions import acting_user
from django.db import transaction

from tenants.accounts import services as accounts
from tenants.accounts.models import Role, User
from tenants.accounts.roles import DRIVER
from tenants.fleet.models import Driver


def _driver_role() -> Role:
    role = Role.objects.filter(name__iexact=DRIVER).first()
    if role is None:
        raise ApiError(409, "There is no Driver role in this company: create a role named Driver first.")
    return role


def _create_login(login: dict[str, Any], name: str, phone: str) -> User:
    return accounts.create_user(
        email=login["email"], name=name, password=login["password"], role=_driver_role(), phone=phone or ""
    )


def _linkable_user(user_id: int, driver: Driver | None) -> User:
    user = User.objects.select_related("role").filter(pk=user_id).first()
    if user is None:
        raise ApiError(422, f"user_id: no user with id {user_id}.")
    taken = Driver.objects.filter(user_id=user_id)
    if driver is not None and driver.pk:
        taken = taken.exclude(pk=driver.pk)
    other = taken.first()
    if other is not None:
        raise ApiError(409, f"This user is already the sign-in of driver {other.name}.")
    # Whoever manages drivers may link drivers' logins; linking anyone else (an admin, a dispatcher)
    # would let them deactivate that login by deleting the driver, so it needs the right to change users.
    actor = acting_user()
    if not user.is_driver and actor is not None and not actor.has_perm("user.change"):
        raise ApiError(
            403,
            "Only a user with the Driver role can be linked to a driver "
            "(linking other users needs permission to change users).",
        )
    return user


def _apply_login(driver: Driver, data: dict[str, Any]) -> None:
    """Handle `create_login` and `user_id` of a create or update payload (both removed from data)."""
    login = data.pop("create_login", None)
    links = "user_id" in data
    user_id = data.pop("user_id", None)
    if login and user_id:
        raise ApiError(
            422, "Give either create_login (a new sign-in) or user_id (an existing user), not both."
        )
    if login:
        if driver.user_id is not None:
            raise ApiError(409, "This driver already has a sign-in.")
        name = data.get("name") or driver.name
        phone = str(data.get("phone") or driver.phone or "")
        driver.user = _create_login(login, name=name, phone=phone)
    elif links:
        driver.user = _linkable_user(user_id, driver) if user_id else None
    email = data.get("email", driver.email)
    if driver.user is not None and not email:
        data["email"] = driver.user.email  # the contact email defaults to the sign-in's


def create_driver(data: dict[str, Any]) -> Driver:
    driver = Driver()
    _apply_login(driver, data)
    return save_object(driver, data)  # type: ignore[return-value]


def update_driver(driver: Driver, data: dict[str, Any]) -> Driver:
    _apply_login(driver, data)
    return save_object(driver, data)  # type: ignore[return-value]


def delete_driver(driver: Driver) -> str:
    """Delete the driver; a sign-in is kept (its history stays attributable) but deactivated.
    Answers the sentence to show."""
    actor = acting_user()
    user = driver.user
    if user is not None and actor is not None and user.pk == actor.pk:
        raise ApiError(
            409, "This driver is linked to your own sign-in: unlink it before deleting the driver."
        )
    with transaction.atomic():
        if user is not None and user.is_active:
            accounts.update_user(user, {"is_active": False}, acting_user=actor)
        driver.delete()
    if user is None:
        return "Driver deleted successfully"
    return f"Driver deleted successfully. Their sign-in ({user.email}) was kept but deactivated."
