from django.core.management.base import BaseCommand
from django.db import connection, transaction
from tenancy.models import Tenant
from tenancy.services import provision_tenant

from tenants.accounts.models import Role, User
from tenants.accounts.roles import DRIVER
from tenants.accounts.services import create_user

DEMO_COMPANY = "Demo Fuel Co"
ADMIN = ("admin@demo.fueldesk.test", "Dana Admin", "DemoAdmin2026")
DRIVER_LOGIN = ("driver@demo.fueldesk.test", "Dave Driver", "DemoDriver2026")
STATES = [
    ("Texas", "TX", ["Houston", "Dallas", "Austin", "San Antonio"]),
    ("Oklahoma", "OK", ["Oklahoma City", "Tulsa"]),
    ("Louisiana", "LA", ["Baton Rouge", "Lafayette", "Shreveport"]),
]


class Command(BaseCommand):
    help = "Create (or refresh) the demo company with an admin and a driver login. Idempotent."

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        connection.set_schema_to_public()
        tenant = Tenant.objects.filter(name=DEMO_COMPANY, status=Tenant.Status.ACTIVE).first()
        if tenant is None:
            tenant, _ = provision_tenant(
                company_name=DEMO_COMPANY, admin_email=ADMIN[0], admin_name=ADMIN[1], admin_password=ADMIN[2]
            )
        connection.set_tenant(tenant)
        try:
            with transaction.atomic():
                self._seed()
        finally:
            connection.set_schema_to_public()
        self.stdout.write(self.style.SUCCESS(f"Demo company: {tenant.name} (schema {tenant.schema_name})"))
        self.stdout.write(f"  Admin login:  {ADMIN[0]} / {ADMIN[2]}")
        self.stdout.write(f"  Driver login: {DRIVER_LOGIN[0]} / {DRIVER_LOGIN[2]}")

    def _seed(self) -> None:
        from tenants.accounts.services import sync_permissions, top_up_system_roles
        from tenants.fleet.models import Driver
        from tenants.geo.models import City, State

        sync_permissions()
        top_up_system_roles()
        for name, code, cities in STATES:
            state, _ = State.objects.get_or_create(code=code, defaults={"name": name})
            for city in cities:
                City.objects.get_or_create(name=city, state=state)
        from tenants.company.models import CompanySettings

        if not CompanySettings.objects.exists():
            texas = State.objects.get(code="TX")
            CompanySettings.objects.create(
                company_name=DEMO_COMPANY,
                address_one="4800 Harrisburg Blvd",
                state=texas,
                city=City.objects.get(name="Houston", state=texas),
                zip_code="77011",
                phone_number="+1 713 555 0142",
                email="office@demofuel.example",
                website_url="https://demofuel.example",
            )
        user = User.objects.filter(email=DRIVER_LOGIN[0]).first()
        if user is None:
            user = create_user(
                email=DRIVER_LOGIN[0],
                name=DRIVER_LOGIN[1],
                password=DRIVER_LOGIN[2],
                role=Role.objects.get(name=DRIVER),
            )
        Driver.objects.get_or_create(
            user=user,
            defaults={"name": user.name, "phone": "+1 555 0100", "email": user.email, "licence_class": "A"},
        )
        try:
            from tenants.demo import seed_master_data  # written by the master-data work; optional until then
        except ImportError:
            return
        seed_master_data()
