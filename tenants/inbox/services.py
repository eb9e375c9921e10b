"""The inbox agent's writes: mailbox settings, polling (import once, classify, read a proposal),
the poll schedule, and verifying a message into the record it stands for (docs/inbox.md)."""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
import uuid
from dataclasses import dataclass, field
from email.utils import parseaddr
from typing import Any

from core.errors import ApiError
from core.storage import open_tenant_file, safe_filename, tenant_prefix
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.html import strip_tags

from tenants.inbox import imap, secrets
from tenants.inbox.models import InboxMessage, Mailbox
from tenants.parties.models import Supplier
from tenants.quotes import selectors as quote_selectors
from tenants.quotes import services as quote_services
from tenants.quotes.models import QuoteRequest

log = logging.getLogger(__name__)

# The schedule: a due mailbox is polled every `poll_every_seconds` (2 minutes by default). After a
# refused login or an unreachable server the next try waits 2, 4, 8 … minutes, at most an hour.
BACKOFF_BASE_SECONDS = 120
BACKOFF_MAX_SECONDS = 3600
MAX_MESSAGES_PER_POLL = 200
FETCH_BATCH = 20
MAX_ATTACHMENTS = 20
MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024
MAX_BODY_CHARS = 200_000
PDF = "application/pdf"
_INVOICE_WORDS = re.compile(r"\b(invoice|invoices|bill|billing|statement)\b", re.I)


# --------------------------------------------------------------------------- settings
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


# --------------------------------------------------------------------------- the schedule (Redis)
def _due_key() -> str:
    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'fd')}:inbox:due"


def _built_key() -> str:
    return f"{_due_key()}:built"


def schedule(box: Mailbox) -> None:
    """Remember when this tenant's mailbox is due (a Redis sorted set: schema → time), so the
    scheduler's fan-out visits only due tenants. Best effort: the fan-out rebuilds a lost set."""
    from core.cache import raw_redis_client

    schema = connection.schema_name
    when = (box.next_poll_at or timezone.now()).timestamp()
    try:
        transaction.on_commit(lambda: raw_redis_client().zadd(_due_key(), {schema: when}))
    except Exception:
        log.warning("could not schedule the inbox of %s", schema, exc_info=True)


def unschedule(schema: str) -> None:
    from core.cache import raw_redis_client

    try:
        raw_redis_client().zrem(_due_key(), schema)
    except Exception:
        log.warning("could not unschedule the inbox of %s", schema, exc_info=True)


def due_schemas(now: float, hold_seconds: int = 600) -> list[str]:
    """The schemas whose mailbox is due, each pushed `hold_seconds` ahead (its poll sets the real
    next time when it ends, so a crashed poll is retried after the hold, never in a loop)."""
    from core.cache import raw_redis_client

    client = raw_redis_client()
    if not client.exists(_built_key()):
        rebuild_schedule()
        client.set(_built_key(), "1")
    members = client.zrangebyscore(_due_key(), "-inf", now)
    schemas = [m.decode() if isinstance(m, bytes) else str(m) for m in members]
    if schemas:
        client.zadd(_due_key(), {s: now + hold_seconds for s in schemas})
    return schemas


def rebuild_schedule() -> int:
    """Find every tenant with an enabled mailbox (after Redis lost the set)."""
    from core.cache import raw_redis_client
    from django_tenants.utils import get_tenant_model, schema_context

    found = 0
    client = raw_redis_client()
    for schema in (
        get_tenant_model().objects.exclude(schema_name="public").values_list("schema_name", flat=True)
    ):
        with schema_context(schema):
            try:
                box = Mailbox.objects.filter(enabled=True).only("next_poll_at").first()
            except Exception:  # a schema being provisioned: not yet migrated
                log.debug("no mailbox table in %s yet", schema, exc_info=True)
                continue
            if box is not None:
                client.zadd(_due_key(), {schema: (box.next_poll_at or timezone.now()).timestamp()})
                found += 1
    return found


def backoff_seconds(failures: int) -> int:
    return int(min(BACKOFF_BASE_SECONDS * 2 ** max(failures - 1, 0), BACKOFF_MAX_SECONDS))


# --------------------------------------------------------------------------- polling
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


def _is_pdf(att: dict[str, Any]) -> bool:
    """A PDF that can be read (an empty, damaged or not-really-PDF attachment is not)."""
    return att.get("content_type") == PDF and not att.get("problem") and bool(att.get("file_key"))


def _declares_pdf(att: dict[str, Any]) -> bool:
    return att.get("content_type") == PDF or str(att.get("file_name", "")).lower().endswith(".pdf")


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


# --------------------------------------------------------------------------- classification
@dataclass(frozen=True)
class Verdict:
    classification: str
    reason: str
    supplier: Supplier | None = None
    request: QuoteRequest | None = None


