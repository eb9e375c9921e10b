"""A local Sentry-protocol receiver: accepts envelopes (POST /api/<project>/envelope/, gzip or brotli
bodies) on loopback and keeps them, raw and parsed, for the tests to read."""

from __future__ import annotations

import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class SentryReceiver:
    def __init__(self) -> None:
        self.raw: list[bytes] = []
        self.events: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                encoding = (self.headers.get("Content-Encoding") or "").lower()
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "br":
                    import brotli

                    body = brotli.decompress(body)
                receiver.take(self.path, body)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.server.server_address[1]}/42"

    def take(self, path: str, body: bytes) -> None:
        if not path.startswith("/api/42/envelope"):
            return
        lines = body.split(b"\n")
        events = []
        # An envelope: a header line, then per item a header line and its payload line.
        for header, payload in zip(lines[1::2], lines[2::2], strict=False):
            try:
                item = json.loads(header)
            except ValueError:
                continue
            if item.get("type") == "event":
                events.append(json.loads(payload))
        with self.lock:
            self.raw.append(body)
            self.events.extend(events)

    def __enter__(self) -> SentryReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
