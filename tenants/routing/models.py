"""Models of the routing app: what the planner needs beyond the fleet, drivers and ship-tos, and the
stored plans.

- `RoutingSettings`: the company's one row of planning settings (distances, service times, the
  hours-of-service rule, the map's tiles). Absent until first saved: the defaults below apply.
- `TruckRouting` (a truck's 1-1): products it may carry, cost per mile and hour, skills (hose length…),
  start and end yard, and whether it plans at all.
- `DriverShift` (a driver's 1-1): the truck he drives, his working days, shift start and end, and his
  own on-duty limit (else the company's hours-of-service rule).
- `SiteConstraint` (a ship-to's 1-1): the largest truck the site takes, the skills it needs, extra
  minutes on site.
- `RoutePlan`: one "Plan the day" run: status, progress, the stored Plan (JSON of the solver's Plan),
  the current assignments evaluated the same way, and the snapshot of the orders it planned (so an
  accept after the day changed is refused, naming what changed).
- `PlannedStop`: an accepted plan's ETA per order (the driver portal shows it).
"""

from __future__ import annotations

from decimal import Decimal

from core.models import Timestamped
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

MAX_SHIFT_HOURS = Decimal("24")


class RoutingSettings(Timestamped):
    class HoursOfService(models.TextChoices):
        # 49 CFR 395.3 (property carriers): no driving after the 14th hour on duty (11 h driving).
        US_PROPERTY = "us_property", "US property-carrying (14 h on duty, 11 h driving)"
        CUSTOM = "custom", "Company's own on-duty limit"
        NONE = "none", "No limit beyond the shift"

    circuity = models.DecimalField(
        max_digits=4,
        decimal_places=2,
        default=Decimal("1.30"),
        validators=[MinValueValidator(Decimal("1")), MaxValueValidator(Decimal("3"))],
    )
    speed_mph = models.DecimalField(
        max_digits=5,
        decimal_places=1,
        default=Decimal("35.0"),
        validators=[MinValueValidator(Decimal("5")), MaxValueValidator(Decimal("90"))],
    )
    osrm_url = models.CharField(max_length=300, blank=True, default="")
    map_tile_url = models.CharField(max_length=500, blank=True, default="")
    map_style_url = models.CharField(max_length=500, blank=True, default="")
    map_attribution = models.CharField(max_length=300, blank=True, default="")
    service_fixed_minutes = models.PositiveIntegerField(default=15, validators=[MaxValueValidator(600)])
    pump_gpm = models.DecimalField(
        max_digits=6,
        decimal_places=1,
        default=Decimal("60.0"),
        validators=[MinValueValidator(Decimal("1")), MaxValueValidator(Decimal("2000"))],
    )
    hours_of_service = models.CharField(
        max_length=20, choices=HoursOfService.choices, default=HoursOfService.US_PROPERTY
    )
    max_duty_hours = models.DecimalField(
        max_digits=4,
        decimal_places=2,
        default=Decimal("14.00"),
        validators=[MinValueValidator(Decimal("1")), MaxValueValidator(MAX_SHIFT_HOURS)],
        help_text="On-duty limit of the 'custom' rule",
    )
    default_cost_per_mile = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("2.50"))
    default_cost_per_hour = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("35.00"))
    default_seconds = models.PositiveIntegerField(
        default=30, validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    # Keep-full tanks due soon as optional stops (problem_builder.keep_full_stops).
    keep_full_stops = models.BooleanField(
        default=True, help_text="Offer due keep-full tanks as optional stops"
    )
    keep_full_days = models.PositiveIntegerField(
        default=3,
        validators=[MaxValueValidator(14)],
        help_text="Tanks due up to this many days after the day",
    )
    keep_full_value_per_gallon = models.DecimalField(
        max_digits=6,
        decimal_places=3,
        default=Decimal("0.150"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("10"))],
        help_text="Dollars a gallon topped up early is worth (the stop's prize before urgency)",
    )

    class Meta:
        verbose_name = "routing settings"
        verbose_name_plural = "routing settings"

    def __str__(self) -> str:
        return "Routing settings"


