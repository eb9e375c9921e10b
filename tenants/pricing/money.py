"""Money and unit prices: the one place they are rounded. Every app imports these (sales, invoicing,
purchasing, dashboard, documents, billparse and the pricing engine itself) instead of writing its
own `quantize`.

Rounding (docs/pricing.md): ROUND_HALF_UP always; money to the cent (2 dp), unit prices to 4 dp
(after a pricing rule's own rounding step). A line's tax is the sum of its per-tax amounts, each
already rounded to the cent by the engine (`PricedLine.tax_amount`), so a document's totals are the
exact sums of what it shows.

Pure: no ORM, no Django; only `decimal`.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
UNIT = Decimal("0.0001")
ZERO = Decimal("0")
HUNDRED = Decimal("100")


def money(value: Decimal) -> Decimal:
    """An amount of money: half-up to the cent."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def unit(value: Decimal) -> Decimal:
    """A unit price: half-up to 4 dp."""
    return value.quantize(UNIT, rounding=ROUND_HALF_UP)


def round_to_step(value: Decimal, step: Decimal) -> Decimal:
    """Half-up to a multiple of `step` (e.g. 0.001, 0.01, 0.05), then to 4 dp."""
    if step <= 0:
        return unit(value)
    steps = (value / step).quantize(Decimal("1"), rounding=ROUND_HALF_UP)
    return unit(steps * step)


def line_amount(quantity: Decimal, unit_price: Decimal) -> Decimal:
    """quantity x unit price, to the cent (a document line's amount)."""
    return money(quantity * unit_price)
