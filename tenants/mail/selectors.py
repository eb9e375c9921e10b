from __future__ import annotations

from core.scoping import get_or_404
from django.db.models import Count, F, Q, QuerySet

from tenants.mail.models import EmailedDocument, SentEmail
from tenants.mail.schemas import EmailListQuery


def emails(query: EmailListQuery) -> QuerySet[SentEmail]:
    qs = SentEmail.objects.all()
    if query.category:
        qs = qs.filter(category=query.category)
    if query.parent_id:
        qs = qs.filter(parent_id=query.parent_id)
    if query.status:
        qs = qs.filter(status=query.status)
    field = F(query.sort_by)
    if query.order == "desc":
        # Emails not sent yet come first when newest first: they are the newest.
        return qs.order_by(field.desc(nulls_first=True), "-id")
    return qs.order_by(field.asc(nulls_last=True), "id")


def held_count() -> int:
    """Emails held until the mail provider is reconnected (docs/google.md)."""
    return SentEmail.objects.filter(status=SentEmail.Status.HELD).count()


def get_email(email_id: int) -> SentEmail:
    return get_or_404(SentEmail, email_id)


# --- who receives a customer's documents -------------------------------------------------------------
INVOICE_SERVICE = "invoices"
DELIVERY_TICKET_SERVICE = "delivery_tickets"


def document_recipients(
    customer_id: int | None, service_code: str, *, ship_to_id: int | None = None
) -> list[tuple[str, str]]:
    """`(address, name)` of the customer's contacts subscribed to the service in the contact book
    (a contact tied to a ship-to only for that ship-to's documents), else the customer's billing
    email; duplicates dropped, in the contact book's order. Empty when the customer has neither."""
    from tenants.parties.models import Customer, CustomerContact

    if customer_id is None:
        return []
    contacts = (
        CustomerContact.objects.filter(customer_id=customer_id, services__code__iexact=service_code)
        .exclude(email="")
        .order_by("name", "id")
    )
    if ship_to_id is not None:
        contacts = contacts.filter(Q(ship_to__isnull=True) | Q(ship_to_id=ship_to_id))
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for contact in contacts.distinct():
        if contact.email.lower() not in seen:
            seen.add(contact.email.lower())
            out.append((contact.email, contact.name))
    if out:
        return out
    customer = Customer.objects.filter(pk=customer_id).only("name", "email").first()
    if customer is not None and customer.email:
        return [(customer.email, customer.name)]
    return []


def emailed_document(document_type: str, document_id: int) -> EmailedDocument | None:
    return EmailedDocument.objects.filter(document_type=document_type, document_id=document_id).first()


def email_counts(categories: list[str], parent_id: int) -> dict[str, int]:
    """How many emails about a document are queued, sending, sent or failed."""
    counts = {status: 0 for status in SentEmail.Status.values}
    rows = (
        SentEmail.objects.filter(category__in=categories, parent_id=parent_id)
        .values("status")
        .annotate(n=Count("id"))
    )
    for row in rows:
        counts[row["status"]] = row["n"]
    return counts
