"""The inbox agent's writes: mailbox settings, polling (import once, classify, read a proposal),
the poll schedule, and verifying a message into the record it stands for (docs/inbox.md).

One module a concern: mailbox (settings, start, stop), poll_schedule (when each mailbox is due),
polling, classification (and proposals), verifying; the app's API and actors import them from here."""

from tenants.inbox.services.classification import Verdict, classify, propose, read_as
from tenants.inbox.services.mailbox import (
    ConnectionTest,
    queue_poll,
    save_mailbox,
    settings_of,
    start,
    stop,
    test_connection,
)
from tenants.inbox.services.poll_schedule import (
    backoff_seconds,
    due_schemas,
    rebuild_schedule,
    schedule,
    unschedule,
)
from tenants.inbox.services.polling import PollResult, import_message, poll
from tenants.inbox.services.verifying import QuoteVerification, verify

__all__ = [
    "ConnectionTest",
    "PollResult",
    "QuoteVerification",
    "Verdict",
    "backoff_seconds",
    "classify",
    "due_schemas",
    "import_message",
    "poll",
    "propose",
    "queue_poll",
    "read_as",
    "rebuild_schedule",
    "save_mailbox",
    "schedule",
    "settings_of",
    "start",
    "stop",
    "test_connection",
    "unschedule",
    "verify",
]
