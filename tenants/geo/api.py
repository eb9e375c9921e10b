from typing import Any

from ninja import Router

from core.crud import Crud
from core.listing import ListSpec
from tenants.geo.models import City, State
from tenants.geo.schemas import CityIn, CityOut, CityQuery, StateIn, StateOut

state_router = Router(tags=["state"])
city_router = Router(tags=["city"])
ALL_OPS = ("list", "all", "get", "create", "update", "delete")

Crud(
    router=state_router, resource="state", label="State", model=State, out=StateOut, create_in=StateIn,
    path="/states", ops=ALL_OPS, default_size=100,
    spec=ListSpec(search=("name", "code"), sort={"name": "name", "code": "code"},
                  filters={"name": ("name", "str"), "code": ("code", "str")}, default_sort="name"),
)


def filter_cities(qs: Any, params: Any) -> Any:
    return qs.filter(state_id=params.state_id) if params.state_id else qs


Crud(
    router=city_router, resource="city", label="City", plural="Cities", model=City, out=CityOut, create_in=CityIn,
    path="/cities", ops=ALL_OPS, default_size=100, queryset=lambda: City.objects.select_related("state"),
    filters=CityQuery, apply_filters=filter_cities,
    spec=ListSpec(search=("name", "state__name"), sort={"name": "name", "state": "state__name"},
                  filters={"name": ("name", "str"), "state_id": ("state_id", "int")}, default_sort="name"),
)


routes = [("/state", state_router), ("/city", city_router)]
