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


def pytest_collection_modifyitems(items):
    # pytest-django creates its test database only for tests marked django_db; without the mark a
    # benchmark would run against the configured (real) database.
    for item in items:
        item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture(scope="session")
def committed(django_db_setup, django_db_blocker):
    """Database access outside any test transaction: what a benchmark writes is committed."""
    from django.db import connection

    name = str(connection.settings_dict["NAME"])
    assert name.startswith("test_"), f"benchmarks only run in a test database, not {name!r}"
    with django_db_blocker.unblock():
        from tenancy.services import ensure_template

        ensure_template()
        yield
