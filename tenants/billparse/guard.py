"""What a parse of an uploaded PDF may inflate and hold (issue 23: an 816 KB PDF whose page stream
inflated to 800 MB grew the worker to 1 GB, and the memory stayed taken).

- Before pdfplumber reads anything, every compressed stream of the file is inflated chunk by chunk
  (never held whole) and counted: one that unpacks to more than ``MAX_STREAM_BYTES`` fails the parse
  with a clear reason. Only the first ``extract.MAX_PAGES`` pages are read.
- The parse itself runs in a child process under ``LIMITS`` (core.sandbox: an address-space cap, a CPU
  cap and a deadline), so whatever slips past the stream check (many streams, another filter, a
  pathological layout) ends the child, not the worker, and the child's memory goes back to the
  system when it exits. Over a limit the document fails with the reason; the worker goes on.
"""

from __future__ import annotations

import re
import zlib

from core.sandbox import LimitExceeded, Limits, SandboxFailed, run_limited

from tenants.billparse.extract import ParseHints, ParseResult, parse_pdf

MAX_STREAM_BYTES = 32 * 1024 * 1024
LIMITS = Limits(memory_bytes=384 * 1024 * 1024, cpu_seconds=60, wall_seconds=120.0)
_CHUNK = 1024 * 1024
_STREAM = re.compile(rb"stream\r?\n")

TOO_LARGE = (
    "This PDF is too large to read: {why}. It looks built to overload the parser (or is far larger "
    "than an invoice): enter this bill by hand or ask the supplier for a normal PDF."
)


def _inflates_past(raw: bytes, limit: int) -> bool:
    """True when ``raw`` is zlib data that unpacks to more than ``limit`` bytes (counted, not kept)."""
    inflater = zlib.decompressobj()
    total = 0
    pending = raw
    try:
        while pending:
            out = inflater.decompress(pending, _CHUNK)
            total += len(out)
            if total > limit:
                return True
            pending = inflater.unconsumed_tail
            if not out and not pending:
                break
    except zlib.error:
        return total > limit  # not (or no longer) zlib data: what was unpacked is all it holds
    return False


def oversized_stream(data: bytes, limit: int | None = None) -> bool:
    """True when one of the file's streams unpacks to more than ``limit`` bytes (MAX_STREAM_BYTES)."""
    limit = MAX_STREAM_BYTES if limit is None else limit
    for match in _STREAM.finditer(data):
        start = match.end()
        end = data.find(b"endstream", start)
        if end < 0:
            end = len(data)
        if _inflates_past(data[start:end], limit):
            return True
    return False


def _parse(data: bytes, hints: ParseHints) -> ParseResult:
    if oversized_stream(data):
        why = f"a part of it unpacks to more than {MAX_STREAM_BYTES // (1024 * 1024)} MB"
        return ParseResult(ok=False, error_code="too_large", error=TOO_LARGE.format(why=why))
    return parse_pdf(data, hints=hints)


def parse_limited(data: bytes, *, hints: ParseHints, limits: Limits = LIMITS) -> ParseResult:
    """``parse_pdf`` under the limits above; a document over them is a failed result with the reason.
    A bug of the parser raises ``SandboxFailed`` (the caller logs it and fails the document)."""
    try:
        return run_limited(_parse, data, hints, limits=limits)
    except LimitExceeded as exc:
        return ParseResult(ok=False, error_code="too_large", error=TOO_LARGE.format(why=exc.describe()))


__all__ = ["LIMITS", "MAX_STREAM_BYTES", "SandboxFailed", "oversized_stream", "parse_limited"]
