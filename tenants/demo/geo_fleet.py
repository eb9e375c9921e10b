"""Demo data of the geography, fleet and payment domains: regions, yards, asset types, trucks and
trailers with compartments, drivers (three with a sign-in), payment terms and methods.

`seed()` runs in the demo tenant's schema and is idempotent: every row is found by its natural key
(name, code, asset number, login email) and created only when missing; rows users edited are left alone.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import models
from django.utils import timezone

DRIVER_PASSWORD = "DemoDriver2026"
DEMO_DRIVER_EMAIL = "driver@demo.fueldesk.test"  # made by seed_demo with its Driver row

STATES = {"TX": ("Texas", ["Houston", "Dallas"]), "LA": ("Louisiana", ["Baton Rouge"])}
REGIONS = [
    ("Gulf Coast", "GC", "Houston, the ship channel and south Louisiana."),
    ("North Texas", "NTX", "Dallas-Fort Worth and north to the Red River."),
    ("Central", "CEN", "Austin, Waco and the Hill Country."),
]
# name, code, address, zip, state, city, region code, latitude, longitude
YARDS = [
    ("Houston Yard", "HOU", "2300 Clinton Dr", "77020", "TX", "Houston", "GC", "29.754830", "-95.330470"),
    ("Dallas Yard", "DAL", "4100 Irving Blvd", "75247", "TX", "Dallas", "NTX", "32.805630", "-96.870950"),
    (
        "Baton Rouge Yard",
        "BTR",
        "7600 Airline Hwy",
        "70805",
        "LA",
        "Baton Rouge",
        "GC",
        "30.498980",
        "-91.128740",
    ),
]
ASSET_TYPES = [
    ("Tank Truck", "truck", "Straight truck with a multi-compartment tank for diesel and gasoline."),
    ("Bobtail", "bobtail", "Small tank truck for farm, fleet and jobsite deliveries."),
    ("Transport Trailer", "trailer", "Semi-trailer hauling full loads from the terminal."),
    ("Tank Wagon", "tank_wagon", "Small-capacity tank wagon for lubricants and DEF."),
    ("Tractor", "truck", "Tractor unit that pulls the transport trailers (no tank)."),
]
# number, name, type, capacity, compartments, plate, yard code, VIN stem (16 chars, check digit inserted)
ASSETS: list[tuple[str, str, str, int, list[int], str, str, str]] = [
    (
        "T-101",
        "Kenworth T370 tank truck",
        "Tank Truck",
        3000,
        [1200, 1000, 800],
        "TX 4KD 2101",
        "HOU",
        "2NKHHM6XKM301011",
    ),
    (
        "T-102",
        "Peterbilt 348 tank truck",
        "Tank Truck",
        4200,
        [1500, 1500, 1200],
        "TX 4KD 2102",
        "HOU",
        "2NPRHM7XLM401021",
    ),
    (
        "T-103",
        "Freightliner M2 tank truck",
        "Tank Truck",
        3500,
        [2000, 1500],
        "TX 7HN 3103",
        "DAL",
        "1FVACXDTMH501031",
    ),
    (
        "B-201",
        "International MV bobtail",
        "Bobtail",
        2800,
        [1400, 1400],
        "TX 9BB 5201",
        "DAL",
        "3HAEUMMLNL602011",
    ),
    ("B-202", "Isuzu FTR bobtail", "Bobtail", 2000, [2000], "LA C48 2202", "BTR", "JALE5W16N7002021"),
    (
        "TW-301",
        "Hino 268 lube tank wagon",
        "Tank Wagon",
        1200,
        [400, 400, 200, 200],
        "LA C48 3301",
        "BTR",
        "5PVNJ8JTN4103011",
    ),
    (
        "TR-401",
        "Heil 9,200 gal transport",
        "Transport Trailer",
        9200,
        [3200, 2000, 2000, 2000],
        "TX 2TR 8401",
        "HOU",
        "5HTAG432N7104011",
    ),
    ("TC-501", "Kenworth T880 tractor", "Tractor", 0, [], "TX 1TC 9501", "HOU", "1XKZD49XNJ405011"),
]
# name, phone, licence class, licence expiry (days from the first seed), hazmat expiry, yard, region, login
DRIVERS: list[tuple[str, str, str, int, int, str, str, str | None]] = [
    ("Dave Driver", "+1 555 0100", "A", 540, 300, "HOU", "GC", DEMO_DRIVER_EMAIL),
    ("Maria Lopez", "+1 713 555 0142", "A", 820, 21, "HOU", "GC", "maria.lopez@demo.fueldesk.test"),
    ("James Carter", "+1 214 555 0177", "B", 410, 365, "DAL", "NTX", "james.carter@demo.fueldesk.test"),
    ("Tom Nguyen", "+1 225 555 0119", "B", 25, 180, "BTR", "GC", None),
    ("Luis Garcia", "+1 512 555 0163", "A", 700, 600, "DAL", "CEN", None),
]
PAYMENT_TERMS = [  # name, net days, discount %, discount days, default
    ("COD", 0, "0", 0, False),
    ("Net 15", 15, "0", 0, False),
    ("Net 30", 30, "0", 0, True),
    ("2/10 Net 30", 30, "2", 10, False),
]
PAYMENT_METHODS = [
    ("ACH", "ACH"),
    ("Check", "CHECK"),
    ("Credit Card", "CARD"),
    ("Wire", "WIRE"),
    ("Fuel Card", "FUELCARD"),
]
# The resources of this group that the seeded roles should hold in the demo company, even when it was
# created before these resources existed (roles take their permissions when a company is created).
RESOURCES = {"region", "yard", "driver", "company_asset", "asset_type", "payment_term", "payment_method"}


def vin_with_check_digit(stem: str) -> str:
    """A 17-character VIN from 16 characters: the check digit goes in 9th place."""
    from tenants.fleet.models import vin_check_digit

    vin = stem[:8] + "0" + stem[8:]
    return vin[:8] + vin_check_digit(vin) + vin[9:]


def _find_or_create(model: type[models.Model], key: str, values: dict[str, Any], **extra: Any) -> Any:
    """The row whose `key` field equals values[key] (ignoring case), else a new validated row."""
    obj = model._default_manager.filter(**{f"{key}__iexact": values[key]}, **extra).first()
    if obj is None:
        obj = model(**values)
        obj.full_clean()
        obj.save()
    return obj


def _geography() -> tuple[dict[str, Any], dict[str, Any]]:
    from tenants.geo.models import City, Region, State, Yard

    cities = {}
    for code, (state_name, city_names) in STATES.items():
        state = State.objects.filter(code__iexact=code).first() or State.objects.create(
            name=state_name, code=code
        )
        for city_name in city_names:
            cities[city_name] = City.objects.filter(name__iexact=city_name, state=state).first() or (
                City.objects.create(name=city_name, state=state)
            )
    regions = {
        code: _find_or_create(Region, "name", {"name": name, "code": code, "description": description})
        for name, code, description in REGIONS
    }
    yards = {}
    for name, code, address, zip_code, _state, city, region, lat, lng in YARDS:
        yards[code] = _find_or_create(
            Yard,
            "name",
            {
                "name": name,
                "code": code,
                "address": address,
                "zip_code": zip_code,
                "state": cities[city].state,
                "city": cities[city],
                "region": regions[region],
                "latitude": Decimal(lat),
                "longitude": Decimal(lng),
            },
        )
    return regions, yards


def _fleet(yards: dict[str, Any]) -> None:
    from tenants.fleet.models import AssetType, CompanyAsset

    types = {
        name: _find_or_create(AssetType, "name", {"name": name, "category": category, "description": desc})
        for name, category, desc in ASSET_TYPES
    }
    for number, name, type_name, capacity, compartments, plate, yard, stem in ASSETS:
        _find_or_create(
            CompanyAsset,
            "asset_number",
            {
                "asset_number": number,
                "name": name,
                "asset_type": types[type_name],
                "capacity": capacity,
                "compartments": [{"number": i, "capacity": c} for i, c in enumerate(compartments, start=1)],
                "plate": plate,
                "vin": vin_with_check_digit(stem),
                "home_yard": yards[yard],
            },
        )


def _drivers(regions: dict[str, Any], yards: dict[str, Any]) -> None:
    from tenants.accounts.models import Role, User
    from tenants.accounts.roles import DRIVER
    from tenants.accounts.services import create_user
    from tenants.fleet.models import Driver

    today = timezone.localdate()
    role = Role.objects.get(name=DRIVER)
    for name, phone, licence_class, licence_days, hazmat_days, yard, region, email in DRIVERS:
        details = {
            "phone": phone,
            "licence_class": licence_class,
            "licence_expiry": today + dt.timedelta(days=licence_days),
            "hazmat_expiry": today + dt.timedelta(days=hazmat_days),
            "home_yard": yards[yard],
            "region": regions[region],
        }
        if email is None:
            _find_or_create(Driver, "name", {"name": name, **details}, user__isnull=True)
            continue
        user = User.objects.filter(email__iexact=email).first()
        if user is None:
            user = create_user(email=email, name=name, password=DRIVER_PASSWORD, role=role, phone=phone)
        driver = Driver.objects.filter(user=user).first()
        if driver is None:
            driver = Driver(user=user, name=name, email=email, **details)
        else:  # e.g. the demo driver made by seed_demo: fill in what it lacks, keep what is set
            for field, value in details.items():
                if getattr(driver, field) in (None, ""):
                    setattr(driver, field, value)
        driver.full_clean()
        driver.save()


def _payments() -> None:
    from tenants.pricing.models import PaymentMethod, PaymentTerm

    has_default = PaymentTerm.objects.filter(is_default=True).exists()
    for name, net_days, percent, discount_days, is_default in PAYMENT_TERMS:
        _find_or_create(
            PaymentTerm,
            "name",
            {
                "name": name,
                "net_days": net_days,
                "discount_percent": Decimal(percent),
                "discount_days": discount_days,
                "is_default": is_default and not has_default,
            },
        )
    for name, code in PAYMENT_METHODS:
        _find_or_create(PaymentMethod, "name", {"name": name, "code": code})


def _role_permissions() -> None:
    from tenants.accounts.models import Role
    from tenants.accounts.roles import ROLE_RESOURCES, seeded_role_permissions

    for name in ROLE_RESOURCES:
        role = Role.objects.filter(name=name, is_system=True).first()
        if role is None:
            continue
        wanted = {code for code in seeded_role_permissions(name) if code.split(".")[0] in RESOURCES}
        if not wanted <= set(role.permissions):
            role.permissions = sorted(set(role.permissions) | wanted)
            role.save(update_fields=["permissions", "updated_at"])


def seed() -> None:
    _role_permissions()
    regions, yards = _geography()
    _fleet(yards)
    _drivers(regions, yards)
    _payments()
