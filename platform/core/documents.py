"""The document kit: what the document domains (sales orders, purchase orders, bills, invoices,
delivery tickets) share, so a new document (a credit memo) is declared, not copied.

- `DocumentHeader`: the header fields every one of them has (status-independent totals and who made
  it). A document model subclasses it and declares its own number, status, dates and parties.
- `document_number` / `document_status`: the number field (unique, never reused) and the status field
  of a document, the same column everywhere.
- `replace_lines`: a document's lines (or fees, charges…) become exactly the list sent: rows naming an
  id are updated, the rest added, the others deleted, each at its position; the caller's `fill` sets
  one line's fields (and refuses bad ones), and `then` re-prices the document afterwards.
- `action_route` / `require_move`: a workflow move names its permission in the machine's table
  (`core.workflow.move(..., permission=...)`); the API route's path and auth come from it, and a
  route that picks the move at run time (the status call) checks it with `require_move`.
- The timeline is `core.workflow` (`event_recorder`, `record_event`, `WorkflowEventOut`, `timeline`),
  the 404 of a row `core.scoping.get_or_404` with the model's one sentence (`declare_not_found`).

`core` imports no app: the user model is named through the USER_MODEL setting.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from decimal import Decimal
from typing import Any, TypeVar

from django.conf import settings
from django.db import models

from core.errors import ApiError
from core.models import Timestamped
from core.permissions import denial_message, perm
from core.workflow import Machine

ZERO = Decimal("0")

L = TypeVar("L", bound=models.Model)
R = TypeVar("R")


class DocumentHeader(Timestamped):
    """The fields every document header holds: its money totals (stored, kept in step by the
    services, so lists read them without recomputing) and the user who made it. Money is 2 dp."""

    subtotal = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    tax_total = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    total = models.DecimalField(max_digits=14, decimal_places=2, default=ZERO)
    created_by = models.ForeignKey(
        settings.USER_MODEL, on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        abstract = True


def document_number(example: str) -> models.CharField:
    """A document's own number (`SO-000123`): unique in the company, never reused
    (`tenants.sequences.services.next_number` hands them out). `example` is the help text's number."""
    return models.CharField(max_length=30, unique=True, help_text=f"{example}, per company, never reused")


def document_status(status: type[models.TextChoices]) -> models.CharField:
    """A document's workflow status (moved by its `core.workflow.Machine` only), draft first."""
    return models.CharField(max_length=20, choices=status.choices, default=status.values[0])


# --- lines -----------------------------------------------------------------------------------------
def row_id(raw: Any) -> Any:
    """The id a sent line names (None: a new line)."""
    return raw.get("id") if isinstance(raw, dict) else getattr(raw, "id", None)


def replace_lines(
    lines: Any,
    rows: Sequence[R],
    *,
    new: Callable[[R], L],
    fill: Callable[[L, R], None],
    unknown: Callable[[Any], str] | None = None,
    key: Callable[[R], Hashable | None] = row_id,
    key_field: str = "pk",
    then: Callable[[], Any] | None = None,
    save: bool = True,
) -> list[L]:
    """Make a document's lines exactly `rows`, in their order; answer the saved lines.

    `lines` is the document's related manager (`order.line_items`). Each row's `key` names an
    existing line by `key_field` (default: the line's id); a row naming none is a new line (`new(row)`,
    unsaved). A key that names no line is refused with `unknown(key)` (a 422) or, without `unknown`,
    makes a new line (a ticket's lines follow the order's by their order line). `fill(line, row)` sets
    the line's fields (and raises its own 422 for a bad row); the kit sets `position` (1, 2, …),
    saves, and deletes the lines no row named. `then()` runs after (re-price the document). With
    `save=False` the lines are answered unsaved (the caller prices them and writes each one once)."""
    existing = {getattr(line, key_field): line for line in lines.all()}
    kept: list[Any] = []
    saved: list[L] = []
    for position, raw in enumerate(rows, start=1):
        named = key(raw)
        line = existing.get(named) if named is not None else None
        if line is None:
            if named is not None and unknown is not None:
                raise ApiError(422, unknown(named))
            line = new(raw)
        setattr(line, "position", position)  # noqa: B010 - every line model has a position
        fill(line, raw)
        if save:
            line.save()
        if getattr(line, key_field) is not None:
            kept.append(getattr(line, key_field))
        saved.append(line)
    lines.exclude(**{f"{key_field}__in": kept}).delete()
    if then is not None:
        then()
    return saved


# --- the action table's routes -----------------------------------------------------------------------
def action_route(machine: Machine, action: str, *, prefix: str = "") -> dict[str, Any]:
    """The route of a user's move, from the machine's table: `path` (`<prefix>/{int:id}/<move's
    path>`) and `auth` (its permission). `@router.post(**action_route(MACHINE, "assign"), ...)`."""
    return {"path": f"{prefix}/{{int:id}}/{machine.get(action).path}", "auth": perm(machine.code(action))}


def require_move(user: Any, machine: Machine, action: str) -> None:
    """403 unless `user` holds the permission of `action` (a route that picks its move at run time)."""
    code = machine.code(action)
    if user is None or not user.has_perm(code):
        raise ApiError(403, denial_message(code))


def codes(machine: Machine, base: Iterable[str] = ("view", "add", "change", "delete")) -> tuple[str, ...]:
    """The permission actions of a document resource: the CRUD ones, then its moves' (for
    `core.permissions.register_resource`)."""
    return machine.permission_codes(base)
