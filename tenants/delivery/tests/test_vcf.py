"""The table 6B volume correction factor against published readings and against the 1980 equations
evaluated by an independent implementation (plain floats, written from the standard's text)."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path

import pytest

from tenants.delivery.vcf import VcfInputError, net_volume, vcf

POINTS = json.loads((Path(__file__).parent / "vcf_points.json").read_text())["points"]


def independent_vcf(api: float, t: float, group: str) -> float:
    """Table 6B written again from API MPMS 11.1 (1980), without the module's code."""
    rho = 141.5 * 999.012 / (131.5 + api)
    if group == "transition":
        alpha = -0.00336312 + 2680.3206 / rho**2
    else:
        k0, k1 = {"gasoline": (192.4571, 0.2438), "jet": (330.3010, 0.0), "distillate": (103.8720, 0.2701)}[
            group
        ]
        alpha = k0 / rho**2 + k1 / rho
    d = t - 60.0
    return math.exp(-alpha * d * (1 + 0.8 * alpha * d))


@pytest.mark.parametrize("point", POINTS, ids=lambda p: f"{p['group']}-{p['api']}API-{p['temperature_f']}F")
def test_table_6b_points(point):
    got = vcf(Decimal(point["temperature_f"]), Decimal(point["api"]), point["group"])
    assert got == Decimal(point["vcf"]), point["source"]
    # and the independent implementation agrees to the table's 4 decimals
    other = independent_vcf(float(point["api"]), float(point["temperature_f"]), point["group"])
    assert abs(float(got) - other) <= 0.00005


def test_published_points_cover_two_groups():
    published = [p for p in POINTS if p["source"].startswith("published")]
    assert len(published) >= 2
    assert {p["group"] for p in POINTS} >= {"gasoline", "distillate", "jet", "transition"}


@pytest.mark.parametrize("group", ["gasoline", "distillate", "jet", "transition"])
def test_grid_agrees_with_independent_implementation(group):
    apis = {"gasoline": (52, 85), "distillate": (10, 37), "jet": (37, 48), "transition": (48, 52)}[group]
    for api in range(apis[0], apis[1] + 1):
        for t in range(0, 121, 5):
            got = vcf(Decimal(t), Decimal(api), group)
            assert abs(float(got) - independent_vcf(api, t, group)) <= 0.00005, (api, t)


def test_warm_fuel_shrinks_cold_fuel_grows():
    assert (
        vcf(Decimal("85"), Decimal("35"), "distillate") < 1 < vcf(Decimal("20"), Decimal("35"), "distillate")
    )
    # gasoline expands more than diesel for the same warming
    assert vcf(Decimal("85"), Decimal("60"), "gasoline") < vcf(Decimal("85"), Decimal("35"), "distillate")


def test_net_volume_rounds_to_a_tenth_half_up():
    # 1000 gal of 35 API diesel at 80 °F: VCF 0.9907 → 990.7 net gallons
    assert net_volume(Decimal("1000"), Decimal("80"), Decimal("35"), "distillate") == Decimal("990.7")
    # 2987.4 x 0.9907 = 2959.61... → 2959.6
    assert net_volume(Decimal("2987.4"), Decimal("80"), Decimal("35"), "distillate") == Decimal("2959.6")
    assert net_volume(Decimal("1512"), Decimal("75"), Decimal("63"), "gasoline") == Decimal("1496.1")


def test_no_correction_group():
    assert vcf(Decimal("95"), Decimal("35"), "none") == Decimal("1.0000")
    assert net_volume(Decimal("12.5"), Decimal("95"), Decimal("35"), "none") == Decimal("12.5")


@pytest.mark.parametrize(
    ("t", "api", "group"),
    [
        ("301", "35", "distillate"),
        ("-51", "35", "distillate"),
        ("70", "101", "gasoline"),
        ("70", "-1", "jet"),
        ("70", "35", "crude"),
    ],
)
def test_out_of_range_inputs_are_refused(t, api, group):
    with pytest.raises(VcfInputError):
        vcf(Decimal(t), Decimal(api), group)
