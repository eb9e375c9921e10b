"""A small keep-full simulation (100 tanks, a 60-day winter after a 60-day first season) through the
real engine: the forecast keeps every tank from running dry with larger drops than a fixed-interval
schedule tuned on the same tanks' last season. The full benchmark is
tests/bench/test_bench_forecast_sim.py; this guards the behaviour in `make test`."""

from __future__ import annotations

from datetime import date

import numpy as np

from tenants.forecast.engine.simulate import Season, climatology_normals, run_scenario, synthetic_temps


def test_forecast_keeps_tanks_full_with_bigger_drops_than_fixed_intervals():
    normals = climatology_normals(50.0, 22.0)
    last, this = date(2024, 12, 1), date(2025, 12, 1)
    history = Season(
        "last winter", last, synthetic_temps(last, 60, np.random.default_rng(1), 50.0, 22.0), normals
    )
    winter = Season("winter", this, synthetic_temps(this, 60, np.random.default_rng(2), 50.0, 22.0), normals)
    result = run_scenario("heating", 100, history, [winter], seed=5)
    season = result["seasons"]["winter"]
    engine, baseline = season["engine"]["all"], season["baseline"]["all"]
    assert engine["overloaded_days"] == 0  # the fleet's stops sufficed
    assert engine["runout_tank_days"] == 0
    assert engine["avg_drop_pct"] >= 65
    assert engine["avg_drop_pct"] > baseline["avg_drop_pct"]
    # What the fills taught: K within 10 % for the typical tank after three fills.
    assert result["param_error_after_fills"]["all"]["3"]["median_pct"] <= 10


def test_a_diesel_fleet_is_kept_full_on_calendar_usage():
    flat = climatology_normals()
    last, this = date(2024, 1, 1), date(2025, 1, 1)
    history = Season("last year", last, np.full(120, 50.0), flat)
    year = Season("year", this, np.full(60, 50.0), flat)
    result = run_scenario("diesel", 100, history, [year], seed=6, warmup_days=90)
    season = result["seasons"]["year"]
    engine, baseline = season["engine"]["all"], season["baseline"]["all"]
    assert engine["overloaded_days"] == 0
    assert engine["runout_tank_days"] == 0
    assert engine["avg_drop_pct"] > baseline["avg_drop_pct"]
