"""Customers (with company types, ship-tos, tanks and contacts), suppliers, terminals and aliases.

References that carry business history (a customer's ship-tos and tanks, a product) are PROTECT:
deleting a referenced row answers 409 and the user deactivates it instead. Rows that only belong to
their owner (contacts of a customer, aliases of a supplier) go with it.
"""

from __future__ import annotations

from decimal import Decimal

from core.models import Timestamped, unique_ci
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower, Upper

# What the customer list's `search` looks in (core.listing: OR of `icontains`). Each has a trigram
# index below, so a search is a few GIN index scans (BitmapOr), not a scan of the table.
CUSTOMER_SEARCH_FIELDS = ("name", "account_number", "email", "phone")


def prefix_index(field: str, name: str) -> models.Index:
    """A btree index on UPPER(field) with text_pattern_ops: what Django's `istartswith` compares
    (`UPPER(field::text) LIKE 'AB%'`), for searches too short for the trigram index."""
    return models.Index(OpClass(Upper(field), name="text_pattern_ops"), name=name)


def trigram_index(field: str, name: str) -> GinIndex:
    """A pg_trgm GIN index on UPPER(field): what Django's `icontains` compares on Postgres
    (`UPPER(col::text) LIKE UPPER('%term%')`), so that lookup can use it as it is."""
    return GinIndex(OpClass(Upper(field), name="gin_trgm_ops"), name=name)


class SyncState(models.TextChoices):
    """Where a record stands with the accounting system (customers here, products in catalog)."""

    NOT_SYNCED = "not_synced"
    PENDING = "pending"
    SYNCED = "synced"
    FAILED = "failed"


class CustomerCompanyType(Timestamped):
    company_type = models.CharField(max_length=100)
    description = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["company_type", "id"]
        verbose_name = "customer company type"
        constraints = [
            unique_ci(
                "company_type",
                name="customer_company_type_unique",
                message="This company type already exists.",
            )
        ]

    def __str__(self) -> str:
        return self.company_type


class Customer(Timestamped):
    class Status(models.TextChoices):
        ACTIVE = "active"
        ON_HOLD = "on_hold"  # no new orders for now (any reason)
        CREDIT_HOLD = "credit_hold"  # over the credit limit or overdue: orders need approval
        INACTIVE = "inactive"  # no longer a customer; kept for history

    name = models.CharField(max_length=200)
    account_number = models.CharField(max_length=50, help_text="Unique; generated when left blank")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    company_type = models.ForeignKey(
        CustomerCompanyType, on_delete=models.PROTECT, related_name="customers", null=True, blank=True
    )
    # Billing address
    address_one = models.CharField(max_length=200, blank=True, default="")
    address_two = models.CharField(max_length=200, blank=True, default="")
    state = models.ForeignKey("geo.State", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    city = models.ForeignKey("geo.City", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    zip_code = models.CharField(max_length=20, blank=True, default="")
    phone = models.CharField(max_length=40, blank=True, default="")
    email = models.EmailField(max_length=254, blank=True, default="")
    # The API names them payment_term_id / payment_method_id (the columns' names).
    payment_term = models.ForeignKey(
        "pricing.PaymentTerm", on_delete=models.PROTECT, related_name="customers", null=True, blank=True
    )
    payment_method = models.ForeignKey(
        "pricing.PaymentMethod", on_delete=models.PROTECT, related_name="customers", null=True, blank=True
    )
    tax_exempt = models.BooleanField(default=False)
    tax_exempt_certificate = models.CharField(max_length=100, blank=True, default="")
    # The certificate's expiry: from the day after it, the customer pays the exemptible taxes again.
    tax_exempt_expires = models.DateField(null=True, blank=True)
    credit_limit = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(Decimal("0"))]
    )
    notes = models.TextField(blank=True, default="")
    customer_pricing_type = models.CharField(max_length=30, default="standard")
    # The accounting integration's link: the id in the accounting system and the last sync's state.
    external_id = models.CharField(max_length=100, blank=True, default="")
    sync_state = models.CharField(max_length=20, choices=SyncState.choices, default=SyncState.NOT_SYNCED)
    last_sync_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_ci(
                "account_number",
                name="customer_unique_account_number",
                message="A customer with this account number already exists.",
            )
        ]
        indexes = [
            # One per sort the list offers (with id, the tiebreak), so page 1 reads 100 index entries;
            # sorts by city or state go through a join and sort in memory.
            models.Index(fields=["name", "id"], name="customer_name"),  # the default sort
            models.Index(fields=["account_number", "id"], name="customer_account_number"),
            models.Index(fields=["status", "id"], name="customer_status"),
            models.Index(fields=["credit_limit", "id"], name="customer_credit_limit"),
            models.Index(fields=["created_at", "id"], name="customer_created_at"),
            models.Index(fields=["updated_at", "id"], name="customer_updated_at"),
            models.Index(fields=["status", "name"], name="customer_status_name"),  # ?status=…, by name
            trigram_index("name", "customer_name_trgm"),
            trigram_index("account_number", "customer_account_number_trgm"),
            trigram_index("email", "customer_email_trgm"),
            trigram_index("phone", "customer_phone_trgm"),
            prefix_index("name", "customer_name_prefix"),
            prefix_index("account_number", "customer_account_number_prefix"),
            prefix_index("email", "customer_email_prefix"),
            prefix_index("phone", "customer_phone_prefix"),
        ]

    def __str__(self) -> str:
        return self.name


