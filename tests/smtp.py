"""A real SMTP server on loopback (aiosmtpd) for every test that sends mail: the outbox, documents,
the inbox's replies, password resets, Google's fallback, the worker-crash test and the outbox bench.

    def test_x(smtp): ...                       # the root conftest's fixture: Django sends to it
    with smtp_delivery(fail_first=2) as smtp:   # the same, with options
    with FakeSmtp() as smtp: smtp.env()         # for a worker process (its own settings)
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller
from django.test import override_settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def smtp_settings(port: int) -> dict[str, Any]:
    """The Django settings that send to an SMTP server on loopback `port`."""
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": port,
        "EMAIL_USE_TLS": False,
        "EMAIL_TIMEOUT": 10,
    }


class FakeSmtp:
    """Keeps every accepted message (and its envelope). `fail_first`: answer 451 (try later) to the
    first n DATA. `before_data`: called with each message before it is accepted; a reply it returns
    (e.g. "421 ...") is given instead and the message is not kept (a test killing the sender)."""

    def __init__(self, fail_first: int = 0, before_data: Callable[[Message], str | None] | None = None):
        self.messages: list[Message] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.fail_first = fail_first
        self.before_data = before_data
        self.lock = threading.Lock()
        self.port = 0
        self.controller: Controller | None = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content)
        with self.lock:
            if self.fail_first > 0:
                self.fail_first -= 1
                return "451 4.3.0 Try again later"
            if self.before_data is not None and (reply := self.before_data(message)) is not None:
                return reply
            self.messages.append(message)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 OK"

    @property
    def message_ids(self) -> list[str]:
        with self.lock:
            return [str(m["Message-ID"]) for m in self.messages]

    def start(self) -> FakeSmtp:
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def __enter__(self) -> FakeSmtp:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def settings(self) -> dict[str, Any]:
        """The Django settings that send to this server (in this process)."""
        return smtp_settings(self.port)

    def env(self) -> dict[str, str]:
        """The same settings as a worker process's environment."""
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(self.port),
            "EMAIL_USE_TLS": "false",
        }


@contextmanager
def smtp_delivery(fail_first: int = 0) -> Iterator[FakeSmtp]:
    """A FakeSmtp that Django's mail goes to while the block runs."""
    with FakeSmtp(fail_first) as smtp, override_settings(**smtp.settings()):
        yield smtp
