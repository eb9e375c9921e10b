"""Give the tickets made before their workflow recorded moves a timeline: the create (when and by whom
the ticket was made, as it was: open) and, for a ticket no longer open, the move to where it is now
at its last change (the best time we have of when the move was entered; a delivery's own time is in
the details, as the workflow records it). Each backfilled row says so in its details; who delivered
or voided it was not recorded."""

from typing import Any

from django.db import migrations

BATCH = 2000


def backfill(apps: Any, schema_editor: Any) -> None:
    Ticket = apps.get_model("delivery", "DeliveryTicket")
    Event = apps.get_model("delivery", "DeliveryTicketEvent")
    at = Event._meta.get_field("at")
    # `at` is auto_now_add: off for this copy, so a row keeps the time the move happened.
    at.auto_now_add = False
    try:
        rows = []
        tickets = Ticket.objects.filter(events__isnull=True).select_related("created_by").order_by("id")
        for t in tickets.iterator(chunk_size=BATCH):
            by = t.created_by
            rows.append(
                Event(
                    ticket_id=t.pk,
                    action="create",
                    from_status="",
                    to_status="open",
                    by=by,
                    by_name=(by.name or by.email) if by else "",
                    at=t.created_at,
                    details={"backfilled": True},
                )
            )
            if t.status != "open":
                rows.append(
                    Event(
                        ticket_id=t.pk,
                        action="deliver" if t.status == "delivered" else "void",
                        from_status="open",
                        to_status=t.status,
                        at=t.updated_at,
                        details={"backfilled": True}
                        | ({"delivered_at": t.delivered_at.isoformat()} if t.delivered_at else {}),
                    )
                )
            if len(rows) >= BATCH:
                Event.objects.bulk_create(rows)
                rows = []
        Event.objects.bulk_create(rows)
    finally:
        at.auto_now_add = True


class Migration(migrations.Migration):
    dependencies = [("delivery", "0002_ticket_events")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
