"""Drivers, trucks and equipment."""

from __future__ import annotations

import datetime as dt
from typing import Any

from core.models import Timestamped, unique_ci
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q

MAX_COMPARTMENTS = 12
MAX_CAPACITY_GALLONS = 100_000
# VIN: 17 characters, digits and capital letters except I, O and Q (ISO 3779).
VIN_ALPHABET = "0123456789ABCDEFGHJKLMNPRSTUVWXYZ"
_VIN_VALUES = {
    **{str(d): d for d in range(10)},
    **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
    **dict(zip("JKLMN", range(1, 6), strict=True)),
    "P": 7,
    "R": 9,
    **dict(zip("STUVWXYZ", range(2, 10), strict=True)),
}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin_check_digit(vin: str) -> str:
    """The 9th character of a North American VIN (49 CFR 565): weighted sum mod 11, 10 written 'X'."""
    total = sum(_VIN_VALUES[c] * w for c, w in zip(vin, _VIN_WEIGHTS, strict=True))
    rem = total % 11
    return "X" if rem == 10 else str(rem)


def vin_problem(vin: str) -> str | None:
    """Why a VIN is not valid, or None. Expects an upper-cased, stripped value."""
    if len(vin) != 17:
        return f"a VIN has exactly 17 characters (this one has {len(vin)})."
    bad = sorted({c for c in vin if c not in VIN_ALPHABET})
    if bad:
        return (
            "a VIN uses digits and the letters A-Z except I, O and Q "
            f"(found {', '.join(repr(c) for c in bad)})."
        )
    if vin[8] != vin_check_digit(vin):
        return "the check digit (9th character) does not match the rest of the VIN; please re-check it."
    return None


