"""Own-row scoping: a permission granted on "own" rows only, applied where the kit loads rows.

A role holds a permission code (`sales_order.view`) for every row of the company, or the same code
with the `:own` scope (`sales_order.view:own`) for the rows that belong to the signed-in user. Each
model that has owners declares once how a row belongs to a user (`declare_owner`: a lookup path to
the owning user's id, e.g. a sales order's `driver__user`, a delivery ticket's
`sales_order__driver__user`) and the resource whose permission governs it.

Every row the API loads goes through `scoped(queryset)` (lists, the kit's Crud, `get_or_404`), which
narrows the rows of an owned model to the user's own when:
- the request's route was let through by an own-scoped grant (the auth class notes it), or
- the user holds the model's resource only own-scoped (`<resource>.view:own`, not `<resource>.view`),
  whatever permission the route asked for.
Nothing is narrowed outside a request (workers, commands) or for users who hold the full grant.

`core` imports no app: the user object answers `perm_scope(code)` ("all", "own" or None).
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db.models import Model, QuerySet

from core.errors import ApiError

OWN = "own"
ALL = "all"
OWN_SUFFIX = ":own"

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class Owner:
    path: str  # lookup from the model to the owning user's primary key, e.g. "driver__user"
    resource: str  # the permission resource that governs the model's rows, e.g. "sales_order"


_OWNERS: dict[type[Model], Owner] = {}
_SCOPABLE: set[str] = set()
# The request being served: the acting user's id when its route was granted on own rows only, and the
# user the auth class let through (None outside a request).
_own_request: ContextVar[int | None] = ContextVar("own_request", default=None)
_request_user: ContextVar[Any] = ContextVar("scope_user", default=None)


def declare_owner(model: type[Model], path: str, *, resource: str) -> None:
    """Say how a row of `model` belongs to a user; `resource`'s permissions may then be own-scoped."""
    _OWNERS[model] = Owner(path, resource)
    _SCOPABLE.add(resource)


def owner_of(model: type[Model]) -> Owner | None:
    return _OWNERS.get(model)


def owned_models() -> dict[type[Model], Owner]:
    return dict(_OWNERS)


def is_scopable(resource: str) -> bool:
    """Whether a resource's permissions can be granted on own rows (some model declares owners)."""
    return resource in _SCOPABLE


def split_code(code: str) -> tuple[str, str]:
    """`"sales_order.view:own"` -> `("sales_order.view", "own")`; a plain code's scope is "all"."""
    if code.endswith(OWN_SUFFIX):
        return code[: -len(OWN_SUFFIX)], OWN
    return code, ALL


def own_code(code: str) -> str:
    return f"{code}{OWN_SUFFIX}"


def scope_in(codes: Any, code: str, *, grants_all: bool = False) -> str | None:
    """The scope a set of granted codes gives `code`: "all", "own" or None (not granted)."""
    if grants_all or code in codes:
        return ALL
    if own_code(code) in codes:
        return OWN
    return None


def covers(held: set[str], code: str) -> bool:
    """Whether holding `held` covers granting `code` (the full grant covers its own-scoped one)."""
    base, scope = split_code(code)
    return code in held or (scope == OWN and base in held)


# --- the request's scope ----------------------------------------------------------------------------
def begin_request() -> tuple[Token[int | None], Token[Any]]:
    return _own_request.set(None), _request_user.set(None)


def end_request(tokens: tuple[Token[int | None], Token[Any]]) -> None:
    _own_request.reset(tokens[0])
    _request_user.reset(tokens[1])


def note_grant(user: Any, code: str | None) -> None:
    """Called by the auth class once it let a request through (on `code`, when the route names one)."""
    _request_user.set(user)
    if code and hasattr(user, "perm_scope") and user.perm_scope(code) == OWN:
        _own_request.set(user.pk)


def owner_id_for(model: type[Model]) -> int | None:
    """The user id whose rows of `model` this request may load, or None when it may load them all."""
    owner = _OWNERS.get(model)
    if owner is None:
        return None
    own = _own_request.get()
    if own is not None:
        return own
    user = _request_user.get()
    if user is None or not hasattr(user, "perm_scope"):
        return None
    if user.perm_scope(f"{owner.resource}.view") == OWN:
        return int(user.pk)
    return None


def scoped(qs: QuerySet[M]) -> QuerySet[M]:
    """The rows of `qs` this request may see (its own only, where the grant is own-scoped)."""
    user_id = owner_id_for(qs.model)
    if user_id is None:
        return qs
    return qs.filter(**{_OWNERS[qs.model].path: user_id})


def is_narrowed_to_owner(model: type[Model]) -> bool:
    return owner_id_for(model) is not None


def get_or_none(qs: QuerySet[M], pk: Any) -> M | None:
    """One row by primary key through the request's scope (None for another's row or no row)."""
    return scoped(qs).filter(pk=pk).first()


# --- not found ---------------------------------------------------------------------------------------
_NOT_FOUND: dict[type[Model], str] = {}


def declare_not_found(model: type[Model], sentence: str) -> None:
    """The sentence a 404 for `model` says, when it is not "<Verbose name> not found" (its Meta's
    verbose_name, which is the default): declared once, beside the model."""
    _NOT_FOUND[model] = sentence


def not_found_message(model: type[Model]) -> str:
    declared = _NOT_FOUND.get(model)
    if declared is not None:
        return declared
    name = str(model._meta.verbose_name)
    return f"{name[:1].upper()}{name[1:]} not found"


def not_found(model: type[Model], **extra: Any) -> ApiError:
    """The 404 of `model` (its one sentence), e.g. `raise not_found(SalesOrder)`."""
    return ApiError(404, not_found_message(model), **extra)


def get_or_404(qs: QuerySet[M] | type[M], pk: Any, message: str | None = None) -> M:
    """One row by primary key through the request's scope: another user's row is simply not found.
    `qs` may be the model itself; the 404 says the model's sentence unless `message` is given."""
    queryset: QuerySet[M] = qs._default_manager.all() if isinstance(qs, type) else qs
    obj = get_or_none(queryset, pk)
    if obj is None:
        raise ApiError(404, message or not_found_message(queryset.model))
    return obj
