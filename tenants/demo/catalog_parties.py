"""Demo data of the catalog and parties: fuel, DEF, lubricants and goods in categories; about thirty
customers in Texas, Oklahoma and Louisiana with their ship-tos, tanks and contacts; four suppliers
with the Gulf-coast and mid-continent terminals they load at; the names suppliers use for our products.

`seed()` runs in the demo tenant's schema and is idempotent: every row is found by its natural key
(code, account number, terminal code, a name within its owner) and created only when missing; rows
users edited are left alone. It does not need the geography/fleet seed: states and cities it uses are
found, or made when missing.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.db import models

# --- catalog -------------------------------------------------------------------------------------
CATEGORIES: dict[str, tuple[str, list[str]]] = {
    "Fuel": ("Bulk fuel delivered by the gallon.", ["Diesel", "Gasoline", "Kerosene"]),
    "DEF": ("Diesel exhaust fluid, bulk and packaged.", ["Bulk DEF", "Packaged DEF"]),
    "Lubricants": (
        "Oils and greases.",
        ["Engine Oil", "Hydraulic Oil", "Grease", "Gear Oil", "Transmission Fluid"],
    ),
    "Goods": ("Packaged goods and supplies.", ["Filters", "Shop Supplies"]),
}
# code, name, sold as, category, sub-category, is fuel, list price
FUEL_GRAVITY: dict[str, tuple[str, str]] = {
    "ULSD-CLR": ("35.0", "distillate"),
    "ULSD-DYED": ("35.0", "distillate"),
    "ULSD-WIN": ("38.5", "jet"),  # a #1/#2 blend is lighter: by its density it sits in the jet group
    "UNL-87": ("60.0", "gasoline"),
    "MID-89": ("59.0", "gasoline"),
    "PREM-91": ("57.5", "gasoline"),
    "PREM-93": ("57.0", "gasoline"),
    "KERO-1K": ("42.0", "jet"),
}
PRODUCTS: list[tuple[str, str, str, str, str, bool, str]] = [
    ("ULSD-CLR", "Clear Diesel ULSD #2", "gallon", "Fuel", "Diesel", True, "3.4500"),
    ("ULSD-DYED", "Dyed Diesel ULSD #2 (off-road)", "gallon", "Fuel", "Diesel", True, "3.0500"),
    ("ULSD-WIN", "Winterized Diesel #1/#2 blend", "gallon", "Fuel", "Diesel", True, "3.6200"),
    ("UNL-87", "Unleaded 87 E10", "gallon", "Fuel", "Gasoline", True, "2.9900"),
    ("MID-89", "Mid-grade 89 E10", "gallon", "Fuel", "Gasoline", True, "3.2900"),
    ("PREM-91", "Premium 91 E10", "gallon", "Fuel", "Gasoline", True, "3.5900"),
    ("PREM-93", "Premium 93 E10", "gallon", "Fuel", "Gasoline", True, "3.7900"),
    ("KERO-1K", "Kerosene 1-K", "gallon", "Fuel", "Kerosene", True, "4.1900"),
    ("DEF-BULK", "DEF, bulk", "gallon", "DEF", "Bulk DEF", False, "2.7500"),
    ("DEF-2X25", "DEF, case of 2 x 2.5 gal jugs", "case", "DEF", "Packaged DEF", False, "24.0000"),
    ("DEF-TOTE", "DEF, 330 gal tote", "tote", "DEF", "Packaged DEF", False, "850.0000"),
    (
        "EO-15W40-DR",
        "15W-40 heavy-duty engine oil, 55 gal drum",
        "drum",
        "Lubricants",
        "Engine Oil",
        False,
        "845.0000",
    ),
    (
        "EO-15W40-CS",
        "15W-40 heavy-duty engine oil, 3 x 1 gal",
        "case",
        "Lubricants",
        "Engine Oil",
        False,
        "59.0000",
    ),
    (
        "EO-15W40-TT",
        "15W-40 heavy-duty engine oil, 275 gal tote",
        "tote",
        "Lubricants",
        "Engine Oil",
        False,
        "3950.0000",
    ),
    (
        "HYD-AW46-PL",
        "AW-46 hydraulic oil, 5 gal pail",
        "pail",
        "Lubricants",
        "Hydraulic Oil",
        False,
        "72.0000",
    ),
    (
        "HYD-AW46-DR",
        "AW-46 hydraulic oil, 55 gal drum",
        "drum",
        "Lubricants",
        "Hydraulic Oil",
        False,
        "690.0000",
    ),
    ("GR-EP2-TB", "EP-2 lithium grease, 14 oz tube", "each", "Lubricants", "Grease", False, "6.5000"),
    ("GR-EP2-CS", "EP-2 lithium grease, case of 10 tubes", "case", "Lubricants", "Grease", False, "58.0000"),
    ("GO-80W90-PL", "80W-90 gear oil, 5 gal pail", "pail", "Lubricants", "Gear Oil", False, "89.0000"),
    ("ATF-DX6-CS", "ATF Dexron VI, 12 x 1 qt", "case", "Lubricants", "Transmission Fluid", False, "68.0000"),
    ("FLT-FUEL-10", "Fuel filter element, 10 micron", "each", "Goods", "Filters", False, "18.5000"),
    ("ABS-PADS", "Absorbent pads, box of 100", "box", "Goods", "Shop Supplies", False, "64.0000"),
]

# --- customers -----------------------------------------------------------------------------------
COMPANY_TYPES = [
    "Agriculture",
    "Construction",
    "Manufacturing",
    "Marine",
    "Municipal",
    "Oil & Gas",
    "Retail & C-store",
    "Trucking & Fleet",
]
STATES = {"TX": "Texas", "OK": "Oklahoma", "LA": "Louisiana"}
# city: (state, phone area code, latitude, longitude, zip)
CITIES: dict[str, tuple[str, str, float, float, str]] = {
    "Houston": ("TX", "713", 29.7604, -95.3698, "770"),
    "Dallas": ("TX", "214", 32.7767, -96.7970, "752"),
    "Austin": ("TX", "512", 30.2672, -97.7431, "787"),
    "San Antonio": ("TX", "210", 29.4241, -98.4936, "782"),
    "Oklahoma City": ("OK", "405", 35.4676, -97.5164, "731"),
    "Tulsa": ("OK", "918", 36.1540, -95.9928, "741"),
    "Baton Rouge": ("LA", "225", 30.4515, -91.1871, "708"),
    "Lafayette": ("LA", "337", 30.2241, -92.0198, "705"),
    "Shreveport": ("LA", "318", 32.5252, -93.7502, "711"),
}
# name, company type, city, status
CUSTOMERS: list[tuple[str, str, str, str]] = [
    ("Bayou City Builders", "Construction", "Houston", "active"),
    ("Lone Star Paving", "Construction", "Dallas", "active"),
    ("Brazos Valley Farms", "Agriculture", "Austin", "active"),
    ("Hill Country Landscaping", "Construction", "Austin", "active"),
    ("Gulf Freight Lines", "Trucking & Fleet", "Houston", "active"),
    ("Alamo Aggregates", "Construction", "San Antonio", "active"),
    ("Red River Ranch", "Agriculture", "Oklahoma City", "active"),
    ("Tulsa Metro Transit", "Municipal", "Tulsa", "active"),
    ("Sooner Drilling Services", "Oil & Gas", "Oklahoma City", "credit_hold"),
    ("Cajun Marine Services", "Marine", "Lafayette", "active"),
    ("Capitol City Sanitation", "Municipal", "Baton Rouge", "active"),
    ("Shreveport Steel Fabricators", "Manufacturing", "Shreveport", "active"),
    ("Acadiana Rice Growers", "Agriculture", "Lafayette", "active"),
    ("Trinity Excavation", "Construction", "Dallas", "on_hold"),
    ("Permian Pressure Pumping", "Oil & Gas", "San Antonio", "active"),
    ("Galveston Bay Shrimp Co", "Marine", "Houston", "active"),
    ("Texas Star Express", "Trucking & Fleet", "Dallas", "active"),
    ("Magnolia Food Mart", "Retail & C-store", "Baton Rouge", "active"),
    ("Prairie Grain Co-op", "Agriculture", "Tulsa", "active"),
    ("Oklahoma City Fleet Services", "Municipal", "Oklahoma City", "active"),
    ("Pelican State Dredging", "Marine", "Baton Rouge", "active"),
    ("Hub City Haulers", "Trucking & Fleet", "Lafayette", "active"),
    ("San Jacinto Concrete", "Construction", "Houston", "active"),
    ("Big Thicket Timber", "Manufacturing", "Houston", "active"),
    ("Riverwalk Quick Stop", "Retail & C-store", "San Antonio", "active"),
    ("Cross Timbers Cattle", "Agriculture", "Dallas", "active"),
    ("Arkla Pipeline Contractors", "Oil & Gas", "Shreveport", "active"),
    ("Osage Hills Quarry", "Construction", "Tulsa", "active"),
    ("Austin Green Waste", "Municipal", "Austin", "inactive"),
    ("Port City Stevedoring", "Marine", "Houston", "active"),
]
SITE_NAMES = {
    "Agriculture": ["Home Farm", "North Fields", "Grain Dryer"],
    "Construction": ["Main Yard", "Job Site - Loop 610", "Job Site - Interstate 45"],
    "Manufacturing": ["Plant", "Warehouse", "Shipping Dock"],
    "Marine": ["Dock 3", "Fleet Dock", "Workboat Landing"],
    "Municipal": ["Fleet Maintenance Center", "North Service Center", "Transfer Station"],
    "Oil & Gas": ["Field Office", "Frac Site 12", "Pipe Yard"],
    "Retail & C-store": ["Store #101", "Store #102", "Store #107"],
    "Trucking & Fleet": ["Terminal", "Shop", "Drop Yard"],
}
# What the tanks of each kind of customer hold: (product code, tank type, capacities in gallons)
TANKS = {
    "Agriculture": [("ULSD-DYED", "above_ground", [500, 1000]), ("UNL-87", "above_ground", [300, 500])],
    "Construction": [("ULSD-DYED", "skid", [500, 1000, 2000]), ("DEF-BULK", "portable", [275, 330])],
    "Manufacturing": [("ULSD-CLR", "above_ground", [1000, 2000]), ("ULSD-DYED", "equipment", [200, 300])],
    "Marine": [("ULSD-CLR", "above_ground", [4000, 10000]), ("EO-15W40-TT", "portable", [275])],
    "Municipal": [("ULSD-CLR", "above_ground", [2000, 4000]), ("UNL-87", "above_ground", [2000, 4000])],
    "Oil & Gas": [("ULSD-DYED", "skid", [1000, 2000]), ("ULSD-DYED", "equipment", [300, 500])],
    "Retail & C-store": [("UNL-87", "underground", [10000, 12000]), ("PREM-91", "underground", [6000, 8000])],
    "Trucking & Fleet": [
        ("ULSD-CLR", "above_ground", [4000, 8000]),
        ("DEF-BULK", "above_ground", [500, 1000]),
    ],
}
STREETS = [
    "Industrial Blvd",
    "Commerce St",
    "Airline Dr",
    "Market St",
    "Old Spanish Trl",
    "County Rd 120",
    "Port Rd",
    "Highway 90",
    "Main St",
    "Service Rd",
]
CONTACT_NAMES = [
    "Maria Gonzalez",
    "James Carter",
    "Linda Nguyen",
    "Robert Hebert",
    "Patricia Landry",
    "Michael Brown",
    "Jennifer Tran",
    "David Thibodeaux",
    "Susan Miller",
    "Carlos Ramirez",
    "Karen Broussard",
    "Thomas Walker",
]

# --- suppliers and terminals ---------------------------------------------------------------------
# name, TCN, street, city, state, zip, latitude, longitude
TERMINALS: list[tuple[str, str, str, str, str, str, str, str]] = [
    (
        "Galena Park Terminal",
        "T-76-TX-2004",
        "906 Clinton Dr",
        "Galena Park",
        "TX",
        "77547",
        "29.735500",
        "-95.230000",
    ),
    (
        "Pasadena Terminal",
        "T-76-TX-2017",
        "530 N Witter St",
        "Pasadena",
        "TX",
        "77506",
        "29.725800",
        "-95.195000",
    ),
    (
        "Port Arthur Terminal",
        "T-76-TX-2061",
        "2555 Savannah Ave",
        "Port Arthur",
        "TX",
        "77640",
        "29.885000",
        "-93.939000",
    ),
    (
        "Dallas Terminal",
        "T-75-TX-2706",
        "3900 Singleton Blvd",
        "Dallas",
        "TX",
        "75212",
        "32.787000",
        "-96.896000",
    ),
    (
        "Austin Terminal",
        "T-74-TX-2650",
        "9011 Johnny Morris Rd",
        "Austin",
        "TX",
        "78724",
        "30.300000",
        "-97.630000",
    ),
    (
        "San Antonio Terminal",
        "T-74-TX-2660",
        "498 Gembler Rd",
        "San Antonio",
        "TX",
        "78219",
        "29.450000",
        "-98.390000",
    ),
    (
        "Baton Rouge Terminal",
        "T-72-LA-2350",
        "4300 Scenic Hwy",
        "Baton Rouge",
        "LA",
        "70805",
        "30.490000",
        "-91.180000",
    ),
    (
        "Lake Charles Terminal",
        "T-72-LA-2380",
        "1000 Bayou Pines Dr",
        "Lake Charles",
        "LA",
        "70601",
        "30.210000",
        "-93.250000",
    ),
    (
        "Shreveport Terminal",
        "T-72-LA-2390",
        "3700 Mansfield Rd",
        "Shreveport",
        "LA",
        "71107",
        "32.540000",
        "-93.770000",
    ),
    (
        "Oklahoma City Terminal",
        "T-73-OK-2450",
        "4200 SE 59th St",
        "Oklahoma City",
        "OK",
        "73129",
        "35.420000",
        "-97.480000",
    ),
    (
        "Tulsa Terminal",
        "T-73-OK-2460",
        "1700 S 49th W Ave",
        "Tulsa",
        "OK",
        "74107",
        "36.120000",
        "-96.020000",
    ),
]
# name, code, contact, email, phone, city, terminal codes, aliases (product code, alias name, alias code)
SUPPLIERS: list[tuple[str, str, str, str, str, str, list[str], list[tuple[str, str, str]]]] = [
    (
        "Gulf Coast Fuels Supply",
        "GCFS",
        "Rhonda Pierce",
        "orders@gulfcoastfuels.example.com",
        "+1 713 555 0140",
        "Houston",
        ["T-76-TX-2004", "T-76-TX-2017", "T-76-TX-2061", "T-72-LA-2380"],
        [
            ("ULSD-CLR", "ULS #2 DIESEL CLEAR", "0102"),
            ("ULSD-DYED", "ULS #2 DIESEL DYED", "0103"),
            ("UNL-87", "CONV 87 E10", "0201"),
            ("PREM-93", "CONV PREM 93 E10", "0205"),
        ],
    ),
    (
        "Lone Star Petroleum Marketing",
        "LSPM",
        "Dwayne Fisher",
        "dispatch@lonestarpetro.example.com",
        "+1 214 555 0150",
        "Dallas",
        ["T-76-TX-2017", "T-75-TX-2706", "T-74-TX-2650", "T-74-TX-2660"],
        [
            ("ULSD-CLR", "NO 2 ULSD", "D2"),
            ("UNL-87", "87 OCT UNL E10", "G87"),
            ("MID-89", "89 OCT MID E10", "G89"),
            ("PREM-91", "91 OCT PREM E10", "G91"),
        ],
    ),
    (
        "Bayou Energy Partners",
        "BEP",
        "Claire Guidry",
        "supply@bayouenergy.example.com",
        "+1 225 555 0160",
        "Baton Rouge",
        ["T-72-LA-2350", "T-72-LA-2380", "T-72-LA-2390", "T-76-TX-2061"],
        [
            ("ULSD-CLR", "DSL ULS CLR", "1001"),
            ("ULSD-DYED", "DSL ULS DYE", "1002"),
            ("KERO-1K", "KEROSENE 1K", "1300"),
        ],
    ),
    (
        "Red River Refining Sales",
        "RRRS",
        "Wade McAlister",
        "rack@redriverrefining.example.com",
        "+1 405 555 0170",
        "Oklahoma City",
        ["T-73-OK-2450", "T-73-OK-2460", "T-72-LA-2390", "T-75-TX-2706"],
        [
            ("ULSD-CLR", "ULSD #2", "ULSD2"),
            ("ULSD-DYED", "ULSD #2 RED DYE", "ULSD2R"),
            ("DEF-BULK", "DEF BULK API", "DEF"),
        ],
    ),
]

# The resources of this group the seeded roles should hold in the demo company, even when it was created
# before these resources existed (roles take their permissions when a company is created).
RESOURCES = {
    "customer",
    "customer_company_type",
    "customer_ship_to",
    "asset",
    "customer_contact",
    "customer_contact_service",
    "supplier",
    "terminal",
    "supplier_product_alias",
    "product",
    "product_category",
    "product_sub_category",
}


def _find_or_create(model: type[models.Model], lookup: dict[str, Any], values: dict[str, Any]) -> Any:
    """The row matching `lookup` (text compared ignoring case), else a new validated row."""
    query = {f"{k}__iexact" if isinstance(v, str) else k: v for k, v in lookup.items()}
    obj = model._default_manager.filter(**query).first()
    if obj is None:
        obj = model(**lookup, **values)
        obj.full_clean()
        obj.save()
    return obj


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


def _places() -> tuple[dict[str, Any], dict[str, Any]]:
    from tenants.geo.models import City, State

    states = {code: _find_or_create(State, {"code": code}, {"name": name}) for code, name in STATES.items()}
    cities: dict[str, Any] = {}
    wanted = {name: info[0] for name, info in CITIES.items()}
    wanted.update({t[3]: t[4] for t in TERMINALS})
    for name, state_code in wanted.items():
        cities[name] = _find_or_create(City, {"name": name, "state": states[state_code]}, {})
    return states, cities


def _catalog() -> dict[str, Any]:
    from tenants.catalog.models import Product, ProductCategory, ProductSubCategory

    subs: dict[str, Any] = {}
    cats: dict[str, Any] = {}
    for name, (description, sub_names) in CATEGORIES.items():
        cats[name] = _find_or_create(ProductCategory, {"name": name}, {"description": description})
        for sub in sub_names:
            subs[sub] = _find_or_create(ProductSubCategory, {"name": sub, "category": cats[name]}, {})
    products = {}
    for code, name, sold_as, cat, sub, is_fuel, price in PRODUCTS:
        products[code] = _find_or_create(
            Product,
            {"code": code},
            {
                "name": name,
                "sold_as": sold_as,
                "category": cats[cat],
                "sub_category": subs[sub],
                "is_fuel": is_fuel,
                "unit_price": Decimal(price),
            },
        )
    # Net gallons at 60 °F on delivery tickets: typical API gravities and table 6B groups.
    for code, (api, group) in FUEL_GRAVITY.items():
        product = products.get(code)
        if product is not None and product.api_gravity is None:
            product.api_gravity, product.vcf_group = Decimal(api), group
            product.save(update_fields=["api_gravity", "vcf_group", "updated_at"])
    return products


def _pricing_ids() -> tuple[int | None, dict[str, int]]:
    """The default payment term and the payment methods by code, when the pricing app has them."""
    try:
        term_model = apps.get_model("pricing", "PaymentTerm")
        method_model = apps.get_model("pricing", "PaymentMethod")
    except LookupError:
        return None, {}
    term = term_model._default_manager.filter(is_default=True).first() or term_model._default_manager.first()
    methods = {m.code: m.pk for m in method_model._default_manager.all()}
    return (term.pk if term else None), methods


def _customers(states: dict[str, Any], cities: dict[str, Any], products: dict[str, Any]) -> list[Any]:
    from tenants.parties.models import Customer, CustomerAsset, CustomerCompanyType, ShipTo

    rng = random.Random(20261122)  # noqa: S311  (demo data, the same every time)
    kinds = {name: _find_or_create(CustomerCompanyType, {"company_type": name}, {}) for name in COMPANY_TYPES}
    term_id, methods = _pricing_ids()
    made = []
    for index, (name, kind, city_name, status) in enumerate(CUSTOMERS):
        state_code, area, lat, lng, zip_prefix = CITIES[city_name]
        slug = "".join(ch for ch in name.lower() if ch.isalnum())[:20]
        exempt = kind in ("Agriculture", "Municipal")
        customer = _find_or_create(
            Customer,
            {"account_number": f"C{10001 + index}"},
            {
                "name": name,
                "status": status,
                "company_type": kinds[kind],
                "address_one": f"{rng.randint(100, 9900)} {rng.choice(STREETS)}",
                "city": cities[city_name],
                "state": states[state_code],
                "zip_code": f"{zip_prefix}{rng.randint(10, 99)}",
                "phone": f"+1 {area} 555 01{index:02d}",
                "email": f"ap@{slug}.example.com",
                "tax_exempt": exempt,
                "tax_exempt_certificate": f"{state_code}-EX-{40000 + index}" if exempt else "",
                "credit_limit": Decimal(rng.choice([10000, 25000, 50000, 100000])),
                "payment_term_id": term_id,
                "payment_method_id": methods.get(rng.choice(["ACH", "CHECK", "FUELCARD"])),
                "notes": "Call ahead before delivery." if index % 5 == 0 else "",
            },
        )
        made.append(customer)
        for site_index, site_name in enumerate(SITE_NAMES[kind][: 1 + index % 3]):
            site = _find_or_create(
                ShipTo,
                {"customer": customer, "name": site_name},
                {
                    "address_one": f"{rng.randint(100, 9900)} {rng.choice(STREETS)}",
                    "city": cities[city_name],
                    "state": states[state_code],
                    "zip_code": f"{zip_prefix}{rng.randint(10, 99)}",
                    "latitude": Decimal(f"{lat + rng.uniform(-0.15, 0.15):.6f}"),
                    "longitude": Decimal(f"{lng + rng.uniform(-0.15, 0.15):.6f}"),
                    "delivery_instructions": rng.choice(
                        ["Tanks are behind the shop.", "Check in at the gate.", "Fill every tank to 90%.", ""]
                    ),
                    "access_hours": rng.choice(["Mon-Fri 6am-5pm", "24/7", "Mon-Sat 7am-3pm"]),
                },
            )
            for tank_index, (code, tank_type, sizes) in enumerate(
                TANKS[kind][: 1 + (index + site_index) % 2]
            ):
                _find_or_create(
                    CustomerAsset,
                    {"ship_to": site, "asset_name": f"Tank {tank_index + 1}"},
                    {
                        "customer": customer,
                        "product": products[code],
                        "tank_type": tank_type,
                        "capacity": Decimal(rng.choice(sizes)),
                        "serial_number": f"SN-{customer.pk:03d}{site.pk:04d}{tank_index + 1}",
                    },
                )
    return made


def _contacts(customers: list[Any]) -> None:
    from tenants.parties.models import ContactService, CustomerContact
    from tenants.parties.services import ensure_default_services

    ensure_default_services()
    services = {s.code: s for s in ContactService.objects.all()}
    roles = [
        ("Accounts Payable", ["invoices", "statements"]),
        ("Site Manager", ["delivery_tickets", "delivery_notifications"]),
        ("Purchasing", ["price_notices", "order_confirmations"]),
    ]
    for index, customer in enumerate(customers[:10]):
        for offset, (position, codes) in enumerate(roles[: 1 + index % 3]):
            person = CONTACT_NAMES[(index + offset * 5) % len(CONTACT_NAMES)]
            first, last = person.lower().split()
            domain = customer.email.split("@")[1]
            site = customer.ship_tos.order_by("id").first() if position == "Site Manager" else None
            contact = _find_or_create(
                CustomerContact,
                {"customer": customer, "name": person},
                {
                    "email": f"{first}.{last}@{domain}",
                    "phone": customer.phone,
                    "position": position,
                    "ship_to": site,
                },
            )
            if not contact.services.exists():
                contact.services.set([services[c] for c in codes if c in services])


def _suppliers(states: dict[str, Any], cities: dict[str, Any], products: dict[str, Any]) -> None:
    from tenants.parties.models import Supplier, SupplierProductAlias, Terminal

    terminals = {}
    for name, code, street, city, state, zip_code, lat, lng in TERMINALS:
        terminals[code] = _find_or_create(
            Terminal,
            {"terminal_code": code},
            {
                "name": name,
                "address_one": street,
                "city": cities[city],
                "state": states[state],
                "zip_code": zip_code,
                "latitude": Decimal(lat),
                "longitude": Decimal(lng),
            },
        )
    for name, code, contact, email, phone, city, terminal_codes, aliases in SUPPLIERS:
        state_code = CITIES[city][0]
        supplier = _find_or_create(
            Supplier,
            {"code": code},
            {
                "name": name,
                "contact_name": contact,
                "email": email,
                "phone": phone,
                "city": cities[city],
                "state": states[state_code],
            },
        )
        if not supplier.terminals.exists():
            supplier.terminals.set([terminals[c] for c in terminal_codes])
        for product_code, alias_name, alias_code in aliases:
            _find_or_create(
                SupplierProductAlias,
                {"supplier": supplier, "alias_name": alias_name},
                {"product": products[product_code], "alias_code": alias_code},
            )


def seed() -> None:
    _role_permissions()
    states, cities = _places()
    products = _catalog()
    customers = _customers(states, cities, products)
    _contacts(customers)
    _suppliers(states, cities, products)
