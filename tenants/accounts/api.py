from typing import Any

from core.crud import Crud
from core.envelope import Answer, Envelope, Message, ok
from core.errors import ApiError
from core.listing import ListSpec
from core.permissions import TenantAuth, acting_user, current_user, perm, register_resource
from django.db import connection
from django.http import HttpRequest
from ninja import Router

from tenants.accounts import auth, roles, selectors, services
from tenants.accounts.models import Role, User
from tenants.accounts.schemas import (
    CurrentUserOut,
    ExternalSignInIn,
    ExternalSignInStartOut,
    LoginIn,
    PasswordResetConfirmIn,
    PasswordResetRequestIn,
    PermissionOut,
    ProfileOut,
    RoleIn,
    RoleOut,
    RoleUpdate,
    SessionInfoOut,
    SessionOut,
    UserIn,
    UserOut,
    UserQuery,
    UserUpdate,
)

auth_router = Router(tags=["auth"])
users_router = Router(tags=["user-account"])
roles_router = Router(tags=["role"])
permissions_router = Router(tags=["permission"])
signed_in = TenantAuth()


@auth_router.post("/login", response=Envelope[SessionOut], auth=None, operation_id="auth_login")
def login(request: HttpRequest, payload: LoginIn) -> Answer:
    return ok(auth.login(request, payload.email, payload.password), "Login successful")


@auth_router.post(
    "/login/google/start",
    response=Envelope[ExternalSignInStartOut],
    auth=None,
    operation_id="auth_login_google_start",
)
def login_google_start(request: HttpRequest) -> Answer:
    """ "Sign in with Google": the URL of Google's sign-in (state + nonce); Google sends the browser
    back to `/login?code&state`, which posts them to `/login/google`."""
    url = services.sign_in_provider("google").start()
    return ok({"authorization_url": url}, "Continue on Google's page")


@auth_router.post("/login/google", response=Envelope[SessionOut], auth=None, operation_id="auth_login_google")
def login_google(request: HttpRequest, payload: ExternalSignInIn) -> Answer:
    return ok(auth.login_with_provider(request, "google", payload.code, payload.state), "Login successful")


@auth_router.post("/logout", response=Message, auth=signed_in, operation_id="auth_logout")
def logout(request: HttpRequest) -> Answer:
    from core.authcache import revoke

    services.record_event(request.auth, "logout", request)
    revoke(request.claims)  # type: ignore[attr-defined]
    return ok(None, "You have been logged out.")


@auth_router.get("/profile", response=Envelope[ProfileOut], auth=signed_in, operation_id="auth_profile")
def profile(request: HttpRequest) -> Answer:
    return ok(auth.profile_of(request.auth, connection.tenant), "Profile retrieved successfully")


@auth_router.get("/session", response=Envelope[SessionInfoOut], auth=signed_in, operation_id="auth_session")
def session_info(request: HttpRequest) -> Answer:
    """Who this token is, read from the token and the auth cache alone (cheap; no database query)."""
    user = request.auth
    claims = request.claims  # type: ignore[attr-defined]
    return ok(
        {
            "user_id": user.pk,
            "name": user.name,
            "role": user.role.name if user.role else None,
            "tenant": claims.tenant_schema,
            "expires_at": claims.exp,
        },
        "Session is valid",
    )


@auth_router.post(
    "/password-reset/request", response=Message, auth=None, operation_id="auth_password_reset_request"
)
def password_reset_request(request: HttpRequest, payload: PasswordResetRequestIn) -> Answer:
    from core import ratelimit
    from django.conf import settings

    ratelimit.hit(
        "reset-ip",
        ratelimit.client_ip(request),
        settings.LOGIN_RATE_LIMIT_PER_IP,
        settings.LOGIN_RATE_LIMIT_WINDOW_SECONDS,
        "Too many password reset requests.",
    )
    auth.request_password_reset(payload.email)
    return ok(None, "If an account exists for this email, a link to reset the password is on its way.")