class ShipTo(Timestamped):
    """A delivery location of a customer: a yard, a job site, a farm, a store."""

    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="ship_tos")
    name = models.CharField(max_length=200)
    address_one = models.CharField(max_length=200, blank=True, default="")
    address_two = models.CharField(max_length=200, blank=True, default="")
    state = models.ForeignKey("geo.State", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    city = models.ForeignKey("geo.City", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    zip_code = models.CharField(max_length=20, blank=True, default="")
    latitude = models.DecimalField(
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("-90")), MaxValueValidator(Decimal("90"))],
    )
    longitude = models.DecimalField(
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("-180")), MaxValueValidator(Decimal("180"))],
    )
    delivery_instructions = models.TextField(blank=True, default="")
    access_hours = models.CharField(max_length=200, blank=True, default="")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "ship-to"
        verbose_name_plural = "ship-tos"
        indexes = [
            models.Index(fields=["customer", "name"], name="ship_to_customer_name"),
            models.Index(fields=["name", "id"], name="ship_to_name"),  # the default sort
            # The list's search over a million ship-tos: its own text fields by trigram (three letters
            # or more) or by prefix (fewer); the customer's and the city's names are matched on their
            # own tables and come back as ids (core.listing.search_q), served by the foreign-key indexes.
            trigram_index("name", "ship_to_name_trgm"),
            trigram_index("address_one", "ship_to_address_trgm"),
            trigram_index("zip_code", "ship_to_zip_trgm"),
            prefix_index("name", "ship_to_name_prefix"),
            prefix_index("address_one", "ship_to_address_prefix"),
            prefix_index("zip_code", "ship_to_zip_prefix"),
        ]

    def __str__(self) -> str:
        return self.name


class CustomerAsset(Timestamped):
    """A tank or a piece of equipment at a customer's ship-to that we fill."""

    class TankType(models.TextChoices):
        ABOVE_GROUND = "above_ground"
        UNDERGROUND = "underground"
        SKID = "skid"
        PORTABLE = "portable"
        EQUIPMENT = "equipment"  # a machine or generator filled directly
        VEHICLE = "vehicle"
        OTHER = "other"

    asset_name = models.CharField(max_length=200)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="assets")
    ship_to = models.ForeignKey(
        ShipTo, on_delete=models.PROTECT, related_name="assets", null=True, blank=True
    )
    product = models.ForeignKey(
        "catalog.Product", on_delete=models.PROTECT, related_name="customer_assets", null=True, blank=True
    )
    capacity = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
        help_text="Gallons",
    )
    tank_type = models.CharField(max_length=20, choices=TankType.choices, default=TankType.ABOVE_GROUND)
    serial_number = models.CharField(max_length=100, blank=True, default="")
    is_active = models.BooleanField(default=True)
    notes = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["asset_name", "id"]
        verbose_name = "customer asset"
        indexes = [
            models.Index(fields=["customer", "asset_name"], name="asset_customer_name"),
            models.Index(fields=["ship_to", "asset_name"], name="asset_ship_to_name"),
        ]

    def __str__(self) -> str:
        return self.asset_name


