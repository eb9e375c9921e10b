"""`/api/email-agent`: the inbox agent (spec §7): start polling, the list of received emails with
their classification, one email, and verifying it into the record it stands for; plus the mailbox
settings (the password is write-only) and a connection test."""

from __future__ import annotations

from core.envelope import Answer, Envelope, Page, ok, page_of
from core.errors import ApiError
from core.permissions import acting_user, perm, register_resource
from core.storage import download_headers, open_tenant_file
from django.http import HttpRequest, HttpResponse
from ninja import Query, Router

from tenants.inbox import imap, selectors, services
from tenants.inbox.schemas import (
    InboxListQuery,
    InboxMessageListOut,
    InboxMessageOut,
    MailboxIn,
    MailboxOut,
    MailboxTestIn,
    MailboxTestOut,
    ReadAsIn,
    VerifyIn,
)
from tenants.quotes.services import LineInput

router = Router(tags=["email-agent"])
register_resource("email_agent", "Inbox agent", ("view", "change"))


@router.post(
    "/start", response=Envelope[MailboxOut], auth=perm("email_agent.change"), operation_id="email_agent_start"
)
def start(request: HttpRequest) -> Answer:
    """Turn polling on (every `poll_every_seconds`, 2 minutes by default) and poll now."""
    box = services.start(acting_user=acting_user())
    return ok(selectors.mailbox_out(box), "Inbox polling started")


@router.post(
    "/stop", response=Envelope[MailboxOut], auth=perm("email_agent.change"), operation_id="email_agent_stop"
)
def stop(request: HttpRequest) -> Answer:
    box = services.stop()
    return ok(selectors.mailbox_out(box), "Inbox polling stopped")


@router.get(
    "/mailbox",
    response=Envelope[MailboxOut],
    auth=perm("email_agent.view"),
    operation_id="email_agent_mailbox",
)
def get_mailbox(request: HttpRequest) -> Answer:
    return ok(selectors.mailbox_out(selectors.mailbox()), "Mailbox settings retrieved")


@router.put(
    "/mailbox",
    response=Envelope[MailboxOut],
    auth=perm("email_agent.change"),
    operation_id="email_agent_mailbox_save",
)
def save_mailbox(request: HttpRequest, payload: MailboxIn) -> Answer:
    box = services.save_mailbox(
        host=payload.host,
        port=payload.port,
        security=payload.security,
        username=payload.username,
        password=payload.password or None,
        folder=payload.folder,
        poll_every_seconds=payload.poll_every_seconds,
    )
    return ok(selectors.mailbox_out(box), "Mailbox settings saved")


@router.post(
    "/mailbox/test",
    response=Envelope[MailboxTestOut],
    auth=perm("email_agent.change"),
    operation_id="email_agent_mailbox_test",
)
def test_mailbox(request: HttpRequest, payload: MailboxTestIn) -> Answer:
    """Log in and read the folder's message count: the answer says what went wrong (a refused
    login, an unreachable server) in words. Nothing is imported or saved."""
    stored = selectors.mailbox()
    given = payload.settings
    if given is None:
        if stored is None:
            raise ApiError(409, "Set up the mailbox first (IMAP server, user and password).")
        cfg = services.settings_of(stored)
    else:
        password = given.password or None
        if password is None:
            if stored is None or not stored.password_encrypted:
                raise ApiError(422, "password: give the mailbox password.")
            password = services.settings_of(stored).password
        cfg = imap.Settings(
            host=given.host,
            port=given.port,
            security=given.security,
            username=given.username,
            password=password,
            folder=given.folder,
        )
    result = services.test_connection(cfg)
    return ok(
        {"ok": result.ok, "message": result.message, "messages": result.messages},
        "Connection test succeeded" if result.ok else "Connection test failed",
    )


@router.get(
    "",
    response=Envelope[Page[InboxMessageListOut]],
    auth=perm("email_agent.view"),
    operation_id="email_agent_list",
)
def list_messages(request: HttpRequest, query: Query[InboxListQuery]) -> Answer:
    """Received emails, newest first; verified ones only with include_verified=true."""
    qs = selectors.messages(
        sort_by=query.sort_by,
        order=query.order,
        include_verified=query.include_verified,
        classification=query.classification,
    )
    total = qs.count()
    start = (query.page - 1) * query.size
    rows = [selectors.list_row(m) for m in qs[start : start + query.size]]
    return ok(page_of(rows, total=total, page=query.page, size=query.size), "Emails retrieved successfully")


@router.get(
    "/{int:id}",
    response=Envelope[InboxMessageOut],
    auth=perm("email_agent.view"),
    operation_id="email_agent_get",
)
def get_message(request: HttpRequest, id: int) -> Answer:
    return ok(selectors.message_out(selectors.get_message(id)), "Email retrieved successfully")


@router.get(
    "/{int:id}/attachments/{int:index}",
    auth=perm("email_agent.view"),
    operation_id="email_agent_attachment",
    response={200: bytes},
    openapi_extra={"responses": {"200": {"description": "The attachment, as a download"}}},
)
def download_attachment(request: HttpRequest, id: int, index: int) -> HttpResponse:
    message = selectors.get_message(id)
    if index >= len(message.attachments or []):
        raise ApiError(404, "Attachment not found")
    att = message.attachments[index]
    if not att.get("file_key"):
        raise ApiError(
            404, f"The attachment {att['file_name']} was not kept: {att.get('problem') or 'empty'}."
        )
    data, _ = open_tenant_file(att["file_key"])
    response = HttpResponse(data, content_type="application/octet-stream")
    for header, value in download_headers(att["file_name"], "application/octet-stream").items():
        response[header] = value
    return response


@router.put(
    "/{int:id}/read-as",
    response=Envelope[InboxMessageOut],
    auth=perm("email_agent.change"),
    operation_id="email_agent_read_as",
)
def read_as(request: HttpRequest, id: int, payload: ReadAsIn) -> Answer:
    """Read an email (e.g. one classified "other") as a bill or as a quote reply, so it can be
    verified as that: the answer carries the bill's or the quote's proposal."""
    row = services.read_as(
        message_id=id,
        kind=payload.kind,
        quote_request_id=payload.quote_request_id,
        supplier_id=payload.supplier_id,
    )
    what = "a bill" if payload.kind == "bill" else "a quote reply"
    return ok(selectors.message_out(row), f"Email read as {what}: check it and verify")


@router.put(
    "/{int:id}/verify",
    response=Envelope[InboxMessageOut],
    auth=perm("email_agent.change"),
    operation_id="email_agent_verify",
)
def verify(request: HttpRequest, id: int, payload: VerifyIn) -> Answer:
    quote = None
    if payload.quote is not None:
        quote = services.QuoteVerification(
            quote_request_id=payload.quote.quote_request_id,
            supplier_id=payload.quote.supplier_id,
            lines=[LineInput(ln.product_id, ln.terminal_id, ln.price) for ln in payload.quote.lines],
        )
    row = services.verify(
        message_id=id,
        verified_as=payload.verified_as,
        quote=quote,
        bill=payload.bill.model_dump(mode="json") if payload.bill else None,
        acting_user=acting_user(),
    )
    made = row.created_record
    message = f"Email verified: {made['label']} created" if made else "Email verified"
    return ok(selectors.message_out(row), message)


routes = [("/email-agent", router)]
