"""The seeded Driver role holds its order and ticket permissions on his own rows only (issue 23).

Existing companies' Driver role had `sales_order.view`, `delivery_ticket.view`, ... over the whole
company; each becomes its own-scoped form (`sales_order.view:own`, core.scoping), in what the role
holds and in what seeding last granted (so topping up does not add the full codes back).
"""

from django.db import migrations

OWN_RESOURCES = ("sales_order", "delivery_ticket")


def _own(codes):
    out = []
    for code in codes:
        if code.split(".")[0] in OWN_RESOURCES and not code.endswith(":own"):
            code = f"{code}:own"
        out.append(code)
    return sorted(set(out))


def _full(codes):
    return sorted({c.removesuffix(":own") if c.split(".")[0] in OWN_RESOURCES else c for c in codes})


def scope_driver_role(apps, schema_editor):
    Role = apps.get_model("accounts", "Role")
    for role in Role.objects.filter(name__iexact="driver", is_system=True):
        role.permissions = _own(role.permissions)
        role.seeded_permissions = _own(role.seeded_permissions)
        role.save(update_fields=["permissions", "seeded_permissions"])


def unscope_driver_role(apps, schema_editor):
    Role = apps.get_model("accounts", "Role")
    for role in Role.objects.filter(name__iexact="driver", is_system=True):
        role.permissions = _full(role.permissions)
        role.seeded_permissions = _full(role.seeded_permissions)
        role.save(update_fields=["permissions", "seeded_permissions"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_role_seeded_permissions")]

    operations = [migrations.RunPython(scope_driver_role, unscope_driver_role)]
