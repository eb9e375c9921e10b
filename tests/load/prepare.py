"""The companies `make load` runs against (issue 25 §1), written to var/load/companies.json.

    python tests/load/prepare.py [--companies 200] [--fill 50]

- `--companies` companies are signed up through the spare pool (the signup path: a spare schema is
  renamed, roles and the admin seeded), the pool refilled as it empties; names "Load Co 007".
- The first `--fill` of them get the demo generator's data (tenants/demo, as `make run`'s demo
  company), every fifth also `bench_seed_customers` volumes first: sizes cycle small (demo only),
  medium (+2,000 customers, 4,000 ship-tos), large (+20,000 customers, 40,000 ship-tos; every tenth).
  Each filled company has its own driver login, whose stops are today.
- The marker: every customer's name of company N ends with "[LD00N]" (the unfilled ones hold one
  customer, "Marker [LD00N]"). Every answer the load test gets is searched for markers: another
  company's one fails the run (tests/load/locustfile.py).

Idempotent: companies that exist are kept, filled ones are not filled again.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings")
MANIFEST = Path(os.environ.get("LOAD_MANIFEST", ROOT / "var" / "load" / "companies.json"))
PASSWORD = "Load-pass-2026"
from tests.load.markers import tag  # noqa: E402

SIZES = {"small": (0, 0), "medium": (2_000, 4_000), "large": (20_000, 40_000)}


def size_of(n: int) -> str:
    return "large" if n % 10 == 0 else "medium" if n % 5 == 0 else "small"


def provision(count: int) -> list[dict[str, Any]]:
    from django.db import connection
    from tenancy.models import Tenant
    from tenancy.provisioning import refill_spares
    from tenancy.services import ensure_template, provision_tenant

    ensure_template()
    companies = []
    t0, taken = time.perf_counter(), 0
    for n in range(1, count + 1):
        name = f"Load Co {n:03d}"
        email = f"admin@{tag(n).lower()}.load.test"
        tenant = Tenant.objects.filter(name=name, status=Tenant.Status.ACTIVE).first()
        if tenant is None:
            if not Tenant.objects.filter(status=Tenant.Status.SPARE).exists():
                refill_spares(min(20, count - n + 1))  # what the worker's refill job does, here at once
            tenant, _ = provision_tenant(
                company_name=name, admin_email=email, admin_name=f"Admin {tag(n)}", admin_password=PASSWORD
            )
            taken += 1
        connection.set_schema_to_public()
        companies.append({"n": n, "tag": tag(n), "schema": tenant.schema_name, "admin": email})
    if taken:
        print(
            f"[load] {taken} companies signed up through the spare pool in {time.perf_counter() - t0:.0f} s"
        )
    return companies


def fill(company: dict[str, Any]) -> None:
    """The demo generator in this company, with logins of its own, then every customer marked."""
    from django.db import connection, transaction
    from django.db.models import ProtectedError
    from fueldesk.management.commands import seed_demo
    from tenancy.models import Tenant

    from tenants.accounts.models import User
    from tenants.demo import geo_fleet
    from tenants.parties.management.commands.bench_seed_customers import seed as seed_customers

    label = company["tag"].lower()
    driver = (f"driver@{label}.load.test", "Dave Driver", PASSWORD)
    drivers = [
        (*d[:7], d[7] and d[7].replace("@demo.fueldesk.test", f"@{label}.load.test"))
        for d in geo_fleet.DRIVERS
    ]
    tenant = Tenant.objects.get(schema_name=company["schema"])
    connection.set_tenant(tenant)
    try:
        if User.objects.filter(email=driver[0]).exists():  # filled before (a marked-only company has none)
            documents()
            mark(company["tag"])
            return
        customers, ship_tos = SIZES[company["size"]]
        from tenants.parties.models import Customer

        # A company marked before it was filled holds its marker customer only; the bulk seed wants none.
        try:
            Customer.objects.filter(name=f"Marker [{company['tag']}]").delete()
        except ProtectedError:  # a load run already recorded a payment for it: demo data only
            customers = 0
        if customers:
            seed_customers(customers, ship_tos)
        with (
            mock.patch.object(seed_demo, "DRIVER_LOGIN", driver),
            mock.patch.object(seed_demo, "DEMO_COMPANY", f"Load Co {company['n']:03d}"),
            mock.patch.object(geo_fleet, "DRIVERS", drivers),
            mock.patch.object(geo_fleet, "DEMO_DRIVER_EMAIL", driver[0]),
            transaction.atomic(),
        ):
            seed_demo.Command()._seed()
        documents()
        mark(company["tag"])
    finally:
        connection.set_schema_to_public()


def documents() -> None:
    """Delivery tickets and invoices of the demo's delivered and completed orders, so the load's ticket
    and invoice PDFs have documents to render (the demo generator moves orders through the workflow
    but makes neither). Idempotent: both services refresh what exists."""
    from django.db import transaction

    from tenants.accounts.models import User
    from tenants.delivery.services import generate_tickets
    from tenants.invoicing.services import create_or_update_invoice
    from tenants.sales.models import SalesOrder

    admin = User.objects.filter(role__grants_all=True).order_by("id").first()
    for order in SalesOrder.objects.filter(status__in=["delivered", "completed"]).order_by("id"):
        with transaction.atomic():
            generate_tickets(order=order, split_by_po=False, po_number=None, by=admin)
            create_or_update_invoice(sales_order_id=order.pk, by=admin)


def mark(marker: str) -> None:
    from django.db import connection

    from tenants.parties.models import Customer

    with connection.cursor() as cur:
        cur.execute(
            "UPDATE parties_customer SET name = left(name, 190) || %s WHERE name NOT LIKE %s",
            [f" [{marker}]", f"%[{marker}]"],
        )
    Customer.objects.get_or_create(name=f"Marker [{marker}]", defaults={"account_number": f"MARK-{marker}"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--companies", type=int, default=int(os.environ.get("LOAD_COMPANIES", "200")))
    parser.add_argument("--fill", type=int, default=int(os.environ.get("LOAD_FILL", "50")))
    args = parser.parse_args(argv)
    import django

    django.setup()
    from django.db import connection
    from tenancy.models import Tenant

    companies = provision(args.companies)
    t0 = time.perf_counter()
    for company in companies:
        company["size"] = size_of(company["n"]) if company["n"] <= args.fill else "empty"
        company["filled"] = company["n"] <= args.fill
        if company["filled"]:
            fill(company)
            company["driver"] = f"driver@{company['tag'].lower()}.load.test"
        else:
            connection.set_tenant(Tenant.objects.get(schema_name=company["schema"]))
            mark(company["tag"])
            connection.set_schema_to_public()
    print(f"[load] {args.fill} companies filled / marked in {time.perf_counter() - t0:.0f} s")
    MANIFEST.parent.mkdir(parents=True, exist_ok=True)
    MANIFEST.write_text(json.dumps({"password": PASSWORD, "companies": companies}, indent=1))
    print(f"[load] manifest: {MANIFEST} ({len(companies)} companies, {args.fill} filled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