class AssetType(Timestamped):
    class Category(models.TextChoices):
        TRUCK = "truck", "Truck"
        TRAILER = "trailer", "Trailer"
        TANK_WAGON = "tank_wagon", "Tank wagon"
        BOBTAIL = "bobtail", "Bobtail"
        OTHER = "other", "Other"

    name = models.CharField(max_length=100)
    category = models.CharField(max_length=20, choices=Category.choices, default=Category.TRUCK)
    description = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_ci(
                "name", name="asset_type_unique_name", message="An asset type with this name already exists."
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = (self.name or "").strip()


class CompanyAsset(Timestamped):
    """A truck, trailer or tank wagon of the company's own fleet. Capacity in US gallons; a tank
    is split into compartments (each `{"number": 1, "capacity": 2000}`) whose total fits the tank."""

    asset_number = models.CharField(
        max_length=30, db_index=True, help_text="Fleet number painted on the unit"
    )
    name = models.CharField(max_length=120)
    asset_type = models.ForeignKey(AssetType, on_delete=models.PROTECT, related_name="assets")
    capacity = models.PositiveIntegerField(
        default=0,
        validators=[MaxValueValidator(MAX_CAPACITY_GALLONS)],
        help_text="Total tank capacity in US gallons (0: no tank)",
    )
    compartments = models.JSONField(default=list, blank=True)
    plate = models.CharField(max_length=20, blank=True, default="")
    vin = models.CharField(max_length=17, blank=True, default="")
    home_yard = models.ForeignKey(
        "geo.Yard", on_delete=models.PROTECT, related_name="company_assets", null=True, blank=True
    )
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["asset_number", "id"]
        constraints = [
            unique_ci(
                "asset_number",
                name="company_asset_unique_number",
                message="A company asset with this asset number already exists.",
            ),
            models.UniqueConstraint(
                "vin",
                name="company_asset_unique_vin",
                condition=~Q(vin=""),
                violation_error_code="unique",
                violation_error_message="A company asset with this VIN already exists.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.asset_number} {self.name}"

    def clean(self) -> None:
        self.asset_number = (self.asset_number or "").strip()
        self.name = (self.name or "").strip()
        self.plate = (self.plate or "").strip().upper()
        self.vin = (self.vin or "").strip().upper()
        if self.vin and (problem := vin_problem(self.vin)):
            raise ValidationError({"vin": problem})
        self.compartments = self._clean_compartments(self.compartments)

    def _clean_compartments(self, raw: Any) -> list[dict[str, int]]:
        if raw in (None, ""):
            return []
        if not isinstance(raw, list):
            raise ValidationError({"compartments": "must be a list of {number, capacity}."})
        if len(raw) > MAX_COMPARTMENTS:
            raise ValidationError({"compartments": f"at most {MAX_COMPARTMENTS} compartments."})
        cleaned = []
        for item in raw:
            try:
                number, capacity = int(item["number"]), int(item["capacity"])
            except (TypeError, KeyError, ValueError) as exc:
                raise ValidationError(
                    {"compartments": "each compartment needs a number and a capacity."}
                ) from exc
            if number < 1 or capacity < 1:
                raise ValidationError(
                    {"compartments": "compartment numbers and capacities must be positive."}
                )
            cleaned.append({"number": number, "capacity": capacity})
        numbers = [c["number"] for c in cleaned]
        if len(set(numbers)) != len(numbers):
            raise ValidationError({"compartments": "each compartment number may appear only once."})
        total = sum(c["capacity"] for c in cleaned)
        if total > (self.capacity or 0):
            raise ValidationError(
                {
                    "compartments": f"the compartments hold {total:,} gal in total, more than the "
                    f"asset's capacity of {self.capacity or 0:,} gal."
                }
            )
        return sorted(cleaned, key=lambda c: c["number"])


class Driver(Timestamped):
    class LicenceClass(models.TextChoices):
        A = "A", "Class A CDL"
        B = "B", "Class B CDL"
        C = "C", "Class C CDL"

    name = models.CharField(max_length=200, db_index=True)
    phone = models.CharField(max_length=40, blank=True, default="")
    email = models.EmailField(blank=True, default="")
    licence_class = models.CharField(max_length=10, blank=True, default="", choices=LicenceClass.choices)
    licence_expiry = models.DateField(null=True, blank=True)
    hazmat_expiry = models.DateField(null=True, blank=True, help_text="Hazmat (H/X) endorsement expiry")
    home_yard = models.ForeignKey(
        "geo.Yard", on_delete=models.PROTECT, related_name="drivers", null=True, blank=True
    )
    region = models.ForeignKey(
        "geo.Region", on_delete=models.PROTECT, related_name="drivers", null=True, blank=True
    )
    is_active = models.BooleanField(default=True)
    # The login that gives this driver the driver layout.
    user = models.OneToOneField(
        "accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="driver"
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        self.phone = (self.phone or "").strip()
        self.email = (self.email or "").strip().lower()

    @staticmethod
    def days_until(day: dt.date | None, today: dt.date | None = None) -> int | None:
        if day is None:
            return None
        from django.utils import timezone

        return (day - (today or timezone.localdate())).days


# Days before an expiry date from which a driver's licence or hazmat endorsement is flagged.
EXPIRY_WARNING_DAYS = 30


def _expiry_warning(what: str, days: int | None) -> str | None:
    if days is None or days > EXPIRY_WARNING_DAYS:
        return None
    if days < 0:
        return f"{what} expired {-days} day{'s' if days != -1 else ''} ago."
    if days == 0:
        return f"{what} expires today."
    return f"{what} expires in {days} day{'s' if days != 1 else ''}."


def expiry_warnings(licence_expires_in_days: int | None, hazmat_expires_in_days: int | None) -> list[str]:
    """A driver's warnings: expired, or expiring within EXPIRY_WARNING_DAYS (DriverOut and its list rows)."""
    found = [
        _expiry_warning("Licence", licence_expires_in_days),
        _expiry_warning("Hazmat endorsement", hazmat_expires_in_days),
    ]
    return [w for w in found if w]
