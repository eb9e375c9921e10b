"""The onboarding checklist's registry: each app that owns a setup step registers it here.

The page `/onboarding` (`GET /api/onboarding`) lists the registered steps in `order`, each
with a state computed from the company's real data when the page is read. An app registers its
steps from its `AppConfig.ready()`, so the page grows with the apps that are installed::

    # tenants/<app>/apps.py
    class QuickbooksConfig(AppConfig):
        def ready(self) -> None:
            from tenants.onboarding.registry import StepState, register_step
            from tenants.<app> import selectors

            def connected() -> StepState:
                conn = selectors.connection_summary()      # one cheap query, current tenant
                if conn is None:
                    return StepState.todo()
                if conn.needs_reconnect:
                    return StepState.attention("Reconnect: the connection was revoked or expired")
                return StepState.done(conn.company_name)

            register_step(
                key="quickbooks",                     # unique, stable (the SPA and tests use it)
                title="Connect QuickBooks Online",    # short imperative
                description="Invoices, customers and payments sync with your books.",
                link="/quickbook-online",             # the SPA screen where the user does it
                order=80,                             # position in the list (see ORDER below)
                check=connected,                      # () -> bool | StepState
            )

The check:

- runs inside the request, with the tenant's schema active; it takes no arguments;
- must be cheap: one or two EXISTS/COUNT queries through the app's own selectors/models
  (`tests` of this app assert the query count of the whole page);
- returns `True`/`False` (done/todo) or a `StepState` (`done`, `todo` or `attention`, with an
  optional `detail` shown under the step, e.g. "3 of 12 items mapped", and an optional `link`
  that replaces the step's link for this answer, e.g. the screen of the part still missing);
- should not raise: an exception is logged and the step shows as `attention` with
  "This step could not be checked." (the rest of the page still answers).

Orders used by the built-in steps (leave gaps; pick a free number between them):
10 company profile and logo, 20 first customer with a ship-to, 30 products, 40 taxes,
50 a price, 60 a truck and a driver, 70 an invoice template, 80 QuickBooks connected,
85 QuickBooks items mapped, 90 mail connected, 100 first order delivered and invoiced.

Registering a key again replaces the step (ready() may run more than once in tests).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

log = logging.getLogger(__name__)


class State(StrEnum):
    DONE = "done"
    TODO = "todo"
    ATTENTION = "attention"  # was done, needs the user again (e.g. "Reconnect")


@dataclass(frozen=True)
class StepState:
    state: State
    detail: str = ""
    # Overrides the step's link for this answer (e.g. the screen of the part still missing).
    link: str = ""

    @classmethod
    def done(cls, detail: str = "", link: str = "") -> StepState:
        return cls(State.DONE, detail, link)

    @classmethod
    def todo(cls, detail: str = "", link: str = "") -> StepState:
        return cls(State.TODO, detail, link)

    @classmethod
    def attention(cls, detail: str = "", link: str = "") -> StepState:
        return cls(State.ATTENTION, detail, link)


Check = Callable[[], "bool | StepState"]


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    description: str
    link: str
    order: int
    check: Check


@dataclass(frozen=True)
class StepResult:
    key: str
    title: str
    description: str
    link: str
    state: State
    detail: str


_STEPS: dict[str, Step] = {}


def register_step(
    key: str,
    title: str,
    description: str,
    link: str,
    order: int,
    check: Check,
) -> None:
    """Add (or replace, by `key`) one step of the onboarding checklist. See the module docstring."""
    if not key or not title:
        raise ValueError("An onboarding step needs a key and a title.")
    if not link.startswith("/"):
        raise ValueError(f"The link of onboarding step {key!r} must be an SPA path starting with '/'.")
    _STEPS[key] = Step(key=key, title=title, description=description, link=link, order=order, check=check)


def unregister_step(key: str) -> None:
    """Remove a step (tests that register temporary steps clean up with it)."""
    _STEPS.pop(key, None)


def registered_steps() -> list[Step]:
    return sorted(_STEPS.values(), key=lambda s: (s.order, s.key))


def _state_of(step: Step) -> StepState:
    try:
        outcome = step.check()
    except Exception:
        log.exception("onboarding step %s could not be checked", step.key)
        return StepState.attention("This step could not be checked.")
    if isinstance(outcome, StepState):
        return outcome
    return StepState.done() if outcome else StepState.todo()


def evaluate() -> list[StepResult]:
    """Every registered step with its state for the current tenant, in order."""
    results = []
    for step in registered_steps():
        state = _state_of(step)
        results.append(
            StepResult(
                key=step.key,
                title=step.title,
                description=step.description,
                link=state.link or step.link,
                state=State(state.state),
                detail=state.detail,
            )
        )
    return results
