"""The memory of this process, for tests that check a job gives it back (Linux /proc)."""

from __future__ import annotations

import os


def _status(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def rss_bytes() -> int:
    return _status("VmRSS") or 0


def reset_peak_rss() -> bool:
    """Reset VmHWM (the peak resident size) to the current size; False where the kernel refuses."""
    try:
        with open(f"/proc/{os.getpid()}/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def peak_rss_since(before: int) -> int | None:
    """How far the peak resident size rose above ``before`` (after ``reset_peak_rss``)."""
    peak = _status("VmHWM")
    return None if peak is None else max(peak - before, 0)
