"""How a `PricingError` is answered over HTTP: the one mapping, used by every route that prices
(pricing's own, and through `services.as_http_error` those of sales, invoicing and purchasing).

- `unknown_customer`, `unknown_ship_to`, `unknown_product`, `unknown_fee`: **404**, the id the
  request named does not exist; **422** `"<field>: <sentence>"` when the caller says which body
  field the id came from (as every other check of a body field answers).
- `bad_ship_to`, `bad_quantity`, `bad_basis`: **422**, the request does not make sense (a ship-to of
  another customer, a negative quantity…).
- `no_price` and any other code: **409**, the data as it stands cannot price it (no price in force):
  the fix is in the data, not in the request.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.errors import ApiError

from tenants.pricing.engine import PricingError

NOT_FOUND_CODES = frozenset({"unknown_customer", "unknown_ship_to", "unknown_product", "unknown_fee"})
BAD_REQUEST_CODES = frozenset({"bad_ship_to", "bad_quantity", "bad_basis"})


def http_status(exc: PricingError, *, field: str | None = None) -> int:
    if exc.code in NOT_FOUND_CODES:
        return 422 if field else 404
    if exc.code in BAD_REQUEST_CODES:
        return 422
    return 409


def as_http_error(
    exc: PricingError, *, fields: Mapping[str, str] | None = None, prefix: str = ""
) -> ApiError:
    """The `ApiError` to raise for `exc`. `fields`: the body field each unknown id came from, by code
    (e.g. `{"unknown_fee": "fees"}`: that 404 becomes a 422 naming the field); `prefix`: what the
    caller was doing, before the sentence."""
    field = (fields or {}).get(exc.code)
    status = http_status(exc, field=field)
    lead = f"{field}: " if field and status == 422 else prefix
    return ApiError(status, f"{lead}{exc.message}")
