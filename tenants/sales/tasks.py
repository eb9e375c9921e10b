"""Background jobs of the sales domain."""

from __future__ import annotations

import core.dramatiq_setup  # noqa: F401
from core.jobs import tenant_actor


@tenant_actor
def reprice_after_rack_change(product_id: int, terminal_id: int | None, effective_from: str | None) -> None:
    """Reprice the draft orders whose lines of this product were priced from this terminal's rack (or
    had no price), planned from `effective_from` on. Verified orders keep their fixed prices. A line
    whose margin falls under its rule's minimum gets a note on its order. Idempotent: a redelivery
    reprices again to the same result."""
    from tenants.sales.services import reprice_for_rack

    reprice_for_rack(product_id=product_id, terminal_id=terminal_id, effective_from=effective_from)
