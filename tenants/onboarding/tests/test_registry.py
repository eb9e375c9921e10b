"""The onboarding registry: steps in order, bool or StepState checks, a failing check shown as
attention, re-registering a key replaces it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tenants.onboarding import registry
from tenants.onboarding.registry import State, StepState, evaluate, register_step


@pytest.fixture
def only_test_steps(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An empty registry for the test; the installed apps' steps come back afterwards."""
    monkeypatch.setattr(registry, "_STEPS", {})
    yield


def _boom() -> bool:
    raise RuntimeError("table missing")


def test_steps_are_evaluated_in_order_with_their_state(only_test_steps: None) -> None:
    register_step("late", "Late", "d", "/late", 90, lambda: False)
    register_step("early", "Early", "d", "/early", 10, lambda: True)
    register_step("mid", "Mid", "d", "/mid", 50, lambda: StepState.attention("Reconnect"))

    results = evaluate()

    assert [(r.key, r.state, r.detail) for r in results] == [
        ("early", State.DONE, ""),
        ("mid", State.ATTENTION, "Reconnect"),
        ("late", State.TODO, ""),
    ]
    assert results[0].link == "/early" and results[0].title == "Early"


def test_a_detail_is_kept_and_a_failing_check_shows_attention(only_test_steps: None) -> None:
    register_step("map", "Map items", "d", "/map", 1, lambda: StepState.todo("3 of 12 items mapped"))
    register_step("broken", "Broken", "d", "/b", 2, _boom)

    by_key = {r.key: r for r in evaluate()}

    assert (by_key["map"].state, by_key["map"].detail) == (State.TODO, "3 of 12 items mapped")
    assert (by_key["broken"].state, by_key["broken"].detail) == (
        State.ATTENTION,
        "This step could not be checked.",
    )


def test_registering_a_key_again_replaces_the_step(only_test_steps: None) -> None:
    register_step("x", "Old", "d", "/old", 1, lambda: False)
    register_step("x", "New", "d", "/new", 1, lambda: True)

    [only] = evaluate()
    assert (only.title, only.link, only.state) == ("New", "/new", State.DONE)


def test_a_step_needs_an_spa_link(only_test_steps: None) -> None:
    with pytest.raises(ValueError, match="must be an SPA path"):
        register_step("x", "X", "d", "https://example.com", 1, lambda: True)
    assert evaluate() == []
