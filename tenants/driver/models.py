"""The driver portal's record of what a phone asked for: one row per client action id.

A phone queues its actions (start a delivery, record one with its proof) while it has no signal and
sends them later, possibly more than once. The row, unique by the phone's `client_action_id`, keeps
the outcome the server reached the first time (applied, conflict, rejected) and that outcome is what
every replay answers: an action is applied at most once. Conflicts stay here for the office (the
conflicts list) and as a note on the order.
"""

from __future__ import annotations

from core.scoping import declare_owner
from django.db import models


class DriverAction(models.Model):
    class Kind(models.TextChoices):
        START_DELIVERY = "start_delivery", "Start delivery"
        RECORD_DELIVERY = "record_delivery", "Record delivery"

    class Outcome(models.TextChoices):
        APPLIED = "applied", "Applied"
        CONFLICT = "conflict", "Conflict"
        REJECTED = "rejected", "Rejected"

    client_action_id = models.UUIDField(unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # The order the phone named (kept even if the order is deleted later).
    order_ref = models.BigIntegerField()
    sales_order = models.ForeignKey(
        "sales.SalesOrder", on_delete=models.SET_NULL, related_name="driver_actions", null=True, blank=True
    )
    driver = models.ForeignKey(
        "fleet.Driver", on_delete=models.SET_NULL, related_name="portal_actions", null=True, blank=True
    )
    user = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    seen_version = models.CharField(max_length=64, blank=True, default="")
    payload = models.JSONField(default=dict, blank=True)
    taken_at = models.DateTimeField(null=True, blank=True, help_text="When the driver acted (phone clock)")
    received_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    reason = models.TextField(blank=True, default="")
    result = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-received_at", "-id"]
        indexes = [
            models.Index(fields=["outcome", "received_at"], name="driver_action_outcome"),
            models.Index(fields=["order_ref", "received_at"], name="driver_action_order"),
            models.Index(fields=["driver", "received_at"], name="driver_action_driver"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.order_ref}: {self.outcome}"


# A driver's queued action belongs to the sign-in that sent it (core.scoping).
declare_owner(DriverAction, "user", resource="sales_order")