def classify(
    *,
    attachments: list[dict[str, Any]],
    problems: list[str] = (),  # type: ignore[assignment]
    in_reply_to: str,
    references: str,
    sender_email: str,
    sender_name: str,
    subject: str,
    body: str,
) -> Verdict:
    """bill, price_quote_reply or other, with the reason a user reads on the screen (which says so
    when the message or an attachment could not be read)."""
    verdict = _classify(attachments, in_reply_to, references, sender_email, subject)
    structure = next((p for p in problems if p.startswith("The message's MIME structure")), "")
    if structure:
        return Verdict(
            verdict.classification, f"{verdict.reason} {structure}", verdict.supplier, verdict.request
        )
    return verdict


def _classify(
    attachments: list[dict[str, Any]], in_reply_to: str, references: str, sender_email: str, subject: str
) -> Verdict:
    match = quote_selectors.match_reply(
        in_reply_to=in_reply_to, references=references, sender_email=sender_email, subject=subject
    )
    if match is not None:
        recipient, reason = match
        return Verdict(
            InboxMessage.Classification.PRICE_QUOTE_REPLY, reason, recipient.supplier, recipient.request
        )
    supplier = (
        Supplier.objects.filter(email__iexact=sender_email).order_by("id").first() if sender_email else None
    )
    pdfs = [a["file_name"] for a in attachments if _is_pdf(a)]
    words = _INVOICE_WORDS.search(subject or "")
    if pdfs:
        named = f"PDF attachment {pdfs[0]!r}" + (f" (+{len(pdfs) - 1} more)" if len(pdfs) > 1 else "")
        if supplier is not None and words:
            reason = f"{named} from supplier {supplier.name}, and the subject says {words.group(0)!r}."
        elif supplier is not None:
            reason = f"{named} from supplier {supplier.name} ({sender_email})."
        elif words:
            reason = (
                f"{named} and the subject says {words.group(0)!r} "
                f"(the sender {sender_email} is no known supplier)."
            )
        else:
            return Verdict(
                InboxMessage.Classification.OTHER,
                f"{named}, but the sender {sender_email} is no known supplier and the subject does "
                "not say invoice or bill.",
            )
        return Verdict(InboxMessage.Classification.BILL, reason, supplier)
    unreadable = [a for a in attachments if _declares_pdf(a) and a.get("problem")]
    if unreadable:
        first = unreadable[0]
        more = f" (+{len(unreadable) - 1} more)" if len(unreadable) > 1 else ""
        who = f"supplier {supplier.name}" if supplier is not None else (sender_email or "(no sender)")
        return Verdict(
            InboxMessage.Classification.OTHER,
            f"The PDF attachment {first['file_name']!r}{more} from {who} could not be read: "
            f"{first['problem']}. Ask the sender to send it again, or enter the bill by hand.",
            supplier,
        )
    if supplier is not None:
        return Verdict(
            InboxMessage.Classification.OTHER,
            f"From supplier {supplier.name}, but with no PDF attachment and no quote request it answers.",
            supplier,
        )
    return Verdict(
        InboxMessage.Classification.OTHER,
        "No PDF attachment, and no quote request matches its reply headers or its sender "
        f"{sender_email or '(none)'}.",
    )


# --------------------------------------------------------------------------- proposals
def _quote_proposal(row: InboxMessage) -> dict[str, Any]:
    request = row.quote_request
    supplier = row.supplier
    if request is None or supplier is None:
        raise ValueError("no quote request matched")
    sheets = []
    for att in row.attachments:
        name = att["file_name"].lower()
        if name.endswith(".csv") or name.endswith(".xlsx"):
            sheets.append((att["file_name"], open_tenant_file(att["file_key"])[0]))
    read = quote_selectors.read_prices(request, supplier.pk, row.body, sheets)
    return {
        "kind": "price_quote_reply",
        "quote_request_id": request.pk,
        "quote_request_number": request.number,
        "supplier_id": supplier.pk,
        "supplier_name": supplier.name,
        **read,
    }


def _bill_proposal(row: InboxMessage) -> dict[str, Any]:
    from tenants.inbox import bills

    pdf = next((a for a in row.attachments if _is_pdf(a)), None)
    if pdf is None:
        raise ValueError("no PDF attachment")
    return bills.propose_bill(
        message=row, file_key=pdf["file_key"], file_name=pdf["file_name"], size=pdf["size"]
    )


def propose(row: InboxMessage) -> None:
    """Read what the message stands for (a quote's lines, a bill's fields) for the verify screen.
    A failure is kept as a sentence: the user can still verify by hand."""
    proposal, error = None, ""
    try:
        if row.classification == InboxMessage.Classification.PRICE_QUOTE_REPLY:
            proposal = _quote_proposal(row)
        elif row.classification == InboxMessage.Classification.BILL:
            proposal = _bill_proposal(row)
    except Exception as exc:  # the parser may fail on any input: keep the message, say why
        log.info("no proposal for inbox message %s: %s", row.pk, exc, exc_info=True)
        error = f"Could not read it automatically: {exc}"[:2000]
    InboxMessage.objects.filter(pk=row.pk).update(proposal=proposal, proposal_error=error)
    row.proposal, row.proposal_error = proposal, error


