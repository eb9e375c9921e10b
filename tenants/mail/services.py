"""The outbox: queue emails as rows, and deliver one exactly once (docs/email.md)."""

from __future__ import annotations

import logging
import smtplib
import socket
import uuid
from dataclasses import dataclass
from datetime import timedelta
from email.utils import formataddr, parseaddr
from typing import Any

from core.errors import ApiError
from core.storage import open_tenant_file, save_upload, tenant_prefix
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.mail import EmailMessage, get_connection
from django.db import DatabaseError, connection, transaction
from django.dispatch import Signal
from django.utils import timezone

from tenants.mail import rules, transports
from tenants.mail.models import EmailedDocument, SentEmail

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 5
# An email still queued (or left `sending` by a dead worker) this long is offered to a worker again.
STALE_AFTER = timedelta(minutes=5)


# The provider hook (tenants/mail/transports.py), public here for the apps that register a transport.
Held = transports.Held
TransportTemporaryError = transports.TemporaryError
TransportThrottled = transports.Throttled
register_transport = transports.register


class TemporaryFailure(Exception):
    """The SMTP server or the network said "try later": the worker retries with backoff."""


@dataclass(frozen=True)
class Attachment:
    """A file to attach: given as bytes (a rendered PDF) or as the key of an uploaded file."""

    file_name: str
    data: bytes | None = None
    file_key: str | None = None
    content_type: str = "application/pdf"


# --- queueing ----------------------------------------------------------------------------------------
def _store_attachments(attachments: list[Attachment]) -> list[dict[str, Any]]:
    stored = []
    prefix = tenant_prefix()
    for att in attachments:
        if att.data is not None:
            upload = SimpleUploadedFile(att.file_name, att.data, content_type=att.content_type)
            saved = save_upload(upload, "attachment")
            stored.append(
                {
                    "file_key": saved.file_key,
                    "file_name": att.file_name,
                    "content_type": att.content_type,
                    "size": saved.size,
                }
            )
            continue
        key = att.file_key or ""
        if not key.startswith(prefix) or ".." in key.split("/"):
            raise ApiError(422, "attachments: the file must be one uploaded by this company.")
        data, content_type = open_tenant_file(key)
        name = att.file_name or key.rsplit("/", 1)[-1]
        stored.append({"file_key": key, "file_name": name, "content_type": content_type, "size": len(data)})
    return stored


def _message_id(key: str) -> str:
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].partition("@")[2] or "fueldesk.local"
    return f"<{uuid.uuid5(uuid.NAMESPACE_URL, f'{connection.schema_name}/{key}').hex}@{domain}>"


def queue_email(
    *,
    recipients: str | list[str],
    subject: str,
    body: str = "",
    category: str = SentEmail.Category.GENERAL,
    parent_id: int | None = None,
    sender_email: str | None = None,
    sender_name: str | None = None,
    recipient_names: dict[str, str] | None = None,
    cc: Any = None,
    bcc: Any = None,
    reply_to: str | None = None,
    attachments: list[Attachment] | None = None,
    one_per_recipient: bool = True,
    idempotency_key: str | None = None,
) -> list[SentEmail]:
    """Write the email rows (one per recipient, or one for all) and queue their sending after the
    commit. The same idempotency key answers the rows it made the first time, sending nothing."""
    addresses = rules.parse_recipients(recipients)
    if not addresses:
        raise ApiError(422, "recipient_email: give at least one address.")
    cc_list = [a.__dict__ for a in rules.parse_address_list(cc)]
    bcc_list = [a.__dict__ for a in rules.parse_address_list(bcc)]
    if reply_to:
        reply_to = rules.parse_recipients(reply_to)[0] if rules.parse_recipients(reply_to) else ""
    from_name, from_email = parseaddr(settings.DEFAULT_FROM_EMAIL)
    sender_email = (
        rules.parse_recipients(sender_email)[0] if sender_email and sender_email.strip() else from_email
    )
    key = idempotency_key or uuid.uuid4().hex
    groups = rules.split_recipients(addresses, one_per_recipient)
    keys = [key if len(groups) == 1 else f"{key}:{group[0].lower()}" for group in groups]
    existing = {e.idempotency_key: e for e in SentEmail.objects.filter(idempotency_key__in=keys)}
    if existing:
        return [existing[k] for k in keys if k in existing]
    stored = _store_attachments(attachments or [])
    rows = []
    with transaction.atomic():
        for group, row_key in zip(groups, keys, strict=True):
            names = [rules.recipient_name(a, recipient_names) for a in group]
            rows.append(
                SentEmail.objects.create(
                    category=category,
                    parent_id=parent_id,
                    sender_email=sender_email,
                    sender_name=(sender_name or from_name or "").strip(),
                    recipient_email=", ".join(group),
                    recipient_name=", ".join(names),
                    subject=subject,
                    body=body,
                    attachments=stored,
                    reply_to=reply_to or "",
                    cc=cc_list,
                    bcc=bcc_list,
                    idempotency_key=row_key,
                    message_id=_message_id(row_key),
                )
            )
        schema = connection.schema_name
        jobs = [_job(r) for r in rows]
        transaction.on_commit(lambda: enqueue(schema, jobs))
    return rows


