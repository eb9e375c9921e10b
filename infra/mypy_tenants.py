"""A mypy plugin: the attributes added at run time to the connection and to the request.

`django_tenants.postgresql_backend` replaces Django's database wrapper at run time with one that
carries the current tenant (`schema_name`, `tenant`, `set_tenant()`, `set_schema()`,
`set_schema_to_public()`); the stubs type `django.db.connection` as Django's `BaseDatabaseWrapper`,
which has none of them. Rather than a cast at each of the ~70 uses (or `attr-defined` off for the
whole code base, as before), this declares them, typed as django-tenants defines them, on the
wrapper's class. django-tenants' own plugin (pyproject.toml) does the same for `request.tenant`.

django-ninja sets `request.auth` to what the route's auth class returned (here: the signed-in user,
or the tenant's API client) before the handler runs: declared on `HttpRequest` as `Any`, as ninja
types it itself; and `request.tenant` (django-tenants' middleware) on `HttpRequest` itself.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import ARG_OPT, ARG_POS, Argument, Var
from mypy.plugin import ClassDefContext, Plugin
from mypy.plugins.common import add_attribute_to_class, add_method_to_class
from mypy.types import AnyType, Instance, NoneType, Type, TypeOfAny

WRAPPER = "django.db.backends.base.base.BaseDatabaseWrapper"
REQUEST = "django.http.request.HttpRequest"
TENANT = "django_tenants.models.TenantMixin"


def _argument(name: str, typ: Type, optional: bool = False) -> Argument:
    return Argument(Var(name, typ), typ, None, ARG_OPT if optional else ARG_POS)


def _tenant_type(ctx: ClassDefContext) -> Instance | AnyType:
    try:
        return ctx.api.named_type(TENANT)
    except (AssertionError, KeyError):  # not analysed yet in this pass: the plugin runs again
        return AnyType(TypeOfAny.implementation_artifact)


def _declare_tenant_attributes(ctx: ClassDefContext) -> None:
    api = ctx.api
    text, flag = api.named_type("builtins.str"), api.named_type("builtins.bool")
    tenant = _tenant_type(ctx)
    anything = AnyType(TypeOfAny.explicit)
    add_attribute_to_class(api, ctx.cls, "schema_name", text)
    add_attribute_to_class(api, ctx.cls, "tenant", tenant)
    add_method_to_class(
        api,
        ctx.cls,
        "set_tenant",
        [_argument("tenant", tenant), _argument("include_public", flag, True)],
        NoneType(),
    )
    add_method_to_class(
        api,
        ctx.cls,
        "set_schema",
        [
            _argument("schema_name", text),
            _argument("include_public", flag, True),
            _argument("tenant_type", anything, True),
        ],
        NoneType(),
    )
    add_method_to_class(api, ctx.cls, "set_schema_to_public", [], NoneType())


def _declare_auth(ctx: ClassDefContext) -> None:
    add_attribute_to_class(ctx.api, ctx.cls, "auth", AnyType(TypeOfAny.explicit))
    # django-tenants' plugin declares `tenant` on HttpRequest's subclasses only; the middleware sets
    # it on every request.
    add_attribute_to_class(ctx.api, ctx.cls, "tenant", _tenant_type(ctx))


class TenantConnectionPlugin(Plugin):
    def get_customize_class_mro_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        return {WRAPPER: _declare_tenant_attributes, REQUEST: _declare_auth}.get(fullname)


def plugin(version: str) -> type[Plugin]:
    return TenantConnectionPlugin
