"""Small builders shared by the parties tests (through the API, as a user would)."""

from __future__ import annotations

from typing import Any

from conftest import Api

CUSTOMERS = "/api/customer/customers"
SHIP_TOS = "/api/customer-ship-to"
ASSETS = "/api/asset"
CONTACTS = "/api/customer-contact"
SUPPLIERS = "/api/supplier"
TERMINALS = "/api/terminal"
ALIASES = "/api/supplier-product-alias"


def created(res: Any) -> dict:
    assert res.status_code == 201, res.json()
    return res.json()["data"]


def customer(api: Api, name: str = "Acme Construction", **fields: Any) -> dict:
    return created(api.post(CUSTOMERS, {"name": name, **fields}))


def ship_to(api: Api, customer_id: int, name: str = "Main yard", **fields: Any) -> dict:
    return created(api.post(SHIP_TOS, {"customer_id": customer_id, "name": name, **fields}))


def asset(api: Api, ship_to_id: int, name: str = "Tank 1", **fields: Any) -> dict:
    return created(api.post(ASSETS, {"ship_to_id": ship_to_id, "asset_name": name, **fields}))


def product(api: Api, code: str = "ULSD", **fields: Any) -> dict:
    body = {"name": f"Product {code}", "code": code, "sold_as": "gallon", **fields}
    return created(api.post("/api/product/products", body))


def supplier(api: Api, name: str = "Gulf Coast Fuels", **fields: Any) -> dict:
    return created(api.post(SUPPLIERS, {"name": name, **fields}))


def terminal(api: Api, code: str = "T-76-TX-2001", name: str = "Galena Park", **fields: Any) -> dict:
    return created(api.post(TERMINALS, {"name": name, "terminal_code": code, **fields}))


def place(in_tenant: Any, handle: Any, state: str = "TX", city: str = "Houston") -> tuple[int, int]:
    """Ids of a state and one of its cities in the tenant (made when missing)."""
    from tenants.geo.models import City, State

    names = {"TX": "Texas", "OK": "Oklahoma", "LA": "Louisiana"}
    with in_tenant(handle):
        st, _ = State.objects.get_or_create(code=state, defaults={"name": names.get(state, state)})
        ct, _ = City.objects.get_or_create(name=city, state=st)
        return st.pk, ct.pk
