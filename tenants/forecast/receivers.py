"""The forecast learns from every delivery: when a delivery ticket is saved as delivered, the
driver's "level before" of its lines becomes a reading and each tank filled is refit at once (the
fill tells the true usage since the last one). A failure here never refuses the delivery: the tank
records why it cannot be forecast (services.refit)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

from tenants.delivery.models import DeliveryTicket, DeliveryTicketLine
from tenants.forecast import services

log = logging.getLogger(__name__)


def on_ticket_saved(sender: Any, instance: DeliveryTicket, raw: bool = False, **_: Any) -> None:
    if raw or instance.status != DeliveryTicket.Status.DELIVERED:
        return
    lines = list(
        DeliveryTicketLine.objects.filter(ticket=instance, tank__isnull=False).select_related(
            "tank", "ticket"
        )
    )
    if not lines:
        return
    try:
        with transaction.atomic():  # a savepoint: the delivery stands whatever happens here
            services.record_driver_levels(lines)
    except Exception:
        log.exception("driver levels of ticket %s were not stored", instance.pk)
    services.refit(sorted({ln.tank_id for ln in lines if ln.tank_id is not None}))


post_save.connect(on_ticket_saved, sender=DeliveryTicket, dispatch_uid="forecast-ticket-delivered")
