"""Run untrusted-input work (a PDF parse, a page render) in a child process under resource limits.

A file a user uploads can be built to explode: a few hundred KB whose page stream inflates to
hundreds of MB (a "decompression bomb"). Parsed in the worker itself, it grew the worker from 138 MB
to 1 GB and the memory stayed taken. ``run_limited(fn, *args, limits=...)`` forks a child that runs
``fn`` with

- ``RLIMIT_AS``: the address space the child may add to what it inherited (``memory_bytes``);
- ``RLIMIT_CPU``: CPU seconds (``cpu_seconds``);
- a wall-clock deadline (``wall_seconds``), after which the child is killed;

and answers ``fn``'s result, sent back pickled through a pipe. Over a limit raises
``LimitExceeded`` (``.limit`` is "memory", "cpu" or "time", ``.describe()`` a sentence for the
user); an exception of ``fn`` comes back as ``SandboxFailed`` with its type and message. Whatever
the child allocated is returned to the system when it exits: the caller's memory does not grow.

The child is a fork of the caller: ``fn`` and its arguments need not be picklable (only the result
is), and it must not use the caller's database connection or sockets (it exits with ``os._exit``,
running no clean-up of the parent's objects). Linux and macOS only (``os.fork``).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    memory_bytes: int = 512 * 1024 * 1024
    cpu_seconds: int = 60
    wall_seconds: float = 120.0


class LimitExceeded(Exception):
    def __init__(self, limit: str, limits: Limits) -> None:
        self.limit = limit
        self.limits = limits
        super().__init__(self.describe())

    def describe(self) -> str:
        if self.limit == "memory":
            return f"it needed more than {self.limits.memory_bytes // (1024 * 1024)} MB of memory"
        if self.limit == "cpu":
            return f"it needed more than {self.limits.cpu_seconds} s of processing"
        return f"it took longer than {self.limits.wall_seconds:.0f} s"


class SandboxFailed(Exception):
    """``fn`` raised in the child: ``kind`` is the exception's type name."""

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        super().__init__(f"{kind}: {message}" if message else kind)


def _vm_size() -> int:
    """The process's current address space (VmSize), in bytes; 0 when it cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _child(
    write_fd: int, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], limits: Limits
) -> None:
    status = 1
    try:
        # The address space the child inherited (Django, thread stacks) plus what the work may add.
        cap = _vm_size() + limits.memory_bytes if _vm_size() else limits.memory_bytes
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        try:
            outcome: tuple[str, Any] = ("ok", fn(*args, **kwargs))
        except MemoryError:
            outcome = ("memory", None)
        except BaseException as exc:  # everything goes back to the parent, which decides
            outcome = ("error", (type(exc).__name__, str(exc)[:500]))
        try:
            payload = pickle.dumps(outcome)
        except MemoryError:
            payload = pickle.dumps(("memory", None))
        view = memoryview(payload)
        while view:
            written = os.write(write_fd, view)
            view = view[written:]
        status = 0
    finally:
        os._exit(status)


def run_limited(fn: Callable[..., T], *args: Any, limits: Limits | None = None, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in a forked child under ``limits`` (see the module doc)."""
    limits = limits or Limits()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_fd)
        _child(write_fd, fn, args, kwargs, limits)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + limits.wall_seconds
    timed_out = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([read_fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        if timed_out:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _, wait_status = os.waitpid(pid, 0)
    if timed_out:
        raise LimitExceeded("time", limits)
    if os.WIFSIGNALED(wait_status):
        sig = os.WTERMSIG(wait_status)
        # SIGXCPU at the soft CPU limit, SIGKILL at the hard one; anything else a crash under a
        # memory cap (an allocation in C code that cannot raise MemoryError).
        raise LimitExceeded("cpu" if sig in (signal.SIGXCPU, signal.SIGKILL) else "memory", limits)
    if not chunks:
        raise LimitExceeded("memory", limits)  # exited without an answer: it could not even reply
    kind, value = pickle.loads(b"".join(chunks))  # noqa: S301  (our own child's answer)
    if kind == "ok":
        return value  # type: ignore[no-any-return]
    if kind == "memory":
        raise LimitExceeded("memory", limits)
    raise SandboxFailed(*value)
