"""core.sandbox: work on untrusted input runs in a child under memory, CPU and time limits."""

from __future__ import annotations

import os
import time

import pytest

from core.sandbox import LimitExceeded, Limits, SandboxFailed, run_limited
from tests.memory import peak_rss_since, reset_peak_rss, rss_bytes

MB = 1024 * 1024


def hold(megabytes: int) -> int:
    block = bytearray(megabytes * MB)
    block[::4096] = b"x" * len(block[::4096])  # touch every page: really resident
    return len(block)


def spin() -> None:
    while True:
        pass


def refuse() -> None:
    raise ValueError("no such page")


def test_the_answer_of_the_child_comes_back() -> None:
    assert run_limited(hold, 20, limits=Limits(memory_bytes=200 * MB)) == 20 * MB
    assert run_limited(os.getpid) != os.getpid()


def test_over_the_memory_cap_is_refused_and_the_caller_does_not_grow() -> None:
    before = rss_bytes()
    peak_known = reset_peak_rss()
    with pytest.raises(LimitExceeded) as caught:
        run_limited(hold, 600, limits=Limits(memory_bytes=100 * MB))
    assert caught.value.limit == "memory"
    assert caught.value.describe() == "it needed more than 100 MB of memory"
    assert rss_bytes() - before < 30 * MB
    if peak_known:  # the caller never held the child's memory, even for a moment
        assert (peak_rss_since(before) or 0) < 30 * MB


def test_over_the_cpu_cap_and_past_the_deadline_are_refused() -> None:
    with pytest.raises(LimitExceeded) as cpu:
        run_limited(spin, limits=Limits(cpu_seconds=1, wall_seconds=30))
    assert cpu.value.limit == "cpu"
    started = time.monotonic()
    with pytest.raises(LimitExceeded) as late:
        run_limited(time.sleep, 30, limits=Limits(wall_seconds=0.5))
    assert late.value.limit == "time" and time.monotonic() - started < 5


def test_an_error_of_the_work_comes_back_with_its_type() -> None:
    with pytest.raises(SandboxFailed, match="ValueError: no such page") as caught:
        run_limited(refuse)
    assert caught.value.kind == "ValueError"
