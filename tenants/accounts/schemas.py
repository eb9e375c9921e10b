import datetime as dt
from typing import Any

from core.fields import Email
from core.scoping import is_scopable
from ninja import Field, Schema


class RoleRef(Schema):
    id: int
    name: str


class DriverRef(Schema):
    id: int
    name: str
    phone: str


class TenantRef(Schema):
    name: str
    schema_name: str


class ProfileOut(Schema):
    id: int
    username: str
    name: str
    email: str
    role: RoleRef | None
    driver: DriverRef | None
    tenant: TenantRef
    permissions: list[str]


class SessionOut(Schema):
    access_token: str
    token_type: str
    expires_in: int
    user: ProfileOut


class SessionInfoOut(Schema):
    user_id: int
    name: str
    role: str | None
    tenant: str
    expires_at: int


class LoginIn(Schema):
    email: str = Field(..., min_length=1, max_length=254, description="Email or username")
    password: str = Field(..., min_length=1, max_length=256)


class ExternalSignInStartOut(Schema):
    authorization_url: str


class ExternalSignInIn(Schema):
    """What the identity provider sent the browser back with."""

    code: str = Field(..., min_length=1, max_length=2048)
    state: str = Field(..., min_length=1, max_length=1000)


class SignupIn(Schema):
    company_name: str = Field(..., min_length=2, max_length=200)
    name: str = Field(..., min_length=1, max_length=200)
    email: Email
    password: str = Field(..., min_length=1, max_length=256)


class PasswordResetRequestIn(Schema):
    email: Email


class PasswordResetConfirmIn(Schema):
    token: str = Field(..., min_length=10, max_length=200)
    password: str = Field(..., min_length=1, max_length=256)


class UserOut(Schema):
    id: int
    username: str
    name: str
    email: str
    phone: str
    is_active: bool
    role_id: int | None
    role: RoleRef | None
    last_login: dt.datetime | None
    created_at: dt.datetime


class UserIn(Schema):
    email: Email
    name: str = Field(..., min_length=1, max_length=200)
    username: str | None = Field(None, min_length=3, max_length=150)
    password: str = Field(..., min_length=1, max_length=256)
    role_id: int | None = Field(None, ge=1)
    is_active: bool = True
    phone: str = Field("", max_length=40)


class UserUpdate(Schema):
    email: Email | None = None
    name: str | None = Field(None, min_length=1, max_length=200)
    username: str | None = Field(None, min_length=3, max_length=150)
    password: str | None = Field(None, min_length=1, max_length=256)
    role_id: int | None = Field(None, ge=1)
    is_active: bool | None = None
    phone: str | None = Field(None, max_length=40)


class UserQuery(Schema):
    role_id: int | None = Field(None, ge=1)
    is_active: bool | None = None


class RoleOut(Schema):
    id: int
    name: str
    description: str
    grants_all: bool
    is_system: bool
    permissions: list[str]
    user_count: int = 0


class RoleIn(Schema):
    name: str = Field(..., min_length=1, max_length=80)
    description: str = Field("", max_length=300)
    permissions: list[str] = Field(default_factory=list, max_length=1000)


class RoleUpdate(Schema):
    name: str | None = Field(None, min_length=1, max_length=80)
    description: str | None = Field(None, max_length=300)
    permissions: list[str] | None = Field(None, max_length=1000)


class PermissionOut(Schema):
    code: str
    resource: str
    action: str
    name: str
    # Whether a role may hold it on the user's own rows only (`<code>:own`, core.scoping).
    own_scope: bool = False

    @staticmethod
    def resolve_own_scope(obj: Any) -> bool:
        return is_scopable(obj.resource)


class CurrentUserOut(Schema):
    id: int
    username: str
    name: str
    email: str
    role: RoleOut | None
    permissions: list[str]
