"""Fill one tenant with customers and ship-tos at benchmark scale (default 100,000 and 1,000,000).

    manage.py bench_seed_customers <tenant>              # schema name, id or company name
    manage.py bench_seed_customers --create "Bench Co"   # a new company (prints its admin's sign-in)

Set-based: a few `INSERT … SELECT … FROM generate_series` statements build every row in the database
(names, account numbers, emails, phones, addresses spread over ~50 real cities), then VACUUM ANALYZE
so the planner and index-only scans see the new rows. Deterministic: the same counts give the same rows.
The tenant must have no customers yet.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

# (city, state code, phone area code, latitude, longitude, first three ZIP digits)
CITIES = [
    ("Houston", "TX", "713", 29.7604, -95.3698, "770"),
    ("Dallas", "TX", "214", 32.7767, -96.7970, "752"),
    ("Austin", "TX", "512", 30.2672, -97.7431, "787"),
    ("San Antonio", "TX", "210", 29.4241, -98.4936, "782"),
    ("Fort Worth", "TX", "817", 32.7555, -97.3308, "761"),
    ("Corpus Christi", "TX", "361", 27.8006, -97.3964, "784"),
    ("Midland", "TX", "432", 31.9973, -102.0779, "797"),
    ("Odessa", "TX", "432", 31.8457, -102.3676, "797"),
    ("Lubbock", "TX", "806", 33.5779, -101.8552, "794"),
    ("Amarillo", "TX", "806", 35.2220, -101.8313, "791"),
    ("Beaumont", "TX", "409", 30.0802, -94.1266, "777"),
    ("Tyler", "TX", "903", 32.3513, -95.3011, "757"),
    ("Waco", "TX", "254", 31.5493, -97.1467, "767"),
    ("Abilene", "TX", "325", 32.4487, -99.7331, "796"),
    ("Laredo", "TX", "956", 27.5306, -99.4803, "780"),
    ("Victoria", "TX", "361", 28.8053, -97.0036, "779"),
    ("Bryan", "TX", "979", 30.6744, -96.3700, "778"),
    ("Pecos", "TX", "432", 31.4229, -103.4932, "797"),
    ("Oklahoma City", "OK", "405", 35.4676, -97.5164, "731"),
    ("Tulsa", "OK", "918", 36.1540, -95.9928, "741"),
    ("Enid", "OK", "580", 36.3956, -97.8784, "737"),
    ("Lawton", "OK", "580", 34.6036, -98.3959, "735"),
    ("Ardmore", "OK", "580", 34.1743, -97.1436, "734"),
    ("Woodward", "OK", "580", 36.4337, -99.3904, "738"),
    ("Shreveport", "LA", "318", 32.5252, -93.7502, "711"),
    ("Lafayette", "LA", "337", 30.2241, -92.0198, "705"),
    ("Lake Charles", "LA", "337", 30.2266, -93.2174, "706"),
    ("Baton Rouge", "LA", "225", 30.4515, -91.1871, "708"),
    ("Houma", "LA", "985", 29.5958, -90.7195, "703"),
    ("Monroe", "LA", "318", 32.5093, -92.1193, "712"),
    ("Albuquerque", "NM", "505", 35.0844, -106.6504, "871"),
    ("Hobbs", "NM", "575", 32.7026, -103.1360, "882"),
    ("Carlsbad", "NM", "575", 32.4207, -104.2288, "882"),
    ("Farmington", "NM", "505", 36.7281, -108.2087, "874"),
    ("Little Rock", "AR", "501", 34.7465, -92.2896, "722"),
    ("Fort Smith", "AR", "479", 35.3859, -94.3985, "729"),
    ("Jonesboro", "AR", "870", 35.8423, -90.7043, "724"),
    ("Wichita", "KS", "316", 37.6872, -97.3301, "672"),
    ("Dodge City", "KS", "620", 37.7528, -100.0171, "678"),
    ("Garden City", "KS", "620", 37.9717, -100.8727, "678"),
    ("Hays", "KS", "785", 38.8792, -99.3268, "676"),
    ("Denver", "CO", "303", 39.7392, -104.9903, "802"),
    ("Greeley", "CO", "970", 40.4233, -104.7091, "806"),
    ("Grand Junction", "CO", "970", 39.0639, -108.5506, "815"),
    ("Pueblo", "CO", "719", 38.2544, -104.6091, "810"),
    ("Omaha", "NE", "402", 41.2565, -95.9345, "681"),
    ("Grand Island", "NE", "308", 40.9264, -98.3420, "688"),
    ("North Platte", "NE", "308", 41.1403, -100.7601, "691"),
]
STATES = {
    "TX": "Texas",
    "OK": "Oklahoma",
    "LA": "Louisiana",
    "NM": "New Mexico",
    "AR": "Arkansas",
    "KS": "Kansas",
    "CO": "Colorado",
    "NE": "Nebraska",
}
# Customer names: <prefix> <trade> [<legal form>], e.g. "Red River Excavating LLC", "Johnson Farms".
PREFIXES = [
    "Johnson", "Miller", "Garcia", "Martinez", "Anderson", "Thompson", "Robinson", "Walker", "Hernandez",
    "Nguyen", "Schmidt", "Hoffman", "Castillo", "Reyes", "Whitaker", "Brennan", "Kowalski", "Dubois",
    "Fischer", "Landry", "Thibodeaux", "Boudreaux", "Hebert", "Guidry", "Broussard", "Okafor", "Patel",
    "Lone Star", "Red River", "Bluebonnet", "Gulf Coast", "Prairie", "Cedar Creek", "Brazos", "Pecos",
    "Panhandle", "Permian", "Big Sky", "High Plains", "Rio Grande", "Sabine", "Trinity", "Llano",
    "Cross Timbers", "Caprock", "Canadian River", "Cimarron", "Arkansas Valley", "Ozark", "Bayou",
    "Atchafalaya", "Pontchartrain", "Sandhills", "Platte Valley", "Front Range", "Mesa", "Sangre de Cristo",
    "Four Corners", "Chisholm Trail", "Santa Fe Trail", "Eagle", "Falcon", "Mustang", "Longhorn",
    "Bison", "Pronghorn", "Roadrunner", "Pelican", "Magnolia", "Pecan Grove", "Live Oak", "Mesquite",
    "Cottonwood", "Willow Creek", "Stone Ridge", "Iron Horse", "Blue Ridge", "Summit", "Pinnacle",
    "Frontier", "Heritage", "Legacy", "Keystone", "Cornerstone", "Allied", "United", "Central",
    "Southern", "Western", "Midwest", "Delta", "Tri-County", "Twin Rivers", "Three Rivers", "Acme",
    "Apex", "Benchmark", "Crescent", "Horizon", "Meridian", "Northstar", "Sunbelt", "Tejas",
]  # fmt: skip
TRADES = [
    "Construction", "Farms", "Trucking", "Excavating", "Landscaping", "Ranch", "Logistics",
    "Oilfield Services", "Paving", "Concrete", "Aggregates", "Equipment Rental", "Marine", "Aviation",
    "Dairy", "Feedyard", "Grain", "Sand & Gravel", "Drilling", "Pipeline", "Transport", "Utilities",
    "Golf Club", "Nursery", "Homebuilders", "Roofing", "Demolition", "Towing", "Hauling", "Timber",
    "Vineyards", "Orchards", "Produce", "Cattle Co", "Waste Services", "Energy", "Fleet Services",
    "Crane Service", "Well Service", "Dirt Works",
]  # fmt: skip
LEGAL_FORMS = ["LLC", "Inc.", "", "Co.", "LLC", "Ltd.", "", "LP", "Corp.", "Inc."]
EMAIL_USERS = ["ap", "billing", "accounts", "office", "invoices", "fuel", "admin", "payables"]
FREE_MAIL = ["gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "att.net"]
STREETS = [
    "Industrial Blvd", "Commerce St", "Airline Dr", "Farm to Market Rd 529", "County Road 112", "Main St",
    "Old Spanish Trl", "Ranch Rd 12", "Highway 90", "Interstate 20 Frontage Rd", "Loop 250", "Refinery Rd",
    "Port Rd", "Elevator Rd", "Section Line Rd", "Rail Spur Dr", "Levee Rd", "Energy Pkwy",
]  # fmt: skip
SITE_NAMES = [
    "Main Yard", "North Yard", "Shop", "Job Site", "Home Farm", "Pivot", "Tank Farm", "Well Pad", "Store",
    "Plant", "Warehouse", "Generator", "Marina", "Grain Dryer", "Feedlot", "Pump Station", "Quarry",
]  # fmt: skip
INSTRUCTIONS = [
    "",
    "",
    "Tanks are behind the shop.",
    "Check in at the gate; code on the ticket.",
    "Fill every tank to 90%.",
    "Call the foreman 30 minutes ahead.",
    "Dyed diesel only in the red tanks.",
]
ACCESS_HOURS = ["Mon-Fri 6am-5pm", "24/7", "Mon-Sat 7am-3pm", "Mon-Fri 7am-4pm", ""]
COMPANY_TYPES = ["Construction", "Agriculture", "Trucking", "Oil & Gas", "Municipal", "Marine", "Retail"]

# (hashint8(g * 64 + k) & 2147483647) below: a deterministic pseudo-random non-negative int per row g
# and purpose k.
CUSTOMERS_SQL = """
WITH w AS (
  SELECT %(prefixes)s::text[] AS prefixes, %(trades)s::text[] AS trades, %(forms)s::text[] AS forms,
         %(users)s::text[] AS users, %(free)s::text[] AS free, %(streets)s::text[] AS streets,
         %(areas)s::text[] AS areas, %(zips)s::text[] AS zips,
         (SELECT array_agg(c.id ORDER BY b.n) FROM bench_city b JOIN geo_city c
            ON upper(c.name) = upper(b.name) AND c.state_id = b.state_id) AS city_ids,
         (SELECT array_agg(b.state_id ORDER BY b.n) FROM bench_city b) AS state_ids,
         (SELECT array_agg(id ORDER BY id) FROM parties_customercompanytype) AS kinds
), s AS (
  SELECT g,
         w.prefixes[1 + (hashint8(g::bigint * 64 + 1) & 2147483647) %% cardinality(w.prefixes)] AS prefix,
         w.trades[1 + (hashint8(g::bigint * 64 + 2) & 2147483647) %% cardinality(w.trades)] AS trade,
         w.forms[1 + (hashint8(g::bigint * 64 + 3) & 2147483647) %% cardinality(w.forms)] AS form,
         1 + (hashint8(g::bigint * 64 + 4) & 2147483647) %% cardinality(w.city_ids) AS c,
         (hashint8(g::bigint * 64 + 5) & 2147483647) %% 100 AS pct,
         (hashint8(g::bigint * 64 + 6) & 2147483647) AS r
  FROM generate_series(1, %(count)s) g, w
)
INSERT INTO parties_customer (
  name, account_number, status, company_type_id, address_one, address_two, state_id, city_id, zip_code,
  phone, email, payment_term_id, payment_method_id, tax_exempt, tax_exempt_certificate, credit_limit,
  notes, customer_pricing_type, external_id, sync_state, last_sync_error, created_at, updated_at)
