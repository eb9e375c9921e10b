"""Polling: read the new messages once each (by Message-ID), keep their PDF attachments after checking
them, classify each and read a proposal from it."""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from dataclasses import dataclass, field
from email.utils import parseaddr
from typing import Any

from core.storage import safe_filename, tenant_prefix
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.html import strip_tags

from tenants.inbox import imap, secrets
from tenants.inbox.models import InboxMessage, Mailbox
from tenants.inbox.services.classification import PDF, classify, propose
from tenants.inbox.services.mailbox import settings_of
from tenants.inbox.services.poll_schedule import backoff_seconds, schedule, unschedule

MAX_MESSAGES_PER_POLL = 200
FETCH_BATCH = 20
MAX_ATTACHMENTS = 20
MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024
MAX_BODY_CHARS = 200_000


@dataclass
class PollResult:
    status: str  # polled | not_due | disabled | busy | login_refused | unreachable
    imported: int = 0
    skipped: int = 0
    message: str = ""
    imported_ids: list[int] = field(default_factory=list)


def _lock_key() -> int:
    digest = hashlib.sha256(f"inbox-poll:{connection.schema_name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def poll(*, force: bool = False, now: dt.datetime | None = None, progress: Any = None) -> PollResult:
    """Import the new messages of the tenant's mailbox once each. One poll at a time per tenant
    (a Postgres advisory lock, released if the worker dies). Failures are recorded on the mailbox
    (shown on the screen) and push the next poll back; they never raise, so no retry storm."""
    now = now or timezone.now()
    box = Mailbox.objects.first()
    if box is None or not box.enabled:
        unschedule(connection.schema_name)
        return PollResult("disabled", message="The mailbox is not set up or polling is off.")
    if not force and box.next_poll_at and box.next_poll_at > now:
        schedule(box)
        return PollResult("not_due", message=f"Next poll at {box.next_poll_at.isoformat()}.")
    with connection.cursor() as cur:
        cur.execute("SELECT pg_try_advisory_lock(%s)", [_lock_key()])
        locked = bool(cur.fetchone()[0])
    if not locked:
        return PollResult("busy", message="Another poll of this mailbox is running.")
    try:
        return _poll_locked(box, now, progress)
    finally:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_unlock(%s)", [_lock_key()])


def _record_failure(box: Mailbox, status: str, message: str, now: dt.datetime) -> PollResult:
    failures = box.consecutive_failures + 1
    Mailbox.objects.filter(pk=box.pk).update(
        last_polled_at=now,
        last_error=message,
        last_error_at=now,
        consecutive_failures=failures,
        next_poll_at=now + dt.timedelta(seconds=backoff_seconds(failures)),
        updated_at=now,
    )
    box.refresh_from_db()
    schedule(box)
    return PollResult(status, message=message)


def _poll_locked(box: Mailbox, now: dt.datetime, progress: Any) -> PollResult:
    box.refresh_from_db()
    cfg = settings_of(box) if secrets.decrypt(box.password_encrypted) is not None else None
    if cfg is None:
        return _record_failure(
            box, "login_refused", "The stored mailbox password cannot be read any more: enter it again.", now
        )
    result = PollResult("polled")
    try:
        with imap.session(cfg) as mb:
            status = mb.folder.status(cfg.folder or "INBOX", ["UIDVALIDITY", "UIDNEXT"])
            uidvalidity = int(status["UIDVALIDITY"])
            if box.uidvalidity != uidvalidity:
                # A new UIDVALIDITY: UIDs restart; Message-IDs still keep every message once.
                Mailbox.objects.filter(pk=box.pk).update(uidvalidity=uidvalidity, last_uid=0)
                box.uidvalidity, box.last_uid = uidvalidity, 0
            uids = sorted(int(u) for u in mb.uids(f"UID {box.last_uid + 1}:*") if int(u) > box.last_uid)
            uids = uids[:MAX_MESSAGES_PER_POLL]
            for start in range(0, len(uids), FETCH_BATCH):
                batch = uids[start : start + FETCH_BATCH]
                for msg in mb.fetch(f"UID {','.join(map(str, batch))}", mark_seen=False, bulk=True):
                    if not msg.uid:
                        continue
                    made = import_message(uidvalidity=uidvalidity, uid=int(msg.uid), msg=msg)
                    if made is None:
                        result.skipped += 1
                    else:
                        result.imported += 1
                        result.imported_ids.append(made.pk)
                    if progress is not None:
                        progress()
    except imap.LoginRefused as exc:
        return _record_failure(box, "login_refused", str(exc), now)
    except imap.Unreachable as exc:
        return _record_failure(box, "unreachable", str(exc), now)
    except (OSError, TimeoutError) as exc:
        return _record_failure(box, "unreachable", f"The connection to {box.host} broke: {exc}", now)
    box.refresh_from_db()
    Mailbox.objects.filter(pk=box.pk).update(
        last_polled_at=now,
        last_success_at=now,
        last_error="",
        last_error_at=None,
        consecutive_failures=0,
        next_poll_at=now + dt.timedelta(seconds=max(box.poll_every_seconds, 30)),
        updated_at=now,
    )
    box.refresh_from_db()
    schedule(box)
    result.message = f"{result.imported} new message{'s' if result.imported != 1 else ''}."
    return result


def _message_id(msg: Any) -> str:
    raw = (msg.headers.get("message-id") or ("",))[0].strip()
    if raw:
        return raw[:500]
    digest = hashlib.sha256(msg.obj.as_bytes()).hexdigest()[:40]
    return f"<{digest}@no-message-id.fueldesk>"


def _store(data: bytes, name: str) -> str:
    key = f"{tenant_prefix()}inbox/{uuid.uuid4().hex}/{safe_filename(name)[:120]}"
    return default_storage.save(key, ContentFile(data))


def _sniff(data: bytes, name: str, declared: str) -> str:
    if data.startswith(b"%PDF-"):
        return PDF
    if data.startswith(b"PK") and name.lower().endswith(".xlsx"):
        return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    if name.lower().endswith(".csv"):
        return "text/csv"
    return declared or "application/octet-stream"


# What the email parser's defects mean to a user (email.errors); others are named as they are.
_STRUCTURE_DEFECTS = {
    "StartBoundaryNotFoundDefect": "the boundary that separates its parts is never found",
    "CloseBoundaryNotFoundDefect": "its last part is cut off (no closing boundary)",
    "MultipartInvariantViolationDefect": "it says it has parts but has none",
    "NoBoundaryInMultipartDefect": "it says it has parts but names no boundary",
    "MissingHeaderBodySeparatorDefect": "a header runs into the body",
    "FirstHeaderLineIsContinuationDefect": "its first header line is broken",
    "MisplacedEnvelopeHeaderDefect": "a header is out of place",
}
_ENCODING_DEFECTS = ("InvalidBase64", "Base64")


def _part_problem(part: Any) -> str:
    """Why an attachment's bytes may be wrong: its transfer encoding is damaged."""
    names = [type(d).__name__ for d in getattr(part, "defects", [])]
    if any(n.startswith(_ENCODING_DEFECTS) for n in names):
        return "its base64 encoding is damaged, so it is likely incomplete"
    return ""


def _attachment_problem(data: bytes, content_type: str, file_name: str, encoding: str) -> str:
    if not data:
        return "it is empty (0 bytes)"
    if len(data) > MAX_ATTACHMENT_BYTES:
        return f"it is larger than {MAX_ATTACHMENT_BYTES // (1024 * 1024)} MB and was not kept"
    if encoding:
        return encoding
    if content_type == PDF or file_name.lower().endswith(".pdf"):
        if not data.startswith(b"%PDF-"):
            return "it is not a PDF (it does not start with %PDF-)"
        if b"%%EOF" not in data[-2048:]:
            return "the PDF is cut off (no %%EOF end marker)"
    return ""


def _structure_problem(msg: Any) -> str:
    """A sentence when the message's MIME structure is broken (parts may be missing), else ""."""
    found: list[str] = []
    obj = getattr(msg, "obj", None)
    parts = list(obj.walk()) if obj is not None else []
    for part in parts:
        for defect in getattr(part, "defects", []):
            name = type(defect).__name__
            if name.startswith(_ENCODING_DEFECTS):
                continue  # said of the attachment itself
            words = _STRUCTURE_DEFECTS.get(name, name)
            if words not in found:
                found.append(words)
    if not found:
        return ""
    return f"The message's MIME structure is broken ({'; '.join(found)}): parts of it could not be read."


def import_message(*, uidvalidity: int, uid: int, msg: Any) -> InboxMessage | None:
    """One message, once: None when it is already here (same Message-ID, or same UID of the same
    UIDVALIDITY). The mailbox's progress (last_uid) moves in the same transaction as the row."""
    message_id = _message_id(msg)
    if (
        InboxMessage.objects.filter(message_id=message_id).exists()
        or InboxMessage.objects.filter(uidvalidity=uidvalidity, uid=uid).exists()
    ):
        Mailbox.objects.filter(last_uid__lt=uid).update(last_uid=uid)
        return None
    name, address = parseaddr(msg.from_values.full if msg.from_values else msg.from_)
    body = msg.text or strip_tags(msg.html or "")
    attachments: list[dict[str, Any]] = []
    problems: list[str] = []
    structure = _structure_problem(msg)
    if structure:
        problems.append(structure)
    for att in msg.attachments[:MAX_ATTACHMENTS]:
        data = att.payload or b""
        file_name = att.filename or "attachment"
        declared = (att.content_type or "").lower()
        problem = _attachment_problem(data, declared, file_name, _part_problem(getattr(att, "part", None)))
        kept = len(data) <= MAX_ATTACHMENT_BYTES and bool(data)
        attachments.append(
            {
                "file_key": _store(data, file_name) if kept else "",
                "file_name": file_name[:200],
                "content_type": _sniff(data, file_name, declared) if data else declared,
                "size": len(data),
                "problem": problem,
            }
        )
        if problem:
            problems.append(f"The attachment {file_name[:200]!r} could not be read: {problem}.")
    received = msg.date if msg.date and msg.date.year > 1970 else timezone.now()
    if timezone.is_naive(received):
        received = timezone.make_aware(received, dt.UTC)
    fields = {
        "in_reply_to": (msg.headers.get("in-reply-to") or ("",))[0][:998],
        "references": " ".join(msg.headers.get("references") or ())[:10000],
        "sender_email": address.strip().lower()[:254],
        "sender_name": name[:200],
        "subject": (msg.subject or "")[:998],
        "body": body[:MAX_BODY_CHARS],
    }
    verdict = classify(attachments=attachments, problems=problems, **fields)
    try:
        with transaction.atomic():
            row = InboxMessage.objects.create(
                message_id=message_id,
                uidvalidity=uidvalidity,
                uid=uid,
                recipients=", ".join(msg.to)[:5000],
                received_timestamp=received,
                attachments=attachments,
                classification=verdict.classification,
                classification_reason=verdict.reason,
                read_problems=problems,
                supplier=verdict.supplier,
                quote_request=verdict.request,
                **fields,
            )
            Mailbox.objects.filter(last_uid__lt=uid).update(last_uid=uid)
    except IntegrityError:  # imported meanwhile by another poll
        return None
    propose(row)
    return row
