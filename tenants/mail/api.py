"""`/api/email`: the history of sent emails (both categories of spec §7) and the send call."""

from __future__ import annotations

from core.envelope import Answer, Envelope, Page, ok
from core.errors import ApiError
from core.listing import ListParams, paginate
from core.permissions import perm, register_resource
from core.storage import open_tenant_file
from django.http import HttpRequest, HttpResponse
from ninja import Query, Router

from tenants.mail import selectors, services
from tenants.mail.schemas import EmailIn, EmailListQuery, EmailOut

router = Router(tags=["email"])
register_resource("email", "Emails", ("view", "add"))


@router.get("", response=Envelope[Page[EmailOut]], auth=perm("email.view"), operation_id="email_list")
def list_emails(request: HttpRequest, query: Query[EmailListQuery]) -> Answer:
    """Sent (and queued) emails, newest first by default; filter by category and parent_id."""
    params = ListParams.model_validate({"page": query.page, "size": query.size})
    return ok(paginate(selectors.emails(query), params, 50), "Emails retrieved successfully")


@router.get("/{int:id}", response=Envelope[EmailOut], auth=perm("email.view"), operation_id="email_get")
def get_email(request: HttpRequest, id: int) -> Answer:
    return ok(selectors.get_email(id), "Email retrieved successfully")


@router.get(
    "/{int:id}/attachments/{int:index}",
    auth=perm("email.view"),
    operation_id="email_attachment",
    response={200: bytes},
    openapi_extra={"responses": {"200": {"description": "The attachment, as a download"}}},
)
def download_attachment(request: HttpRequest, id: int, index: int) -> HttpResponse:
    email = selectors.get_email(id)
    if index >= len(email.attachments):
        raise ApiError(404, "Attachment not found")
    att = email.attachments[index]
    data, _ = open_tenant_file(att["file_key"])
    response = HttpResponse(data, content_type="application/octet-stream")
    name = "".join(ch if ch.isalnum() or ch in "-_. " else "-" for ch in att["file_name"]) or "attachment"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@router.post("", response={201: Envelope[list[EmailOut]]}, auth=perm("email.add"), operation_id="email_send")
def send_emails(request: HttpRequest, payload: list[EmailIn]) -> Answer:
    """Queue emails for sending (spec §7 `POST email/`): each object's comma-separated recipients
    become one email each (or one for all with `one_per_recipient: false`)."""
    if not payload:
        raise ApiError(422, "Give at least one email.")
    if len(payload) > 100:
        raise ApiError(422, "At most 100 emails per call.")
    rows = []
    for item in payload:
        rows += services.queue_email(
            recipients=item.recipient_email,
            subject=item.subject,
            body=item.body,
            category=item.category,
            parent_id=item.parent_id,
            sender_email=item.sender_email,
            sender_name=item.sender_name,
            recipient_names={addr.strip(): item.recipient_name for addr in item.recipient_email.split(",")}
            if item.recipient_name
            else None,
            cc=item.cc,
            bcc=item.bcc,
            reply_to=item.reply_to,
            attachments=[
                services.Attachment(file_name=a.file_name or "", file_key=a.file_key)
                for a in item.attachments
            ],
            one_per_recipient=item.one_per_recipient,
            idempotency_key=item.idempotency_key,
        )
    return ok(rows, f"{len(rows)} email{'s' if len(rows) != 1 else ''} queued for sending", status=201)


routes = [("/email", router)]