SELECT
  s.prefix || ' ' || s.trade || CASE WHEN s.form = '' THEN '' ELSE ' ' || s.form END,
  'C' || lpad(s.g::text, 6, '0'),
  CASE WHEN s.pct < 85 THEN 'active' WHEN s.pct < 92 THEN 'on_hold'
       WHEN s.pct < 97 THEN 'credit_hold' ELSE 'inactive' END,
  w.kinds[1 + s.r %% cardinality(w.kinds)],
  (100 + s.r %% 9900)::text || ' ' || w.streets[1 + (s.r / 9900) %% cardinality(w.streets)],
  CASE WHEN s.pct %% 9 = 0 THEN 'Suite ' || (100 + s.r %% 400)::text ELSE '' END,
  w.state_ids[s.c], w.city_ids[s.c],
  w.zips[s.c] || lpad((s.r %% 100)::text, 2, '0'),
  '+1 ' || w.areas[s.c] || ' ' || (200 + (s.r / 7) %% 800)::text || ' '
    || lpad(((s.r / 11) %% 10000)::text, 4, '0'),
  CASE WHEN s.pct < 80
       THEN w.users[1 + s.r %% cardinality(w.users)] || '@'
            || lower(regexp_replace(s.prefix || s.trade, '[^A-Za-z]', '', 'g')) || '.com'
       ELSE lower(regexp_replace(s.prefix, '[^A-Za-z]', '', 'g')) || (s.r %% 1000)::text || '@'
            || w.free[1 + s.r %% cardinality(w.free)] END,
  NULL, NULL,
  s.pct %% 10 = 3,
  CASE WHEN s.pct %% 10 = 3 THEN 'EX-' || (10000 + s.r %% 90000)::text ELSE '' END,
  (ARRAY[5000, 10000, 25000, 50000, 100000, 250000])[1 + (s.r / 13) %% 6],
  CASE WHEN s.pct %% 7 = 0 THEN 'Call ahead before delivery.' ELSE '' END,
  'standard', '', 'not_synced', '',
  now() - ((s.r %% 3650) || ' days')::interval,
  now() - ((s.r %% 30) || ' days')::interval
