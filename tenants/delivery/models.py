"""Delivery tickets: the paper (and PDF) that proves what went into which tank, signed by the customer.

A ticket belongs to a sales order; an order has one ticket, or one per PO number among its lines when
the office splits it. Numbers come from tenants/sequences (DT-000001), per company, never reused: a
ticket that is no longer needed is voided, never renumbered or deleted.
"""

from __future__ import annotations

from core.models import Timestamped, WorkflowEvent
from core.scoping import declare_owner
from django.db import models


class DeliveryTicket(Timestamped):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DELIVERED = "delivered", "Delivered"
        VOID = "void", "Void"

    number = models.CharField(max_length=30, unique=True, help_text="DT-000123, per company, never reused")
    sales_order = models.ForeignKey(
        "sales.SalesOrder", on_delete=models.PROTECT, related_name="delivery_tickets"
    )
    po_number = models.CharField(max_length=60, blank=True, default="")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    # The number printed on a paper ticket the office typed in (the driver's book), if any.
    reference = models.CharField(max_length=60, blank=True, default="")
    # Proof of delivery: keys of this company's uploads (purposes `signature` and `photo`).
    signer_name = models.CharField(max_length=200, blank=True, default="")
    signature_key = models.CharField(max_length=500, blank=True, default="")
    photo_keys = models.JSONField(default=list, blank=True)
    signed_at = models.DateTimeField(null=True, blank=True)
    latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # When the ticket was last emailed to the customer (the delivery-ticket email marks it).
    emailed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["sales_order", "id"], name="dt_order"),
            models.Index(fields=["created_at", "id"], name="dt_created_at"),
            models.Index(fields=["status", "created_at"], name="dt_status_created"),
            models.Index(fields=["delivered_at", "id"], name="dt_delivered_at"),
        ]

    def __str__(self) -> str:
        return self.number


class DeliveryTicketLine(Timestamped):
    """One product line of a ticket, mirroring a line of the order, with what the meter said."""

    ticket = models.ForeignKey(DeliveryTicket, on_delete=models.CASCADE, related_name="lines")
    line_item = models.ForeignKey("sales.LineItem", on_delete=models.CASCADE, related_name="ticket_lines")
    product = models.ForeignKey("catalog.Product", on_delete=models.PROTECT, related_name="+")
    position = models.PositiveIntegerField(default=0)
    ordered_quantity = models.DecimalField(max_digits=14, decimal_places=3)
    delivered_quantity = models.DecimalField(max_digits=14, decimal_places=3, null=True, blank=True)
    gross_volume = models.DecimalField(max_digits=14, decimal_places=3, null=True, blank=True)
    net_volume = models.DecimalField(max_digits=14, decimal_places=3, null=True, blank=True)
    # What the net was computed with (the product's gravity and group may change later).
    vcf = models.DecimalField(max_digits=6, decimal_places=4, null=True, blank=True)
    api_gravity = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    vcf_group = models.CharField(max_length=20, blank=True, default="")
    meter_start = models.DecimalField(max_digits=14, decimal_places=3, null=True, blank=True)
    meter_end = models.DecimalField(max_digits=14, decimal_places=3, null=True, blank=True)
    temperature_f = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    # The tank's gauge before the drop, % of its capacity (the driver's reading; tenants/forecast
    # stores it as a tank reading).
    level_before_percent = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    # The customer's tank at the ship-to when known (parties' CustomerAsset), else what was written.
    tank = models.ForeignKey(
        "parties.CustomerAsset", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    tank_name = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["position", "id"]
        verbose_name = "delivery ticket line"
        constraints = [
            models.UniqueConstraint(fields=["ticket", "line_item"], name="dt_line_unique_item"),
        ]
        indexes = [models.Index(fields=["line_item"], name="dt_line_item")]

    def __str__(self) -> str:
        return f"{self.ticket_id}: {self.product_id}"


class DeliveryTicketEvent(WorkflowEvent):
    """One move of a ticket's workflow (tenants/delivery/workflow.py): who, when, from, to (its timeline)."""

    ticket = models.ForeignKey(DeliveryTicket, on_delete=models.CASCADE, related_name="events")

    document_field = "ticket"

    class Meta(WorkflowEvent.Meta):
        verbose_name = "delivery ticket event"
        indexes = [models.Index(fields=["ticket", "at"], name="dt_event_ticket")]


# A ticket belongs to the driver of its order (core.scoping: `delivery_ticket.view:own`).
declare_owner(DeliveryTicket, "sales_order__driver__user", resource="delivery_ticket")
declare_owner(DeliveryTicketLine, "ticket__sales_order__driver__user", resource="delivery_ticket")
declare_owner(DeliveryTicketEvent, "ticket__sales_order__driver__user", resource="delivery_ticket")
