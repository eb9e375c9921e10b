"""The state machine kit shared by every document workflow (sales order, purchase order, bill,
invoice, delivery ticket): a transition table, a guarded move under a row lock, and a hook that
records each move.

A workflow module declares its `Machine` (the table) and one service function per action, each
calling `transition(...)`. The table is also the action table of the API: a move a user makes names
its permission (`move(..., permission="verify")` on a machine of `resource="sales_order"`: the code
`sales_order.verify`), and `core.documents.action_route` derives the route's path and auth from it;
moves without one are the system's (a payment settling an invoice) and are not offered to users.
`status_calls` is the spec's `PUT …/status?status=` call: the status asked for → the moves it means.

The move locks the document's row (`SELECT … FOR UPDATE`) and re-reads its status, so of two
concurrent moves on one document the second sees the first's result and gets a 409 naming the current
status and the moves allowed now. Payloads carry `machine.allowed(status)`, so a client never copies
the table.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import models, transaction
from ninja import Schema

from core.errors import ApiError
from core.models import WorkflowEvent, actor_name


@dataclass(frozen=True)
class Move:
    action: str  # e.g. "verify"
    sources: frozenset[str]  # statuses it may start from
    target: str  # the status it ends in (may equal a source: a move that records without changing)
    label: str = ""  # what a button says, e.g. "Verify"
    error: str = ""  # the sentence of a refused move, e.g. "Error verifying sales order"
    permission: str = ""  # the resource's action a user needs ("verify"); "" = a move the system makes
    path: str = ""  # the API route's last segment (default: the action with dashes, "start-delivery")


def move(
    action: str,
    sources: Iterable[str],
    target: str,
    label: str = "",
    error: str = "",
    *,
    permission: str = "",
    path: str = "",
) -> Move:
    return Move(
        action,
        frozenset(sources),
        target,
        label or action.replace("_", " ").capitalize(),
        error,
        permission,
        path or action.replace("_", "-"),
    )


# record(obj, move, from_status, to_status, by, details): stores one move of the document's timeline.
Recorder = Callable[[Any, Move, str, str, Any, dict[str, Any]], None]


class WorkflowEventOut(Schema):
    """A row of a document's timeline, as every workflow's payload shows it."""

    id: int
    action: str
    from_status: str
    to_status: str
    by_id: int | None
    by_name: str
    at: dt.datetime
    details: dict[str, Any]


def record_event(
    model: type[WorkflowEvent],
    document: Any,
    *,
    action: str,
    from_status: str,
    to_status: str,
    by: Any,
    details: dict[str, Any],
) -> WorkflowEvent:
    """Store one row of a document's timeline (also for the moves outside the table, e.g. "create")."""
    return model._default_manager.create(  # abstract here: each concrete timeline has its manager
        **{model.document_field: document},
        action=action,
        from_status=from_status,
        to_status=to_status,
        by=by if getattr(by, "pk", None) else None,
        by_name=actor_name(by),
        details=details,
    )


def event_recorder(model: type[WorkflowEvent]) -> Recorder:
    """The `Machine.record` hook that writes each move into `model` (a `WorkflowEvent` subclass)."""

    def record(
        document: Any, mv: Move, from_status: str, to_status: str, by: Any, details: dict[str, Any]
    ) -> None:
        record_event(
            model,
            document,
            action=mv.action,
            from_status=from_status,
            to_status=to_status,
            by=by,
            details=details,
        )

    return record


