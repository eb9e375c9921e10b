"""Benchmarks run on demand (`make bench`), never in `make test`. They commit real rows in the test
database that pytest-django creates, and print their figures."""

import json
import os
import platform
from pathlib import Path

import pytest

RESULTS = Path(os.environ.get("BENCH_RESULTS", "var/bench-results.json"))


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


@pytest.fixture(scope="session")
def record():
    results: dict = {"machine": machine()}
    yield results
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    print(f"\nBenchmark results written to {RESULTS}")


@pytest.fixture(scope="session")
def committed(django_db_setup, django_db_blocker):
    """Database access outside any test transaction: what a benchmark writes is committed."""
    with django_db_blocker.unblock():
        from tenancy.services import ensure_template

        ensure_template()
        yield
