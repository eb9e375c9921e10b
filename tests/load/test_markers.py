"""A smoke test of the load test's checks (the load itself is `make load`, never part of `make test`)."""

import os
import subprocess
import sys
from pathlib import Path

from tests.load.markers import crossed_markers, tag

ROOT = Path(__file__).resolve().parents[2]


def test_an_answer_with_another_companys_marker_is_crossed() -> None:
    own = tag(7)
    assert own == "LD007"
    assert crossed_markers('{"items": [{"name": "Gulf Freight Lines [LD007]"}]}', own) == set()
    assert crossed_markers("name\nMarker [LD007]\nAlamo Aggregates [LD012]\n", own) == {"LD012"}
    assert crossed_markers("LD012 without brackets is an account number, not a marker", own) == set()


def test_the_locustfile_loads_with_its_users() -> None:
    """In a process of its own: importing locust patches the standard library with gevent."""
    code = (
        "import tests.load.locustfile as f; "
        "assert {f.OfficeUser.weight, f.DriverUser.weight} == {9, 1}; "
        "print(sorted(n for n in vars(f.OfficeUser) if not n.startswith('_')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    for task in ("search_customers", "create_sales_order", "board_drag", "record_payment", "invoice_pdf"):
        assert task in out.stdout
