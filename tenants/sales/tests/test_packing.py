"""Compartment packing (pure): one product per compartment, what does not fit is over capacity."""

from decimal import Decimal as D

from tenants.sales.dispatch import Compartment, pack


def comps(*caps: int) -> list[Compartment]:
    return [Compartment("T1", i, D(c)) for i, c in enumerate(caps, start=1)]


def test_each_product_takes_the_smallest_compartment_that_holds_it():
    p = pack(comps(3000, 2000, 1000), {1: D("900"), 2: D("1900")})
    assert p.fits
    assert [(c.number, c.product_id, c.quantity) for c in p.compartments] == [
        (1, None, 0),
        (2, 2, D("1900")),
        (3, 1, D("900")),
    ]


def test_a_product_spreads_over_several_compartments():
    p = pack(comps(3000, 2000), {7: D("4500")})
    assert p.fits and sum(c.quantity for c in p.compartments) == D("4500")


def test_two_products_never_share_a_compartment():
    p = pack(comps(5000), {1: D("100"), 2: D("100")})
    assert not p.fits and p.overflow == {2: D("100")}


def test_over_capacity_and_no_compartments():
    assert pack(comps(1000), {1: D("1000.5")}).overflow == {1: D("0.5")}
    assert pack([], {1: D("1")}).overflow == {1: D("1")}
    assert pack([], {}).fits