@dataclass
class Machine:
    """A workflow's transition table. `statuses` in their natural order (for boards and docs)."""

    name: str  # "sales order": used in messages
    statuses: Sequence[str]
    moves: Sequence[Move]
    status_field: str = "status"
    record: Recorder | None = None
    resource: str = ""  # the permission resource of the moves' `permission`s, e.g. "sales_order"
    # The status call (`PUT …/status?status=`): a status → the moves that reach it, tried in order.
    status_calls: Mapping[str, Sequence[str]] = field(default_factory=dict)
    _by_action: dict[str, Move] = field(init=False, default_factory=dict)
    # The moves open from each status, computed once (lists read them for every row).
    _open: dict[str, tuple[tuple[str, str, str], ...]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for m in self.moves:
            if m.action in self._by_action:
                raise ValueError(f"duplicate action {m.action!r} in the {self.name} workflow")
            unknown = (m.sources | {m.target}) - set(self.statuses)
            if unknown:
                raise ValueError(f"{m.action}: unknown statuses {sorted(unknown)}")
            self._by_action[m.action] = m
            if m.permission and not self.resource:
                raise ValueError(f"{m.action}: a move with a permission needs the machine's resource")
        for status, actions in self.status_calls.items():
            unknown_actions = [a for a in actions if a not in self._by_action]
            if status not in self.statuses or unknown_actions or not actions:
                raise ValueError(f"status call {status!r}: unknown status or actions {unknown_actions}")
        self._open = {
            s: tuple((m.action, m.target, m.label) for m in self.moves if s in m.sources)
            for s in self.statuses
        }

    def get(self, action: str) -> Move:
        return self._by_action[action]

    def allowed(self, status: str) -> list[Move]:
        return [m for m in self.moves if status in m.sources]

    def allowed_actions(self, status: str) -> list[dict[str, str]]:
        """The moves open from `status`, as payloads carry them (fresh dicts: callers may change them)."""
        opened = self._open.get(status)
        if opened is None:
            opened = tuple((m.action, m.target, m.label) for m in self.allowed(status))
        return [{"action": a, "to": t, "label": label} for a, t, label in opened]

    def user_actions(self, status: str) -> list[dict[str, str]]:
        """The moves a user may ask for from `status` (those naming a permission), as payloads carry them."""
        return [a for a in self.allowed_actions(status) if self._by_action[a["action"]].permission]

    def code(self, action: str) -> str:
        """The permission code a user needs for `action`, e.g. "sales_order.verify"."""
        mv = self.get(action)
        if not mv.permission:
            raise ValueError(f"{action}: a move of the system, no user permission")
        return f"{self.resource}.{mv.permission}"

    def permission_codes(self, base: Iterable[str] = ()) -> tuple[str, ...]:
        """`base` then the moves' permissions, each once, in table order (for `register_resource`)."""
        return tuple(dict.fromkeys([*base, *(m.permission for m in self.moves if m.permission)]))

    def status_action(self, status: str, current: str | None = None) -> str | None:
        """The move a status call for `status` means from `current`: the first of its moves open from
        there, else its first (which then refuses with the 409); None when `status` has no call."""
        actions = self.status_calls.get(status)
        if not actions:
            return None
        return next((a for a in actions if current in self.get(a).sources), actions[0])

    def action_to(self, status: str, target: str) -> Move | None:
        """The move that takes a document from `status` to `target` (a board's drop), if any."""
        return next((m for m in self.allowed(status) if m.target == target), None)

    def refusal(self, move: Move, status: str) -> ApiError:
        allowed = self.allowed(status)
        moves = ", ".join(f"{m.action} (→ {m.target})" for m in allowed) or "none"
        head = move.error or f"Cannot {move.action.replace('_', ' ')} this {self.name}"
        detail = f"{head}: the {self.name} is {status.replace('_', ' ')}; allowed now: {moves}."
        return ApiError(
            409,
            detail,
            current_status=status,
            allowed_actions=self.allowed_actions(status),
        )


M = TypeVar("M", bound=models.Model)


def locked(obj: M) -> M:
    """The same row, re-read under a row lock (must be inside a transaction)."""
    return type(obj)._default_manager.select_for_update().get(pk=obj.pk)


def transition(
    obj: M,
    action: str,
    *,
    machine: Machine,
    by: Any = None,
    check: Callable[[M], dict[str, Any] | None] | None = None,
    apply: Callable[[M], None] | None = None,
    details: dict[str, Any] | None = None,
) -> M:
    """Move `obj` by `action`: lock its row, check the move is open from its current status, run
    `check` (may raise; may answer details to record), `apply` (changes beyond the status), save, and
    record the move. Returns the locked, saved object. Runs in (or opens) a transaction."""
    mv = machine.get(action)
    with transaction.atomic():
        current = locked(obj)
        status = getattr(current, machine.status_field)
        if status not in mv.sources:
            raise machine.refusal(mv, status)
        recorded = dict(details or {})
        if check is not None:
            recorded.update(check(current) or {})
        if apply is not None:
            apply(current)
        setattr(current, machine.status_field, mv.target)
        current.save()
        if machine.record is not None:
            machine.record(current, mv, status, mv.target, by, recorded)
    return current


def timeline(document: Any) -> list[Any]:
    """A document's recorded moves, oldest first (its event model's `related_name="events"`)."""
    return list(document.events.all())
