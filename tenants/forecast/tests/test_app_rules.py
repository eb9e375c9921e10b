"""The app's own rules without a database: levels from a reading, usable capacity and reorder point,
usage intervals from known levels, overrides, and how quantities are written in messages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from core.errors import ApiError

from tenants.forecast import forecasting
from tenants.forecast.engine import usage
from tenants.forecast.models import TankSettings
from tenants.forecast.services import _level, num
from tenants.parties.models import CustomerAsset


def tank(capacity: str | None = "1000") -> CustomerAsset:
    return CustomerAsset(asset_name="House tank", capacity=D(capacity) if capacity else None)


def test_a_level_in_percent_is_of_the_capacity_and_rounded_to_the_cent():
    assert _level({"level_percent": D("24")}, tank()) == (D("240.00"), D("24.00"))
    assert _level({"level_percent": D("33.33")}, tank("550")) == (D("183.32"), D("33.33"))  # 183.3315
    assert _level({"level_gallons": D("125")}, tank("300")) == (D("125.00"), D("41.67"))


@pytest.mark.parametrize(
    ("data", "capacity", "detail"),
    [
        ({"level_percent": D("140")}, "1000", "level_percent: 140 % is above 100 %: a tank cannot hold more than its capacity."),  # noqa: E501
        ({"level_percent": D("-0.5")}, "1000", "level_percent: -0.5 % is negative: a level is 0 to 100 %."),
        ({"level_gallons": D("1000.01")}, "1000", "level_gallons: 1000.01 gal is above the tank's capacity (1000 gal)."),  # noqa: E501
        ({"level_gallons": D("-1")}, "1000", "level_gallons: -1 gal is negative."),
        ({"level_percent": D("50")}, None, "asset: tank 'House tank' has no capacity: set its capacity before recording levels."),  # noqa: E501
        ({"level_percent": D("50"), "level_gallons": D("5")}, "1000", "level_percent: send level_percent or level_gallons, not both."),  # noqa: E501
    ],
)  # fmt: skip
def test_impossible_levels_are_refused_naming_the_field(data, capacity, detail):
    with pytest.raises(ApiError) as err:
        _level(data, tank(capacity))
    assert err.value.status_code == 422 and err.value.message == detail


def test_usable_capacity_and_reorder_point():
    s = TankSettings(max_fill_percent=D("80"))
    assert forecasting.usable_gallons(D("1000"), s) == D("800.00")
    assert forecasting.reorder_gallons(D("1000"), s) == D("250.00")  # 25 % of capacity by default
    s = TankSettings(max_fill_percent=D("90"), reorder_percent=D("33.3"))
    assert forecasting.usable_gallons(D("333"), s) == D("299.70")
    assert forecasting.reorder_gallons(D("333"), s) == D("110.89")  # 110.889 half up
    s = TankSettings(max_fill_percent=D("90"), reorder_gallons=D("120"))
    assert forecasting.reorder_gallons(D("333"), s) == D("120")
    assert forecasting.usable_gallons(None, s) is None and forecasting.usable_gallons(D("0"), s) is None


def test_usage_intervals_run_from_one_known_level_to_the_next():
    def at(day: int) -> dt.datetime:
        return dt.datetime(2026, 1, day, 9, tzinfo=dt.UTC)

    E = forecasting.Event
    events = [
        E(dt.date(2026, 1, 1), at(1), 100.0, 800.0, "delivery"),  # a fill: 100 before, 800 after
        E(dt.date(2026, 1, 11), at(11), 560.0, 560.0, "reading"),
        E(dt.date(2026, 1, 11), at(11), 555.0, 555.0, "reading"),  # same day: no interval
        E(dt.date(2026, 1, 21), at(21), 300.0, 800.0, "delivery"),
    ]
    got = [(iv.start.day, iv.end.day, iv.gallons_used, iv.source) for iv in forecasting.intervals(events)]
    assert got == [(1, 11, 240.0, "reading"), (11, 21, 255.0, "reading")]
    fills = [events[0], events[3]]
    assert [(iv.days, iv.gallons_used, iv.source) for iv in forecasting.intervals(fills)] == [
        (20, 500.0, "fill")
    ]


def test_an_override_replaces_the_fitted_values():
    prior = usage.typical_params("residential_heating")
    fit = usage.fit_usage([], {}, "weather", prior)
    s = TankSettings(usage_model="weather", k_factor_override=D("4.5"))
    over, overridden = forecasting.apply_overrides(fit, s)
    assert overridden and over.params.k_factor == 4.5 and over.params.baseload == prior.baseload
    assert over.low.k_factor > 4.5 > over.high.k_factor and over.method == "override"
    same, touched = forecasting.apply_overrides(fit, TankSettings(usage_model="weather"))
    assert same is fit and not touched
    cal = usage.fit_usage([], {}, "calendar", usage.typical_params("farm_diesel"))
    over, _ = forecasting.apply_overrides(
        cal, TankSettings(usage_model="calendar", daily_rate_override=D("22"))
    )
    assert over.params.daily_rate == 22.0 and over.params.weekday_profile == cal.params.weekday_profile


def test_quantities_in_messages_are_written_as_people_write_them():
    assert [num(D(v)) for v in ("1000.00", "12.50", "0.5", "-5", "140")] == [
        "1000",
        "12.5",
        "0.5",
        "-5",
        "140",
    ]