INVOICE_CATEGORIES = {SentEmail.Category.INVOICE, SentEmail.Category.INVOICE_WITH_DELIVERY_TICKET}


def _job(email: SentEmail) -> dict[str, Any]:
    """The message's arguments and the document its job-log entry links to: an invoice's email
    names the invoice (so `get-logs?invoice_id=` finds it), a delivery ticket's its sales order."""
    job: dict[str, Any] = {"email_id": email.pk}
    if email.category in INVOICE_CATEGORIES and email.parent_id:
        job["invoice_id"] = email.parent_id
        document = {"type": "invoice", "id": email.parent_id, "path": f"/invoice/{email.parent_id}"}
    elif email.category == SentEmail.Category.DELIVERY_TICKET and email.parent_id:
        document = {"type": "sales_order", "id": email.parent_id, "path": f"/sales-order/{email.parent_id}"}
    else:
        document = {"type": "email", "id": email.pk, "path": "/email"}
    document["label"] = f"{email.subject} → {email.recipient_email}"[:200]
    job["document"] = document
    return job


# Sent (after commit) with the jobs to run; `tenants.mail.receivers` turns them into worker messages,
# so services never import the actors that call them (no services <-> tasks cycle).
emails_queued = Signal()


def enqueue(schema: str, jobs: list[dict[str, Any]]) -> None:
    emails_queued.send(sender=SentEmail, schema=schema, jobs=jobs)


# --- delivery ----------------------------------------------------------------------------------------
def build_message(email: SentEmail, conn: Any = None) -> EmailMessage:
    to = [
        formataddr((name.strip(), addr.strip())) if name.strip() else addr.strip()
        for addr, name in zip(
            email.recipient_email.split(","),
            (email.recipient_name.split(",") + [""] * 1000),
            strict=False,
        )
    ]
    message = EmailMessage(
        subject=email.subject,
        body=email.body,
        from_email=formataddr((email.sender_name, email.sender_email))
        if email.sender_name
        else email.sender_email,
        to=to,
        cc=[formataddr((a.get("name", ""), a["email"])) for a in email.cc],
        bcc=[a["email"] for a in email.bcc],
        reply_to=[email.reply_to] if email.reply_to else None,
        headers={"Message-ID": email.message_id},
        connection=conn,
    )
    for att in email.attachments:
        data, _ = open_tenant_file(att["file_key"])
        message.attach(att["file_name"], data, att.get("content_type") or "application/octet-stream")
    return message