class ContactService(models.Model):
    """What a contact can subscribe to: invoices, delivery tickets, price notices…"""

    code = models.SlugField(max_length=60)
    name = models.CharField(max_length=100)
    description = models.CharField(max_length=300, blank=True, default="")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "customer contact service"
        constraints = [
            unique_ci(
                "code",
                name="contact_service_unique_code",
                message="A contact service with this code already exists.",
            )
        ]

    def __str__(self) -> str:
        return self.name


class CustomerContact(Timestamped):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE, related_name="contacts")
    ship_to = models.ForeignKey(
        ShipTo, on_delete=models.SET_NULL, related_name="contacts", null=True, blank=True
    )
    name = models.CharField(max_length=200)
    email = models.EmailField(max_length=254, blank=True, default="")
    phone = models.CharField(max_length=40, blank=True, default="")
    position = models.CharField(max_length=100, blank=True, default="")
    user_account = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    services = models.ManyToManyField(ContactService, related_name="contacts", blank=True)
    notes = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "customer contact"
        indexes = [models.Index(fields=["customer", "name"], name="contact_customer_name")]

    def __str__(self) -> str:
        return self.name


class Terminal(Timestamped):
    """A loading rack where our trucks (or carriers) lift product from suppliers."""

    name = models.CharField(max_length=200)
    terminal_code = models.CharField(
        max_length=30, help_text="Terminal control number (TCN), e.g. T-76-TX-2000"
    )
    address_one = models.CharField(max_length=200, blank=True, default="")
    address_two = models.CharField(max_length=200, blank=True, default="")
    state = models.ForeignKey("geo.State", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    city = models.ForeignKey("geo.City", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    zip_code = models.CharField(max_length=20, blank=True, default="")
    latitude = models.DecimalField(
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("-90")), MaxValueValidator(Decimal("90"))],
    )
    longitude = models.DecimalField(
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("-180")), MaxValueValidator(Decimal("180"))],
    )
    is_active = models.BooleanField(default=True)
    notes = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_ci(
                "terminal_code",
                name="terminal_unique_code",
                message="A terminal with this terminal code already exists.",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Supplier(Timestamped):
    class Status(models.TextChoices):
        ACTIVE = "active"
        INACTIVE = "inactive"

    name = models.CharField(max_length=200)
    code = models.CharField(max_length=50, blank=True, default="", help_text="Vendor number; unique when set")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    contact_name = models.CharField(max_length=200, blank=True, default="")
    email = models.EmailField(max_length=254, blank=True, default="")
    phone = models.CharField(max_length=40, blank=True, default="")
    address_one = models.CharField(max_length=200, blank=True, default="")
    address_two = models.CharField(max_length=200, blank=True, default="")
    state = models.ForeignKey("geo.State", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    city = models.ForeignKey("geo.City", on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    zip_code = models.CharField(max_length=20, blank=True, default="")
    terminals = models.ManyToManyField(Terminal, related_name="suppliers", blank=True)
    notes = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_ci(
                "code",
                name="supplier_unique_code",
                message="A supplier with this code already exists.",
                when_set=True,
            ),
        ]
        indexes = [models.Index(fields=["status", "name"], name="supplier_status_name")]

    def __str__(self) -> str:
        return self.name


class SupplierProductAlias(Timestamped):
    """The name (and code) a supplier uses for one of our products, on its bills and quotes."""

    supplier = models.ForeignKey(Supplier, on_delete=models.CASCADE, related_name="product_aliases")
    product = models.ForeignKey("catalog.Product", on_delete=models.PROTECT, related_name="supplier_aliases")
    alias_name = models.CharField(max_length=200)
    alias_code = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        ordering = ["id"]
        verbose_name = "supplier product alias"
        verbose_name_plural = "supplier product aliases"
        constraints = [
            models.UniqueConstraint(
                "supplier",
                Lower("alias_name"),
                name="supplier_alias_unique_name",
                violation_error_code="unique",
                violation_error_message="This supplier already has this alias name.",
            ),
        ]

    def __str__(self) -> str:
        return self.alias_name
