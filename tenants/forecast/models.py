"""Models of keep-full forecasting (issue 26, docs/forecast.md).

- `TankSettings`: what a customer asset (parties.CustomerAsset, the tank) needs to be forecast: its
  program, usage model, max fill %, reorder point, weather zone and the office's overrides.
- `TankReading`: a level at a time (a tank monitor, a CSV import, the driver before a delivery, the
  office). A reading resets the projection.
- `WeatherZone`, `DailyTemperature`, `WeatherProvider`: daily mean temperatures per zone.
- `TankForecast`: the last fit, projection and due row of a tank (one row a tank, replaced by each run).
- `ForecastRun`: one run of the forecast for the company (nightly, from the office, or a delivery).
- `ForecastOrder`: a sales order created from the due list and the forecast it came from.
"""

from __future__ import annotations

from decimal import Decimal

from core.models import Timestamped, unique_ci
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

ZERO = Decimal("0")
HUNDRED = Decimal("100")


class WeatherZone(Timestamped):
    """A region or a weather station whose daily mean temperatures drive the tanks in it."""

    code = models.CharField(max_length=40, help_text="Short code, e.g. KGSO or north-tx")
    name = models.CharField(max_length=120)
    # The provider's station id (meteostat: a station such as 72317), used only where configured.
    station = models.CharField(max_length=40, blank=True, default="")
    latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "weather zone"
        constraints = [
            unique_ci(
                "code",
                name="weather_zone_unique_code",
                message="A weather zone with this code already exists.",
            )
        ]
        indexes = [models.Index(fields=["name", "id"], name="weather_zone_name")]

    def __str__(self) -> str:
        return self.name


class DailyTemperature(Timestamped):
    """A day's mean temperature (°F) in a zone: observed, or a forecast until the day is observed."""

    class Kind(models.TextChoices):
        OBSERVED = "observed"
        FORECAST = "forecast"

    zone = models.ForeignKey(WeatherZone, on_delete=models.CASCADE, related_name="temperatures")
    day = models.DateField()
    mean_f = models.DecimalField(
        max_digits=5,
        decimal_places=1,
        validators=[MinValueValidator(Decimal("-60")), MaxValueValidator(Decimal("130"))],
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OBSERVED)
    source = models.CharField(max_length=20, default="office", help_text="office, csv or the provider's name")

    class Meta:
        ordering = ["-day", "zone_id", "id"]
        verbose_name = "daily temperature"
        constraints = [
            models.UniqueConstraint(fields=["zone", "day", "kind"], name="temperature_unique_zone_day_kind"),
        ]
        indexes = [models.Index(fields=["day", "id"], name="temperature_day")]

    def __str__(self) -> str:
        return f"{self.zone_id} {self.day}: {self.mean_f} °F"


class WeatherProvider(Timestamped):
    """The company's production weather provider (one row). `none`: temperatures come from the office
    (CSV or the API) only. `meteostat`: observed and forecast daily means fetched for every zone with
    a station, from `base_url` (a Meteostat-style JSON API)."""

    class Kind(models.TextChoices):
        NONE = "none"
        METEOSTAT = "meteostat"

    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.NONE)
    base_url = models.URLField(max_length=300, blank=True, default="")
    api_key = models.CharField(max_length=200, blank=True, default="")
    last_fetch_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        verbose_name = "weather provider"


class TankSettings(Timestamped):
    """A tank's forecast settings (one row a customer asset; a tank without one is `will_call`)."""

    class Program(models.TextChoices):
        KEEP_FULL = "keep_full", "Keep full"
        WILL_CALL = "will_call", "Will call"

    class UsageModel(models.TextChoices):
        WEATHER = "weather", "Weather (heating)"
        CALENDAR = "calendar", "Calendar (steady use)"

    asset = models.OneToOneField(
        "parties.CustomerAsset", on_delete=models.CASCADE, related_name="forecast_settings"
    )
    program = models.CharField(max_length=20, choices=Program.choices, default=Program.WILL_CALL)
    usage_model = models.CharField(max_length=20, choices=UsageModel.choices, default=UsageModel.WEATHER)
    # The typical-use key of engine.usage.typical_params ("residential_heating", "farm_diesel", ...);
    # empty: from the customer's company type.
    usage_type = models.CharField(max_length=40, blank=True, default="")
    max_fill_percent = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        default=Decimal("90"),
        validators=[MinValueValidator(Decimal("1")), MaxValueValidator(HUNDRED)],
    )
    reorder_percent = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(ZERO), MaxValueValidator(HUNDRED)],
    )
    reorder_gallons = models.DecimalField(
        max_digits=12, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(ZERO)]
    )
    zone = models.ForeignKey(
        WeatherZone, on_delete=models.PROTECT, related_name="tanks", null=True, blank=True
    )
    k_factor_override = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)
    baseload_override = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)
    daily_rate_override = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)

    class Meta:
        verbose_name = "tank forecast settings"
        indexes = [models.Index(fields=["program", "asset"], name="tank_settings_program")]

    def __str__(self) -> str:
        return f"settings of tank {self.asset_id}"