def _is_temporary(exc: BaseException) -> bool:
    if isinstance(exc, transports.TemporaryError):
        return True
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(400 <= code < 500 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return False
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    return isinstance(
        exc, smtplib.SMTPServerDisconnected | smtplib.SMTPConnectError | socket.timeout | OSError
    )


def _lock(email_id: int) -> SentEmail | None:
    """The email's row, locked for this transaction; None when another worker holds it."""
    try:
        return SentEmail.objects.select_for_update(nowait=True).filter(pk=email_id).first()
    except DatabaseError:
        return None


def deliver(email_id: int) -> str:
    """Send one queued email, exactly once. The row's lock is held for the whole SMTP
    conversation and `sent` is committed right after the server accepts the message, so a
    redelivered job, a second worker or a worker restarted after a crash sees either `sent` (and
    stops) or an unlocked `queued`/`sending` email that was not accepted (and sends it)."""
    with transaction.atomic():
        email = _lock(email_id)
        if email is None:
            if SentEmail.objects.filter(pk=email_id).exists():
                # Another worker is talking to the server about it: look again later.
                raise TemporaryFailure("another worker is sending this email")
            return "missing"
        if email.status in (SentEmail.Status.SENT, SentEmail.Status.FAILED, SentEmail.Status.HELD):
            return email.status
        # Visible to readers while this worker talks to the server (its own short commit).
        email.status = SentEmail.Status.SENDING
        email.attempts += 1
        email.save(update_fields=["status", "attempts", "updated_at"])
    outcome, error = "sent", ""
    later: list[dict[str, Any]] = []
    # A provider's API when the company connected one (Gmail: tenants/google), else the backend.
    transport = transports.resolve()
    conn = get_connection(fail_silently=False) if transport is None else None
    try:
        with transaction.atomic():
            email = _lock(email_id)
            if email is None:
                raise TemporaryFailure("another worker is sending this email")
            if email.status != SentEmail.Status.SENDING:
                return email.status
            try:
                if transport is not None:
                    transport.open()
                    transport.send(build_message(email))
                elif conn is not None:
                    conn.open()  # held open past the commit (send_messages would close it first)
                    message = build_message(email, conn)
                    if conn.send_messages([message]) != 1:
                        raise smtplib.SMTPException("the mail backend did not accept the message")
            except transports.Throttled as exc:
                # The provider asked to wait longer than a worker sleeps: queued again for then, and
                # the attempt does not count (after MAX_ATTEMPTS of these it would be failed).
                outcome = "later"
                wait_seconds = max(1.0, exc.retry_after)
                email.status = SentEmail.Status.QUEUED
                email.attempts = max(email.attempts - 1, 0)
                email.error = f"{exc}: sending again in {wait_seconds:.0f} s, as the provider asked"[:2000]
                email.save(update_fields=["status", "attempts", "error", "updated_at"])
                later = [{**_job(email), "delay_ms": int(wait_seconds * 1000)}]
            except transports.Held as exc:
                # Not accepted, and no retry can help until a person acts (reconnects Google):
                # `release_held` queues it again then.
                outcome = error = "held"
                email.status = SentEmail.Status.HELD
                email.error = str(exc)[:2000]
                email.save(update_fields=["status", "error", "updated_at"])
            except Exception as exc:
                error = f"{type(exc).__name__}: {exc}"[:2000]
                temporary = _is_temporary(exc) and email.attempts < MAX_ATTEMPTS
                outcome = "retry" if temporary else "failed"
                email.status = SentEmail.Status.QUEUED if temporary else SentEmail.Status.FAILED
                email.error = error
                email.save(update_fields=["status", "error", "updated_at"])
            else:
                # Accepted by the server: record it at once. Between the server's "250" and this
                # commit lies the only window where a crash would send the email again.
                email.status = SentEmail.Status.SENT
                email.sent_at = timezone.now()
                email.error = ""
                email.save(update_fields=["status", "sent_at", "error", "updated_at"])
    finally:
        # QUIT and close after the commit, not before: the server's goodbye is not worth a window.
        try:
            if transport is not None:
                transport.close()
            elif conn is not None:
                conn.close()
        except Exception:
            log.debug("closing the mail connection failed", exc_info=True)
    if outcome == "later":
        log.info("email %s: the provider asked to wait; queued again", email_id)
        enqueue(connection.schema_name, later)
        return "delayed"
    if outcome == "retry":
        raise TemporaryFailure(error)
    if outcome == "failed":
        log.warning("email %s failed: %s", email_id, error)
    return outcome


def release_held() -> int:
    """Queue the held emails again (the provider is reconnected). Each row goes back to `queued`
    under its lock and gets one message after the commit; delivery's state check keeps it once."""
    with transaction.atomic():
        held = list(
            SentEmail.objects.select_for_update()
            .filter(status=SentEmail.Status.HELD)
            .only("id", "category", "parent_id", "subject", "recipient_email")
        )
        if not held:
            return 0
        SentEmail.objects.filter(pk__in=[e.pk for e in held]).update(
            status=SentEmail.Status.QUEUED, error="", attempts=0, updated_at=timezone.now()
        )
        schema = connection.schema_name
        jobs = [_job(e) for e in held]
        transaction.on_commit(lambda: enqueue(schema, jobs))
    return len(held)


def requeue_stale(older_than: timedelta = STALE_AFTER) -> int:
    """Offer emails nobody is sending (queued, or `sending` with the row unlocked: its worker died)
    and untouched for `older_than` to a worker again. Safe to run any time: delivery checks the
    state under the row lock, so a second message for an email never sends it twice."""
    cutoff = timezone.now() - older_than
    with transaction.atomic():
        stale = list(
            SentEmail.objects.select_for_update(skip_locked=True)
            .filter(status__in=[SentEmail.Status.QUEUED, SentEmail.Status.SENDING], updated_at__lte=cutoff)
            .only("id", "category", "parent_id")[:5000]
        )
    if stale:
        enqueue(connection.schema_name, [_job(e) for e in stale])
    return len(stale)


def requeue_stale_everywhere(older_than: timedelta = STALE_AFTER) -> int:
    """`requeue_stale` in every active company (the scheduler's `mail_requeue_stale`)."""
    from tenancy.models import Tenant

    total = 0
    schemas = Tenant.objects.filter(status__in=[Tenant.Status.ACTIVE, Tenant.Status.SUSPENDED])
    for tenant in schemas.iterator():
        connection.set_tenant(tenant)
        try:
            total += requeue_stale(older_than)
        except DatabaseError:
            log.warning("re-queueing stale emails of %s failed", tenant.schema_name, exc_info=True)
        finally:
            connection.set_schema_to_public()
    return total


# --- a document's email: drafts, sending, "marked as emailed" ------------------------------------------
@dataclass(frozen=True)
class DocumentEmail:
    """What a domain hands over to email one document: who, what, and the files."""

    category: str
    parent_id: int
    recipients: list[tuple[str, str]]  # (address, name)
    subject: str
    body: str
    attachments: list[Attachment]


def company_sender() -> tuple[str, str]:
    """The company's name and address for the From/Reply-To of its documents' emails."""
    from tenants.company.selectors import company_profile

    profile = company_profile()
    return (profile.name if profile else "", profile.email if profile else "")


def prepare_drafts(doc: DocumentEmail) -> list[dict[str, Any]]:
    """Drafts of the document's email, one per recipient, in the send payload's shape (`POST
    /api/email/` takes them back once edited). The files are stored once, shared by the drafts."""
    if not doc.recipients:
        raise ApiError(
            422,
            "This customer has no contact subscribed to these documents in the contact book and no "
            "billing email: add one first.",
        )
    stored = _store_attachments(doc.attachments)
    company_name, company_email = company_sender()
    return [
        {
            "category": doc.category,
            "parent_id": doc.parent_id,
            "sender_email": parseaddr(settings.DEFAULT_FROM_EMAIL)[1],
            "sender_name": company_name,
            "recipient_email": address,
            "recipient_name": name or rules.default_name(address),
            "subject": doc.subject,
            "body": doc.body,
            "attachments": stored,
            "reply_to": company_email,
            "cc": [],
            "bcc": [],
        }
        for address, name in doc.recipients
    ]


def send_document_email(doc: DocumentEmail, *, idempotency_key: str | None = None) -> list[SentEmail]:
    """Queue the document's email, one per recipient, through the outbox."""
    if not doc.recipients:
        raise ApiError(
            422,
            "This customer has no contact subscribed to these documents in the contact book and no "
            "billing email: add one first.",
        )
    company_name, company_email = company_sender()
    return queue_email(
        recipients=[address for address, _ in doc.recipients],
        recipient_names={address: name for address, name in doc.recipients if name},
        subject=doc.subject,
        body=doc.body,
        category=doc.category,
        parent_id=doc.parent_id,
        sender_name=company_name or None,
        reply_to=company_email or None,
        attachments=doc.attachments,
        one_per_recipient=True,
        idempotency_key=idempotency_key,
    )


def mark_emailed(*, document_type: str, document_id: int, user: Any = None) -> EmailedDocument:
    """Record that the document was emailed (who and when; marking again counts again)."""
    with transaction.atomic():
        row = (
            EmailedDocument.objects.select_for_update()
            .filter(document_type=document_type, document_id=document_id)
            .first()
        )
        now = timezone.now()
        marker = user if getattr(user, "pk", None) else None
        if row is None:
            return EmailedDocument.objects.create(
                document_type=document_type, document_id=document_id, marked_at=now, marked_by=marker
            )
        row.marked_at, row.marked_by, row.times = now, marker, row.times + 1
        row.save(update_fields=["marked_at", "marked_by", "times"])
        return row
