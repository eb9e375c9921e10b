"""What every fake of an outside service shares: a standard library HTTP server served from a daemon
thread on a loopback port (``port=0``: a free one), a quiet JSON request handler, and the OAuth grant
(one consent and the tokens issued from it). A fake (``infra/fakes/google.py``, ``qbo.py``) subclasses
``FakeServer`` and ``FakeHandler`` and keeps only its protocol.

    class FakeThing(FakeServer):
        thread_name = "fake-thing"

        def start(self) -> FakeThing:
            self.serve("127.0.0.1", 0, _Handler)  # a FakeHandler subclass; `self.fake` is this FakeThing
            return self

    with FakeThing() as fake: ...   # or fake.start() ... fake.stop()
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Self
from urllib.parse import parse_qs


@dataclass(kw_only=True)
class Grant:
    """What one consent gave: its refresh token (None when the provider gave none) and the access
    tokens issued from it, each with its expiry on the fake's clock. A fake adds what its provider
    ties to a consent (Google: the identity and scopes; QuickBooks: the company)."""

    refresh_token: str | None
    access_tokens: dict[str, float] = field(default_factory=dict)  # token -> expiry
    revoked: bool = False

    def issue_access(self, now: float, ttl: float, prefix: str, nbytes: int = 24) -> str:
        token = prefix + secrets.token_urlsafe(nbytes)
        self.access_tokens[token] = now + ttl
        return token

    def expire_access(self, now: float) -> None:
        """Every access token of this grant expires (a test skipping an hour)."""
        self.access_tokens = dict.fromkeys(self.access_tokens, now - 1)


class FakeHandler(BaseHTTPRequestHandler):
    """The request plumbing: the body, a form, a JSON answer, a dropped connection. `fake` is the
    FakeServer serving this request (set on the per-server subclass `FakeServer.serve` makes)."""

    fake: FakeServer
    protocol_version = "HTTP/1.1"
    content_type = "application/json; charset=utf-8"

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the tests' output is theirs
        pass

    def read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    @staticmethod
    def parse_form(raw: bytes) -> dict[str, str]:
        """An urlencoded body as a dict (the last value of a repeated key)."""
        return {k: v[-1] for k, v in parse_qs(raw.decode(), keep_blank_values=True).items()}

    def answer_headers(self) -> dict[str, str]:
        """Headers every answer of this fake carries (its provider's trace id, CORS...)."""
        return {}

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        """Answer `payload` as JSON (None: an empty body)."""
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", self.content_type)
        self.send_header("Content-Length", str(len(data)))
        for k, v in {**self.answer_headers(), **(headers or {})}.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def redirect(self, location: str) -> None:
        """A 302 to `location` (an authorize endpoint that consents at once)."""
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def drop(self) -> None:
        """Close the connection without an answer (a provider that fell over mid-request)."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


class FakeServer:
    """A fake's life: `serve()` on a port from a daemon thread, `stop()`, a context manager.
    Subclasses set `thread_name` and call `serve(host, port, handler)` from their `start()`."""

    thread_name: ClassVar[str] = "fake"

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.server: ThreadingHTTPServer | None = None
        self.thread: threading.Thread | None = None

    @property
    def server_port(self) -> int:
        assert self.server is not None, "the fake is not started"
        return int(self.server.server_address[1])

    def serve(self, host: str, port: int, handler: type[FakeHandler]) -> None:
        # A subclass per server: two fakes of one kind in one process each see their own state.
        bound = type(handler.__name__, (handler,), {"fake": self})
        self.server = ThreadingHTTPServer((host, port), bound)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name=self.thread_name, daemon=True)
        self.thread.start()

    def start(self) -> Self:
        raise NotImplementedError  # serve(host, port, the fake's handler), then return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def serve_until_interrupted(self) -> None:
        """For `python -m infra.fakes.<name>`: wait for Ctrl-C, then stop."""
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            self.stop()