def read_as(
    *, message_id: int, kind: str, quote_request_id: int | None = None, supplier_id: int | None = None
) -> InboxMessage:
    """Read an unverified email as a bill (its PDF through the bill parser, as a poll does) or as a
    quote reply (its prices against the request the user names), whatever it was classified as, so
    it can then be verified as that. The classification and its reason stay as they were."""
    with transaction.atomic():
        row = InboxMessage.objects.select_for_update().filter(pk=message_id).first()
        if row is None:
            raise ApiError(404, "Email not found")
        if row.verified:
            raise ApiError(409, "This email was already verified.")
        if kind == "bill":
            if not any(_is_pdf(a) for a in row.attachments or []):
                raise ApiError(
                    409,
                    "This email has no PDF attachment that can be read: enter the bill by hand.",
                )
            try:
                proposal = _bill_proposal(row)
            except Exception as exc:  # the parser may fail on any input: say why
                log.info("inbox message %s not readable as a bill: %s", row.pk, exc, exc_info=True)
                raise ApiError(422, f"The bill parser could not read the PDF: {exc}"[:2000]) from exc
        else:
            request = QuoteRequest.objects.filter(pk=quote_request_id or row.quote_request_id or 0).first()
            if request is None:
                raise ApiError(422, "quote_request_id: choose the quote request this email answers.")
            supplier = (
                Supplier.objects.filter(pk=supplier_id).first()
                if supplier_id
                else (row.supplier or quote_selectors.supplier_by_email(row.sender_email))
            )
            if supplier is None:
                raise ApiError(422, "supplier_id: choose the supplier who sent these prices.")
            if not request.recipients.filter(supplier_id=supplier.pk).exists():
                raise ApiError(
                    422, f"supplier_id: {supplier.name} was not asked in quote request {request.number}."
                )
            row.quote_request, row.supplier = request, supplier
            proposal = _quote_proposal(row)
        row.proposal, row.proposal_error = proposal, ""
        row.save(update_fields=["proposal", "proposal_error", "quote_request", "supplier", "updated_at"])
    return row


# --------------------------------------------------------------------------- verification
@dataclass(frozen=True)
class QuoteVerification:
    quote_request_id: int
    supplier_id: int
    lines: list[quote_services.LineInput]


def verify(
    *,
    message_id: int,
    verified_as: str,
    quote: QuoteVerification | None = None,
    bill: dict[str, Any] | None = None,
    acting_user: Any = None,
) -> InboxMessage:
    """Mark a message verified and create what it stands for, in one transaction: a quote (lines
    as the user checked them), a bill (through purchasing), or nothing ("other"). Once only. Making
    the record needs its own permission too (bill.add, price_quote.change)."""
    needed = {"bill": "bill.add", "price_quote_reply": "price_quote.change"}.get(verified_as)
    if needed and acting_user is not None and not acting_user.has_perm(needed):
        from core.permissions import denial_message

        raise ApiError(403, denial_message(needed))
    with transaction.atomic():
        row = InboxMessage.objects.select_for_update().filter(pk=message_id).first()
        if row is None:
            raise ApiError(404, "Email not found")
        if row.verified:
            raise ApiError(409, "This email was already verified.")
        record: dict[str, Any] | None = None
        if verified_as == InboxMessage.Classification.PRICE_QUOTE_REPLY:
            if quote is None:
                raise ApiError(422, "quote: give the quote request, the supplier and the prices.")
            made = quote_services.record_quote(
                request_id=quote.quote_request_id,
                supplier_id=quote.supplier_id,
                lines=quote.lines,
                received_at=row.received_timestamp,
                source_message_id=row.pk,
                notes=f"From the email '{row.subject}' of {row.sender_email}"[:5000],
            )
            number = made.request.number
            record = {
                "type": "quote",
                "id": made.pk,
                "label": f"Quote of {made.supplier.name} for {number}",
                "path": f"/price-quotes/{made.request_id}",
            }
        elif verified_as == InboxMessage.Classification.BILL:
            if bill is None:
                raise ApiError(422, "bill: give the bill's fields.")
            from tenants.inbox import bills

            record = bills.create_bill_from(bill, source=row, user=acting_user)
        elif verified_as != InboxMessage.Classification.OTHER:
            raise ApiError(422, "verified_as: bill, price_quote_reply or other.")
        row.verified = True
        row.verified_at = timezone.now()
        row.verified_as = verified_as
        row.verified_by_name = str(
            getattr(acting_user, "name", "") or getattr(acting_user, "email", "") or ""
        )
        row.created_record = record
        row.save()
    return row