@auth_router.post(
    "/password-reset/confirm", response=Message, auth=None, operation_id="auth_password_reset_confirm"
)
def password_reset_confirm(request: HttpRequest, payload: PasswordResetConfirmIn) -> Answer:
    auth.confirm_password_reset(payload.token, payload.password)
    return ok(None, "Your password has been changed. You can sign in now.")


# --- users -------------------------------------------------------------------------------------
def _filter_users(qs: Any, params: Any) -> Any:
    if params.role_id:
        qs = qs.filter(role_id=params.role_id)
    if params.is_active is not None:
        qs = qs.filter(is_active=params.is_active)
    return qs


def _create_user(data: dict[str, Any]) -> User:
    role = None
    if data.get("role_id"):
        role = Role.objects.filter(pk=data["role_id"]).first()
        if role is None:
            raise ApiError(422, f"role_id: no role with id {data['role_id']}.")
    services.check_role_assignment(acting_user(), role)
    return services.create_user(
        email=data["email"],
        name=data["name"],
        password=data["password"],
        username=data.get("username"),
        role=role,
        is_active=data.get("is_active", True),
        phone=data.get("phone") or "",
    )


Crud(
    router=users_router,
    resource="user",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="User",
    model=User,
    out=UserOut,
    create_in=UserIn,
    update_in=UserUpdate,
    default_size=100,
    queryset=selectors.users,
    filters=UserQuery,
    apply_filters=_filter_users,
    create=_create_user,
    update=lambda user, data: services.update_user(user, data, acting_user=acting_user()),
    delete=lambda user: services.delete_user(user, acting_user=acting_user()),
    spec=ListSpec(
        search=("name", "email", "username"),
        sort={
            "name": "name",
            "email": "email",
            "username": "username",
            "last_login": "last_login",
            "created_at": "created_at",
        },
        filters={
            "name": ("name", "str"),
            "email": ("email", "str"),
            "is_active": ("is_active", "bool"),
            "role_id": ("role_id", "int"),
        },
        default_sort="name",
    ),
)


# Changing another user's email or password, or anyone's role (only Admin holds it by default).
register_resource("user", "Users", (roles.ADMINISTER_USERS.partition(".")[2],))


# --- roles and permissions ---------------------------------------------------------------------
@roles_router.get(
    "/current-user", response=Envelope[CurrentUserOut], auth=signed_in, operation_id="role_current_user"
)
def role_current_user(request: HttpRequest) -> Answer:
    user = current_user(request)
    role = selectors.roles().filter(pk=user.role_id).first() if user.role_id else None
    profile = auth.profile_of(user, connection.tenant)
    return ok(
        {
            "id": user.pk,
            "username": user.username,
            "name": user.name,
            "email": user.email,
            "role": role,
            "permissions": profile["permissions"],
        },
        "Current user retrieved successfully",
    )


Crud(
    router=roles_router,
    resource="role",
    label="Role",
    model=Role,
    out=RoleOut,
    create_in=RoleIn,
    update_in=RoleUpdate,
    ops=("list", "get", "create", "update", "delete"),
    default_size=100,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("user_count",),
    extra_columns=("user_count",),  # the queryset's annotation
    queryset=selectors.roles,
    create=lambda data: services.create_role(data, acting_user=acting_user()),
    update=lambda role, data: services.update_role(role, data, acting_user=acting_user()),
    delete=services.delete_role,
    spec=ListSpec(
        search=("name", "description"),
        sort={"name": "name"},
        filters={"name": ("name", "str")},
        default_sort="name",
    ),
)


@permissions_router.get(
    "", response=Envelope[list[PermissionOut]], auth=perm("role.view"), operation_id="permission_list"
)
def permission_list(request: HttpRequest) -> Answer:
    return ok(list(selectors.permissions()), "Permissions retrieved successfully")


routes = [
    ("", auth_router),
    ("/user-account", users_router),
    ("/role", roles_router),
    ("/permission", permissions_router),
]
