from core.models import Timestamped, unique_ci
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower


class State(models.Model):
    name = models.CharField(max_length=100)
    code = models.CharField(max_length=10, help_text="Postal abbreviation, e.g. TX")
    country = models.CharField(max_length=2, default="US")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("code"), "country", name="state_unique_code"),
            models.UniqueConstraint(Lower("name"), "country", name="state_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class City(models.Model):
    name = models.CharField(max_length=120)
    state = models.ForeignKey(State, on_delete=models.PROTECT, related_name="cities")

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "cities"
        constraints = [models.UniqueConstraint(Lower("name"), "state", name="city_unique_name_in_state")]

    def __str__(self) -> str:
        return self.name


def _unique_ci(field: str, name: str, label: str) -> models.UniqueConstraint:
    return unique_ci(field, name=name, message=f"A {label} with this {field} already exists.")


def _unique_ci_when_set(field: str, name: str, label: str) -> models.UniqueConstraint:
    return unique_ci(field, name=name, message=f"A {label} with this {field} already exists.", when_set=True)


class Region(Timestamped):
    """A sales or dispatch area grouping yards and drivers (e.g. Gulf Coast)."""

    name = models.CharField(max_length=100)
    code = models.CharField(max_length=20, blank=True, default="", help_text="Short code, e.g. GC")
    description = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            _unique_ci("name", "region_unique_name", "region"),
            _unique_ci_when_set("code", "region_unique_code", "region"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        self.code = (self.code or "").strip().upper()


class Yard(Timestamped):
    """A depot where trucks are parked and loaded and drivers start their day."""

    name = models.CharField(max_length=120)
    code = models.CharField(max_length=20, blank=True, default="", help_text="Short code, e.g. HOU")
    address = models.CharField(max_length=255, blank=True, default="")
    zip_code = models.CharField(max_length=12, blank=True, default="")
    state = models.ForeignKey(State, on_delete=models.PROTECT, related_name="yards", null=True, blank=True)
    city = models.ForeignKey(City, on_delete=models.PROTECT, related_name="yards", null=True, blank=True)
    region = models.ForeignKey(Region, on_delete=models.PROTECT, related_name="yards", null=True, blank=True)
    latitude = models.DecimalField(
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(-90), MaxValueValidator(90)],
    )
    longitude = models.DecimalField(
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(-180), MaxValueValidator(180)],
    )
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            _unique_ci("name", "yard_unique_name", "yard"),
            _unique_ci_when_set("code", "yard_unique_code", "yard"),
            models.CheckConstraint(
                condition=models.Q(latitude__isnull=True, longitude__isnull=True)
                | models.Q(latitude__isnull=False, longitude__isnull=False),
                name="yard_lat_lng_together",
                violation_error_message="latitude and longitude must be given together.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        self.code = (self.code or "").strip().upper()
        if self.city_id is not None:
            city_state_id = City.objects.filter(pk=self.city_id).values_list("state_id", flat=True).first()
            if self.state_id is None:
                self.state_id = city_state_id
            elif city_state_id != self.state_id:
                raise ValidationError({"city_id": "The city is not in the chosen state."})
