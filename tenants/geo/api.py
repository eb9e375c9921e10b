from typing import Any

from core.crud import Crud
from core.listing import ListSpec
from ninja import Router

from tenants.geo import selectors
from tenants.geo.models import City, Region, State, Yard
from tenants.geo.schemas import (
    CityIn,
    CityOut,
    CityQuery,
    RegionIn,
    RegionOut,
    StateIn,
    StateOut,
    YardIn,
    YardOut,
    YardQuery,
)

state_router = Router(tags=["state"])
city_router = Router(tags=["city"])
ALL_OPS = ("list", "all", "get", "create", "update", "delete")

Crud(
    router=state_router,
    resource="state",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="State",
    model=State,
    out=StateOut,
    create_in=StateIn,
    path="/states",
    ops=ALL_OPS,
    default_size=100,
    spec=ListSpec(
        search=("name", "code"),
        sort={"name": "name", "code": "code"},
        filters={"name": ("name", "str"), "code": ("code", "str")},
        default_sort="name",
    ),
)


def filter_cities(qs: Any, params: Any) -> Any:
    return qs.filter(state_id=params.state_id) if params.state_id else qs


Crud(
    router=city_router,
    resource="city",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="City",
    plural="Cities",
    model=City,
    out=CityOut,
    create_in=CityIn,
    path="/cities",
    ops=ALL_OPS,
    default_size=100,
    queryset=lambda: City.objects.select_related("state"),
    filters=CityQuery,
    apply_filters=filter_cities,
    spec=ListSpec(
        search=("name", "state__name"),
        sort={"name": "name", "state": "state__name"},
        filters={"name": ("name", "str"), "state_id": ("state_id", "int")},
        default_sort="name",
    ),
)


region_router = Router(tags=["region"])
yard_router = Router(tags=["yard"])

Crud(
    router=region_router,
    resource="region",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="Region",
    model=Region,
    out=RegionOut,
    create_in=RegionIn,
    ops=ALL_OPS,
    default_size=25,
    spec=ListSpec(
        search=("name", "code", "description"),
        sort={"name": "name", "code": "code", "created_at": "created_at"},
        filters={"name": ("name", "str"), "code": ("code", "str")},
        default_sort="name",
    ),
)

Crud(
    router=yard_router,
    resource="yard",
    label="Yard",
    model=Yard,
    out=YardOut,
    create_in=YardIn,
    ops=ALL_OPS,
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    queryset=selectors.yards,
    filters=YardQuery,
    apply_filters=selectors.filter_yards,
    spec=ListSpec(
        search=("name", "code", "address", "zip_code", "city__name", "state__name", "region__name"),
        sort={
            "name": "name",
            "code": "code",
            "city": "city__name",
            "state": "state__name",
            "region": "region__name",
            "is_active": "is_active",
            "created_at": "created_at",
        },
        filters={
            "name": ("name", "str"),
            "code": ("code", "str"),
            "zip_code": ("zip_code", "str"),
            "city": ("city__name", "str"),
            "state": ("state__name", "str"),
            "region": ("region__name", "str"),
            "is_active": ("is_active", "bool"),
        },
        default_sort="name",
    ),
)


routes = [
    ("/state", state_router),
    ("/city", city_router),
    ("/region", region_router),
    ("/yard", yard_router),
]
