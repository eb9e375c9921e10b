"""Reads of the onboarding checklist."""

from __future__ import annotations

from typing import Any

from tenants.onboarding.registry import State, evaluate


def checklist() -> dict[str, Any]:
    """Every registered step with its state for the current company, and the progress."""
    results = evaluate()
    return {
        "steps": [
            {
                "key": r.key,
                "title": r.title,
                "description": r.description,
                "link": r.link,
                "state": r.state.value,
                "detail": r.detail,
            }
            for r in results
        ],
        "done": sum(1 for r in results if r.state == State.DONE),
        "total": len(results),
    }