FROM s, w
ORDER BY s.g
"""

SHIP_TOS_SQL = """
WITH w AS (
  SELECT %(sites)s::text[] AS sites, %(streets)s::text[] AS streets, %(instructions)s::text[] AS instructions,
         %(hours)s::text[] AS hours, %(lats)s::float8[] AS lats, %(lngs)s::float8[] AS lngs,
         %(zips)s::text[] AS zips,
         (SELECT array_agg(c.id ORDER BY b.n) FROM bench_city b JOIN geo_city c
            ON upper(c.name) = upper(b.name) AND c.state_id = b.state_id) AS city_ids,
         (SELECT array_agg(b.state_id ORDER BY b.n) FROM bench_city b) AS state_ids
), s0 AS (
  SELECT g, n + 1 AS customer_g, %(first_id)s::bigint + n AS customer_id,
         (hashint8(g::bigint * 64 + 8) & 2147483647) AS r
  FROM generate_series(1, %(count)s) g, w,
       LATERAL (SELECT ((g - 1) * %(customers)s::bigint) / %(count)s AS n) k
), s AS (  -- four in five in the customer's own city (same formula as there), the rest anywhere
  SELECT s0.*, CASE WHEN s0.r %% 5 = 0
                    THEN 1 + (hashint8(g::bigint * 64 + 7) & 2147483647) %% cardinality(w.city_ids)
                    ELSE 1 + (hashint8(customer_g * 64 + 4) & 2147483647) %% cardinality(w.city_ids)
               END AS c
  FROM s0, w
)
INSERT INTO parties_shipto (
  customer_id, name, address_one, address_two, state_id, city_id, zip_code, latitude, longitude,
  delivery_instructions, access_hours, is_active, created_at, updated_at)