class TruckRouting(Timestamped):
    truck = models.OneToOneField("fleet.CompanyAsset", on_delete=models.CASCADE, related_name="routing")
    # Empty: every fuel product.
    products = models.ManyToManyField("catalog.Product", blank=True, related_name="+")
    cost_per_mile = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    cost_per_hour = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    skills = models.JSONField(default=list, blank=True)  # e.g. ["hose_150ft", "pump"]
    start_yard = models.ForeignKey(
        "geo.Yard", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    end_yard = models.ForeignKey(
        "geo.Yard", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    plans = models.BooleanField(default=True, help_text="Offered to the planner")

    class Meta:
        ordering = ["truck__asset_number", "id"]
        verbose_name = "truck routing"

    def __str__(self) -> str:
        return f"routing of truck {self.truck_id}"


def default_days() -> list[int]:
    return [1, 2, 3, 4, 5]


class DriverShift(Timestamped):
    driver = models.OneToOneField("fleet.Driver", on_delete=models.CASCADE, related_name="shift")
    truck = models.ForeignKey(
        "fleet.CompanyAsset", on_delete=models.SET_NULL, null=True, blank=True, related_name="driver_shifts"
    )
    days = models.JSONField(default=default_days, blank=True)  # ISO weekdays, 1 = Monday
    start = models.TimeField()
    end = models.TimeField()
    max_duty_hours = models.DecimalField(
        max_digits=4,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("1")), MaxValueValidator(MAX_SHIFT_HOURS)],
    )

    class Meta:
        ordering = ["driver__name", "id"]
        indexes = [models.Index(fields=["truck"], name="driver_shift_truck")]

    def __str__(self) -> str:
        return f"shift of driver {self.driver_id}"


class SiteConstraint(Timestamped):
    ship_to = models.OneToOneField("parties.ShipTo", on_delete=models.CASCADE, related_name="site_constraint")
    max_truck_gallons = models.PositiveIntegerField(null=True, blank=True)
    skills = models.JSONField(default=list, blank=True)
    extra_service_minutes = models.PositiveIntegerField(default=0, validators=[MaxValueValidator(600)])

    class Meta:
        ordering = ["ship_to__name", "id"]

    def __str__(self) -> str:
        return f"site constraint of ship-to {self.ship_to_id}"


class RoutePlan(Timestamped):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        READY = "ready", "Ready"
        STOPPED = "stopped", "Stopped (best so far)"
        FAILED = "failed", "Failed"
        ACCEPTED = "accepted", "Accepted"

    planned_date = models.DateField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    seconds = models.PositiveIntegerField(default=30)
    progress = models.FloatField(default=0.0)
    best_cost = models.BigIntegerField(null=True, blank=True)
    stop_requested = models.BooleanField(default=False)
    plan = models.JSONField(null=True, blank=True)  # the solver's Plan
    current = models.JSONField(null=True, blank=True)  # today's assignments, evaluated
    snapshot = models.JSONField(default=dict, blank=True)  # order id -> what the plan assumed
    left_out = models.JSONField(default=list, blank=True)  # trucks and orders not given to the solver
    error = models.TextField(blank=True, default="")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["planned_date", "created_at"], name="route_plan_day")]

    def __str__(self) -> str:
        return f"route plan {self.pk} for {self.planned_date}"


class PlannedStop(Timestamped):
    """An accepted stop: the plan's ETA for the order (the driver portal reads it)."""

    sales_order = models.OneToOneField(
        "sales.SalesOrder", on_delete=models.CASCADE, related_name="planned_stop"
    )
    route_plan = models.ForeignKey(RoutePlan, on_delete=models.CASCADE, related_name="planned_stops")
    truck = models.ForeignKey("fleet.CompanyAsset", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    eta = models.TimeField()
    departure = models.TimeField()
    route_miles = models.DecimalField(max_digits=9, decimal_places=1, default=Decimal("0"))

    class Meta:
        ordering = ["truck", "position"]

    def __str__(self) -> str:
        return f"{self.sales_order_id} at {self.eta}"