class TankReading(Timestamped):
    """A tank's level at a time. Stored in gallons and percent of the tank's capacity."""

    class Source(models.TextChoices):
        MONITOR = "monitor"
        CSV = "csv"
        DRIVER = "driver"
        OFFICE = "office"

    asset = models.ForeignKey("parties.CustomerAsset", on_delete=models.CASCADE, related_name="readings")
    taken_at = models.DateTimeField()
    level_gallons = models.DecimalField(max_digits=12, decimal_places=2)
    level_percent = models.DecimalField(max_digits=5, decimal_places=2)
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.MONITOR)
    # The delivery ticket line a driver's "level before" came from.
    ticket_line = models.ForeignKey(
        "delivery.DeliveryTicketLine", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["-taken_at", "-id"]
        verbose_name = "tank reading"
        indexes = [
            models.Index(fields=["asset", "taken_at"], name="reading_asset_taken"),
            models.Index(fields=["taken_at", "id"], name="reading_taken"),
        ]

    def __str__(self) -> str:
        return f"{self.asset_id} at {self.taken_at}: {self.level_gallons} gal"


class ForecastRun(Timestamped):
    """One run of the forecast over the company's keep-full tanks, with its progress."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    class Trigger(models.TextChoices):
        NIGHTLY = "nightly"
        MANUAL = "manual"
        DELIVERY = "delivery"

    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    trigger = models.CharField(max_length=20, choices=Trigger.choices, default=Trigger.MANUAL)
    as_of = models.DateField(null=True, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    tanks_forecast = models.PositiveIntegerField(default=0)
    tanks_failed = models.PositiveIntegerField(default=0)
    due = models.PositiveIntegerField(default=0)
    step = models.CharField(max_length=200, blank=True, default="")
    error = models.TextField(blank=True, default="")
    seconds = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "forecast run"
        indexes = [models.Index(fields=["status", "created_at"], name="forecast_run_status")]

    def __str__(self) -> str:
        return f"forecast run {self.pk} ({self.status})"


class TankForecast(Timestamped):
    """The last forecast of a tank: the fit, the projection, and its due row when it is due."""

    class Confidence(models.TextChoices):
        HIGH = "high"
        MEDIUM = "medium"
        LOW = "low"

    asset = models.OneToOneField("parties.CustomerAsset", on_delete=models.CASCADE, related_name="forecast")
    run = models.ForeignKey(ForecastRun, on_delete=models.SET_NULL, related_name="+", null=True, blank=True)
    computed_at = models.DateTimeField()
    start = models.DateField(null=True, blank=True, help_text="First day of the projection")
    # Why this tank cannot be forecast ("no capacity", ...): every other column is then empty.
    cannot_forecast = models.CharField(max_length=300, blank=True, default="")
    # The fit: {"model", "k_factor", "baseload", "daily_rate", "low": {...}, "high": {...},
    # "n_intervals", "residual_sd", "method", "overridden", "cannot_fit"}.
    fit = models.JSONField(default=dict, blank=True)
    # The projection per day: {"level": [...], "low": [...], "high": [...]} (gallons, 1 dp).
    projection = models.JSONField(default=dict, blank=True)
    usable_gallons = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    reorder_gallons = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    level_gallons = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    level_as_of = models.DateField(null=True, blank=True)
    reorder_date = models.DateField(null=True, blank=True)
    runout_date = models.DateField(null=True, blank=True)
    runout_early = models.DateField(null=True, blank=True)
    runout_late = models.DateField(null=True, blank=True)
    # The due row (the engine's DueTank) when the tank reaches its reorder point in the horizon.
    suggested_date = models.DateField(null=True, blank=True)
    suggested_gallons = models.DecimalField(max_digits=12, decimal_places=0, null=True, blank=True)
    risk = models.FloatField(null=True, blank=True)
    confidence = models.CharField(max_length=10, choices=Confidence.choices, blank=True, default="")
    reason = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        verbose_name = "tank forecast"
        indexes = [
            models.Index(fields=["reorder_date", "asset"], name="tank_forecast_reorder"),
            models.Index(fields=["-risk", "asset"], name="tank_forecast_risk"),
        ]

    def __str__(self) -> str:
        return f"forecast of tank {self.asset_id}"


class ForecastOrder(Timestamped):
    """A sales order created from the due list, with the forecast it came from (a snapshot)."""

    sales_order = models.OneToOneField(
        "sales.SalesOrder", on_delete=models.CASCADE, related_name="forecast_origin"
    )
    asset = models.ForeignKey(
        "parties.CustomerAsset", on_delete=models.CASCADE, related_name="forecast_orders"
    )
    run = models.ForeignKey(ForecastRun, on_delete=models.SET_NULL, related_name="+", null=True, blank=True)
    # What the due row said when the order was made: suggested date and gallons, reorder and run-out
    # dates, risk, confidence, reason, the fit, the level.
    snapshot = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "forecast order"
        indexes = [models.Index(fields=["asset", "created_at"], name="forecast_order_asset")]

    def __str__(self) -> str:
        return f"order {self.sales_order_id} from the forecast of tank {self.asset_id}"
