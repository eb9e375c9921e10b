"""Net volume at 60 °F: the volume correction factor (VCF, "CTL") for refined products of
API MPMS chapter 11.1 — 1980 edition, table 6B (ASTM D1250-80, API Std 2540, IP 200), the basis of
US net-gallon fuel billing.

    rho   = 141.5 * 999.012 / (131.5 + API)                    density at 60 °F, kg/m³
    alpha = K0 / rho² + K1 / rho                                per °F, the product group's K0, K1
            (transition zone: alpha = A + B / rho²)
    dT    = T - 60                                              °F
    VCF   = exp(-alpha * dT * (1 + 0.8 * alpha * dT))           rounded to 4 decimals, as table 6B prints

Inputs are rounded as the tables are entered: API gravity to 0.1°, temperature to 0.1 °F. 999.012 kg/m³
is the density of water at 60 °F used by the 1980 edition (the 2004 edition uses 999.016; the
difference moves alpha by 4 ppm, never the 4th decimal of a VCF in the delivery range).

Net gallons = gross * VCF, rounded to 0.1 gallon (the tenth a meter registers), half up.
The same formula runs in the browser for the live figure of the entry screens (spa/src/lib/vcf.ts);
both are tested against the same points.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

ProductGroup = Literal["gasoline", "distillate", "jet", "transition", "none"]
GROUPS: tuple[str, ...] = ("gasoline", "distillate", "jet", "transition", "none")

WATER_DENSITY_60F = 999.012  # kg/m³, 1980 edition
# (K0, K1): alpha = K0/rho² + K1/rho
CONSTANTS: dict[str, tuple[float, float]] = {
    "gasoline": (192.4571, 0.2438),
    "jet": (330.3010, 0.0),
    "distillate": (103.8720, 0.2701),
}
# Transition zone (between jet fuels and gasolines): alpha = A + B/rho²
TRANSITION_A = -0.00336312
TRANSITION_B = 2680.3206

MIN_TEMPERATURE_F = Decimal("-50")
MAX_TEMPERATURE_F = Decimal("300")
MIN_API = Decimal("0")
MAX_API = Decimal("100")
ONE = Decimal("1")
VCF_PLACES = Decimal("0.0001")
NET_PLACES = Decimal("0.1")


class VcfInputError(ValueError):
    """An input outside what the tables cover (the message says which)."""


def density_60f(api_gravity: Decimal) -> float:
    """Density at 60 °F in kg/m³ of a product of this API gravity."""
    api = float(api_gravity.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    return 141.5 * WATER_DENSITY_60F / (131.5 + api)


def alpha_60f(api_gravity: Decimal, group: str) -> float:
    """The coefficient of thermal expansion at 60 °F (per °F) of the product group."""
    rho = density_60f(api_gravity)
    if group == "transition":
        return TRANSITION_A + TRANSITION_B / (rho * rho)
    try:
        k0, k1 = CONSTANTS[group]
    except KeyError:
        raise VcfInputError(f"Unknown product group '{group}': use one of {', '.join(GROUPS)}.") from None
    return k0 / (rho * rho) + k1 / rho


def _check(temperature_f: Decimal, api_gravity: Decimal) -> None:
    if not temperature_f.is_finite() or not MIN_TEMPERATURE_F <= temperature_f <= MAX_TEMPERATURE_F:
        raise VcfInputError(
            f"The temperature must be between {MIN_TEMPERATURE_F} and {MAX_TEMPERATURE_F} °F."
        )
    if not api_gravity.is_finite() or not MIN_API <= api_gravity <= MAX_API:
        raise VcfInputError(f"The API gravity must be between {MIN_API} and {MAX_API}.")


def vcf(temperature_f: Decimal, api_gravity: Decimal, product_group: str) -> Decimal:
    """The table 6B volume correction factor (4 decimals) from `temperature_f` to 60 °F.
    Group `none`: no correction (1.0000)."""
    if product_group == "none":
        return Decimal("1.0000")
    _check(temperature_f, api_gravity)
    alpha = alpha_60f(api_gravity, product_group)
    dt = float(temperature_f.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)) - 60.0
    factor = math.exp(-alpha * dt * (1.0 + 0.8 * alpha * dt))
    # repr → Decimal keeps the float's shortest exact digits, then round half up like the tables.
    return Decimal(repr(factor)).quantize(VCF_PLACES, rounding=ROUND_HALF_UP)


def net_volume(gross: Decimal, temperature_f: Decimal, api_gravity: Decimal, group: str) -> Decimal:
    """Gross gallons at `temperature_f` → net gallons at 60 °F (0.1 gal, half up)."""
    if gross < 0:
        raise VcfInputError("The gross volume cannot be negative.")
    return (gross * vcf(temperature_f, api_gravity, group)).quantize(NET_PLACES, rounding=ROUND_HALF_UP)
