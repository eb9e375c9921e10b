"""The generator's directory (suppliers, their aliases, terminals, products) as a tenant's master data."""

from __future__ import annotations

from typing import Any

import pytest

from tenants.billparse.tests.invoicegen import PRODUCTS, SUPPLIERS, TERMINALS


def make_directory() -> dict[str, dict[str, int]]:
    from tenants.catalog.models import Product
    from tenants.parties.models import Supplier, SupplierProductAlias, Terminal

    products = {
        code: Product.objects.create(name=name, code=f"BP-{code}", sold_as="gallon").pk
        for code, name in PRODUCTS.items()
    }
    terminals = {
        t["name"]: Terminal.objects.create(name=t["name"], terminal_code=t["code"]).pk for t in TERMINALS
    }
    suppliers = {}
    for s in SUPPLIERS:
        sup = Supplier.objects.create(name=s["name"], address_one=s["address_one"])
        suppliers[s["name"]] = sup.pk
        for code, (alias, acode) in s["aliases"].items():
            SupplierProductAlias.objects.create(
                supplier=sup, product_id=products[code], alias_name=alias, alias_code=acode
            )
    return {"products": products, "terminals": terminals, "suppliers": suppliers}


@pytest.fixture
def directory_a(tenant_a: Any, in_tenant: Any) -> dict[str, dict[str, int]]:
    with in_tenant(tenant_a):
        return make_directory()