SELECT
  s.customer_id,
  w.sites[1 + s.r %% cardinality(w.sites)] || ' ' || (1 + s.g %% 40)::text,
  (100 + s.r %% 9900)::text || ' ' || w.streets[1 + (s.r / 9900) %% cardinality(w.streets)],
  '',
  w.state_ids[s.c], w.city_ids[s.c],
  w.zips[s.c] || lpad((s.r %% 100)::text, 2, '0'),
  round((w.lats[s.c] + ((s.r %% 3001) - 1500) / 10000.0)::numeric, 6),
  round((w.lngs[s.c] + (((s.r / 3001) %% 3001) - 1500) / 10000.0)::numeric, 6),
  w.instructions[1 + (s.r / 7) %% cardinality(w.instructions)],
  w.hours[1 + (s.r / 11) %% cardinality(w.hours)],
  (s.r %% 50) <> 0,
  now() - ((s.r %% 3000) || ' days')::interval,
  now() - ((s.r %% 30) || ' days')::interval
FROM s, w
"""


class Command(BaseCommand):
    help = "Fill one tenant with benchmark-scale customers (100,000) and ship-tos (1,000,000)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tenant", nargs="?", help="Schema name, id or company name of the tenant")
        parser.add_argument("--create", metavar="COMPANY", help="Sign up a new company and fill it")
        parser.add_argument("--customers", type=int, default=100_000)
        parser.add_argument("--ship-tos", type=int, default=1_000_000)

    def handle(self, *args: Any, **opts: Any) -> None:
        from tenancy.services import public_schema

        if bool(opts["tenant"]) == bool(opts["create"]):
            raise CommandError("Name a tenant, or give --create COMPANY (one of the two).")
        if opts["customers"] < 1 or opts["ship_tos"] < 0:
            raise CommandError("--customers must be at least 1 and --ship-tos not negative.")
        with public_schema():
            tenant = self._create(opts["create"]) if opts["create"] else self._find(opts["tenant"])
        connection.set_tenant(tenant)
        try:
            timings = seed(opts["customers"], opts["ship_tos"])
        finally:
            connection.set_schema_to_public()
        self.stdout.write(
            f"{tenant.schema_name}: {opts['customers']:,} customers, {opts['ship_tos']:,} ship-tos "
            + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
        )

    def _find(self, ref: str) -> Any:
        from tenancy.management.commands._base import find_tenant

        return find_tenant(ref)

    def _create(self, company: str) -> Any:
        from tenancy.services import provision_tenant

        email = f"bench-{secrets.token_hex(4)}@customers.bench"
        password = f"Bench-{secrets.token_urlsafe(12)}"
        tenant, _ = provision_tenant(
            company_name=company, admin_email=email, admin_name="Bench Admin", admin_password=password
        )
        self.stdout.write(f"Created {tenant.schema_name}: sign in as {email} / {password}")
        return tenant


def seed(customers: int, ship_tos: int) -> dict[str, float]:
    """Fill the current tenant's schema. Returns the seconds each step took."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("SELECT EXISTS (SELECT 1 FROM parties_customer)")
        if cur.fetchone()[0]:
            raise CommandError("This tenant already has customers: seed a new one (--create).")
        # Foreign keys checked per statement: no trigger events left pending (ALTER TABLE refuses
        # to run while there are), and the ones bulk_load drops are re-checked in one join anyway.
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cur.execute("SET LOCAL synchronous_commit = off")
        cur.execute("SET LOCAL maintenance_work_mem = '256MB'")
        _places(cur)
        cur.executemany(
            "INSERT INTO parties_customercompanytype (company_type, description, created_at, updated_at)"
            " VALUES (%s, '', now(), now()) ON CONFLICT DO NOTHING",
            [(k,) for k in COMPANY_TYPES],
        )
        with bulk_load(cur, "parties_customer"):
            cur.execute(
                CUSTOMERS_SQL,
                {
                    "prefixes": PREFIXES,
                    "trades": TRADES,
                    "forms": LEGAL_FORMS,
                    "users": EMAIL_USERS,
                    "free": FREE_MAIL,
                    "streets": STREETS,
                    "areas": [c[2] for c in CITIES],
                    "zips": [c[5] for c in CITIES],
                    "count": customers,
                },
            )
        cur.execute("SELECT min(id), max(id), count(*) FROM parties_customer")
        first_id, last_id, made = cur.fetchone()
        assert made == customers and last_id - first_id + 1 == made, (first_id, last_id, made)
        timings["customers"] = time.perf_counter() - start
        if ship_tos:
            step = time.perf_counter()
            with bulk_load(cur, "parties_shipto"):
                cur.execute(
                    SHIP_TOS_SQL,
                    {
                        "sites": SITE_NAMES,
                        "streets": STREETS,
                        "instructions": INSTRUCTIONS,
                        "hours": ACCESS_HOURS,
                        "lats": [c[3] for c in CITIES],
                        "lngs": [c[4] for c in CITIES],
                        "zips": [c[5] for c in CITIES],
                        "first_id": first_id,
                        "customers": customers,
                        "count": ship_tos,
                    },
                )
            timings["ship-tos"] = time.perf_counter() - step
    step = time.perf_counter()
    with connection.cursor() as cur:  # outside the transaction: VACUUM cannot run in one
        cur.execute("VACUUM ANALYZE parties_customer")
        cur.execute("VACUUM ANALYZE parties_shipto")
    timings["vacuum analyze"] = time.perf_counter() - step
    timings["total"] = time.perf_counter() - start
    return timings


