"""QuickBooks Online: the company's connection (one row: realm, state, encrypted tokens) and the links
between FuelDesk records and QBO records (customers, items, invoices, payments) with the QBO ``Id``,
``SyncToken``, the ``requestid`` of a create in progress and the last sync's state and error."""

from __future__ import annotations

from core.models import Timestamped
from django.db import models


class QboConnection(Timestamped):
    """The company's QuickBooks Online connection. One row (``singleton`` is unique). Tokens are
    encrypted (core.secretbox, purpose ``quickbooks/tokens``); they never leave the server."""

    class State(models.TextChoices):
        DISCONNECTED = "disconnected"
        CONNECTED = "connected"
        RECONNECT = "reconnect"  # the tokens were revoked or expired: the user must connect again

    singleton = models.BooleanField(default=True, unique=True)
    state = models.CharField(max_length=20, choices=State.choices, default=State.DISCONNECTED)
    realm_id = models.CharField(max_length=40, blank=True, default="")
    company_name = models.CharField(max_length=200, blank=True, default="")
    country = models.CharField(max_length=2, blank=True, default="")
    access_token = models.TextField(blank=True, default="")  # encrypted
    refresh_token = models.TextField(blank=True, default="")  # encrypted
    access_expires_at = models.DateTimeField(null=True, blank=True)
    refresh_expires_at = models.DateTimeField(null=True, blank=True)
    # The OAuth `state` of the authorization in progress (a random nonce; only its hash is kept).
    oauth_state_hash = models.CharField(max_length=64, blank=True, default="")
    oauth_state_expires_at = models.DateTimeField(null=True, blank=True)
    connected_at = models.DateTimeField(null=True, blank=True)
    last_sync_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    # Change data capture: payments changed after this instant are still to be read.
    cdc_since = models.DateTimeField(null=True, blank=True)
    # Outside the US, the QBO tax codes of taxed and untaxed lines (US companies use TAX/NON).
    sales_tax_code = models.CharField(max_length=40, blank=True, default="")
    exempt_tax_code = models.CharField(max_length=40, blank=True, default="")
    refreshes = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"QBO {self.realm_id or '-'} ({self.state})"


class QboLink(Timestamped):
    """One FuelDesk record and its QBO counterpart."""

    class Kind(models.TextChoices):
        CUSTOMER = "customer"
        PRODUCT = "product"
        FEE = "fee"
        TAX = "tax"
        INVOICE = "invoice"
        PAYMENT = "payment"

    class SyncState(models.TextChoices):
        NOT_SYNCED = "not_synced"
        PENDING = "pending"
        SYNCED = "synced"
        FAILED = "failed"
        CONFLICT = "conflict"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    local_id = models.BigIntegerField()
    qbo_id = models.CharField(max_length=40, blank=True, default="")
    qbo_name = models.CharField(max_length=200, blank=True, default="")
    sync_token = models.CharField(max_length=20, blank=True, default="")
    # The requestid of the create in flight: reused by every retry, so QBO makes it once.
    request_id = models.CharField(max_length=50, blank=True, default="")
    sync_state = models.CharField(max_length=20, choices=SyncState.choices, default=SyncState.NOT_SYNCED)
    last_sync_error = models.TextField(blank=True, default="")
    synced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "local_id"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "local_id"], name="qbo_link_unique_local"),
            # A QBO customer, invoice or payment stands for one FuelDesk record (items may be shared).
            models.UniqueConstraint(
                fields=["kind", "qbo_id"],
                # ORs, not IN: Postgres deparses `kind IN (...)` as `= ANY (ARRAY[...]::text[])`, which
                # re-parses to a different text, so a schema cloned from the template's DDL
                # (tenancy/provisioning.py) would not read back equal to a migrated one.
                condition=(models.Q(kind="customer") | models.Q(kind="invoice") | models.Q(kind="payment"))
                & ~models.Q(qbo_id=""),
                name="qbo_link_unique_remote",
            ),
        ]
        indexes = [models.Index(fields=["kind", "qbo_id"], name="qbo_link_remote")]

    def __str__(self) -> str:
        return f"{self.kind} {self.local_id} -> {self.qbo_id or '-'}"


class QboPaymentLookup(Timestamped):
    """A payment a webhook named, to read from QBO and record as a FuelDesk payment (once). A webhook
    may name thousands: each is a row, worked through in bounded batches where each payment's
    outcome commits with its recording (services.run_payment_lookups), so a worker killed half-way
    is followed by one that resumes at the first payment still ``pending``."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        RECORDED = "recorded", "Recorded"  # a FuelDesk payment now settles its invoices
        SKIPPED = "skipped", "Skipped"  # seen before, deleted, or about no invoice FuelDesk pushed
        MISSING = "missing", "Missing"  # QBO has no such payment (in this company's realm)

    qbo_id = models.CharField(max_length=40, unique=True)
    state = models.CharField(max_length=20, choices=State.choices, default=State.PENDING)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["state", "id"], name="qbo_lookup_state")]

    def __str__(self) -> str:
        return f"payment {self.qbo_id}: {self.state}"
