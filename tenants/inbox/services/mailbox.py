"""The mailbox's settings: save them (the password sealed), test a connection, start and stop polling."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.errors import ApiError
from django.db import connection, transaction
from django.utils import timezone

from tenants.inbox import imap, secrets
from tenants.inbox.models import Mailbox
from tenants.inbox.services.poll_schedule import schedule, unschedule


def save_mailbox(
    *,
    host: str,
    port: int,
    security: str,
    username: str,
    password: str | None,
    folder: str = "INBOX",
    poll_every_seconds: int = 120,
) -> Mailbox:
    """Create or change the mailbox. A blank password keeps the stored one. Changing the server or
    user clears the error and the backoff (the next poll tries at once)."""
    with transaction.atomic():
        box = Mailbox.objects.select_for_update().first() or Mailbox()
        moved = (box.host, box.port, box.username, box.folder) != (host, port, username, folder)
        box.host, box.port, box.security, box.username = host, port, security, username
        box.folder = folder or "INBOX"
        box.poll_every_seconds = poll_every_seconds
        if password:
            box.password_encrypted = secrets.encrypt(password)
            moved = True
        if not box.password_encrypted:
            raise ApiError(422, "password: give the mailbox password.")
        if moved:
            box.last_error, box.last_error_at, box.consecutive_failures = "", None, 0
            box.next_poll_at = timezone.now() if box.enabled else None
        if box.pk and (box.host, box.folder) != (host, folder):
            box.uidvalidity, box.last_uid = None, 0
        box.save()
    if box.enabled:
        schedule(box)
    return box


def settings_of(box: Mailbox, password: str | None = None) -> imap.Settings:
    stored = secrets.decrypt(box.password_encrypted)
    if password is None and stored is None:
        raise ApiError(409, "The stored mailbox password cannot be read any more: enter it again.")
    return imap.Settings(
        host=box.host,
        port=box.port,
        security=box.security,
        username=box.username,
        password=password if password is not None else (stored or ""),
        folder=box.folder,
    )


@dataclass(frozen=True)
class ConnectionTest:
    ok: bool
    message: str
    messages: int | None = None


def test_connection(cfg: imap.Settings) -> ConnectionTest:
    try:
        with imap.session(cfg) as box:
            status = box.folder.status(cfg.folder or "INBOX")
            count = int(status.get("MESSAGES", 0))
    except (imap.LoginRefused, imap.Unreachable) as exc:
        return ConnectionTest(False, str(exc))
    return ConnectionTest(
        True, f"Connected to {cfg.host}: {count} messages in {cfg.folder or 'INBOX'}.", count
    )


def start(*, acting_user: Any = None) -> Mailbox:
    """Turn polling on and poll now."""
    with transaction.atomic():
        box = Mailbox.objects.select_for_update().first()
        if box is None:
            raise ApiError(409, "Set up the mailbox first (IMAP server, user and password).")
        box.enabled = True
        box.next_poll_at = timezone.now()
        box.consecutive_failures = 0
        box.save(update_fields=["enabled", "next_poll_at", "consecutive_failures", "updated_at"])
        schedule(box)
        queue_poll(started_by=acting_user)
    return box


def queue_poll(*, started_by: Any = None) -> None:
    """Poll now (after the commit), as a job of the job log."""
    from core.jobs import send_job

    from tenants.inbox import tasks

    schema = connection.schema_name
    transaction.on_commit(
        lambda: send_job(
            tasks.poll_inbox,
            force=True,
            schema=schema,
            document=tasks.MAILBOX_DOCUMENT,
            started_by=started_by,
        )
    )


def stop() -> Mailbox:
    with transaction.atomic():
        box = Mailbox.objects.select_for_update().first()
        if box is None:
            raise ApiError(409, "Set up the mailbox first (IMAP server, user and password).")
        box.enabled = False
        box.next_poll_at = None
        box.save(update_fields=["enabled", "next_poll_at", "updated_at"])
    unschedule(connection.schema_name)
    return box