def _places(cur: Any) -> None:
    """The states and cities the rows are spread over (kept when the tenant has them already), and a
    temporary table numbering them for the inserts."""
    cur.executemany(
        "INSERT INTO geo_state (code, name, country) VALUES (%s, %s, 'US') ON CONFLICT DO NOTHING",
        list(STATES.items()),
    )
    cur.execute("CREATE TEMP TABLE bench_city (n int, name text, state_id bigint) ON COMMIT DROP")
    cur.executemany(
        "INSERT INTO bench_city SELECT %s, %s, id FROM geo_state WHERE upper(code) = %s AND country = 'US'",
        [(n, c[0], c[1]) for n, c in enumerate(CITIES)],
    )
    cur.execute(
        "INSERT INTO geo_city (name, state_id) SELECT name, state_id FROM bench_city ON CONFLICT DO NOTHING"
    )


@contextmanager
def bulk_load(cur: Any, table: str) -> Iterator[None]:
    """The usual bulk-load order: drop the table's foreign keys and plain (non-unique) indexes, load,
    then put them back as they were (same names and definitions). A foreign key is then checked by
    one join when it is added, not by a trigger per row at commit; an index is built once, sorted."""
    cur.execute(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE conrelid = %s::regclass AND contype = 'f'",
        [table],
    )
    foreign_keys = cur.fetchall()
    cur.execute(
        "SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i"
        " JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = %s::regclass AND NOT i.indisunique",
        [table],
    )
    indexes = cur.fetchall()
    quoted = connection.ops.quote_name
    for name, _ in foreign_keys:
        cur.execute(f"ALTER TABLE {quoted(table)} DROP CONSTRAINT {quoted(name)}")
    for name, _ in indexes:
        cur.execute(f"DROP INDEX {quoted(name)}")
    yield
    for _, definition in indexes:
        cur.execute(definition)
    for name, definition in foreign_keys:
        cur.execute(f"ALTER TABLE {quoted(table)} ADD CONSTRAINT {quoted(name)} {definition}")
