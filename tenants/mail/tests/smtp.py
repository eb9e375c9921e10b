"""A real SMTP server on loopback (aiosmtpd) for the outbox tests."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


class Recorder:
    """Keeps every accepted message; can answer 451 (try later) to the first `fail_first` DATA."""

    def __init__(self, fail_first: int = 0) -> None:
        self.messages: list[Message] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.fail_first = fail_first
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            if self.fail_first > 0:
                self.fail_first -= 1
                return "451 4.3.0 Try again later"
            self.messages.append(message_from_bytes(envelope.content))
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def smtp_server(fail_first: int = 0) -> Iterator[tuple[int, Recorder]]:
    port = free_port()
    recorder = Recorder(fail_first)
    controller = Controller(recorder, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, recorder
    finally:
        controller.stop()


def smtp_settings(port: int) -> dict[str, Any]:
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": port,
        "EMAIL_USE_TLS": False,
        "EMAIL_TIMEOUT": 10,
    }
